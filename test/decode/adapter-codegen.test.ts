// The generated hot path (src/shared/adapters/codegen.ts) on VoxFi: every emit of the market channel's rules runs
// as generated code, and it reads exactly what the compiled closures read (`generate: false`) on VoxFi's documented
// frames, on what the VoxFi simulator publishes over some hundred steps, and on hostile variants of both: the same
// updates, the same reasons, the same rule. An adapter whose field names try to become code is neutralised or
// refused, never run.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AdapterState, builtinSpecs, compileAdapter, parseAdapter } from '../../src/shared/adapters'
import { codegenCoverage } from '../../src/shared/adapters/codegen'
import type { AdapterSpec } from '../../src/shared/adapters/schema'
import type { Update } from '../../src/shared/model'
import { newTradeFrame, updateFrame, updateOrderbookFrame } from '../../src/sim/voxfi/frames'
import { steppedRuntime } from '../sim/voxfi-harness'

const FIXTURES = resolve(import.meta.dirname, '../fixtures/voxfi')

const voxfi = (): AdapterSpec => {
  const spec = builtinSpecs().find((s) => s.name === 'voxfi')
  if (spec === undefined) throw new Error('no voxfi adapter')
  return spec
}

/** VoxFi's market channel: what the engine reads for every book and print. */
const HOT_RULES = ['update-orderbook', 'new-trade', 'update']

function fixtureFrames(): unknown[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json') && f !== 'index.json')
    .sort()
    .map((f) => (JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as { example: unknown }).example)
}

/**
 * What the VoxFi simulator publishes on its market channels over `steps` steps (20 ms each when live): for each
 * publication, every frame a subscriber can get from it, as its stream writes them (a whole book, a print, both).
 */
function simulatorFrames(steps: number): unknown[] {
  const rt = steppedRuntime(11, { events: 2, marketsPerEvent: 3 })
  rt.run(1, steps)
  const out: unknown[] = []
  for (const [market, list] of rt.frames) {
    for (const [, book, trade] of list) {
      const texts: string[] = []
      if (book !== '-') texts.push(updateOrderbookFrame('ev', market, book))
      if (trade !== '-') texts.push(newTradeFrame('ev', market, trade))
      if (book !== '-' && trade !== '-') texts.push(updateFrame('ev', market, book, trade))
      for (const t of texts) out.push(JSON.parse(t) as unknown)
    }
  }
  return out
}

const huge = (n: number): unknown[] =>
  Array.from({ length: n }, (_, i) => ({ price_ticks: 1 + (i % 99), quantity: i, order_count: 1 }))

/** Every value a hostile or broken venue could put where a field is expected. */
const REPLACEMENTS: unknown[] = [
  undefined, // the field missing
  null,
  '40',
  ' 12.5 ',
  '',
  'abc',
  -5,
  0,
  1e308,
  true,
  [],
  {},
  [[1, 2]],
  { price_ticks: 1 },
]

function paths(v: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (out.length > 400) return out
  if (Array.isArray(v)) {
    // The first and last of a list stand for all of them.
    const idx = v.length > 1 ? [0, v.length - 1] : v.length === 1 ? [0] : []
    for (const i of idx) {
      out.push([...at, String(i)])
      paths(v[i], [...at, String(i)], out)
    }
  } else if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) {
      out.push([...at, k])
      paths((v as Record<string, unknown>)[k], [...at, k], out)
    }
  }
  return out
}

function replaced(frame: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(frame)
  let cur = copy as Record<string, unknown>
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string, unknown>
  const last = path[path.length - 1] as string
  if (value === undefined) delete cur[last]
  else cur[last] = structuredClone(value)
  return copy
}

/** Each field of the frame replaced by each hostile value, and `__proto__`/`constructor` keys beside its own. */
function hostile(frame: unknown): unknown[] {
  const out: unknown[] = []
  for (const p of paths(frame)) {
    for (const v of REPLACEMENTS) out.push(replaced(frame, p, v))
    // A list 2,000 long where a short one was.
    if (p.length > 1 && Array.isArray(p.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], frame)))
      out.push(replaced(frame, p, huge(2000)))
  }
  const text = JSON.stringify(frame)
  if (text.startsWith('{')) {
    // JSON.parse makes `__proto__` an own key, as it would for a venue's frame.
    out.push(JSON.parse(`{"__proto__":{"msg_type":"update"},${text.slice(1)}`))
    out.push(JSON.parse(`{"constructor":{"prototype":1},"toString":"x",${text.slice(1)}`))
    out.push(JSON.parse(text.replace(/"orderbook":\{(?!\})/, '"orderbook":{"__proto__":{"chance":99},')))
  }
  return out
}

