// A client of the VoxFi simulator's trade and account paths for tests: JSON requests with a key, the reads that
// show what an order did, a frozen venue for exact checks, and the checks of VoxFi's refusals and answer (a).
import { expect } from 'vitest'
import { PO_CODES, type PoCode } from '../../src/shared/voxfi-orders'
import type { Simulator, VoxfiListing } from '../../src/sim'
import { httpGet, type HttpResult } from './helpers'
import { expectShape, fixture } from './voxfi-fixtures'

export type Lv = { price_ticks: number; quantity: number; order_count: number }
export type SideBook = { bids: Lv[]; asks: Lv[] }
export type Book = { yes_orderbook: SideBook; no_orderbook: SideBook }
export type Row = Record<string, unknown>
export type Trade = {
  maker_user_id: string
  outcome: string
  price_ticks: number
  quantity: number
  trade_id: string
}
export type AnswerA = {
  success: boolean
  message: string
  resting_order_id?: string
  spent?: number
  received?: number
  trades: Trade[]
}

export interface TradeClient {
  /** A JSON request (POST unless told) with the demo key unless another is given. */
  send(path: string, body: unknown, opts?: { method?: string; key?: string }): Promise<HttpResult>
  place(body: Record<string, unknown>, key?: string): Promise<HttpResult>
  cancel(id: string | number, key?: string): Promise<HttpResult>
  /** A GET with the demo key that must answer 200. */
  read<T>(path: string): Promise<T>
  book(marketId: string): Promise<Book>
  balance(): Promise<Record<string, number>>
  positions(): Promise<Row[]>
  openOrders(): Promise<Row[]>
  /** Run `fn` with the venue frozen: no market moves and the demo trader stands still meanwhile. */
  frozen<T>(fn: () => Promise<T>): Promise<T>
}

export function tradeClient(sim: Simulator<VoxfiListing>): TradeClient {
  const send: TradeClient['send'] = (path, body, opts = {}) =>
    httpGet(`${sim.baseUrl}${path}`, {
      method: opts.method ?? 'POST',
      headers: { 'X-Api-Key': opts.key ?? sim.demoKey, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const read = async <T>(path: string): Promise<T> => {
    const r = await httpGet(`${sim.baseUrl}${path}`, { headers: { 'X-Api-Key': sim.demoKey } })
    expect(r.status, path).toBe(200)
    return r.json as T
  }
  return {
    send,
    place: (body, key) => send('/trade/order', body, key === undefined ? {} : { key }),
    cancel: (id, key) =>
      send(`/trade/order/${id}`, undefined, { method: 'DELETE', ...(key === undefined ? {} : { key }) }),
    read,
    book: (m) => read<Book>(`/data/markets/${m}/orderbook`),
    balance: () => read('/data/wallet/balance'),
    positions: async () => (await read<{ positions: Row[] }>('/data/wallet/portfolio')).positions,
    openOrders: () => read<Row[]>('/data/orders'),
    frozen: async (fn) => {
      sim.faults.freeze(true)
      try {
        return await fn()
      } finally {
        sim.faults.freeze(false)
      }
    },
  }
}

/** A PO-coded refusal, in the documented error form; PO7 reads "permission denied". */
export function expectRefusal(r: HttpResult, code: PoCode, status: number): void {
  expect(r.status, r.text).toBe(status)
  const error = code === 'PO7' ? 'permission denied' : PO_CODES[code]
  expect(r.json).toEqual({ error, error_code: code })
  expectShape(r.json, fixture('rest-error-format.json'))
}

/**
 * Answer (a) carries the documented fields (rest-place-order-response-a.json) that apply: `spent` for a buy,
 * `received` for a sell, `resting_order_id` only when something rests; each with the docs' type.
 */
export function expectAnswerA(a: unknown, o: { buy: boolean; rests: boolean }): asserts a is AnswerA {
  const doc = fixture('rest-place-order-response-a.json') as Record<string, unknown>
  const keys = ['success', 'message', 'trades', o.buy ? 'spent' : 'received']
  if (o.rests) keys.push('resting_order_id')
  expect(Object.keys(a as object).sort()).toEqual(keys.sort())
  expectShape(a, Object.fromEntries(keys.map((k) => [k, doc[k]])))
  expect((a as AnswerA).success).toBe(true)
}

export const level = (side: Lv[], tick: number): Lv | undefined => side.find((l) => l.price_ticks === tick)
export const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0)
