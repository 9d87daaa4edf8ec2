// JSON paths compiled once into getters, so decoding a frame never parses a path. A getter reads from the
// current item; `up` holds the items around it, outermost (the frame) first, and is empty at the frame itself.
import { isObj } from '../decode/values'

export type Getter = (cur: unknown, up: readonly unknown[]) => unknown

interface Step {
  key: string
  /** Set when the segment is an integer: a position in an array (negative counts from the end). */
  index: number | null
  /** The key names something every object inherits, so a plain read could find it on the prototype. */
  inherited: boolean
}

function stepOf(seg: string): Step {
  const index = /^-?\d+$/.test(seg) ? Number(seg) : null
  return { key: seg, index, inherited: INHERITED.has(seg) || seg === '__proto__' }
}

/** A segment that reads an own key of an object: neither a position in an array nor a key every object inherits. */
export function plainKey(seg: string): boolean {
  const s = stepOf(seg)
  return s.index === null && !s.inherited
}

/** Keys an object can inherit (`constructor`, `toString`, ...): only these need an own-property check. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype))

function step(v: unknown, s: Step): unknown {
  if (Array.isArray(v)) {
    if (s.index === null) return undefined
    const i = s.index < 0 ? v.length + s.index : s.index
    return i >= 0 && i < v.length ? v[i] : undefined
  }
  if (!isObj(v)) return undefined
  if (s.inherited && !Object.prototype.hasOwnProperty.call(v, s.key)) return undefined
  return v[s.key]
}

const keyGetters = new Map<string, Getter>()

/**
 * One key of the current item: the read every rule makes, on every frame. Generated as its own function with the
 * key as a literal, so each has its own inline cache: a closure shared by every key would make that property
 * read megamorphic, which measured ~70 ns more per frame on the simulator's adapter. The only text that reaches
 * the generated code is the key through JSON.stringify, a string literal; where code generation is disallowed,
 * the closure is used.
 */
function keyGetter(key: string): Getter {
  const cached = keyGetters.get(key)
  if (cached !== undefined) return cached
  let g: Getter
  try {
    g = new Function(
      'cur',
      `return typeof cur === 'object' && cur !== null && !Array.isArray(cur) ? cur[${JSON.stringify(key)}] : undefined`,
    ) as Getter
  } catch {
    // JSON objects have only own keys besides the prototype's, which inherited keys are checked for elsewhere.
    g = (cur) =>
      typeof cur === 'object' && cur !== null && !Array.isArray(cur)
        ? (cur as Record<string, unknown>)[key]
        : undefined
  }
  if (keyGetters.size < 10_000) keyGetters.set(key, g)
  return g
}

/** Compiles a path (validated by the schema) into a getter. */
export function compilePath(path: string): Getter {
  let rest = path
  let base: 'cur' | 'root' | number = 'cur'
  if (rest.startsWith('$')) {
    base = 'root'
    rest = rest.slice(1)
  } else if (rest.startsWith('^')) {
    let n = 0
    while (rest[n] === '^') n++
    base = n
    rest = rest.slice(n)
  }
  if (rest.startsWith('.')) rest = rest.slice(1)
  const steps = rest === '' ? [] : rest.split('.').map(stepOf)
  const from: Getter =
    base === 'cur'
      ? (cur) => cur
      : base === 'root'
        ? (cur, up) => (up.length > 0 ? up[0] : cur)
        : (_cur, up) => (up.length - base >= 0 ? up[up.length - base] : undefined)
  if (steps.length === 0) return from
  if (steps.length === 1) {
    const [a] = steps as [Step]
    if (base === 'cur') {
      // The common case on the hot path: one key of the item itself.
      if (a.index === null && !a.inherited) return keyGetter(a.key)
      return (cur) => step(cur, a)
    }
    return (cur, up) => step(from(cur, up), a)
  }
  if (steps.length === 2) {
    const [a, b] = steps as [Step, Step]
    return (cur, up) => step(step(from(cur, up), a), b)
  }
  return (cur, up) => {
    let v = from(cur, up)
    for (const s of steps) {
      if (v === undefined) return undefined
      v = step(v, s)
    }
    return v
  }
}
