// What VoxFi added to the adapter format (docs/adapters.md): `outcome` on book emits (the NO contract's own book)
// and on trade emits (a mapped contract), `chance`/`volume`/`liquidity` on tickers, and `fields` on user emits
// (the record in our units, with the item as sent under `raw`). Each through the generated hot path and the
// closures alike, and each refused by name when malformed.
import { describe, expect, it } from 'vitest'
import { AdapterState, compileAdapter, parseAdapter, type AdapterSpec } from '../../src/shared/adapters'
import type { Update } from '../../src/shared/model'

function file(rules: unknown[]): unknown {
  return {
    format: 'trading-monitor-adapter',
    version: 1,
    name: 'test',
    title: 'Test venue',
    docs: [],
    detect: { path: 'v', equals: 'test' },
    rules,
  }
}

function adapter(rules: unknown[]): AdapterSpec {
  const r = parseAdapter(file(rules))
  if (!r.ok) throw new Error(r.errors.join('; '))
  return r.adapter
}

/** Decodes with the generated hot path and with the closures alone; both must agree. */
function decode(spec: AdapterSpec, frame: unknown): { out: Update[]; reasons: string[] } {
  const run = (generate: boolean) => {
    const out: Update[] = []
    const reasons: string[] = []
    if (compileAdapter(spec, { generate }).decode(frame, new AdapterState(), out, reasons) === null)
      throw new Error('no rule matched')
    return { out, reasons }
  }
  const fast = run(true)
  expect(run(false)).toEqual(fast)
  return fast
}

describe('outcome on books and trades', () => {
  it('a book emit marks the NO contract’s own book, also on the generated path of plain pairs', () => {
    const spec = adapter([
      {
        name: 'no book',
        when: [{ path: 'type', equals: 'no' }],
        emit: [
          {
            kind: 'book',
            market: 'm',
            snapshot: true,
            outcome: 'no',
            bids: { path: 'b', shape: 'pairs' },
            asks: { path: 'a', shape: 'pairs' },
          },
        ],
      },
    ])
    expect(decode(spec, { v: 'test', type: 'no', m: 'X', b: [[0.6, 1]], a: [] }).out).toEqual([
      { kind: 'book', market: 'X', snapshot: true, bids: [[0.6, 1]], asks: [], outcome: 'no' },
    ])
  })

  it('a trade emit maps the contract; an unmapped value gives none; a constant gives that', () => {
    const spec = adapter([
      {
        name: 'trade',
        when: [{ path: 'type', equals: 't' }],
        emit: [
          {
            kind: 'trade',
            market: 'm',
            price: 'p',
            size: 'q',
            side: { path: 's', map: { B: 'buy', S: 'sell' } },
            outcome: [
              { path: 'c', map: { YES: 'yes', NO: 'no' } },
              { path: 'k', map: { '2': 'no' } },
            ],
          },
        ],
      },
    ])
    const t = (extra: Record<string, unknown>) =>
      decode(spec, { v: 'test', type: 't', m: 'X', p: 0.3, q: 2, s: 'B', ...extra }).out[0]
    expect(t({ c: 'NO' })).toEqual({
      kind: 'trade',
      market: 'X',
      price: 0.3,
      size: 2,
      side: 'buy',
      ts: null,
      outcome: 'no',
    })
    expect(t({ k: 2 })).toMatchObject({ outcome: 'no' })
    expect(t({ c: 'MAYBE' })).not.toHaveProperty('outcome')
  })

  it('refuses an outcome other than the two contracts', () => {
    const bad = (emit: unknown) => parseAdapter(file([{ name: 'r', when: [], emit: [emit] }]))
    expect(bad({ kind: 'book', snapshot: true, outcome: 'yes' }).ok).toBe(false)
    expect(bad({ kind: 'trade', price: 'p', size: 'q', outcome: { value: 'maybe' } }).ok).toBe(false)
    expect(bad({ kind: 'trade', price: 'p', size: 'q', outcome: { path: 'c', map: { Y: 'up' } } }).ok).toBe(
      false,
    )
  })
})

