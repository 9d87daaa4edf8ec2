// The adapter format itself, feature by feature, on small made-up adapters: what each field of
// docs/adapters.md does to a frame, and how the schema names what it refuses.
import { describe, expect, it } from 'vitest'
import {
  AdapterState,
  builtinAdapters,
  builtinSpecs,
  compileAdapter,
  FrameDecoder,
  parseAdapter,
  type AdapterSpec,
} from '../../src/shared/adapters'
import type { Update } from '../../src/shared/model'

function adapter(rules: unknown[], extra: Record<string, unknown> = {}): AdapterSpec {
  const r = parseAdapter({
    format: 'trading-monitor-adapter',
    version: 1,
    name: 'test',
    title: 'Test venue',
    docs: [],
    detect: { path: 'v', equals: 'test' },
    rules,
    ...extra,
  })
  if (!r.ok) throw new Error(r.errors.join('; '))
  return r.adapter
}

function decode(
  spec: AdapterSpec,
  frame: unknown,
  st = new AdapterState(),
): { out: Update[]; reasons: string[] } {
  const out: Update[] = []
  const reasons: string[] = []
  const rule = compileAdapter(spec).decode(frame, st, out, reasons)
  if (rule === null) throw new Error('no rule matched')
  return { out, reasons }
}

describe('adapter format', () => {
  it('reads pairs, objects and dict levels, with scale, complement and invert', () => {
    const spec = adapter([
      {
        name: 'book',
        when: [{ path: 'type', equals: 'book' }],
        emit: [
          {
            kind: 'book',
            market: 'm',
            snapshot: true,
            bids: { path: 'yes', shape: 'pairs', price: { path: '0', scale: 0.01 } },
            asks: [
              {
                path: 'no',
                shape: 'objects',
                price: { path: 'p', scale: 0.01, complement: true },
                size: 'q',
              },
            ][0],
            levels: {
              path: 'odds',
              shape: 'dict',
              price: { path: '', invert: true },
              side: { value: 'sell' },
            },
          },
        ],
      },
    ])
    const { out, reasons } = decode(spec, {
      v: 'test',
      type: 'book',
      m: 'X',
      yes: [['45', 10]],
      no: [{ p: 40, q: '7' }],
      odds: { '2.5': 3 },
    })
    expect(reasons).toEqual([])
    expect(out).toEqual([
      {
        kind: 'book',
        market: 'X',
        snapshot: true,
        bids: [[0.45, 10]],
        asks: [
          [0.6, 7],
          [0.4, 3],
        ],
      },
    ])
  })

  it('takes the side from a signed size, removes by a test, skips by a test', () => {
    const spec = adapter([
      {
        name: 'levels',
        when: [],
        emit: [
          {
            kind: 'book',
            market: { value: 'B' },
            snapshot: false,
            levels: {
              path: 'l',
              shape: 'pairs',
              size: { path: '2', abs: true },
              side: { sign: '2' },
              remove: { path: '1', equals: 0 },
              skip: { path: '0', equals: 0 },
            },
          },
        ],
      },
    ])
    const { out } = decode(spec, {
      v: 'test',
      l: [
        [10, 1, 5],
        [11, 2, -4],
        [9, 0, 1],
        [0, 3, 3],
      ],
    })
    expect(out).toEqual([
      {
        kind: 'book',
        market: 'B',
        snapshot: false,
        bids: [
          [10, 5],
          [9, 0],
        ],
        asks: [[11, 4]],
      },
    ])
  })

  it('learns channel ids from an ack and uses them for market and kind', () => {
    const spec = adapter([
      {
        name: 'ack',
        when: [{ path: 'event', equals: 'subscribed' }],
        emit: [
          {
            kind: 'control',
            topic: 'subscribed',
            learn: { id: 'chanId', channel: 'channel', market: 'symbol' },
          },
        ],
      },
      {
        name: 'trades',
        when: [{ path: '0', lookup: 'channel', equals: 'trades' }],
        emit: [{ kind: 'trade', market: { path: '0', lookup: true }, price: '1.1', size: '1.2' }],
      },
    ])
    const st = new AdapterState()
    decode(spec, { v: 'test', event: 'subscribed', chanId: 7, channel: 'trades', symbol: 'tBTCUSD' }, st)
    const c = compileAdapter(spec)
    const out: Update[] = []
    expect(c.decode([7, [1, 100, 2]], st, out, [])).toBe('trades')
    expect(out).toEqual([{ kind: 'trade', market: 'tBTCUSD', price: 100, size: 2, side: null, ts: null }])
    // Another connection has learnt nothing: the frame is not this rule's.
    expect(c.decode([7, [1, 100, 2]], new AdapterState(), [], [])).toBeNull()
  })

  it('remembers prices of id-keyed levels for updates that carry only the id', () => {
    const spec = adapter([
      {
        name: 'l2',
        when: [],
        each: 'data',
        emit: [
          {
            kind: 'book',
            market: 'symbol',
            snapshot: { path: '$.action', equals: 'partial' },
            levels: {
              path: '',
              one: true,
              shape: 'objects',
              id: 'id',
              side: { path: 'side', map: { Buy: 'buy', Sell: 'sell' } },
              remove: { path: '$.action', equals: 'delete' },
            },
          },
        ],
      },
    ])
    const st = new AdapterState()
    decode(
      spec,
      { v: 'test', action: 'partial', data: [{ symbol: 'XBT', id: 1, side: 'Buy', price: 99, size: 5 }] },
      st,
    )
    const upd = decode(
      spec,
      { v: 'test', action: 'update', data: [{ symbol: 'XBT', id: 1, side: 'Buy', size: 3 }] },
      st,
    )
    expect(upd.out).toEqual([{ kind: 'book', market: 'XBT', snapshot: false, bids: [[99, 3]], asks: [] }])
    const del = decode(
      spec,
      { v: 'test', action: 'delete', data: [{ symbol: 'XBT', id: 1, side: 'Buy' }] },
      st,
    )
    expect(del.out).toEqual([{ kind: 'book', market: 'XBT', snapshot: false, bids: [[99, 0]], asks: [] }])
    // An id never seen changes nothing rather than inventing a price.
    const unseen = decode(
      spec,
      { v: 'test', action: 'update', data: [{ symbol: 'XBT', id: 2, side: 'Buy', size: 1 }] },
      st,
    )
    expect(unseen.out).toEqual([{ kind: 'book', market: 'XBT', snapshot: false, bids: [], asks: [] }])
  })

  it('walks nested items, emits per own list, and reaches outer items with ^ and $', () => {
    const spec = adapter([
      {
        name: 'mc',
        when: [],
        each: 'mc',
        market: 'id',
        emit: [
          { kind: 'info', topic: 'definition', where: [{ path: 'def', exists: true }] },
          {
            kind: 'ticker',
            each: 'rc',
            market: { join: ['^.id', 'id'], sep: ':' },
            last: { path: 'ltp', invert: true },
          },
        ],
      },
    ])
    const { out } = decode(spec, {
      v: 'test',
      mc: [
        {
          id: '1.2',
          def: {},
          rc: [
            { id: 5, ltp: 4 },
            { id: 6, ltp: 2 },
          ],
        },
      ],
    })
    expect(out.map((u) => ({ ...u, data: undefined }))).toEqual([
      { kind: 'info', topic: 'definition', market: '1.2', data: undefined },
      { kind: 'ticker', market: '1.2:5', last: 0.25 },
      { kind: 'ticker', market: '1.2:6', last: 0.5 },
    ])
  })

  it('walks an object’s values with *', () => {
    const spec = adapter(
      [
        {
          name: 'own',
          when: [{ path: '1', equals: 'ownTrades' }],
          each: ['0', '*'],
          emit: [{ kind: 'user', topic: 'fill', market: 'pair' }],
        },
      ],
      { detect: { path: '1', equals: 'ownTrades' } },
    )
    const { out } = decode(spec, [[{ T1: { pair: 'XBT/USD' } }, { T2: { pair: 'ETH/USD' } }], 'ownTrades'])
    expect(out.map((u) => (u.kind === 'user' ? u.market : null))).toEqual(['XBT/USD', 'ETH/USD'])
  })

  it('splits and matches market names, changes their case, and offsets numbers', () => {
    const spec = adapter([
      {
        name: 'depth',
        when: [],
        emit: [
          {
            kind: 'book',
            market: [
              { path: 'topic', pattern: '^/market/level2:(.+)$' },
              { path: 'stream', split: '@', part: 0, case: 'upper' },
            ],
            snapshot: false,
            bids: { path: 'b', shape: 'pairs' },
            seq: 'u',
            prevSeq: { path: 'U', offset: -1 },
          },
        ],
      },
    ])
    expect(decode(spec, { v: 'test', stream: 'bnbbtc@depth', b: [], U: 157, u: 160 }).out).toEqual([
      { kind: 'book', market: 'BNBBTC', snapshot: false, bids: [], asks: [], seq: 160, prevSeq: 156 },
    ])
    expect(decode(spec, { v: 'test', topic: '/market/level2:BTC-USDT', b: [] }).out[0]).toMatchObject({
      market: 'BTC-USDT',
    })
  })

  it('maps trade sides, reads timestamps in each unit, and makes a bad number unknown with its reason', () => {
    const spec = adapter([
      {
        name: 'trade',
        when: [],
        each: 'data',
        emit: [
          {
            kind: 'trade',
            market: '$.s',
            price: 'p',
            size: 'q',
            side: { path: 'm', map: { true: 'sell', false: 'buy' } },
            ts: [
              { path: 'us', unit: 'us' },
              { path: 'iso', unit: 'iso' },
            ],
            id: 'id',
          },
        ],
      },
    ])
    const { out, reasons } = decode(spec, {
      v: 'test',
      s: 'BTC',
      data: [
        { p: '1.5', q: 2, m: true, us: 1_700_000_000_000_000, id: 9 },
        { p: 2, q: 1, m: false, iso: '2024-01-01T00:00:00Z' },
        { p: 'x', q: 1 },
      ],
    })
    expect(out.slice(0, 2)).toEqual([
      { kind: 'trade', market: 'BTC', price: 1.5, size: 2, side: 'sell', ts: 1_700_000_000_000, id: '9' },
      {
        kind: 'trade',
        market: 'BTC',
        price: 2,
        size: 1,
        side: 'buy',
        ts: Date.parse('2024-01-01T00:00:00Z'),
      },
    ])
    expect(out[2]).toEqual({ kind: 'unknown', raw: { p: 'x', q: 1 } })
    expect(reasons).toEqual(['trade: a trade without a usable price'])
  })

  it('an empty list is read as an empty info, not dropped', () => {
    const spec = adapter([
      {
        name: 'trades',
        when: [],
        each: 'data',
        market: '$.s',
        emit: [{ kind: 'trade', price: 'p', size: 'q' }],
      },
    ])
    expect(decode(spec, { v: 'test', s: 'X', data: [] }).out).toEqual([
      { kind: 'info', topic: 'empty', market: 'X', data: { v: 'test', s: 'X', data: [] } },
    ])
  })

  it('refuses a bad file naming the field', () => {
    const r = parseAdapter({
      format: 'trading-monitor-adapter',
      version: 1,
      name: 'Bad Name',
      title: 'x',
      docs: [],
      detect: { path: 'a' },
      rules: [{ name: 'r', when: [], emit: [{ kind: 'trade', price: 'p' }] }],
    })
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.errors.some((e) => e.startsWith('name:'))).toBe(true)
    expect(r.errors.some((e) => e.startsWith('detect:'))).toBe(true)
    expect(r.errors.some((e) => e.startsWith('rules.0.emit.0'))).toBe(true)
    expect(parseAdapter({ ...builtinSpecs()[0], name: 'auto' }).ok).toBe(false)
    expect(parseAdapter({ ...builtinSpecs()[0], textPrefix: '42' }).ok).toBe(false)
  })

  it('unwraps a text prefix only for the adapter that declares it', () => {
    const spec = adapter(
      [
        {
          name: 'event',
          when: [{ path: '0', equals: 'tick' }],
          emit: [{ kind: 'ticker', market: '1.m', last: '1.p' }],
        },
      ],
      {
        textPrefix: '^\\d+(/[^,]*,)?',
        detect: { path: '0', equals: 'tick' },
      },
    )
    const d = new FrameDecoder({ adapters: [compileAdapter(spec), ...builtinAdapters()], selection: 'auto' })
    const r = d.decodeText('42/markets,["tick",{"m":"A","p":0.5}]')
    expect(r).toMatchObject({
      ok: true,
      adapter: 'test',
      updates: [{ kind: 'ticker', market: 'A', last: 0.5 }],
    })
    const plain = new FrameDecoder({ adapters: builtinAdapters(), selection: 'auto' })
    expect(plain.decodeText('42/markets,["tick",{"m":"A","p":0.5}]').ok).toBe(false)
  })
})

