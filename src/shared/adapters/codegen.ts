// The hot path of an adapter as one generated function. The closures of compile.ts read any adapter, but every
// frame then makes a few dozen calls through closures shared by all adapters, whose property reads and calls
// V8 cannot specialise: on the simulator's adapter that cost 0.4 µs a frame in the engine. For the common
// shapes (rules decided by plain field tests; books of plain [p, s] lists or of {price, size} objects, trades,
// tickers and infos read from plain fields, with scales and complements, maps and alternatives; several emits
// to a rule, each with its own `where`) this writes the same logic as straight-line code with the field names
// as literals, and calls the compiled closures for everything else: per emit, and for any item the happy path
// cannot use, so that the closures alone say why an item is unusable. The only text from an adapter file that
// reaches the code is field names and values (test values, map words, numbers, topics), each through
// JSON.stringify (a JS literal); a field name that could reach something else than the frame's own data (an
// inherited key, a position, `$`, `^`) is refused, and the closures are used. Where code generation is
// disallowed, the closures are used too.
import type { Update } from '../model'
import type {
  AdapterSpec,
  EmitSpec,
  LevelsSpec,
  NumSpec,
  OutcomeSpec,
  RuleSpec,
  SideSpec,
  TestSpec,
  TsSpec,
} from './schema'
import { plainKey } from './paths'

/** What the generated code calls: the compiled closures (for what it does not generate) and value readers. */
export interface CodegenHelpers {
  /** Each rule's `when` and `run` as compiled closures. */
  when: ((frame: unknown) => boolean)[]
  run: ((frame: unknown, out: Update[], reasons: string[]) => void)[]
  /** Each rule's emits as compiled closures on the frame, given the rule's market: true when one applied. */
  emit: ((frame: unknown, market: string | null, out: Update[], reasons: string[]) => boolean)[][]
  /** What the compiled rule writes when none of its emits applies to the frame. */
  none: ((frame: unknown, out: Update[], reasons: string[]) => void)[]
  /** What the compiled rule writes when reading the frame threw (`before`: the length of `out` before it). */
  fail: (rule: number, frame: unknown, out: Update[], reasons: string[], before: number, e: unknown) => void
  num: (v: unknown) => number | undefined
  idString: (v: unknown) => string | undefined
  tsMs: (v: unknown) => number | null
  round10: (x: number) => number
  validPairs: (list: unknown, relative: boolean) => boolean
}

export type GeneratedDecode = (frame: unknown, out: Update[], reasons: string[]) => number

/** Per rule, whether its `when` and each of its emits run as generated code or as the compiled closures. */
export interface RuleCoverage {
  rule: string
  when: 'generated' | 'closure'
  emits: ('generated' | 'closure')[]
}

/**
 * A path of plain keys (`a.b.c`) read from the object expression `base` (an object, or EMPTY), or null. Each step
 * past the first goes through `ob`, which gives EMPTY for anything that is not a plain object, as the closures'
 * getters give undefined.
 */
function pathCode(path: string | undefined, base: string): string | null {
  if (path === undefined || path === '' || path.length > 200) return null
  const keys = path.split('.')
  let code = base
  for (const [n, k] of keys.entries()) {
    // An inherited key could find the prototype's; the closures check those.
    if (k === '' || !plainKey(k) || k.startsWith('$') || k.startsWith('^')) return null
    code = `${n === 0 ? code : `ob(${code})`}[${JSON.stringify(k)}]`
  }
  return code
}

function literal(v: unknown): string | null {
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return JSON.stringify(v)
  if (typeof v === 'number' && Number.isFinite(v)) return JSON.stringify(v)
  return null
}

const TYPE_TESTS: Record<string, (get: string) => string> = {
  string: (g) => `typeof ${g} === "string"`,
  number: (g) => `typeof ${g} === "number"`,
  boolean: (g) => `typeof ${g} === "boolean"`,
  object: (g) => `ob(${g}) !== EMPTY`,
  array: (g) => `Array.isArray(${g})`,
  null: (g) => `${g} === null`,
}

/** A test as a JS condition on `base`, or null when it is not one of the plain forms. */
function testCode(t: TestSpec, base: string): string | null {
  if (t.lookup !== undefined) return null
  if (t.any !== undefined || t.all !== undefined) {
    if (t.path !== undefined || t.not === true || (t.any !== undefined && t.all !== undefined)) return null
    const parts = (t.any ?? t.all ?? []).map((x) => testCode(x, base))
    if (parts.some((p) => p === null)) return null
    return `(${parts.join(t.any !== undefined ? ' || ' : ' && ')})`
  }
  const get = pathCode(t.path, base)
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
    // `!= null`: neither undefined nor null, in one read.
    code = t.exists ? `${get} != null` : `${get} == null`
  } else if (t.type !== undefined) {
    const make = TYPE_TESTS[t.type]
    code = make === undefined ? null : make(get)
  }
  if (code === null) return null
  return t.not === true ? `!(${code})` : `(${code})`
}

