// The first book from REST (VoxFi does not promise one after a subscribe): the docs' body read by the voxfi adapter's
// own rule, dated when it was asked for, dropped when the venue has no such endpoint, and limited in flight.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { orderbookPath, RestBooks } from '../../../src/main/services/market/rest-books'
import type { Result, Update } from '../../../src/shared/model'
import { captureLogger, waitFor } from '../helpers'

type Level = { price_ticks: number; quantity: number; order_count: number }
type Side = { outcome: string; bids: Level[]; asks: Level[]; last_price: number; spread: number }

/** GET /v1/data/markets/{id}/orderbook as the docs show it (the playground's placeholders: 123, "<string>"). */
const DOCUMENTED = (
  JSON.parse(readFileSync(join(__dirname, '../../fixtures/voxfi/rest-orderbook.json'), 'utf8')) as {
    example: Record<string, unknown> & { yes_orderbook: Side; no_orderbook: Side }
  }
).example

/** One contract's side of the documented body with real values: one level each way, and its last price. */
function side(
  documented: Side,
  outcome: string,
  bid: [number, number],
  ask: [number, number],
  last: number,
): Side {
  const level = ([price_ticks, quantity]: [number, number]): Level => ({
    price_ticks,
    quantity,
    order_count: 2,
  })
  return {
    ...documented,
    outcome,
    bids: [level(bid)],
    asks: [level(ask)],
    last_price: last,
    spread: ask[0] - bid[0],
  }
}

/** The documented body with real values: a YES book 36/38 that last traded at 37, and its NO mirror. */
const BOOK = {
  ...DOCUMENTED,
  chance: 37,
  liquidity: 8000,
  market_price_no: 63,
  market_price_yes: 37,
  volume: 25000,
  yes_orderbook: side(DOCUMENTED.yes_orderbook, 'YES', [36, 120], [38, 80], 37),
  no_orderbook: side(DOCUMENTED.no_orderbook, 'NO', [62, 80], [64, 120], 63),
}

/** Every key path of a JSON value (an array's items under `[]`), to hold BOOK to the documented shape. */
function keyPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => keyPaths(v, `${at}[]`)))]
  if (typeof value !== 'object' || value === null) return [at]
  return Object.entries(value).flatMap(([k, v]) => keyPaths(v, at === '' ? k : `${at}.${k}`))
}

function setup(answer: (path: string) => Result<unknown> | Promise<Result<unknown>>, concurrency = 4) {
  const asked: string[] = []
  const unverified: string[] = []
  const applied: Array<{ market: string; updates: readonly Update[]; requestedAt: number }> = []
  const rest = {
    get: async (path: string) => {
      asked.push(path)
      return answer(path)
    },
  }
  let clock = 1000
  const books = new RestBooks({
    rest: () => rest,
    key: async () => 'k-0123456789',
    wanted: () => true,
    wantsBook: () => true,
    apply: (market, updates, requestedAt) => {
      applied.push({ market, updates, requestedAt })
      return true
    },
    unverified: (m) => unverified.push(m),
    log: captureLogger().logger,
    now: () => clock,
    concurrency,
    verifyEveryMs: 50_000,
  })
  return {
    books,
    asked,
    applied,
    unverified,
    advance: (ms: number) => {
      clock += ms
    },
  }
}

describe('REST books', () => {
  it("reads VoxFi's documented orderbook body into both books and the ticker, its last price too, dated at the request", async () => {
    // The docs' keys, every one of them and no other, with real values in place of the placeholders.
    expect(keyPaths(BOOK).sort()).toEqual(keyPaths(DOCUMENTED).sort())
    const s = setup(() => ({ ok: true, value: BOOK }))
    s.books.request(['m 1'])
    await waitFor(() => s.applied.length === 1, 'the REST book')
    expect(s.asked).toEqual([orderbookPath('m 1')])
    expect(orderbookPath('m 1')).toBe('/data/markets/m%201/orderbook')
    const a = s.applied[0]
    expect(a?.requestedAt).toBe(1000)
    // The REST body has no last_transaction (the stream's field): the last price is its last_price.
    expect(a?.updates).toEqual([
      { kind: 'book', market: 'm 1', snapshot: true, bids: [[0.36, 120]], asks: [[0.38, 80]] },
      { kind: 'book', market: 'm 1', snapshot: true, bids: [[0.62, 80]], asks: [[0.64, 120]], outcome: 'no' },
      { kind: 'ticker', market: 'm 1', last: 0.37, chance: 0.37, volume: 25000, liquidity: 8000 },
    ])
  })

  it('stops asking a venue that has no REST books (404 before any answer)', async () => {
    const s = setup(() => ({ ok: false, error: { code: 'not_found', status: 404, message: 'no' } }), 1)
    s.books.request(['a', 'b', 'c'])
    await waitFor(() => s.asked.length === 1, 'the first request')
    await new Promise((r) => setTimeout(r, 20))
    s.books.request(['d'])
    await new Promise((r) => setTimeout(r, 20))
    expect(s.asked).toEqual([orderbookPath('a')])
    expect(s.applied).toEqual([])
  })

  it('keeps at most `concurrency` requests in flight and asks for a market once at a time', async () => {
    const release: Array<() => void> = []
    let inFlight = 0
    let most = 0
    const s = setup(
      () =>
        new Promise((resolve) => {
          inFlight++
          most = Math.max(most, inFlight)
          release.push(() => {
            inFlight--
            resolve({ ok: true, value: BOOK })
          })
        }),
      2,
    )
    s.books.request(['a', 'b', 'c', 'a', 'b'])
    await waitFor(() => release.length === 2, 'two requests')
    s.books.request(['a'])
    while (s.applied.length < 3) {
      release.shift()?.()
      await new Promise((r) => setTimeout(r, 5))
    }
    expect(most).toBe(2)
    expect(s.asked.filter((p) => p === orderbookPath('a'))).toHaveLength(1)
    expect(s.applied.map((a) => a.market).sort()).toEqual(['a', 'b', 'c'])
  })

  it('verifies a silent book over REST at most once per interval, and hands a failed verify to the resync', async () => {
    let ok = true
    const s = setup(() =>
      ok ? { ok: true, value: BOOK } : { ok: false, error: { code: 'server', status: 500, message: 'down' } },
    )
    expect(s.books.available()).toBe(false)
    s.books.request(['m'])
    await waitFor(() => s.applied.length === 1, 'the first book')
    expect(s.books.available()).toBe(true)
    s.books.verify('m')
    await waitFor(() => s.applied.length === 2, 'the verified book')
    // Again at once: it waits for the interval instead of asking.
    s.books.verify('m')
    await new Promise((r) => setTimeout(r, 20))
    expect(s.asked).toHaveLength(2)
    s.books.reset()
    ok = false
    s.books.request(['m'])
    await new Promise((r) => setTimeout(r, 20))
    s.books.verify('m')
    await waitFor(() => s.unverified.length === 1, 'the failed verify handed over')
    expect(s.unverified).toEqual(['m'])
  })

  it('stops asking with a refused key, until it changes', async () => {
    const s = setup(() => ({ ok: false, error: { code: 'unauthorized', status: 401, message: 'no' } }), 1)
    s.books.request(['a', 'b', 'c'])
    await waitFor(() => s.asked.length === 1, 'the first request')
    await new Promise((r) => setTimeout(r, 20))
    s.books.request(['d'])
    await new Promise((r) => setTimeout(r, 20))
    expect(s.asked).toEqual([orderbookPath('a')])
    s.books.reset()
    s.books.request(['d'])
    await waitFor(() => s.asked.length === 2, 'asking again after the key changed')
  })
})