describe('the decoder', () => {
  const sim = {
    channel: 'market',
    type: 'orderbook',
    market: 'm',
    snapshot: true,
    seq: 1,
    bids: [],
    asks: [],
  }

  it('auto settles on the first adapter that reads data, and says so once', () => {
    const picked: string[] = []
    const d = new FrameDecoder({
      adapters: builtinAdapters(),
      selection: 'auto',
      onPick: (a) => picked.push(a.name),
    })
    expect(d.picked).toBeNull()
    expect(d.decodeValue({ type: 'subscribed', channel: 'market', markets: ['m'] }).adapter).toBe('sim')
    expect(d.picked).toBeNull()
    d.decodeValue(sim)
    d.decodeValue(sim)
    expect(picked).toEqual(['sim'])
    expect(d.picked?.name).toBe('sim')
    // Settled: a Kraken frame is no longer offered to the Kraken adapter.
    const k = d.decodeValue([1921, [['0.04', '5', '1618678157.9', 's', 'm', '']], 'trade', 'SC/EUR'])
    expect(k.adapter).not.toBe('kraken')
    d.reset()
    expect(d.picked).toBeNull()
  })

  it('a named adapter reads only its own frames, with the reason for the rest', () => {
    const d = new FrameDecoder({ adapters: builtinAdapters(), selection: 'kraken' })
    const r = d.decodeValue(sim)
    expect(r.adapter).toBeNull()
    expect(r.updates).toEqual([{ kind: 'unknown', raw: sim }])
    expect(r.reasons).toEqual(['the kraken adapter does not recognise this frame'])
    expect(new FrameDecoder({ adapters: builtinAdapters(), selection: 'nope' }).problem).toMatch(
      /no adapter named/,
    )
  })

  it('the tolerant reader never turns a public-looking frame into account data', () => {
    const d = new FrameDecoder({ adapters: builtinAdapters(), selection: 'auto' })
    const frame = { type: 'fill', order_id: 'o1', symbol: 'XYZ', price: 1, size: 2 }
    const r = d.decodeValue(frame)
    expect(r.updates.some((u) => u.kind === 'user')).toBe(false)
    expect(r.reasons.join(' ')).toMatch(/only read from the user channel/)
  })

  it('every shipped adapter validates and has a distinct name', () => {
    const names = builtinAdapters().map((a) => a.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names[0]).toBe('sim')
    expect(names.length).toBeGreaterThanOrEqual(21)
  })
})
