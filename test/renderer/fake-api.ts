// A scripted MonitorApi for component tests: every call is recorded, batches are pushed by the test.
import type { AlertRuleInput, AlertRuleView, AlertsView } from '../../src/shared/alerts'
import { describeCondition } from '../../src/shared/alerts'
import type { MenuCommand, MonitorApi, ViewBatch } from '../../src/shared/ipc'
import { ok } from '../../src/shared/ipc'
import type { BookView, EventSummary, ReplayStatus, StreamStatus } from '../../src/shared/model'
import { flushBatches } from '../../src/renderer/store/monitor'
import type { PositionRow } from '../../src/shared/account'
import { DEFAULT_LIMITS, type AccountView, type OrderRequest, type OrderView } from '../../src/shared/trading'
import { usePrefs } from '../../src/renderer/store/prefs'
import type { PriceUnit } from '../../src/shared/price-format'
import type { WorkspaceView } from '../../src/shared/workspace'

export interface FakeApi extends MonitorApi {
  calls: Array<{ method: string; args: unknown[] }>
  /** Deliver a batch as main does, then apply it as the next animation frame would. */
  push(batch: Omit<ViewBatch, 'seq' | 'at'> & { seq?: number; at?: number }): void
  /** Deliver a batch as main does and leave it queued for the next animation frame. */
  deliver(batch: Omit<ViewBatch, 'seq' | 'at'> & { seq?: number; at?: number }): void
  /** What main does when the trader picks an application-menu command aimed at this window. */
  menu(command: MenuCommand): void
  /** How many menu-command listeners are subscribed right now. */
  menuListeners(): number
  callsOf(method: string): unknown[][]
}

export function status(partial: Partial<StreamStatus> = {}): StreamStatus {
  return {
    profileId: 'demo',
    state: 'live',
    reconnects: 0,
    connectedSince: 1_000,
    lastMessageAt: 2_000,
    nextRetryAt: null,
    authError: null,
    credentialsError: null,
    lastError: null,
    rateLimit: null,
    counters: { frames: 10, updates: 20, malformed: 1, unknown: 2, oversized: 0 },
    incidents: [],
    hasKey: true,
    ...partial,
  }
}

/** A live two-level book of market m1. */
export function book(partial: Partial<BookView> = {}): BookView {
  return {
    market: 'm1',
    state: 'live',
    staleReason: null,
    bids: [
      [0.56, 100],
      [0.55, 50],
    ],
    asks: [
      [0.58, 70],
      [0.6, 30],
    ],
    depth: { bids: 2, asks: 2 },
    seq: 4,
    updatedAt: Date.now(),
    ...partial,
  }
}

export const EVENTS: EventSummary[] = [
  {
    id: 'e1',
    title: 'Fed decision',
    markets: [
      { id: 'm1', title: 'No change' },
      { id: 'm2', title: 'Cut' },
    ],
  },
  { id: 'e2', title: 'Lisbon marathon', markets: [{ id: 'm3', title: 'Under 2h05' }] },
]

export function emptyAlerts(partial: Partial<AlertsView> = {}): AlertsView {
  return { rules: [], history: [], unread: 0, paused: false, keepRunning: 'auto', ...partial }
}

/** A stored rule as the engine would show it, from what a window sent. */
export function ruleView(input: AlertRuleInput, partial: Partial<AlertRuleView> = {}): AlertRuleView {
  return {
    v: 1,
    id: input.id ?? 'rule-1',
    label: input.label ?? null,
    condition: input.condition,
    mode: input.mode ?? 'once',
    hysteresis: input.hysteresis ?? 0,
    cooldownSec: input.cooldownSec ?? 60,
    sound: input.sound ?? false,
    enabled: input.enabled ?? true,
    snoozedUntil: null,
    createdAt: 1_000,
    firedAt: null,
    state: 'armed',
    summary: describeCondition(input.condition),
    note: null,
    ...partial,
  }
}

/** The demo profile's account as the engine would send it: live trading, nothing held or open. */
export function account(partial: Partial<AccountView> = {}): AccountView {
  return {
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
    undecoded: 0,
    lastUpdateAt: null,
    ...partial,
  }
}

/** A VoxFi book: fake-api's YES book, and a NO book beside it (bids 0.43/0.40, asks 0.45/0.48). */
export function voxBook(partial: Partial<BookView> = {}): BookView {
  return book({
    no: {
      // → YES asks at 0.57 (better than the own 0.58) and 0.60 (beside the own 0.60).
      bids: [
        [0.43, 40],
        [0.4, 25],
      ],
      // → YES bids at 0.55 (beside the own 0.55) and 0.52.
      asks: [
        [0.45, 35],
        [0.48, 15],
      ],
      depth: { bids: 2, asks: 2 },
    },
    ...partial,
  })
}