function allCode(tests: readonly TestSpec[] | undefined, base: string): string | null {
  if (tests === undefined || tests.length === 0) return 'true'
  const parts = tests.map((t) => testCode(t, base))
  return parts.some((p) => p === null) ? null : parts.join(' && ')
}

/** Alternatives: the first that finds something. Every part gives undefined or null for nothing, never both. */
function firstCode(parts: (string | null)[]): string | null {
  if (parts.some((p) => p === null)) return null
  return parts.length === 1 ? (parts[0] as string) : parts.map((p) => `(${p as string})`).join(' ?? ')
}

function numCode(n: NumSpec | undefined, base: string): string | null {
  if (n === undefined) return null
  return firstCode(
    (Array.isArray(n) ? n : [n]).map((p) => {
      if (typeof p === 'string') {
        const get = pathCode(p, base)
        return get === null ? null : `num(${get})`
      }
      if (p.value !== undefined) return literal(p.value)
      const get = pathCode(p.path, base)
      if (get === null) return null
      const steps: string[] = []
      if (p.scale !== undefined) steps.push(`n = r10(n * ${JSON.stringify(p.scale)})`)
      if (p.complement === true) steps.push('n = r10(1 - n)')
      if (p.invert === true) steps.push('n = n === 0 ? NaN : r10(1 / n)')
      if (p.abs === true) steps.push('n = Math.abs(n)')
      if (p.offset !== undefined) steps.push(`n += ${JSON.stringify(p.offset)}`)
      if (steps.length === 0) return `num(${get})`
      return `((n) => { if (n === undefined || Number.isNaN(n)) return n; ${steps.join('; ')}; return n })(num(${get}))`
    }),
  )
}

/** A side or an outcome: a constant, a value's text through a map, or (sides) a number's sign. */
function choiceCode(
  spec: {
    path?: string | undefined
    map?: Record<string, string | null> | undefined
    value?: string | undefined
    sign?: string | undefined
  },
  base: string,
): string | null {
  if (spec.sign !== undefined && spec.value === undefined) {
    const get = pathCode(spec.sign, base)
    return get === null
      ? null
      : `((n) => n === undefined || !Number.isFinite(n) || n === 0 ? null : n > 0 ? "buy" : "sell")(num(${get}))`
  }
  if (spec.value !== undefined) return JSON.stringify(spec.value)
  const get = pathCode(spec.path, base)
  if (get === null || spec.map === undefined) return null
  // A map's keys are the value's text: a string as it is, a number or boolean as JSON writes it.
  let code = 'null'
  for (const [k, v] of Object.entries(spec.map).reverse()) {
    if (v === null) continue
    code = `(k === ${JSON.stringify(k)} ? ${JSON.stringify(v)} : ${code})`
  }
  return `((v) => { const k = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined; return ${code} })(${get})`
}

function choicesCode(spec: SideSpec | OutcomeSpec | undefined, base: string): string | null {
  if (spec === undefined) return 'null'
  return firstCode((Array.isArray(spec) ? spec : [spec]).map((p) => choiceCode(p, base)))
}

function tsCode(t: TsSpec | undefined, base: string): string | null {
  if (t === undefined) return 'null'
  return firstCode(
    (Array.isArray(t) ? t : [t]).map((p) => {
      const o = typeof p === 'string' ? { path: p, unit: 'auto' as const } : p
      const get = pathCode(o.path, base)
      const factor = { s: 1000, ms: 1, us: 1e-3, ns: 1e-6 }[o.unit as string]
      if (get === null) return null
      if (o.unit === undefined || o.unit === 'auto') return `tsMs(${get})`
      if (factor === undefined) return null
      return `((n) => { if (n === undefined || !Number.isFinite(n) || n <= 0) return null; const ms = Math.round(n * ${factor}); return Number.isFinite(ms) ? ms : null })(num(${get}))`
    }),
  )
}

function marketCode(m: unknown, base: string): string | null {
  if (typeof m !== 'string') return null
  const get = pathCode(m, base)
  return get === null ? null : `(ids(${get}) ?? null)`
}

/** Whether a side's levels can be read here: one path, [p, s] pairs as they are or objects of plain fields. */
function levelsPlain(side: LevelsSpec): boolean {
  return (
    typeof side.path === 'string' &&
    side.side === undefined &&
    side.remove === undefined &&
    side.skip === undefined &&
    side.id === undefined &&
    side.one !== true
  )
}