/** An object whose every property read throws. */
function throwing(): unknown {
  return new Proxy(
    {},
    {
      get: () => {
        throw new Error('hostile getter')
      },
    },
  )
}

/** Decodes every frame both ways and expects the same rule, updates and reasons; the number compared. */
function expectSame(spec: AdapterSpec, frames: unknown[]): number {
  const fast = compileAdapter(spec)
  const slow = compileAdapter(spec, { generate: false })
  const stFast = new AdapterState()
  const stSlow = new AdapterState()
  for (const frame of frames) {
    const a: Update[] = []
    const b: Update[] = []
    const ra: string[] = []
    const rb: string[] = []
    const got = [fast.detect(frame), fast.decode(frame, stFast, a, ra)]
    const want = [slow.detect(frame), slow.decode(frame, stSlow, b, rb)]
    if (JSON.stringify([got, a, ra]) !== JSON.stringify([want, b, rb])) {
      expect({ frame, rule: got, updates: a, reasons: ra }).toEqual({
        frame,
        rule: want,
        updates: b,
        reasons: rb,
      })
    }
    expect(a).toEqual(b)
  }
  return frames.length
}

describe('the adapter code generator on VoxFi', () => {
  it('generates every emit of the market channel rules, and says which parts of the others are closures', () => {
    const coverage = codegenCoverage(voxfi())
    const hot = coverage.filter((r) => HOT_RULES.includes(r.rule))
    expect(hot.map((r) => r.rule)).toEqual(HOT_RULES)
    for (const r of hot)
      expect({ rule: r.rule, when: r.when, emits: r.emits }).toEqual({
        rule: r.rule,
        when: 'generated',
        emits: r.emits.map(() => 'generated'),
      })
    // The user channel and acks are rare: their emits stay closures, and the report says so.
    expect(coverage.find((r) => r.rule === 'acks')?.emits).toEqual(['closure', 'closure'])
  })

  it('reads every documented VoxFi frame as the closures do', () => {
    expect(expectSame(voxfi(), fixtureFrames())).toBeGreaterThan(40)
  })

  it('reads what the VoxFi simulator publishes over 200 steps as the closures do', () => {
    const frames = simulatorFrames(200)
    // Whole books and prints of both contracts, and updates carrying both.
    const types = new Set(frames.map((f) => (f as { msg_type?: string }).msg_type))
    expect([...types].sort()).toEqual(['new-trade', 'update', 'update-orderbook'])
    const no = frames.some(
      (f) => (f as { last_trade?: { contract_type?: string } }).last_trade?.contract_type === 'NO',
    )
    expect(no).toBe(true)
    expect(expectSame(voxfi(), frames)).toBeGreaterThan(500)
  })

  it('reads hostile variants of documented and simulated frames as the closures do', () => {
    const bases = [
      ...fixtureFrames().filter((f) => typeof f === 'object' && f !== null && 'msg_type' in f),
      ...simulatorFrames(40).slice(0, 4),
    ]
    let n = 0
    for (const base of bases) n += expectSame(voxfi(), hostile(base))
    expect(n).toBeGreaterThan(4_000)
  }, 60_000)

  it('turns a frame whose reads throw into the same unknown and reason as the closures', () => {
    const frames = [
      throwing(),
      { msg_type: 'update', market_id: 'm', orderbook: throwing() },
      { msg_type: 'new-trade', market_id: 'm', last_trade: throwing() },
      {
        msg_type: 'update-orderbook',
        market_id: throwing(),
        orderbook: { yes_orderbook: { bids: [throwing()] } },
      },
    ]
    const fast = compileAdapter(voxfi())
    const slow = compileAdapter(voxfi(), { generate: false })
    for (const frame of frames) {
      const a: Update[] = []
      const b: Update[] = []
      const ra: string[] = []
      const rb: string[] = []
      expect(fast.decode(frame, new AdapterState(), a, ra)).toBe(
        slow.decode(frame, new AdapterState(), b, rb),
      )
      expect(ra).toEqual(rb)
      expect(a.length).toBe(b.length)
      a.forEach((u, i) =>
        expect(u.kind === 'unknown' ? u.raw : null).toBe(b[i]?.kind === 'unknown' ? b[i].raw : null),
      )
    }
    const out: Update[] = []
    const reasons: string[] = []
    expect(fast.decode(frames[2], new AdapterState(), out, reasons)).toBe('new-trade')
    expect(out).toEqual([{ kind: 'unknown', raw: frames[2] }])
    expect(reasons).toEqual(['voxfi/new-trade: hostile getter'])
  })
})