/** An order as the demo window sends it: a live limit buy of 10 YES at 40¢ in m1, unless told otherwise. */
export function orderRequest(partial: Partial<OrderRequest> = {}): OrderRequest {
  return {
    intentId: 'intent-0001',
    profileId: 'demo',
    mode: 'live',
    market: 'm1',
    side: 'buy',
    outcome: 'YES',
    kind: 'limit',
    priceTicks: 40,
    quantity: 10,
    clickedAt: 1,
    ...partial,
  }
}

/** An order the engine keeps, open unless told otherwise (orderRequest's order). */
export function orderView(id: string, partial: Partial<OrderView> = {}): OrderView {
  return orderOf(orderRequest({ intentId: `intent-${id}` }), { id, state: 'open', ...partial })
}

/** A position of m1, flat unless told otherwise, with nothing the venue did not send. */
export function positionRow(partial: Partial<PositionRow> = {}): PositionRow {
  return { market: 'm1', size: 0, avgPrice: null, pnl: null, realizedPnl: null, updatedAt: 1, ...partial }
}

/** The order the engine would answer a request with, just sent. */
export function orderOf(request: OrderRequest, partial: Partial<OrderView> = {}): OrderView {
  return {
    id: `o-${request.intentId}`,
    venueId: null,
    intentId: request.intentId,
    mode: request.mode,
    origin: 'app',
    market: request.market,
    side: request.side,
    outcome: request.outcome,
    kind: request.kind,
    priceTicks: request.priceTicks ?? null,
    quantity: request.quantity,
    filled: 0,
    avgFillTicks: null,
    state: 'pending',
    createdAt: request.clickedAt,
    rttMs: null,
    updatedAt: request.clickedAt,
    ...partial,
  }
}

/** An empty workspace view, as the engine sends it, with the app's price unit. */
export function workspaceOf(priceUnit: PriceUnit): WorkspaceView {
  return { workspaces: [], watchlists: [], windows: [], markets: [], bigTrades: [], priceUnit }
}

function fakeReplayStatus(): ReplayStatus {
  const status: ReplayStatus = {
    file: 'rec-test.jsonl.gz',
    speed: 1,
    paused: false,
    state: 'playing',
    positionMs: 0,
    durationMs: 1000,
    profileName: 'test',
    recordedAt: 0,
    epoch: 0,
  }
  return status
}

