// An adapter file compiled into plain functions, once: every path becomes a getter, every test a predicate,
// every emit a builder. Decoding a frame then only calls closures; nothing is looked up by name per frame.
// The builders never throw on what a venue sends: a value they cannot use makes that item `unknown`, with
// the reason, and the rest of the frame is still read.
import type { Level, Outcome as OutcomeT, Side as SideT, Update } from '../model'
import { idString, isObj, num, tsMs, validPairs } from '../decode/values'
import { generateDecode, generateDetect } from './codegen'
import { compilePath, type Getter } from './paths'
import { compilePattern, type Matcher, type RegexEngine } from './regex'
import type {
  AdapterSpec,
  EmitSpec,
  LevelsSpec,
  MarketSpec,
  NumSpec,
  OutcomeSpec,
  RuleSpec,
  SideSpec,
  TestSpec,
  TsSpec,
  UserFieldSpec,
} from './schema'

/** What one connection has taught an adapter: channel ids from acks, prices of id-keyed levels. */
export class AdapterState {
  readonly channels = new Map<string, { channel: string | null; market: string | null }>()
  readonly levelPrices = new Map<string, Map<string, number>>()

  learn(id: string, channel: string | null, market: string | null): void {
    if (this.channels.size >= MAX_CHANNELS && !this.channels.has(id)) return
    this.channels.set(id, { channel, market })
  }

  rememberLevel(market: string, id: string, price: number): void {
    let m = this.levelPrices.get(market)
    if (m === undefined) {
      if (this.levelPrices.size >= MAX_CHANNELS) return
      m = new Map()
      this.levelPrices.set(market, m)
    }
    if (m.size >= MAX_LEVEL_IDS && !m.has(id)) return
    m.set(id, price)
  }

  clear(): void {
    this.channels.clear()
    this.levelPrices.clear()
  }
}

const MAX_CHANNELS = 10_000
const MAX_LEVEL_IDS = 20_000

/** The per-call context: the items around the current one (outermost first) and the connection's state. */
export interface Scope {
  up: unknown[]
  st: AdapterState
}

type Pred = (cur: unknown, s: Scope) => boolean
type NumFn = (cur: unknown, s: Scope) => number | undefined
type StrFn = (cur: unknown, s: Scope) => string | null

/** An emit's result for one item: an update, or the reason it could not be built. */
type Built = Update | string
type EmitFn = (cur: unknown, s: Scope, market: string | null) => Built
/** Runs one emit on an item (or on each of its own `each` items); false when it does not apply. */
type EmitRunner = (
  cur: unknown,
  s: Scope,
  market: string | null,
  out: Update[],
  reasons: string[],
  label: string,
) => boolean
type ItemsFn = (cur: unknown, s: Scope) => readonly unknown[] | null

export interface CompiledAdapter {
  readonly name: string
  readonly title: string
  /** Whether the frame is this venue's at all. */
  detect(frame: unknown): boolean
  /** For a frame that is not JSON: the JSON after the adapter's text prefix, or undefined. */
  unwrap(text: string): unknown
  /**
   * Decodes a frame this adapter recognises into `out` (unreadable items become `unknown`, their reasons go to
   * `reasons`). Returns the matching rule's name, or null when no rule matches (nothing is written then).
   */
  decode(frame: unknown, st: AdapterState, out: Update[], reasons: string[]): string | null
}

const NO_ITEMS: unknown[] = []

export interface CompileOptions {
  /** false: closures only, no generated hot path (tests compare the two). Default true. */
  generate?: boolean
  /**
   * The linear-time engine for patterns JavaScript's engine could backtrack on (regex.ts). Without one, such a
   * pattern is refused. The shipped adapters are compiled without one: theirs must all pass the static check.
   */
  regex?: RegexEngine | null
}

/**
 * Every regular expression of an adapter (`textPrefix`, tests' `matches`, markets' `pattern`), compiled, or
 * why each refused one is refused, naming its field: `rules.2.when.0.matches: "^(a+)+$" is refused: ...`.
 */