const isPairs = (side: LevelsSpec): boolean =>
  side.shape === 'pairs' && side.price === undefined && side.size === undefined

/** Statements filling `into` from the list `list`, clearing `ok` on a level the closures must look at. */
function objectLevelsCode(side: LevelsSpec, list: string, into: string): string | null {
  if (side.shape !== 'objects') return null
  const price = numCode(side.price ?? 'price', 'lo')
  const size = numCode(side.size ?? 'size', 'lo')
  if (price === null || size === null) return null
  return `if (${list} !== undefined && ${list} !== null) {
        if (!Array.isArray(${list})) ok = false
        else for (let k = 0; ok && k < ${list}.length; k++) {
          const lo = ob(${list}[k])
          const p = ${price}
          const z = ${size}
          if (p === undefined || !Number.isFinite(p) || z === undefined || !Number.isFinite(z) || (!rel && z < 0)) ok = false
          else ${into}.push([p, z])
        }
      }`
}

/**
 * The emit's update built from the frame and pushed, as statements run once its `where` holds, or null when it
 * is not one of the plain forms. `fallback` is the compiled emit: anything the happy path cannot use goes there.
 */
function buildCode(e: EmitSpec, market: string, fallback: string): string | null {
  if (e.kind === 'book') {
    if (e.levels !== undefined || e.bids === undefined || e.asks === undefined) return null
    if (!levelsPlain(e.bids) || !levelsPlain(e.asks)) return null
    const lb = pathCode(e.bids.path as string, 'o')
    const la = pathCode(e.asks.path as string, 'o')
    const snapshot = typeof e.snapshot === 'boolean' ? String(e.snapshot) : testCode(e.snapshot, 'o')
    const seq = e.seq === undefined ? 'undefined' : numCode(e.seq, 'o')
    const prevSeq = e.prevSeq === undefined ? 'undefined' : numCode(e.prevSeq, 'o')
    if (lb === null || la === null || snapshot === null || seq === null || prevSeq === null) return null
    let fill: string | null
    if (isPairs(e.bids) && isPairs(e.asks)) {
      // As the closures: two valid [p, s] lists are the update's own.
      fill = `if (validPairs(lb, rel) && validPairs(la, rel)) { b = lb; a = la } else ok = false`
    } else {
      const fb = isPairs(e.bids)
        ? `if (validPairs(lb, rel)) for (const l of lb) b.push(l); else ok = false`
        : objectLevelsCode(e.bids, 'lb', 'b')
      const fa = isPairs(e.asks)
        ? `if (ok && validPairs(la, rel)) for (const l of la) a.push(l); else ok = false`
        : objectLevelsCode(e.asks, 'la', 'a')
      fill = fb === null || fa === null ? null : `${fb}\n      if (ok) { ${fa} }`
    }
    if (fill === null) return null
    return `const snap = ${snapshot}
      const rel = ${e.relative === true} && !snap
      const lb = ${lb}
      const la = ${la}
      let b = []
      let a = []
      let ok = true
      ${fill}
      if (!ok) ${fallback}
      else {
        const u = { kind: "book", market: ${market}, snapshot: snap, bids: b, asks: a }
        const q = ${seq}
        if (q !== undefined && Number.isFinite(q)) u.seq = q
        const pq = ${prevSeq}
        if (pq !== undefined && Number.isFinite(pq)) u.prevSeq = pq
        if (rel) u.relative = true${e.outcome !== undefined ? `\n        u.outcome = ${JSON.stringify(e.outcome)}` : ''}
        out.push(u)
      }`
  }
  if (e.kind === 'trade') {
    const price = numCode(e.price, 'o')
    const size = numCode(e.size, 'o')
    const side = choicesCode(e.side, 'o')
    const ts = tsCode(e.ts, 'o')
    const id = e.id === undefined ? 'undefined' : pathCode(e.id, 'o')
    const outcome = e.outcome === undefined ? 'null' : choicesCode(e.outcome, 'o')
    if (price === null || size === null || side === null || ts === null || id === null || outcome === null)
      return null
    return `const p = ${price}
      const z = ${size}
      if (p === undefined || !Number.isFinite(p) || z === undefined || !Number.isFinite(z) || z < 0) ${fallback}
      else {
        const u = { kind: "trade", market: ${market}, price: p, size: z, side: ${side}, ts: ${ts} }
        const id = ${e.id === undefined ? 'undefined' : `ids(${id})`}
        if (id !== undefined) u.id = id
        const oc = ${outcome}
        if (oc !== null) u.outcome = oc
        out.push(u)
      }`
  }
  if (e.kind === 'ticker') {
    const keys = (['bid', 'ask', 'last', 'chance', 'volume', 'liquidity'] as const).filter(
      (k) => e[k] !== undefined,
    )
    const reads = keys.map((k) => numCode(e[k], 'o'))
    if (reads.some((r) => r === null)) return null
    // A value the closures would refuse (not finite, negative), or no value at all, is theirs to explain.
    return `const u = { kind: "ticker", market: ${market} }
      let ok = true
      let any = false
      ${keys
        .map(
          (k, n) => `{
        const v = ${reads[n] as string}
        if (v !== undefined) { if (!Number.isFinite(v) || v < 0) ok = false; else { u.${k} = v; any = true } }
      }`,
        )
        .join('\n      ')}
      if (ok && any) out.push(u)
      else ${fallback}`
  }
  if (e.kind === 'info') {
    return `out.push({ kind: "info", topic: ${JSON.stringify(e.topic)}, market: ${market}, data: frame })`
  }
  return null
}

