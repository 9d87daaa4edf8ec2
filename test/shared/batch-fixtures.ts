// Views to fill ViewBatches with in the tests of the batch fold, the host's backpressure and the frame queue.
import type { AlertEvent, AlertsView } from '../../src/shared/alerts'
import type {
  BookDelta,
  BookView,
  InspectorFrame,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
} from '../../src/shared/model'
import type { WorkspaceView } from '../../src/shared/workspace'
import { DEFAULT_LIMITS, type AccountView, type JournalEntry } from '../../src/shared/trading'

export const book = (market: string, seq: number): BookView => ({
  market,
  state: 'live',
  staleReason: null,
  bids: [[0.4, seq]],
  asks: [[0.6, seq]],
  depth: { bids: 1, asks: 1 },
  seq,
  updatedAt: seq,
})

/** A delta from `base` to `version` that sets the bid at 0.4 to `size`. */
export const bookDelta = (market: string, base: number, version: number, size = version): BookDelta => ({
  market,
  base,
  version,
  state: 'live',
  staleReason: null,
  depth: { bids: 1, asks: 1 },
  seq: version,
  updatedAt: version,
  bids: [[0.4, size]],
})

export const ticker = (market: string, last: number): TickerView => ({
  market,
  bestBid: 0.4,
  bestAsk: 0.6,
  last,
  updatedAt: last,
  state: 'live',
})

export const trade = (n: number, market = 'm1'): TradeView => ({
  key: `t${n}`,
  market,
  price: 0.5,
  size: n,
  side: 'buy',
  ts: n,
  receivedAt: n,
})

export const userUpdate = (seq: number): UserUpdateView => ({
  seq,
  topic: 'order',
  market: null,
  data: {},
  receivedAt: seq,
})

export const frame = (seq: number): InspectorFrame => ({
  seq,
  receivedAt: seq,
  raw: '{}',
  truncated: false,
  classification: 'ok',
  decoded: [],
})

export const fired = (id: number): AlertEvent => ({
  id,
  ruleId: 'a-1',
  kind: 'fired',
  at: id,
  title: `alert ${id}`,
  detail: '',
  value: null,
  market: null,
  sound: false,
  acknowledged: false,
})

export const alertsView = (unread: number): AlertsView => ({
  rules: [],
  history: [],
  unread,
  paused: false,
  keepRunning: 'auto',
})

/** An empty account view of the demo profile, with `undecoded` as a mark to tell two apart. */
export const accountView = (undecoded: number): AccountView => ({
  profileId: 'demo',
  trading: {
    profileId: 'demo',
    settings: { mode: 'live', oneClick: false, limits: { ...DEFAULT_LIMITS } },
    blocked: null,
    cancelling: false,
  },
  balances: [],
  positions: [],
  fills: [],
  orders: [],
  paper: { balance: { currency: 'BRL', total: 10_000, available: 10_000, updatedAt: 1 }, positions: [] },
  reads: {},
  undecoded,
  lastUpdateAt: null,
})

export const journalEntry = (seq: number): JournalEntry => ({
  seq,
  at: seq,
  profileId: 'demo',
  mode: 'paper',
  action: 'place',
  outcome: 'sent',
  orderId: `o-${seq}`,
  venueId: null,
  market: 'm1',
})

/** A view whose one watchlist is named `watchlist`. */
export const workspaceView = (watchlist: string): WorkspaceView => ({
  workspaces: [],
  watchlists: [{ id: watchlist, name: watchlist, markets: ['m1'] }],
  windows: [],
  markets: [],
  bigTrades: [],
  priceUnit: 'cents',
})

export const status = (reconnects = 0): StreamStatus => ({
  profileId: 'demo',
  state: 'live',
  reconnects,
  connectedSince: 1,
  lastMessageAt: 2,
  nextRetryAt: null,
  authError: null,
  credentialsError: null,
  lastError: null,
  rateLimit: null,
  counters: { frames: 1, updates: 1, malformed: 0, unknown: 0, oversized: 0 },
  incidents: [],
  hasKey: true,
})

export const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