describe('adapter text never becomes code', () => {
  const NAMES = [
    'a"b',
    "a'b",
    'a`b${globalThis.pwned = 1}',
    'x*/ globalThis.pwned = 1 /*',
    'line\nbreak',
    'u\u2028v',
    '"]; globalThis.pwned = 1; //',
    'a"]+(globalThis["pwned"]=1)+o["b',
    '\\',
  ]
  const REFUSED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '$.x', '^.x', '0']

  /** An object with `value` at the path (dots separate keys, for both readers). */
  const at = (path: string, value: unknown): Record<string, unknown> =>
    path
      .split('.')
      .reduceRight<Record<string, unknown>>(
        (inner, k, i, keys) => ({ [k]: i === keys.length - 1 ? value : inner }),
        {},
      )

  function adapter(field: string): AdapterSpec {
    const r = parseAdapter({
      format: 'trading-monitor-adapter',
      version: 1,
      name: 'hostile',
      docs: [],
      title: 'Hostile',
      detect: { path: 'type', equals: `t${field}` },
      rules: [
        {
          name: `r${field}`,
          when: [
            { path: 'type', equals: `t${field}` },
            { path: field, exists: true },
          ],
          emit: [
            {
              kind: 'trade',
              market: field,
              where: [{ path: field, in: [field, 'x'] }],
              price: { path: `${field}.p`, scale: 0.01 },
              size: field,
              side: { path: field, map: { [field]: 'buy' } },
              id: field,
            },
            {
              kind: 'ticker',
              market: 'm',
              last: field,
            },
            {
              kind: 'info',
              topic: field.slice(0, 40) || 'x',
            },
          ],
        },
      ],
    })
    if (!r.ok) throw new Error(r.errors.join('; '))
    return r.adapter
  }

  it('writes field names and values only as literals: nothing runs, the exact key is read', () => {
    for (const field of NAMES) {
      const spec = adapter(field)
      expect(codegenCoverage(spec)[0]?.emits).toEqual(['generated', 'generated', 'generated'])
      const frames = [
        { type: `t${field}`, ...at(field, field), m: 'mk' },
        { type: `t${field}`, ...at(field, '7'), m: 'mk' },
        { type: `t${field}`, ...at(field, { p: 42 }), m: 'mk' },
        { type: `t${field}`, [field]: '7', m: 'mk' },
        { type: `t${field}`, m: 'mk' },
        { type: 'other', [field]: 1 },
      ]
      expectSame(spec, frames)
      const out: Update[] = []
      compileAdapter(spec).decode(frames[1], new AdapterState(), out, [])
      expect(out).toContainEqual({ kind: 'ticker', market: 'mk', last: 7 })
      expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined()
    }
  })

  it('leaves inherited keys, positions and relative paths to the closures', () => {
    for (const field of REFUSED) {
      let spec: AdapterSpec
      try {
        spec = adapter(field)
      } catch {
        continue // the schema refuses it already
      }
      const coverage = codegenCoverage(spec)[0]
      expect(coverage?.when).toBe('closure')
      expect(coverage?.emits.slice(0, 2)).toEqual(['closure', 'closure'])
      const frames = [
        JSON.parse(`{"type":${JSON.stringify(`t${field}`)},"__proto__":{"p":1},"constructor":"c","m":"mk"}`),
        { type: `t${field}`, m: 'mk' },
      ]
      expectSame(spec, frames)
    }
  })
})