interface RuleCode {
  code: string
  coverage: RuleCoverage
}

function ruleCode(r: RuleSpec, i: number): RuleCode {
  const tests = r.when.map((t) => testCode(t, 'o'))
  const whenGenerated = tests.every((t) => t !== null)
  const when = tests.length === 0 ? 'true' : whenGenerated ? tests.join(' && ') : `H.when[${i}](frame)`
  const coverage: RuleCoverage = {
    rule: r.name,
    when: whenGenerated ? 'generated' : 'closure',
    emits: r.emit.map(() => 'closure'),
  }
  const ruleMarket = r.market === undefined ? 'null' : marketCode(r.market, 'o')
  let body: string
  if (r.each !== undefined || ruleMarket === null) body = `H.run[${i}](frame, out, reasons)`
  else {
    const emits = r.emit.map((e, j) => {
      const fallback = `H.emit[${i}][${j}](frame, m, out, reasons)`
      const closure = `if (${fallback}) produced = true`
      if (e.each !== undefined) return closure
      const where = allCode(e.where, 'o')
      const market = e.market === undefined ? 'm' : marketCode(e.market, 'o')
      const build = where === null || market === null ? null : buildCode(e, market, fallback)
      if (build === null) return closure
      coverage.emits[j] = 'generated'
      return `if (${where}) {
      produced = true
      ${build}
    }`
    })
    body = `const m = ${ruleMarket}
    let produced = false
    ${emits.map((x) => `{\n    ${x}\n    }`).join('\n    ')}
    if (!produced) H.none[${i}](frame, out, reasons)`
  }
  // As the closures: a `when` that throws does not match, a rule that throws becomes one unknown with the reason.
  const code = `{
    let hit = false
    try { hit = ${when} } catch { hit = false }
    if (hit) {
      const before = out.length
      try {
        ${body}
      } catch (e) {
        H.fail(${i}, frame, out, reasons, before, e)
      }
      return ${i}
    }
  }`
  return { code, coverage }
}

const PRELUDE = `const ob = (v) => typeof v === "object" && v !== null && !Array.isArray(v) ? v : EMPTY
  const num = H.num, ids = H.idString, tsMs = H.tsMs, r10 = H.round10, validPairs = H.validPairs`

/** Which parts of each rule run as generated code (none, when the code does not compile here). */
export function codegenCoverage(spec: AdapterSpec): RuleCoverage[] {
  const rules = spec.rules.map((r, i) => ruleCode(r, i))
  if (factory(rules) === null)
    return rules.map(({ coverage: c }) => ({ ...c, when: 'closure', emits: c.emits.map(() => 'closure') }))
  return rules.map((r) => r.coverage)
}

type Factory = (h: CodegenHelpers, empty: object) => GeneratedDecode

function factory(rules: RuleCode[]): Factory | null {
  const source = `${PRELUDE}
    return function decode(frame, out, reasons) {
      const o = ob(frame)
      ${rules.map((r) => r.code).join('\n')}
      return -1
    }`
  try {
    return new Function('H', 'EMPTY', source) as Factory
  } catch {
    return null
  }
}

/** The adapter's `detect` as one function, or null when it is not made of plain tests. */
export function generateDetect(spec: AdapterSpec): ((frame: unknown) => boolean) | null {
  const cond = testCode(spec.detect, 'o')
  if (cond === null) return null
  try {
    const make = new Function(
      'EMPTY',
      `const ob = (v) => typeof v === "object" && v !== null && !Array.isArray(v) ? v : EMPTY
      return function detect(frame) {
        const o = ob(frame)
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
 * (the caller maps the index to the rule's name). null when code cannot be generated here.
 */
export function generateDecode(spec: AdapterSpec, helpers: CodegenHelpers): GeneratedDecode | null {
  const make = factory(spec.rules.map((r, i) => ruleCode(r, i)))
  return make === null ? null : make(helpers, EMPTY)
}
