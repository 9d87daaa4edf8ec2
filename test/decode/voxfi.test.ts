// VoxFi's documented frames (test/fixtures/voxfi, one file per example of docs.voxfi.com.br) through the shipped
// `voxfi` adapter, picked by `auto` from the single frame and named explicitly: the exact updates, in 0–1 prices
// (ticks / 100), both contracts' books, the ticker's chance, and the account's executions as `user` fills whose
// record the account pane reads in our units. Never a public trade from the user channel, by any reader.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { deriveAccount } from '../../src/shared/account'
import { builtinAdapters, FrameDecoder } from '../../src/shared/adapters'
import type { Update, UserUpdateView } from '../../src/shared/model'

const DIR = resolve(import.meta.dirname, '../fixtures/voxfi')

interface Fixture {
  file: string
  url: string
  kind: string
  example: unknown
}

function fixtures(): Fixture[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json') && f !== 'index.json')
    .sort()
    .map((file) => {
      const j = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Omit<Fixture, 'file'>
      return { file, url: j.url, kind: j.kind, example: j.example }
    })
}

/** The frames VoxFi's server sends (not the client's own subscribe messages, nor REST bodies). */
const SERVER_KINDS = new Set(['ws-ack', 'ws-market', 'ws-event', 'ws-user', 'ws-heartbeat'])
const all = fixtures()
const server = all.filter((f) => SERVER_KINDS.has(f.kind))

/** A frame as the engine receives it: JSON text, or a bare text frame (`pong`) stored as a JSON string. */
const textOf = (f: Fixture): string => (typeof f.example === 'string' ? f.example : JSON.stringify(f.example))

// ---------------------------------------------------------------- expected updates, per documented example

const orderbook = (market: string): Update[] => [
  { kind: 'book', market, snapshot: true, bids: [[0.4, 100]], asks: [[0.41, 150]] },
  { kind: 'book', market, snapshot: true, bids: [], asks: [], outcome: 'no' },
  { kind: 'ticker', market, last: 0.4, chance: 0.4, volume: 10000, liquidity: 5000 },
]
const trade = (market: string): Update => ({
  kind: 'trade',
  market,
  price: 0.4,
  size: 10,
  side: 'buy',
  ts: null,
  outcome: 'yes',
})
const fill = (market: string, orderType: string, raw: unknown): Update => ({
  kind: 'user',
  topic: 'fill',
  market,
  data: {
    market,
    side: 'buy',
    price: 0.4,
    size: 10,
    outcome: 'yes',
    fee: 0.1,
    orderType,
    status: 'filled',
    raw,
  },
})
const ack = (topic: 'subscribed' | 'unsubscribed', frame: unknown): Update[] => [
  { kind: 'control', topic, data: frame },
]

/** What each documented server frame decodes to. The event channel's structure blocks are placeholders (`{}`). */
function expected(f: Fixture): { updates: Update[]; unread?: RegExp } {
  const x = f.example
  switch (f.file) {
    case 'ws-ack-subscribed-event-page.json':
    case 'ws-ack-subscribed-market-page.json':
    case 'ws-ack-subscribed-user.json':
      return { updates: ack('subscribed', x) }
    case 'ws-ack-unsubscribed-event-page.json':
    case 'ws-ack-unsubscribed-market-page.json':
    case 'ws-ack-unsubscribed-user.json':
      return { updates: ack('unsubscribed', x) }
    case 'ws-heartbeat-text-pong.json':
      return { updates: [{ kind: 'control', topic: 'heartbeat', data: 'pong' }] }
    case 'ws-market-update-orderbook.json':
      return { updates: orderbook('market-456') }
    case 'ws-market-update-orderbook-structure.json':
      return { updates: orderbook('string') }
    case 'ws-market-new-trade.json':
      return { updates: [trade('market-456')] }
    case 'ws-market-update.json':
      return { updates: [...orderbook('market-456'), trade('market-456')] }
    case 'ws-user-order-info.json':
      return { updates: [fill('market-789', 'order.filled', x)] }
    case 'ws-user-order-type-limit-buy.json':
      return { updates: [fill('market-789', 'LIMIT_BUY', x)] }
    case 'ws-user-update-structure.json':
      return { updates: [fill('string', 'LIMIT_BUY', x)] }
    // "Same structure as ... from market channel": the page's placeholder `{}` holds no book and no trade, so
    // nothing is invented from it (an empty snapshot would wipe a real book): read by voxfi, kept unknown.
    case 'ws-event-update-orderbook-structure.json':
      return { updates: [{ kind: 'unknown', raw: x }], unread: /no output applies/ }
    case 'ws-event-new-trade-structure.json':
      return { updates: [{ kind: 'unknown', raw: x }], unread: /a trade without a usable price/ }
    case 'ws-event-update-structure.json':
      return { updates: [{ kind: 'unknown', raw: x }], unread: /a trade without a usable price/ }
    default:
      throw new Error(`no expectation for ${f.file}: add one`)
  }
}