export function createFakeApi(overrides: Partial<MonitorApi> = {}): FakeApi {
  const calls: FakeApi['calls'] = []
  const listeners = new Set<(b: ViewBatch) => void>()
  const commandListeners = new Set<(c: MenuCommand) => void>()
  let seq = 0
  const rec =
    <T>(method: string, value: T) =>
    async (...args: unknown[]) => {
      calls.push({ method, args })
      return value
    }
  const keyInfo = { profileId: 'demo', hasKey: false, label: null, expiresAt: null }
  const api: FakeApi = {
    calls,
    callsOf: (method) => calls.filter((c) => c.method === method).map((c) => c.args),
    push(batch) {
      api.deliver(batch)
      flushBatches()
    },
    deliver(batch) {
      const full: ViewBatch = { seq: batch.seq ?? ++seq, at: batch.at ?? Date.now(), ...batch }
      for (const l of listeners) l(full)
    },
    menu(command) {
      for (const l of [...commandListeners]) l(command)
    },
    menuListeners: () => commandListeners.size,
    listEvents: rec('listEvents', ok(EVENTS)),
    setInterests: rec('setInterests', ok(undefined)),
    setBookDepth: rec('setBookDepth', ok(undefined)),
    getMarketSnapshot: rec('getMarketSnapshot', ok({ book: null, ticker: null, trades: [] })),
    getUserHistory: rec('getUserHistory', ok([])),
    resync: rec('resync', ok(undefined)),
    reconnectNow: rec('reconnectNow', ok(undefined)),
    getStatus: rec('getStatus', ok(status())),
    setInspector: rec('setInspector', ok(undefined)),
    setVisibility: rec('setVisibility', ok(undefined)),
    getKeyInfo: rec('getKeyInfo', ok(keyInfo)),
    setApiKey: rec('setApiKey', ok({ ...keyInfo, hasKey: true })),
    clearApiKey: rec('clearApiKey', ok(keyInfo)),
    useDemoKey: rec('useDemoKey', ok({ ...keyInfo, hasKey: true, label: 'Demo key' })),
    listProfiles: rec(
      'listProfiles',
      ok({
        profiles: [
          {
            id: 'demo',
            name: 'Demo',
            baseUrl: 'http://127.0.0.1:1/v1',
            wsUrl: 'ws://127.0.0.1:1/ws',
            demo: true,
            keyLabel: null,
            keyExpiresAt: null,
          },
        ],
        activeId: 'demo',
      }),
    ),
    saveProfile: rec(
      'saveProfile',
      ok({ id: 'p1', name: 'x', baseUrl: '', wsUrl: '', demo: false, keyLabel: null, keyExpiresAt: null }),
    ),
    selectProfile: rec('selectProfile', ok(undefined)),
    deleteProfile: rec('deleteProfile', ok(undefined)),
    getAlerts: rec('getAlerts', ok(emptyAlerts())),
    async saveAlert(input) {
      calls.push({ method: 'saveAlert', args: [input] })
      return ok(ruleView(input))
    },
    deleteAlert: rec('deleteAlert', ok(undefined)),
    async setAlertEnabled(id, enabled) {
      calls.push({ method: 'setAlertEnabled', args: [id, enabled] })
      return ok(ruleView({ id, condition: { kind: 'auth-error' }, enabled }))
    },
    async snoozeAlert(id, minutes) {
      calls.push({ method: 'snoozeAlert', args: [id, minutes] })
      return ok(ruleView({ id, condition: { kind: 'auth-error' } }))
    },
    acknowledgeAlerts: rec('acknowledgeAlerts', ok(undefined)),
    pauseAlerts: rec('pauseAlerts', ok(undefined)),
    setKeepRunning: rec('setKeepRunning', ok(undefined)),
    openWindow: rec('openWindow', ok(undefined)),
    installUpdate: rec('installUpdate', ok(undefined)),
    // workspaces and watchlists
    // The engine's view, with the unit the window shows (a test sets that with setPriceUnit).
    async getWorkspaces() {
      calls.push({ method: 'getWorkspaces', args: [] })
      return ok(workspaceOf(usePrefs.getState().priceUnit))
    },
    async setPriceUnit(unit) {
      calls.push({ method: 'setPriceUnit', args: [unit] })
      // As the engine does: every window (this one too) hears the setting in the next workspace view.
      api.deliver({ workspace: workspaceOf(unit) })
      return ok(undefined)
    },
    setWindowMarket: rec('setWindowMarket', ok(undefined)),
    async saveWorkspace(input) {
      calls.push({ method: 'saveWorkspace', args: [input] })
      return ok({ id: input.id ?? 'ws-1', name: input.name, layout: input.layout, updatedAt: 1_000 })
    },
    deleteWorkspace: rec('deleteWorkspace', ok(undefined)),
    setWindowWorkspace: rec('setWindowWorkspace', ok(undefined)),
    async saveWatchlist(input) {
      calls.push({ method: 'saveWatchlist', args: [input] })
      return ok({ id: input.id ?? 'wl-1', name: input.name, markets: input.markets })
    },
    deleteWatchlist: rec('deleteWatchlist', ok(undefined)),
    setBigTrade: rec('setBigTrade', ok(undefined)),
    // record and replay
    startRecording: rec(
      'startRecording',
      ok({ file: 'rec-test.jsonl.gz', bytes: 0, startedAt: 0, limitBytes: 1024, frames: 0 }),
    ),
    stopRecording: rec(
      'stopRecording',
      ok({ name: 'rec-test.jsonl.gz', bytes: 0, startedAt: 0, durationMs: 0, frames: 0, profileName: null }),
    ),
    listRecordings: rec('listRecordings', ok([])),
    startReplay: rec('startReplay', ok(fakeReplayStatus())),
    controlReplay: rec('controlReplay', ok(fakeReplayStatus())),
    stopReplay: rec('stopReplay', ok(undefined)),
    // trading
    getAccount: rec('getAccount', ok(account())),
    setTrading: rec('setTrading', ok(account().trading)),
    async placeOrder(request) {
      calls.push({ method: 'placeOrder', args: [request] })
      return ok(orderOf(request))
    },
    cancelOrder: rec('cancelOrder', ok(orderView('o-1', { state: 'cancelling' }))),
    cancelAllOrders: rec('cancelAllOrders', ok({ asked: 0, cancelled: 0, failed: 0, deferred: 0 })),
    mergePositions: rec('mergePositions', ok({ market: 'm1', quantity: 1, received: 1 })),
    getJournal: rec('getJournal', ok([])),
    onBatch(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onMenuCommand(listener) {
      const own = (command: MenuCommand): void => listener(command)
      commandListeners.add(own)
      return () => commandListeners.delete(own)
    },
    ...overrides,
  }
  return api
}