export function compilePatterns(
  spec: AdapterSpec,
  linear: RegexEngine | null = null,
): { ok: true; patterns: Map<string, Matcher> } | { ok: false; errors: string[] } {
  const patterns = new Map<string, Matcher>()
  const errors: string[] = []
  const visit = (v: unknown, path: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, path === '' ? String(i) : `${path}.${i}`))
      return
    }
    if (!isObj(v)) return
    for (const [k, x] of Object.entries(v)) {
      const at = path === '' ? k : `${path}.${k}`
      // A map's keys and values are the venue's words, not patterns.
      if (k === 'map') continue
      const pattern =
        (k === 'matches' || k === 'pattern' || (k === 'textPrefix' && path === '')) && typeof x === 'string'
      if (!pattern) {
        visit(x, at)
        continue
      }
      if (patterns.has(x)) continue
      try {
        patterns.set(x, compilePattern(x, linear))
      } catch (e) {
        errors.push(`${at}: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
  }
  visit(spec, '')
  return errors.length === 0 ? { ok: true, patterns } : { ok: false, errors: errors.slice(0, 10) }
}

/** The patterns of the adapter being compiled (compiling is synchronous and never re-entered). */
let patterns: Map<string, Matcher> | null = null

function regex(source: string): Matcher {
  const m = patterns?.get(source)
  if (m === undefined) throw new Error(`pattern ${JSON.stringify(source)} was not checked`)
  return m
}

/**
 * Compiles an adapter. Throws when one of its patterns is refused (see `compilePatterns`), with every refused
 * pattern's field and reason in the message.
 */
export function compileAdapter(spec: AdapterSpec, options: CompileOptions = {}): CompiledAdapter {
  const checked = compilePatterns(spec, options.regex ?? null)
  if (!checked.ok) throw new Error(checked.errors.join('; '))
  patterns = checked.patterns
  try {
    return compileChecked(spec, options)
  } finally {
    patterns = null
  }
}

function compileChecked(spec: AdapterSpec, options: CompileOptions): CompiledAdapter {
  const detectClosure = compileTest(spec.detect)
  const rules = spec.rules.map(compileRule)
  // One scope per adapter, reused for every frame: decoding is synchronous and never re-entered.
  const scope: Scope = { up: [], st: new AdapterState() }
  const generated =
    options.generate === false
      ? null
      : generateDecode(spec, {
          when: rules.map((r) => (f: unknown) => r.when(f, scope)),
          run: rules.map(
            (r) => (f: unknown, out: Update[], reasons: string[]) => r.run(f, scope, out, reasons),
          ),
          emit: rules.map((r) =>
            r.emits.map(
              (e) => (f: unknown, m: string | null, out: Update[], reasons: string[]) =>
                e(f, scope, m, out, reasons, r.name),
            ),
          ),
          none: rules.map((r) => (f: unknown, out: Update[], reasons: string[]) => r.none(f, out, reasons)),
          fail: (i, f, out, reasons, before, e) =>
            failed(spec, rules[i] as CompiledRule, f, out, reasons, before, e),
          num,
          idString,
          tsMs,
          round10,
          validPairs,
        })
  const generatedDetect = options.generate === false ? null : generateDetect(spec)
  const detectFn: Pred = generatedDetect !== null ? (f) => generatedDetect(f) : detectClosure
  const prefix = spec.textPrefix === undefined ? null : regex(spec.textPrefix)
  return {
    name: spec.name,
    title: spec.title,
    unwrap: (text) => {
      if (prefix === null) return undefined
      const m = prefix.exec(text.length > 64 ? text.slice(0, 64) : text)
      const head = m?.[0]
      if (head === undefined || head.length === 0) return undefined
      try {
        return JSON.parse(text.slice(head.length)) as unknown
      } catch {
        return undefined
      }
    },
    detect: (frame) => {
      if (scope.up.length !== 0) scope.up.length = 0
      try {
        return detectFn(frame, scope)
      } catch {
        return false
      }
    },
    decode: (frame, st, out, reasons) => {
      const s = scope
      s.st = st
      if (generated !== null) {
        if (s.up.length !== 0) s.up.length = 0
        const before = out.length
        try {
          const i = generated(frame, out, reasons)
          return i < 0 ? null : (rules[i] as CompiledRule).name
        } catch (e) {
          // As below: a hostile object (a throwing getter) becomes one unknown, never a throw.
          out.length = before
          out.push({ kind: 'unknown', raw: frame })
          reasons.push(`${spec.name}: ${e instanceof Error ? e.message : 'failed'}`)
          return 'error'
        }
      }
      for (const rule of rules) {
        if (s.up.length !== 0) s.up.length = 0
        let hit: boolean
        try {
          hit = rule.when(frame, s)
        } catch {
          hit = false
        }
        if (!hit) continue
        const before = out.length
        try {
          rule.run(frame, s, out, reasons)
        } catch (e) {
          failed(spec, rule, frame, out, reasons, before, e)
        }
        return rule.name
      }
      return null
    },
  }
}

/**
 * A rule that threw on a frame: what it wrote is dropped, and the frame becomes one unknown with the reason.
 * Unreachable for JSON values; a hostile object (a throwing getter) must not take the engine down.
 */
function failed(
  spec: AdapterSpec,
  rule: CompiledRule,
  frame: unknown,
  out: Update[],
  reasons: string[],
  before: number,
  e: unknown,
): void {
  out.length = before
  out.push({ kind: 'unknown', raw: frame })
  reasons.push(`${spec.name}/${rule.name}: ${e instanceof Error ? e.message : 'failed'}`)
}

// ---------------------------------------------------------------- tests

export function compileTest(t: TestSpec): Pred {
  const direct = directTest(t)
  if (direct !== null) return direct
  const checks: Pred[] = []
  if (t.any !== undefined) {
    const alts = t.any.map(compileTest)
    checks.push((cur, s) => {
      for (const p of alts) if (p(cur, s)) return true
      return false
    })
  }
  if (t.all !== undefined) {
    const all = t.all.map(compileTest)
    checks.push((cur, s) => {
      for (const p of all) if (!p(cur, s)) return false
      return true
    })
  }
  if (t.path !== undefined) {
    const get = compilePath(t.path)
    const lookup = t.lookup
    const value: (cur: unknown, s: Scope) => unknown =
      lookup === undefined
        ? (cur, s) => get(cur, s.up)
        : (cur, s) => {
            const id = idString(get(cur, s.up))
            if (id === undefined) return undefined
            const learned = s.st.channels.get(id)
            return learned === undefined ? undefined : learned[lookup]
          }
    for (const c of valueChecks(t)) checks.push((cur, s) => c(value(cur, s)))
  }
  const not = t.not === true
  if (checks.length === 1) {
    const [only] = checks as [Pred]
    return not ? (cur, s) => !only(cur, s) : only
  }
  return (cur, s) => {
    let ok = true
    for (const c of checks) {
      if (!c(cur, s)) {
        ok = false
        break
      }
    }
    return not ? !ok : ok
  }
}

/**
 * The tests that decide most frames (`type` equals a word, `channel` is one of a few) as one closure over the
 * path's getter, without the general path's layers: they run for every frame on the hot path.
 */
function directTest(t: TestSpec): Pred | null {
  if (t.path === undefined || t.lookup !== undefined || t.any !== undefined || t.all !== undefined)
    return null
  const conditions = Object.keys(t).filter((k) => k !== 'path' && k !== 'not')
  if (conditions.length !== 1) return null
  const get = compilePath(t.path)
  const not = t.not === true
  if (t.equals !== undefined) {
    const want = t.equals
    return not ? (cur, s) => get(cur, s.up) !== want : (cur, s) => get(cur, s.up) === want
  }
  if (t.in !== undefined) {
    const [x, y, z] = t.in
    // A few words (a channel's names) compare faster one by one than through a set.
    if (t.in.length <= 3) {
      const one = t.in.length === 1
      const two = t.in.length === 2
      const has = (v: unknown): boolean => v === x || (!one && (v === y || (!two && v === z)))
      return not ? (cur, s) => !has(get(cur, s.up)) : (cur, s) => has(get(cur, s.up))
    }
    const set = new Set<unknown>(t.in)
    return not ? (cur, s) => !set.has(get(cur, s.up)) : (cur, s) => set.has(get(cur, s.up))
  }
  if (t.exists !== undefined) {
    const want = t.exists !== not
    return (cur, s) => {
      const v = get(cur, s.up)
      return (v !== undefined && v !== null) === want
    }
  }
  return null
}

function valueChecks(t: TestSpec): ((v: unknown) => boolean)[] {
  const out: ((v: unknown) => boolean)[] = []
  if (t.exists !== undefined) {
    const want = t.exists
    out.push((v) => (v !== undefined && v !== null) === want)
  }
  if (t.equals !== undefined) {
    const want = t.equals
    out.push((v) => v === want)
  }
  if (t.in !== undefined) {
    const set = new Set<unknown>(t.in)
    out.push((v) => set.has(v))
  }
  if (t.prefix !== undefined) {
    const p = t.prefix
    out.push((v) => typeof v === 'string' && v.startsWith(p))
  }
  if (t.suffix !== undefined) {
    const p = t.suffix
    out.push((v) => typeof v === 'string' && v.endsWith(p))
  }
  if (t.contains !== undefined) {
    const p = t.contains
    out.push((v) => typeof v === 'string' && v.includes(p))
  }
  if (t.matches !== undefined) {
    const re = regex(t.matches)
    out.push((v) => typeof v === 'string' && v.length <= 1000 && re.test(v))
  }
  if (t.type !== undefined) {
    const want = t.type
    out.push((v) => typeOf(v) === want)
  }
  if (t.length !== undefined) {
    const n = t.length
    out.push((v) => lengthOf(v) === n)
  }
  if (t.minLength !== undefined) {
    const n = t.minLength
    out.push((v) => {
      const l = lengthOf(v)
      return l !== undefined && l >= n
    })
  }
  if (t.maxLength !== undefined) {
    const n = t.maxLength
    out.push((v) => {
      const l = lengthOf(v)
      return l !== undefined && l <= n
    })
  }
  return out
}

function typeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v
}

function lengthOf(v: unknown): number | undefined {
  if (Array.isArray(v) || typeof v === 'string') return v.length
  if (isObj(v)) return Object.keys(v).length
  return undefined
}

function allOf(tests: readonly TestSpec[] | undefined): Pred {
  if (tests === undefined || tests.length === 0) return () => true
  const ps = tests.map(compileTest)
  if (ps.length === 1) return ps[0] as Pred
  return (cur, s) => {
    for (const p of ps) if (!p(cur, s)) return false
    return true
  }
}

// ---------------------------------------------------------------- values

const round10 = (x: number): number => Math.round(x * 1e10) / 1e10

/** A field given as a list of alternatives: the first that finds something (`none` is "found nothing"). */
function firstOf<T>(parts: ((cur: unknown, s: Scope) => T)[], none: T): (cur: unknown, s: Scope) => T {
  if (parts.length === 1) return parts[0] as (cur: unknown, s: Scope) => T
  return (cur, s) => {
    for (const p of parts) {
      const v = p(cur, s)
      if (v !== none) return v
    }
    return none
  }
}

export function compileNum(spec: NumSpec): NumFn {
  const parts = (Array.isArray(spec) ? spec : [spec]).map((p) =>
    compileNumPart(typeof p === 'string' ? { path: p } : p),
  )
  return firstOf<number | undefined>(parts, undefined)
}

function compileNumPart(p: Exclude<NumSpec, string | unknown[]>): NumFn {
  if (p.value !== undefined) {
    const v = p.value
    return () => v
  }
  const get = compilePath(p.path ?? '')
  const { scale, complement, invert, abs, offset } = p
  if (scale === undefined && !complement && !invert && !abs && offset === undefined)
    return (cur, s) => num(get(cur, s.up))
  return (cur, s) => {
    let n = num(get(cur, s.up))
    if (n === undefined || Number.isNaN(n)) return n
    if (scale !== undefined) n = round10(n * scale)
    if (complement) n = round10(1 - n)
    if (invert) n = n === 0 ? NaN : round10(1 / n)
    if (abs) n = Math.abs(n)
    if (offset !== undefined) n += offset
    return n
  }
}

export function compileMarket(spec: MarketSpec | undefined): StrFn | null {
  if (spec === undefined) return null
  const parts = (Array.isArray(spec) ? spec : [spec]).map((p) =>
    compileMarketPart(typeof p === 'string' ? { path: p } : p),
  )
  return firstOf<string | null>(parts, null)
}

function compileMarketPart(p: Exclude<MarketSpec, string | unknown[]>): StrFn {
  const f = compileMarketText(p)
  if (p.case === undefined) return f
  const upper = p.case === 'upper'
  return (cur, s) => {
    const v = f(cur, s)
    return v === null ? null : upper ? v.toUpperCase() : v.toLowerCase()
  }
}

function compileMarketText(p: Exclude<MarketSpec, string | unknown[]>): StrFn {
  if (p.value !== undefined) {
    const v = p.value
    return () => v
  }
  if (p.join !== undefined) {
    const gets = p.join.map(compilePath)
    const sep = p.sep ?? ':'
    return (cur, s) => {
      const ids: string[] = []
      for (const g of gets) {
        const id = idString(g(cur, s.up))
        if (id === undefined) return null
        ids.push(id)
      }
      return ids.join(sep)
    }
  }
  const get = compilePath(p.path ?? '')
  const base: StrFn = p.lookup
    ? (cur, s) => {
        const id = idString(get(cur, s.up))
        return id === undefined ? null : (s.st.channels.get(id)?.market ?? null)
      }
    : (cur, s) => idString(get(cur, s.up)) ?? null
  if (p.split !== undefined) {
    const sep = p.split
    const part = p.part ?? -1
    return (cur, s) => {
      const v = base(cur, s)
      if (v === null) return null
      const pieces = v.split(sep)
      const i = part < 0 ? pieces.length + part : part
      const piece = pieces[i]
      return piece !== undefined && piece.length > 0 ? piece : null
    }
  }
  if (p.pattern !== undefined) {
    const re = regex(p.pattern)
    return (cur, s) => {
      const v = base(cur, s)
      if (v === null || v.length > 1000) return null
      const m = re.exec(v)
      const g = m?.[1]
      return g !== undefined && g.length > 0 ? g : null
    }
  }
  return base
}

type SideFn = (cur: unknown, s: Scope) => SideT | null

function compileSide(spec: SideSpec | undefined): SideFn {
  if (spec === undefined) return () => null
  const parts = (Array.isArray(spec) ? spec : [spec]).map((p): SideFn => {
    if (p.sign !== undefined && p.value === undefined) {
      const get = compilePath(p.sign)
      return (cur, s) => {
        const n = num(get(cur, s.up))
        return n === undefined || !Number.isFinite(n) || n === 0 ? null : n > 0 ? 'buy' : 'sell'
      }
    }
    return compileChoice(p)
  })
  return firstOf(parts, null)
}

type OutcomeFn = (cur: unknown, s: Scope) => OutcomeT | null

function compileOutcome(spec: OutcomeSpec): OutcomeFn {
  return firstOf((Array.isArray(spec) ? spec : [spec]).map(compileChoice), null)
}

/**
 * One of a few words (a side, an outcome): a constant, or the value at `path` looked up in `map` by its text
 * (true/false and numbers as JSON writes them); anything the map does not name gives null.
 */
function compileChoice<T>(p: {
  path?: string | undefined
  map?: Record<string, T | null> | undefined
  value?: T | undefined
}): (cur: unknown, s: Scope) => T | null {
  if (p.value !== undefined) {
    const v = p.value
    return () => v
  }
  const get = compilePath(p.path ?? '')
  const map = new Map(Object.entries(p.map ?? {}))
  return (cur, s) => {
    const v = get(cur, s.up)
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return null
    return map.get(String(v)) ?? null
  }
}

/** Longest text a normalised user field keeps (an order type, a status, a contract's name). */
const MAX_FIELD_TEXT = 200

type FieldFn = (cur: unknown, s: Scope) => unknown

/** A `user` emit's `fields` as one builder per field; each gives undefined when the item has nothing for it. */
function compileFields(fields: Record<string, UserFieldSpec>): { name: string; f: FieldFn }[] {
  return Object.entries(fields).map(([name, spec]): { name: string; f: FieldFn } => {
    if ('num' in spec) {
      const n = compileNum(spec.num)
      return {
        name,
        f: (cur, s) => {
          const v = n(cur, s)
          return v !== undefined && Number.isFinite(v) ? v : undefined
        },
      }
    }
    if ('side' in spec) {
      const side = compileSide(spec.side)
      return { name, f: (cur, s) => side(cur, s) ?? undefined }
    }
    if ('text' in spec) {
      const get = compilePath(spec.text)
      const map = spec.map === undefined ? null : new Map(Object.entries(spec.map))
      return {
        name,
        f: (cur, s) => {
          const v = get(cur, s.up)
          const t =
            typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined
          if (t === undefined) return undefined
          if (map !== null) return map.get(t) ?? undefined
          return t.length > MAX_FIELD_TEXT ? t.slice(0, MAX_FIELD_TEXT) : t
        },
      }
    }
    const v = spec.value
    return { name, f: () => v }
  })
}

type TsFn = (cur: unknown, s: Scope) => number | null

function compileTs(spec: TsSpec | undefined): TsFn {
  if (spec === undefined) return () => null
  const parts = (Array.isArray(spec) ? spec : [spec]).map((p): TsFn => {
    const o = typeof p === 'string' ? { path: p, unit: 'auto' as const } : p
    const get = compilePath(o.path)
    const unit = o.unit ?? 'auto'
    if (unit === 'auto') return (cur, s) => tsMs(get(cur, s.up))
    if (unit === 'iso') {
      return (cur, s) => {
        const v = get(cur, s.up)
        if (typeof v !== 'string') return null
        const d = Date.parse(v)
        return Number.isFinite(d) ? d : null
      }
    }
    const factor = unit === 's' ? 1000 : unit === 'ms' ? 1 : unit === 'us' ? 1e-3 : 1e-6
    return (cur, s) => {
      const n = num(get(cur, s.up))
      if (n === undefined || !Number.isFinite(n) || n <= 0) return null
      const ms = Math.round(n * factor)
      return Number.isFinite(ms) ? ms : null
    }
  })
  return firstOf(parts, null)
}

// ---------------------------------------------------------------- levels

/** Reads levels into `bids`/`asks` (or both, by side); returns a reason when a level is unusable. */
type LevelsFn = (
  cur: unknown,
  s: Scope,
  market: string | null,
  relative: boolean,
  bids: Level[],
  asks: Level[],
) => string | null

function compileLevels(spec: LevelsSpec, fixedSide: SideT | null): LevelsFn {
  const gets = (Array.isArray(spec.path) ? spec.path : [spec.path]).map(compilePath)
  const shape = spec.shape
  const defaultPrice = shape === 'pairs' ? '0' : shape === 'objects' ? 'price' : ''
  const defaultSize = shape === 'pairs' ? '1' : shape === 'objects' ? 'size' : ''
  const price = compileNum(spec.price ?? defaultPrice)
  const size = compileNum(spec.size ?? defaultSize)
  const side = spec.side === undefined ? null : compileSide(spec.side)
  const remove = spec.remove === undefined ? null : compileTest(spec.remove)
  const skip = spec.skip === undefined ? null : compileTest(spec.skip)
  const idGet = spec.id === undefined ? null : compilePath(spec.id)
  // For a dict the key is the price: the price spec's transforms apply to it.
  const keyPrice = shape === 'dict' ? compileNum({ ...numObject(spec.price), path: '' }) : null
  const plainPairs =
    shape === 'pairs' &&
    fixedSide !== null &&
    spec.price === undefined &&
    spec.size === undefined &&
    side === null &&
    remove === null &&
    skip === null &&
    idGet === null &&
    spec.one !== true

  const one = (
    level: unknown,
    key: string | null,
    s: Scope,
    market: string | null,
    relative: boolean,
    bids: Level[],
    asks: Level[],
  ): string | null => {
    if (skip !== null && skip(level, s)) return null
    let p = keyPrice !== null && key !== null ? keyPrice(key, s) : price(level, s)
    let z = size(level, s)
    if (remove !== null && remove(level, s)) z = 0
    if (idGet !== null && market !== null) {
      const id = idString(idGet(level, s.up))
      if (id !== undefined) {
        if (p !== undefined && Number.isFinite(p)) s.st.rememberLevel(market, id, p)
        else p = s.st.levelPrices.get(market)?.get(id)
      }
      // A level whose price was never seen (its id predates our snapshot) changes nothing we show.
      if (p === undefined) return null
    }
    if (p === undefined || !Number.isFinite(p)) return 'a level without a usable price'
    if (z === undefined || !Number.isFinite(z) || (!relative && z < 0)) return 'a level without a usable size'
    let to = fixedSide
    if (side !== null) to = side(level, s)
    if (to === null) return 'a level without a side'
    ;(to === 'buy' ? bids : asks).push([p, z])
    return null
  }

  return (cur, s, market, relative, bids, asks) => {
    for (const get of gets) {
      const list = get(cur, s.up)
      if (list === undefined || list === null) continue
      if (spec.one === true) {
        const r = one(list, null, s, market, relative, bids, asks)
        if (r !== null) return r
        continue
      }
      if (shape === 'dict') {
        if (!isObj(list)) return 'levels are not an object'
        for (const key of Object.keys(list)) {
          const r = one(list[key], key, s, market, relative, bids, asks)
          if (r !== null) return r
        }
        continue
      }
      if (!Array.isArray(list)) return 'levels are not a list'
      if (plainPairs && fastPairs(list, relative, fixedSide === 'buy' ? bids : asks)) continue
      for (const level of list) {
        const r = one(level, null, s, market, relative, bids, asks)
        if (r !== null) return r
      }
    }
    return null
  }
}

function numObject(spec: NumSpec | undefined): Exclude<NumSpec, string | unknown[]> {
  if (spec === undefined || typeof spec === 'string') return {}
  if (Array.isArray(spec)) {
    const first = spec[0]
    return first === undefined || typeof first === 'string' ? {} : first
  }
  return spec
}

/** The getter of a side whose levels need no conversion at all (`[p, s]` pairs at one path), else null. */
function plainSide(spec: LevelsSpec | undefined): Getter | null {
  if (spec === undefined || spec.shape !== 'pairs' || typeof spec.path !== 'string') return null
  if (spec.price !== undefined || spec.size !== undefined || spec.side !== undefined) return null
  if (spec.remove !== undefined || spec.skip !== undefined || spec.id !== undefined || spec.one === true)
    return null
  return compilePath(spec.path)
}

/** Our simulator's levels: [number, number] pairs that need no conversion, appended as they are. */
function fastPairs(list: unknown[], relative: boolean, into: Level[]): boolean {
  if (!validPairs(list, relative)) return false
  for (const l of list) into.push(l)
  return true
}

// ---------------------------------------------------------------- emits

/**
 * The items at a path: a list's elements, or one object. A path ending in `*` takes an object's values
 * (Kraken v1 `ownTrades` keys each trade by its id). null when nothing is there.
 */
function compileItems(path: string): ItemsFn {
  const star = path === '*' || path.endsWith('.*')
  const get = compilePath(star ? path.slice(0, -1).replace(/\.$/, '') : path)
  return (cur, s) => {
    const v = get(cur, s.up)
    if (Array.isArray(v)) return v
    if (v === undefined || v === null) return null
    if (star) return isObj(v) ? Object.values(v) : null
    return [v]
  }
}

function push(u: Built, cur: unknown, out: Update[], reasons: string[], label: string): void {
  if (typeof u === 'string') {
    out.push({ kind: 'unknown', raw: cur })
    reasons.push(`${label}: ${u}`)
  } else out.push(u)
}

function compileEmit(e: EmitSpec): EmitRunner {
  const where = allOf(e.where)
  const market = compileMarket(e.market)
  const marketOf = (cur: unknown, s: Scope, dflt: string | null): string | null =>
    market === null ? dflt : market(cur, s)
  const build = compileBuilder(e, marketOf)
  if (e.each === undefined) {
    return (cur, s, dflt, out, reasons, label) => {
      if (!where(cur, s)) return false
      push(build(cur, s, dflt), cur, out, reasons, label)
      return true
    }
  }
  // The emit's own list inside the rule's item: Betfair runners in a market change, Coinbase positions
  // beside orders. `where` then tests each of those items, and `^.` reaches the rule's item.
  const items = compileItems(e.each)
  return (cur, s, dflt, out, reasons, label) => {
    const list = items(cur, s)
    if (list === null) return false
    // Applies when some item of its own list is for it; otherwise the rule's item may still be another emit's,
    // or becomes unknown with the reason.
    let applied = false
    s.up.push(cur)
    try {
      for (const it of list) {
        if (!where(it, s)) continue
        applied = true
        push(build(it, s, dflt), it, out, reasons, label)
      }
    } finally {
      s.up.pop()
    }
    return applied
  }
}

function compileBuilder(
  e: EmitSpec,
  marketOf: (cur: unknown, s: Scope, dflt: string | null) => string | null,
): EmitFn {
  switch (e.kind) {
    case 'book': {
      const bids = e.bids === undefined ? null : compileLevels(e.bids, 'buy')
      const asks = e.asks === undefined ? null : compileLevels(e.asks, 'sell')
      const levels = e.levels === undefined ? null : compileLevels(e.levels, null)
      const sides = [bids, asks, levels].filter((f) => f !== null)
      const snapshot: Pred = typeof e.snapshot === 'boolean' ? constant(e.snapshot) : compileTest(e.snapshot)
      const relative = e.relative === true
      const seq = e.seq === undefined ? null : compileNum(e.seq)
      const prevSeq = e.prevSeq === undefined ? null : compileNum(e.prevSeq)
      const outcome = e.outcome
      // Both sides as plain [p, s] lists (our simulator, many crypto venues): validated and used as they are.
      const plainBids = levels === null ? plainSide(e.bids) : null
      const plainAsks = plainBids !== null ? plainSide(e.asks) : null
      return (cur, s, dflt) => {
        const m = marketOf(cur, s, dflt)
        const isSnapshot = snapshot(cur, s)
        const rel = relative && !isSnapshot
        let b: Level[] | null = null
        let a: Level[] | null = null
        if (plainAsks !== null) {
          const lb = (plainBids as Getter)(cur, s.up)
          const la = plainAsks(cur, s.up)
          if (validPairs(lb, rel) && validPairs(la, rel)) {
            b = lb
            a = la
          }
        }
        if (b === null || a === null) {
          b = []
          a = []
          for (const f of sides) {
            const r = f(cur, s, m, rel, b, a)
            if (r !== null) return r
          }
        }
        const u: Update = { kind: 'book', market: m, snapshot: isSnapshot, bids: b, asks: a }
        if (seq !== null) {
          const n = seq(cur, s)
          if (n !== undefined && Number.isFinite(n)) u.seq = n
        }
        if (prevSeq !== null) {
          const n = prevSeq(cur, s)
          if (n !== undefined && Number.isFinite(n)) u.prevSeq = n
        }
        if (rel) u.relative = true
        if (outcome !== undefined) u.outcome = outcome
        return u
      }
    }
    case 'trade': {
      const price = compileNum(e.price)
      const size = compileNum(e.size)
      const side = compileSide(e.side)
      const ts = compileTs(e.ts)
      const id = e.id === undefined ? null : compilePath(e.id)
      const outcome = e.outcome === undefined ? null : compileOutcome(e.outcome)
      return (cur, s, dflt) => {
        const p = price(cur, s)
        const z = size(cur, s)
        if (p === undefined || !Number.isFinite(p)) return 'a trade without a usable price'
        if (z === undefined || !Number.isFinite(z) || z < 0) return 'a trade without a usable size'
        const u: Update = {
          kind: 'trade',
          market: marketOf(cur, s, dflt),
          price: p,
          size: z,
          side: side(cur, s),
          ts: ts(cur, s),
        }
        if (id !== null) {
          const v = idString(id(cur, s.up))
          if (v !== undefined) u.id = v
        }
        if (outcome !== null) {
          const o = outcome(cur, s)
          if (o !== null) u.outcome = o
        }
        return u
      }
    }
    case 'ticker': {
      const fields = (['bid', 'ask', 'last', 'chance', 'volume', 'liquidity'] as const).flatMap((k) => {
        const spec = e[k]
        return spec === undefined ? [] : [{ k, f: compileNum(spec) }]
      })
      return (cur, s, dflt) => {
        const u: Update & { kind: 'ticker' } = { kind: 'ticker', market: marketOf(cur, s, dflt) }
        let any = false
        for (const { k, f } of fields) {
          const v = f(cur, s)
          if (v === undefined) continue
          if (!Number.isFinite(v) || v < 0) return `a ticker whose ${k} is not a usable number`
          u[k] = v
          any = true
        }
        return any ? u : 'a ticker without bid, ask, last, chance, volume or liquidity'
      }
    }
    case 'user': {
      const topic = e.topic
      if (e.fields === undefined) {
        return (cur, s, dflt) => ({ kind: 'user', topic, market: marketOf(cur, s, dflt), data: cur })
      }
      // The record in our units for the account pane, with the item as sent beside it.
      const fields = compileFields(e.fields)
      return (cur, s, dflt) => {
        const data: Record<string, unknown> = {}
        for (const { name, f } of fields) {
          const v = f(cur, s)
          if (v !== undefined) data[name] = v
        }
        data['raw'] = cur
        return { kind: 'user', topic, market: marketOf(cur, s, dflt), data }
      }
    }
    case 'info': {
      const topic = e.topic
      return (cur, s, dflt) => ({ kind: 'info', topic, market: marketOf(cur, s, dflt), data: cur })
    }
    case 'control': {
      const topic = e.topic
      const errGets =
        e.error === undefined ? [] : (Array.isArray(e.error) ? e.error : [e.error]).map(compilePath)
      const learn =
        e.learn === undefined
          ? null
          : {
              id: compilePath(e.learn.id),
              channel: e.learn.channel === undefined ? null : compilePath(e.learn.channel),
              market: compileMarket(e.learn.market),
            }
      return (cur, s) => {
        const u: Update = { kind: 'control', topic, data: cur }
        if (topic === 'error') {
          u.error = 'error'
          for (const g of errGets) {
            const v = idString(g(cur, s.up))
            if (v !== undefined) {
              u.error = v
              break
            }
          }
        }
        if (learn !== null) {
          const id = idString(learn.id(cur, s.up))
          if (id !== undefined) {
            const ch = learn.channel === null ? undefined : learn.channel(cur, s.up)
            s.st.learn(
              id,
              typeof ch === 'string' ? ch : null,
              learn.market === null ? null : learn.market(cur, s),
            )
          }
        }
        return u
      }
    }
  }
}

function constant(v: boolean): Pred {
  return () => v
}

// ---------------------------------------------------------------- rules

interface CompiledRule {
  name: string
  when: Pred
  run(frame: unknown, s: Scope, out: Update[], reasons: string[]): void
  /** The rule's emits, for generated code that runs some of them itself. */
  emits: EmitRunner[]
  /** What the rule writes for an item none of its emits applies to. */
  none(cur: unknown, out: Update[], reasons: string[]): void
}

function compileRule(r: RuleSpec): CompiledRule {
  const when = allOf(r.when)
  const market = compileMarket(r.market)
  const emits = r.emit.map(compileEmit)
  const eachPaths = r.each === undefined ? [] : (Array.isArray(r.each) ? r.each : [r.each]).map(compileItems)
  const label = r.name

  const none = (cur: unknown, out: Update[], reasons: string[]): void => {
    out.push({ kind: 'unknown', raw: cur })
    reasons.push(`${label}: no output applies to this item`)
  }

  const item = (cur: unknown, s: Scope, out: Update[], reasons: string[]): void => {
    const m = market === null ? null : market(cur, s)
    let produced = false
    for (const emit of emits) if (emit(cur, s, m, out, reasons, label)) produced = true
    if (!produced) none(cur, out, reasons)
  }

  const walk = (cur: unknown, depth: number, s: Scope, out: Update[], reasons: string[]): void => {
    if (depth === eachPaths.length) {
      item(cur, s, out, reasons)
      return
    }
    const items = (eachPaths[depth] as ItemsFn)(cur, s) ?? NO_ITEMS
    s.up.push(cur)
    for (const it of items) walk(it, depth + 1, s, out, reasons)
    s.up.pop()
  }

  return {
    name: label,
    when,
    emits,
    none,
    run: (frame, s, out, reasons) => {
      if (eachPaths.length === 0) {
        item(frame, s, out, reasons)
        return
      }
      const before = out.length
      walk(frame, 0, s, out, reasons)
      // An empty list is news of nothing, but the frame was read: say so rather than show nothing.
      if (out.length === before) {
        out.push({
          kind: 'info',
          topic: 'empty',
          market: market === null ? null : market(frame, s),
          data: frame,
        })
      }
    },
  }
}
