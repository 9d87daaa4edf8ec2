// Depth and size limits for untrusted JSON values (venue frames, account data, IPC arguments, adapter files).
// JSON.parse reads any depth (a million nested arrays parse in V8), but JSON.stringify and structured clone recurse
// and overflow the stack somewhere past 4,000 levels: a value accepted deep would fail later, when a batch or a
// reply is serialised. So a value is measured, and trimmed or refused, where it arrives. Both walks here are
// iterative (an explicit stack, never recursion) and bounded by `maxNodes`, whatever the value's shape.

export interface JsonLimits {
  /** Nested containers: a scalar is 0 deep, `{}` is 1, `{"a":[]}` is 2. */
  maxDepth: number
  /** Keys of one object, or items of one array. */
  maxItems: number
  /** Characters of one string (an object key included). */
  maxString: number
  /** Values in all (containers and scalars), the root included. */
  maxNodes: number
}

/**
 * 32 levels is several times what any venue's frame or any call's argument nests (a book level inside a frame's
 * data list is 4 or 5), and far below where serialising fails. 10,000 items per node and 100,000 values in all
 * exceed the largest legitimate call (5,000 interests, 20,000 values) and any account update; 16,384 characters
 * per string keeps a status message or a note whole.
 */
export const JSON_LIMITS: Readonly<JsonLimits> = Object.freeze({
  maxDepth: 32,
  maxItems: 10_000,
  maxString: 16_384,
  maxNodes: 100_000,
})

export type JsonLimitReason =
  | 'too deep'
  | 'too many items'
  | 'string too long'
  | 'too many values'
  /** Reading it threw (a getter or proxy, which no parsed JSON has): it could not be serialised either. */
  | 'unreadable'

/** Where a limit was broken and which: `path` leads from the root to the container or string at fault. */
export interface JsonLimitProblem {
  reason: JsonLimitReason
  path: (string | number)[]
  /** One line naming the limit, e.g. `nested deeper than 32 levels at data.a.a`. */
  message: string
}

export interface LimitedJson {
  /** The value itself when it is within the limits (no copy), else a trimmed copy. */
  value: unknown
  /** What was trimmed, each reason once; empty when the value is returned as it was. */
  trimmed: JsonLimitReason[]
}

/** What replaces a container nested too deep, or the values past `maxNodes`. */
export const TRIMMED_DEEP = '[trimmed: too deep]'
export const TRIMMED_VALUES = '[trimmed: too many values]'
/** What replaces a whole value that throws when read. */
export const TRIMMED_UNREADABLE = '[trimmed: unreadable]'
/** The key of the entry that stands for an object's keys past `maxItems`. */
export const TRIMMED_KEY = '[trimmed]'
const TRIMMED_STRING = '…[trimmed: string too long]'

function withDefaults(limits: Partial<JsonLimits> | undefined): JsonLimits {
  return limits === undefined ? JSON_LIMITS : { ...JSON_LIMITS, ...limits }
}

type Container = Record<string, unknown> | unknown[]

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null
}

/** A path as a linked list, built only when a caller asks where the problem is. */
interface PathLink {
  parent: PathLink | null
  key: string | number
}

function pathOf(link: PathLink | null): (string | number)[] {
  const out: (string | number)[] = []
  for (let l = link; l !== null; l = l.parent) out.push(l.key)
  return out.reverse()
}

function describe(reason: JsonLimitReason, limits: JsonLimits, path: (string | number)[]): string {
  const what =
    reason === 'too deep'
      ? `nested deeper than ${limits.maxDepth} levels`
      : reason === 'too many items'
        ? `a list or object with more than ${limits.maxItems} entries`
        : reason === 'string too long'
          ? `a string longer than ${limits.maxString} characters`
          : reason === 'too many values'
            ? `more than ${limits.maxNodes} values`
            : 'a value that cannot be read'
  if (path.length === 0) return what
  // A 10,000-deep path says no more than its ends do.
  const shown =
    path.length <= 8 ? path.join('.') : `${path.slice(0, 3).join('.')}.….${path.slice(-2).join('.')}`
  return `${what} at ${shown}`
}

/**
 * The first limit `value` breaks, or null. Stops at the first problem, so a hostile value costs at most
 * `maxNodes` steps. `withPath: false` skips building the path (the hot path only needs a yes or no).
 */
export function jsonLimitProblem(
  value: unknown,
  limits?: Partial<JsonLimits>,
  withPath = true,
): JsonLimitProblem | null {
  const l = withDefaults(limits)
  try {
    return measure(value, l, withPath)
  } catch {
    return { reason: 'unreadable', path: [], message: describe('unreadable', l, []) }
  }
}

