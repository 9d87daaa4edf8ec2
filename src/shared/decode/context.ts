// What an outer wrapper tells the messages nested inside it (Kalshi `msg`, Bybit/OKX `data`, Deribit
// `params`): the market, the kind of message, snapshot or delta, sequence and time.
import type { DataCategory } from './hints'

export interface Ctx {
  market: string | null
  category: DataCategory | null
  snapshot: boolean | undefined
  seq: number | undefined
  ts: number | null
  /** Trade `side` is the maker's (Coinbase `match`), so the taker's is the opposite. */
  makerSide: boolean
  depth: number
}

export const ROOT_CTX: Ctx = {
  market: null,
  category: null,
  snapshot: undefined,
  seq: undefined,
  ts: null,
  makerSide: false,
  depth: 0,
}