describe('ticker figures', () => {
  const spec = adapter([
    {
      name: 'tick',
      when: [],
      emit: [
        {
          kind: 'ticker',
          market: 'm',
          chance: { path: 'c', scale: 0.01 },
          volume: 'vol',
          liquidity: 'liq',
        },
      ],
    },
  ])

  it('chance, volume and liquidity alone make a ticker', () => {
    expect(decode(spec, { v: 'test', m: 'X', c: 40, vol: '10000', liq: 5000 }).out).toEqual([
      { kind: 'ticker', market: 'X', chance: 0.4, volume: 10000, liquidity: 5000 },
    ])
  })

  it('an unusable figure, or none at all, is unknown with the reason', () => {
    const bad = decode(spec, { v: 'test', m: 'X', vol: -1 })
    expect(bad.out.map((u) => u.kind)).toEqual(['unknown'])
    expect(bad.reasons).toEqual(['tick: a ticker whose volume is not a usable number'])
    expect(decode(spec, { v: 'test', m: 'X' }).reasons).toEqual([
      'tick: a ticker without bid, ask, last, chance, volume or liquidity',
    ])
  })
})

describe('user fields', () => {
  const spec = adapter([
    {
      name: 'fill',
      when: [{ path: 'kind', equals: 'fill' }],
      market: 'mk',
      emit: [
        {
          kind: 'user',
          topic: 'fill',
          fields: {
            market: { text: 'mk' },
            price: { num: { path: 'px', scale: 0.01 } },
            size: { num: ['qty', 'quantity'] },
            side: { side: { path: 'sd', map: { BUY: 'buy', SELL: 'sell' } } },
            outcome: { text: 'ct', map: { YES: 'yes', NO: 'no' } },
            status: { value: 'filled' },
            note: { text: 'note' },
          },
        },
      ],
    },
  ])

  it('builds the record in our units, with the item as sent under raw; absent or unmapped fields are left out', () => {
    const frame = {
      v: 'test',
      kind: 'fill',
      mk: 'M1',
      px: '40',
      quantity: 3,
      sd: 'SELL',
      ct: 'MAYBE',
      note: 7,
    }
    expect(decode(spec, frame).out).toEqual([
      {
        kind: 'user',
        topic: 'fill',
        market: 'M1',
        data: { market: 'M1', price: 0.4, size: 3, side: 'sell', status: 'filled', note: '7', raw: frame },
      },
    ])
  })

  it('a number that is not one is left out, never NaN; long text is capped', () => {
    const frame = { v: 'test', kind: 'fill', mk: 'M1', px: 'forty', note: 'n'.repeat(1000) }
    const data = (decode(spec, frame).out[0] as { data: Record<string, unknown> }).data
    expect(data).not.toHaveProperty('price')
    expect(String(data['note'])).toHaveLength(200)
  })

  it('drops a field named __proto__ (zod strips it), so no record gets another prototype', () => {
    const fields = JSON.parse('{"__proto__": {"value": 1}, "ok": {"value": 2}}') as unknown
    const r = parseAdapter(file([{ name: 'r', when: [], emit: [{ kind: 'user', topic: 'fill', fields }] }]))
    if (!r.ok) throw new Error(r.errors.join('; '))
    const out = decode(r.adapter, { v: 'test' }).out[0] as { data: object }
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype)
    expect(out.data).toEqual({ ok: 2, raw: { v: 'test' } })
  })

  it.each([
    ['raw is reserved', { raw: { value: 1 } }],
    ['an inherited name', { constructor: { value: 1 } }],
    ['not an identifier', { '1x': { value: 1 } }],
    ['two kinds in one field', { price: { num: 'p', text: 'p' } }],
    ['an unknown kind', { price: { path: 'p' } }],
    ['a side that is not ours', { side: { side: { value: 'long' } } }],
    ['too many fields', Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, { value: i }]))],
  ])('refuses %s', (_name, fields) => {
    const r = parseAdapter(file([{ name: 'r', when: [], emit: [{ kind: 'user', topic: 'fill', fields }] }]))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/^rules\.0\.emit\.0\.fields/m)
  })
})