function decode(selection: string, text: string) {
  const d = new FrameDecoder({ adapters: builtinAdapters(), selection }).decodeText(text)
  if (!d.ok) throw new Error(d.error)
  return d
}

describe('VoxFi documented frames', () => {
  it('the fixtures are there: acks, market, event and user frames, the pong, and the events body', () => {
    const kinds = new Set(all.map((f) => f.kind))
    for (const k of [...SERVER_KINDS, 'rest-events']) expect(kinds, k).toContain(k)
    for (const f of all) expect(f.url, f.file).toMatch(/^https:\/\/docs\.voxfi\.com\.br\//)
  })

  for (const f of server) {
    const isText = typeof f.example === 'string'
    it(`${f.file}: auto picks voxfi from this one frame and reads it exactly`, () => {
      const want = expected(f)
      const d = decode('auto', textOf(f))
      expect(d.updates).toEqual(want.updates)
      // A bare pong is every venue's heartbeat: read without an adapter claiming it.
      expect(d.adapter).toBe(isText ? null : 'voxfi')
      if (want.unread) expect(d.reasons.join('\n')).toMatch(want.unread)
      else expect(d.reasons).toEqual([])
    })
    it(`${f.file}: the voxfi adapter, named, reads it the same`, () => {
      const want = expected(f)
      const d = decode('voxfi', textOf(f))
      expect(d.updates).toEqual(want.updates)
      expect(d.adapter).toBe('voxfi')
      if (want.unread) expect(d.reasons.join('\n')).toMatch(want.unread)
      else expect(d.reasons).toEqual([])
    })
  }

  it('auto settles on voxfi with the first data frame (an ack alone does not decide)', () => {
    const picked: string[] = []
    const d = new FrameDecoder({
      adapters: builtinAdapters(),
      selection: 'auto',
      onPick: (a) => picked.push(a.name),
    })
    const byFile = (name: string): string => textOf(server.find((f) => f.file === name) as Fixture)
    expect(d.decodeText(byFile('ws-ack-subscribed-user.json')).ok).toBe(true)
    expect(d.picked).toBeNull()
    d.decodeText(byFile('ws-market-update-orderbook.json'))
    expect(picked).toEqual(['voxfi'])
    const pong = d.decodeText('pong')
    expect(pong.ok && pong.adapter).toBe('voxfi')
  })

  it('null and missing level lists are empty books; a NO book keeps its own prices (not complemented)', () => {
    const frame = {
      msg_type: 'update-orderbook',
      event_id: 'e',
      market_id: 'm',
      orderbook: {
        yes_orderbook: { outcome: 'YES', bids: null, spread: null, last_transaction: null },
        no_orderbook: {
          outcome: 'NO',
          bids: [{ price_ticks: 58, quantity: 7, order_count: 1 }],
          asks: [{ price_ticks: '61', quantity: '3', order_count: 1 }],
        },
        chance: 41,
      },
    }
    expect(decode('auto', JSON.stringify(frame)).updates).toEqual([
      { kind: 'book', market: 'm', snapshot: true, bids: [], asks: [] },
      { kind: 'book', market: 'm', snapshot: true, bids: [[0.58, 7]], asks: [[0.61, 3]], outcome: 'no' },
      { kind: 'ticker', market: 'm', chance: 0.41 },
    ])
  })

  it('a NO trade is read in YES terms (1 − price, the taker on the other side), marked NO; a canceled one is not a print', () => {
    const frame = (last_trade: Record<string, unknown>): string =>
      JSON.stringify({ msg_type: 'new-trade', event_id: 'e', market_id: 'm', last_trade })
    const no = { canceled: false, qty_contracts: 4, avg_price: 63, side: 'SELL', contract_type: 'NO' }
    expect(decode('auto', frame(no)).updates).toEqual([
      { kind: 'trade', market: 'm', price: 0.37, size: 4, side: 'buy', ts: null, outcome: 'no' },
    ])
    const canceled = decode('voxfi', frame({ ...no, canceled: true }))
    expect(canceled.updates.map((u) => u.kind)).toEqual(['info'])
    expect(canceled.updates[0]).toMatchObject({ kind: 'info', topic: 'trade-canceled', market: 'm' })
  })

  it('an order-info event other than order.filled is the account’s, but not a fill', () => {
    const frame = { msg_type: 'order-info', trade_type: 'order.created', user_id: 'u', market_id: 'm' }
    const d = decode('auto', JSON.stringify(frame))
    expect(d.updates).toEqual([{ kind: 'user', topic: 'other', market: 'm', data: frame }])
  })
})

describe('VoxFi user frames are never public trades', () => {
  const userFrames = server.filter((f) => f.kind === 'ws-user')
  const selections = ['auto', 'tolerant', ...builtinAdapters().map((a) => a.name)]

  it('has the documented user shapes (order-info, and the one without msg_type)', () => {
    expect(userFrames.length).toBeGreaterThanOrEqual(2)
  })

  for (const f of userFrames) {
    it(`${f.file}: no reader turns it into a trade, a book or a ticker`, () => {
      for (const sel of selections) {
        const d = decode(sel, textOf(f))
        const kinds = d.updates.map((u) => u.kind)
        expect(kinds, sel).not.toContain('trade')
        expect(kinds, sel).not.toContain('book')
        expect(kinds, sel).not.toContain('ticker')
        // Only VoxFi's own adapter, which knows its user channel, makes it account data.
        if (sel === 'auto' || sel === 'voxfi') expect(d.adapter).toBe('voxfi')
        else
          expect(
            kinds.filter((k) => k === 'user'),
            sel,
          ).toEqual([])
      }
    })

    it(`${f.file}: after auto settled on another venue, the tolerant fallback keeps it unknown`, () => {
      const d = new FrameDecoder({ adapters: builtinAdapters(), selection: 'auto' })
      d.decodeValue({ channel: 'market', type: 'orderbook', market: 'm', snapshot: true, bids: [], asks: [] })
      expect(d.picked?.name).toBe('sim')
      const r = d.decodeText(textOf(f))
      expect(r.ok && r.updates.map((u) => u.kind)).toEqual(['unknown'])
    })
  }

  it('the account pane reads the fill in our units: R$0.40, 10 contracts, a buy', () => {
    const views: UserUpdateView[] = userFrames.flatMap((f, i) =>
      decode('auto', textOf(f)).updates.flatMap((u) =>
        u.kind === 'user'
          ? [{ seq: i, topic: u.topic, market: u.market, data: u.data, receivedAt: 1000 + i }]
          : [],
      ),
    )
    const account = deriveAccount(views)
    expect(account.undecoded).toBe(0)
    expect(account.fills).toHaveLength(userFrames.length)
    for (const fill of account.fills) {
      expect(fill).toMatchObject({ side: 'buy', price: 0.4, size: 10 })
      expect(fill.market).toMatch(/^(market-789|string)$/)
    }
  })
})
