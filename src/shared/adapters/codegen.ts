// The hot path of an adapter as one generated function. The closures of compile.ts read any adapter, but every
// frame then makes a few dozen calls through closures shared by all adapters, whose property reads and calls
// V8 cannot specialise: on the simulator's adapter that cost 0.4 µs a frame in the engine. For the common
// shapes (a rule decided by plain field tests, building one book of plain [p, s] lists or one trade from plain
// fields) this writes the same logic as straight-line code with the field names as literals, and calls the
// compiled closures for everything else. The only text from an adapter file that reaches the code is field
// names and test values, each through JSON.stringify (a JS literal); anything else it is given is refused, and
// the closures are used. Where code generation is disallowed, the closures are used too.
import type { Update } from '../model'
import type { AdapterSpec, EmitSpec, NumSpec, RuleSpec, SideSpec, TestSpec, TsSpec } from './schema'

/** What the generated code calls: the compiled closures (for what it does not generate) and value readers. */
export interface CodegenHelpers {
  detect: (frame: unknown) => boolean
  /** Each rule's `when` and `run` as compiled closures. */
  when: ((frame: unknown) => boolean)[]
  run: ((frame: unknown, out: Update[], reasons: string[]) => void)[]
  num: (v: unknown) => number | undefined
  idString: (v: unknown) => string | undefined
  validPairs: (list: unknown, relative: boolean) => boolean
}

export type GeneratedDecode = (frame: unknown, out: Update[], reasons: string[]) => number

const SIMPLE_KEY = /^[^$^.][^.]*$/

/** A plain key of the frame object (no path, no position), as a JS expression on `o`, or null. */
function field(path: string | undefined): string | null {
  if (path === undefined || !SIMPLE_KEY.test(path) || /^-?\d+$/.test(path)) return null
  if (path in Object.prototype || path === '__proto__') return null
  return `o[${JSON.stringify(path)}]`
}

function literal(v: unknown): string | null {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v)
  if (typeof v === 'number' && Number.isFinite(v)) return JSON.stringify(v)
  return null
}

/** A test as a JS condition on `o` (the frame object), or null when it is not one of the plain forms. */
function testCode(t: TestSpec): string | null {
  if (t.lookup !== undefined) return null
  if (t.any !== undefined || t.all !== undefined) {
    if (t.path !== undefined || t.not === true) return null
    const parts = (t.any ?? t.all ?? []).map(testCode)
    if (parts.some((p) => p === null)) return null
    return `(${parts.join(t.any !== undefined ? ' || ' : ' && ')})`
  }
  const get = field(t.path)
  if (get === null) return null
  const conditions = Object.keys(t).filter((k) => k !== 'path' && k !== 'not')
  if (conditions.length !== 1) return null
  let code: string | null = null
  if (t.equals !== undefined) {
    const v = literal(t.equals)
    code = v === null ? null : `${get} === ${v}`
  } else if (t.in !== undefined && t.in.length <= 8) {
    const vs = t.in.map(literal)
    code = vs.some((v) => v === null) ? null : `(${vs.map((v) => `${get} === ${v as string}`).join(' || ')})`
  } else if (t.exists !== undefined) {
    code = `((${get} !== undefined && ${get} !== null) === ${t.exists})`
  } else if (t.type === 'string' || t.type === 'number' || t.type === 'boolean') {
    code = `typeof ${get} === ${JSON.stringify(t.type)}`
  }
  if (code === null) return null
  return t.not === true ? `!(${code})` : `(${code})`
}

function numCode(n: NumSpec | undefined): string | null {
  if (typeof n !== 'string') return null
  const get = field(n)
  return get === null ? null : `H.num(${get})`
}

function sideCode(s: SideSpec | undefined): string | null {
  if (s === undefined) return 'null'
  if (Array.isArray(s)) return null
  if (s.value !== undefined) return JSON.stringify(s.value)
  if (s.sign !== undefined || s.map === undefined) return null
  const get = field(s.path)
  if (get === null) return null
  // A map's keys are the value's text: a string as it is, a number or boolean as JSON writes it.
  let code = 'null'
  for (const [k, v] of Object.entries(s.map).reverse()) {
    if (v === null) continue
    code = `(k === ${JSON.stringify(k)} ? ${JSON.stringify(v)} : ${code})`
  }
  return `((v) => { const k = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined; return ${code} })(${get})`
}

function tsCode(t: TsSpec | undefined): string | null {
  if (t === undefined) return 'null'
  if (typeof t === 'string' || Array.isArray(t) || t.unit !== 'ms') return null
  const get = field(t.path)
  return get === null
    ? null
    : `((v) => v === undefined || !Number.isFinite(v) || v <= 0 ? null : Math.round(v))(H.num(${get}))`
}

function marketCode(m: unknown): string | null {
  if (m === undefined) return 'null'
  if (typeof m !== 'string') return null
  const get = field(m)
  return get === null ? null : `(H.idString(${get}) ?? null)`
}