function measure(value: unknown, l: JsonLimits, withPath: boolean): JsonLimitProblem | null {
  const problem = (reason: JsonLimitReason, link: PathLink | null): JsonLimitProblem => {
    const path = pathOf(link)
    return { reason, path, message: describe(reason, l, path) }
  }
  if (typeof value === 'string') return value.length > l.maxString ? problem('string too long', null) : null
  if (!isContainer(value)) return null
  if (l.maxDepth < 1) return problem('too deep', null)
  const values: Container[] = [value]
  const depths: number[] = [1]
  const links: (PathLink | null)[] = [null]
  let nodes = 1
  while (values.length > 0) {
    const v = values.pop() as Container
    const depth = depths.pop() as number
    const link = links.pop() as PathLink | null
    const keys = Array.isArray(v) ? null : Object.keys(v)
    const length = keys === null ? (v as unknown[]).length : keys.length
    if (length > l.maxItems) return problem('too many items', link)
    if ((nodes += length) > l.maxNodes) return problem('too many values', link)
    for (let i = 0; i < length; i++) {
      const key = keys === null ? i : (keys[i] as string)
      const here = withPath ? { parent: link, key } : null
      if (typeof key === 'string' && key.length > l.maxString) return problem('string too long', here)
      const child = (v as Record<string | number, unknown>)[key]
      if (typeof child === 'string') {
        if (child.length > l.maxString) return problem('string too long', here)
      } else if (isContainer(child)) {
        if (depth + 1 > l.maxDepth) return problem('too deep', here)
        values.push(child)
        depths.push(depth + 1)
        links.push(here)
      }
    }
  }
  return null
}

function trimString(s: string, max: number): string {
  return s.slice(0, Math.max(0, max - TRIMMED_STRING.length)) + TRIMMED_STRING
}

/** Sets an own data property, `__proto__` included (a parsed frame may carry that key; assignment would not copy it). */
function put(target: Container, key: string | number, value: unknown): void {
  if (Array.isArray(target)) target.push(value)
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * `value` within the limits: the value itself when it already is (measured, not copied), else a copy with
 * every container past `maxDepth` replaced by TRIMMED_DEEP, the entries past `maxItems` by one marker entry,
 * long strings cut with a marker at their end, and the values past `maxNodes` left out with a marker. The copy
 * holds only plain objects, arrays and scalars, so it always serialises.
 */
export function limitJson(value: unknown, limits?: Partial<JsonLimits>): LimitedJson {
  const l = withDefaults(limits)
  const problem = jsonLimitProblem(value, l, false)
  if (problem === null) return { value, trimmed: [] }
  if (problem.reason === 'unreadable') return { value: TRIMMED_UNREADABLE, trimmed: ['unreadable'] }
  try {
    return trim(value, l)
  } catch {
    return { value: TRIMMED_UNREADABLE, trimmed: ['unreadable'] }
  }
}

function trim(value: unknown, l: JsonLimits): LimitedJson {
  const reasons = new Set<JsonLimitReason>()
  if (typeof value === 'string')
    return { value: trimString(value, l.maxString), trimmed: ['string too long'] }
  if (!isContainer(value)) return { value, trimmed: [] }
  if (l.maxDepth < 1) return { value: TRIMMED_DEEP, trimmed: ['too deep'] }
  const root: Container = Array.isArray(value) ? [] : {}
  const sources: Container[] = [value]
  const targets: Container[] = [root]
  const depths: number[] = [1]
  let nodes = 1
  let full = false
  while (sources.length > 0) {
    const src = sources.pop() as Container
    const dst = targets.pop() as Container
    const depth = depths.pop() as number
    const keys = Array.isArray(src) ? null : Object.keys(src)
    if (full) {
      // Emptied when the budget ran out before its turn: say so rather than show an empty container.
      put(dst, keys === null ? 0 : TRIMMED_KEY, TRIMMED_VALUES)
      continue
    }
    const length = keys === null ? (src as unknown[]).length : keys.length
    const count = Math.min(length, l.maxItems)
    let i = 0
    for (; i < count; i++) {
      if (nodes >= l.maxNodes) {
        full = true
        reasons.add('too many values')
        put(dst, keys === null ? i : TRIMMED_KEY, TRIMMED_VALUES)
        break
      }
      nodes++
      const key = keys === null ? i : (keys[i] as string)
      let name = key
      if (typeof key === 'string' && key.length > l.maxString) {
        reasons.add('string too long')
        name = trimString(key, l.maxString)
      }
      const child = (src as Record<string | number, unknown>)[key]
      if (typeof child === 'string' && child.length > l.maxString) {
        reasons.add('string too long')
        put(dst, name, trimString(child, l.maxString))
      } else if (isContainer(child)) {
        if (depth + 1 > l.maxDepth) {
          reasons.add('too deep')
          put(dst, name, TRIMMED_DEEP)
          continue
        }
        const copy: Container = Array.isArray(child) ? [] : {}
        put(dst, name, copy)
        sources.push(child)
        targets.push(copy)
        depths.push(depth + 1)
      } else put(dst, name, child)
    }
    if (i === count && length > count) {
      reasons.add('too many items')
      const more = `[trimmed: ${length - count} more ${keys === null ? 'items' : 'keys'}]`
      put(dst, keys === null ? count : TRIMMED_KEY, more)
    }
  }
  return { value: root, trimmed: [...reasons] }
}
