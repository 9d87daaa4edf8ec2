// Views to fill ViewBatches with in the tests of the batch fold, the host's backpressure and the frame queue.
import type { AlertEvent, AlertsView } from '../../src/shared/alerts'
import type {
  BookView,
  InspectorFrame,
  StreamStatus,
  TickerView,
  TradeView,
  UserUpdateView,
} from '../../src/shared/model'
import type { WorkspaceView } from '../../src/shared/workspace'

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