/** The emit as straight-line code that pushes one update and returns, or null when it is not a plain one. */
function emitCode(e: EmitSpec, i: number, ruleMarket: unknown): string | null {
  if (e.each !== undefined || (e.where !== undefined && e.where.length > 0)) return null
  const market = marketCode(e.market ?? ruleMarket)
  if (market === null) return null
  if (e.kind === 'book') {
    if (e.levels !== undefined || e.bids === undefined || e.asks === undefined || e.prevSeq !== undefined)
      return null
    for (const side of [e.bids, e.asks]) {
      const plain =
        side.shape === 'pairs' &&
        typeof side.path === 'string' &&
        side.price === undefined &&
        side.size === undefined &&
        side.side === undefined &&
        side.remove === undefined &&
        side.skip === undefined &&
        side.id === undefined &&
        side.one !== true
      if (!plain) return null
    }
    const bids = field(e.bids.path as string)
    const asks = field(e.asks.path as string)
    const snapshot = typeof e.snapshot === 'boolean' ? String(e.snapshot) : testCode(e.snapshot)
    const seq = e.seq === undefined ? 'undefined' : numCode(e.seq)
    if (bids === null || asks === null || snapshot === null || seq === null) return null
    // Levels that need a look (not plain pairs) go to the compiled rule, which says why they are unusable.
    return `{
      const snap = ${snapshot}
      const rel = ${e.relative === true} && !snap
      const lb = ${bids}
      const la = ${asks}
      if (!H.validPairs(lb, rel) || !H.validPairs(la, rel)) { H.run[${i}](frame, out, reasons); return ${i} }
      const u = { kind: 'book', market: ${market}, snapshot: snap, bids: lb, asks: la }
      const q = ${seq}
      if (q !== undefined && Number.isFinite(q)) u.seq = q
      if (rel) u.relative = true${e.outcome === 'no' ? "\n      u.outcome = 'no'" : ''}
      out.push(u)
      return ${i}
    }`
  }
  if (e.kind === 'trade') {
    const price = numCode(e.price)
    const size = numCode(e.size)
    const side = sideCode(e.side)
    const ts = tsCode(e.ts)
    const id = e.id === undefined ? 'undefined' : field(e.id)
    // A trade's contract (a mapped text) is left to the compiled closure.
    if (e.outcome !== undefined) return null
    if (price === null || size === null || side === null || ts === null || id === null) return null
    return `{
      const p = ${price}
      const z = ${size}
      if (p === undefined || !Number.isFinite(p) || z === undefined || !Number.isFinite(z) || z < 0) {
        H.run[${i}](frame, out, reasons)
        return ${i}
      }
      const u = { kind: 'trade', market: ${market}, price: p, size: z, side: ${side}, ts: ${ts} }
      const id = ${e.id === undefined ? 'undefined' : `H.idString(${id})`}
      if (id !== undefined) u.id = id
      out.push(u)
      return ${i}
    }`
  }
  return null
}

function ruleCode(r: RuleSpec, i: number): string {
  const tests = r.when.map(testCode)
  const when =
    tests.length === 0 ? 'true' : tests.every((t) => t !== null) ? tests.join(' && ') : `H.when[${i}](frame)`
  const only = r.each === undefined && r.emit.length === 1 ? (r.emit[0] as EmitSpec) : null
  const body = only !== null ? emitCode(only, i, r.market) : null
  return `if (${when}) ${body ?? `{ H.run[${i}](frame, out, reasons); return ${i} }`}`
}

/** The adapter's `detect` as one function, or null when it is not made of plain tests. */
export function generateDetect(spec: AdapterSpec): ((frame: unknown) => boolean) | null {
  const cond = testCode(spec.detect)
  if (cond === null) return null
  try {
    const make = new Function(
      'EMPTY',
      `return function detect(frame) {
        const o = typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? frame : EMPTY
        return ${cond}
      }`,
    ) as (empty: object) => (frame: unknown) => boolean
    return make(EMPTY)
  } catch {
    return null
  }
}

const EMPTY: object = Object.freeze(Object.create(null) as object)

/**
 * The adapter's decode as one function of (frame, out, reasons) returning the matching rule's index or -1
 * (the caller guards it against throwing getters and maps the index to the rule's name). null when code cannot
 * be generated here.
 */
export function generateDecode(spec: AdapterSpec, helpers: CodegenHelpers): GeneratedDecode | null {
  const rules = spec.rules.map(ruleCode).join('\n')
  const source = `
    return function decode(frame, out, reasons) {
      const o = typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? frame : EMPTY
      ${rules}
      return -1
    }`
  try {
    const make = new Function('H', 'EMPTY', source) as (h: CodegenHelpers, empty: object) => GeneratedDecode
    return make(helpers, EMPTY)
  } catch {
    return null
  }
}
