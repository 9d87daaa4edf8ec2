// Windows as engine clients: each attach gets a MonitorClient whose every call is validated again here (defence
// in depth), runs against the engine's services, and never throws to the window: a failure becomes a generic
// error while its name goes to the log. Disposing a client releases its interests and its fan-out slot.
import {
  fail,
  type AdapterChoice,
  ok,
  type Interest,
  type MethodArgs,
  type MethodResult,
  type MonitorMethod,
  TAPE_TRADES,
} from '../../shared/ipc'
import { validateArgs } from '../../shared/ipc-validate'
import type { AlertService } from './alerts/service'
import type { BookStore } from './market/books'
import type { EventsCatalog } from './market/catalog'
import type { ConnectionManager } from './feed/connection'
import { internal, invalid } from './base/errors'
import type { Fanout } from './fanout/fanout'
import type { Inspector } from './health/inspector'
import type { InterestIndex } from './market/interests'
import type { KeyManager } from './credentials/keys'
import type { ProfileService } from './settings/profiles'
import type { RecordReplay } from './recording/record-replay'
import type { SubscriptionRegistry } from './feed/registry'
import type { ResyncTracker } from './market/resync'
import type { StatusTracker } from './health/status'
import type { TapeStore } from './market/tapes'
import type { AttachOptions, InstallUpdateHandler, Logger, MonitorClient } from './base/types'
import type { UserFeed } from './account/user-feed'
import type { WorkspaceService } from './settings/workspaces'
import type { TradingApi } from './orders/api'

/** installUpdate() where no shell registered an installer (browser host, dev and demo builds). */
export const UPDATES_UNAVAILABLE =
  'Updates are not available here: only an installed desktop release updates itself.'
const DEFAULT_DEPTH = 25

export interface ClientHubDeps {
  log: Logger
  fanout: Fanout
  registry: SubscriptionRegistry
  interests: InterestIndex
  catalog: EventsCatalog
  books: BookStore
  tapes: TapeStore
  userFeed: UserFeed
  inspector: Inspector
  status: StatusTracker
  keys: KeyManager
  profiles: ProfileService
  connection: ConnectionManager
  resync: ResyncTracker
  alerts: AlertService
  workspaces: WorkspaceService
  /** The shell's update installer, if it registered one (MonitorEngine.onInstallUpdate). */
  updateInstaller?(): InstallUpdateHandler | null
  /** The venue adapters a profile can choose (shipped and the user's own). */
  adapters?: () => AdapterChoice[]
  /** Recording the feed and replaying recordings; absent: those calls fail with `unavailable`. */
  recordReplay?: RecordReplay
  /** Orders and the account; absent: those calls fail with `unavailable`. */
  trading?: TradingApi
  isClosed(): boolean
}

const NO_TRADING = { code: 'unavailable', message: 'Trading is not available here.' } as const

const NO_RECORD_REPLAY = {
  code: 'unavailable',
  message: 'Record and replay are not available here.',
} as const

interface ClientState {
  id: string
  label: string
  interests: Interest[]
  depth: number
  inspector: boolean
  disposed: boolean
}

export class ClientHub {
  private readonly clients = new Map<string, ClientState>()
  private nextId = 0

  constructor(private readonly d: ClientHubDeps) {}

  /** The listing changed: every window's market set (markets of watched events) is recomputed. */
  refreshMarkets(): void {
    for (const state of this.clients.values())
      if (!state.disposed)
        this.d.fanout.setClientMarkets(state.id, this.d.interests.marketsOf(state.interests))
  }

  /** The engine is closing: every client's calls now fail. */
  closeAll(): void {
    for (const state of this.clients.values()) state.disposed = true
    this.clients.clear()
  }

  attach(attach: AttachOptions): MonitorClient {
    const d = this.d
    if (d.isClosed()) throw new Error('the monitor is closed')
    const id = `c${++this.nextId}`
    const state: ClientState = {
      id,
      label: attach.label ?? id,
      interests: [],
      depth: DEFAULT_DEPTH,
      inspector: false,
      disposed: false,
    }
    this.clients.set(id, state)
    d.fanout.addClient(id, attach.sink, { bookDeltas: attach.bookDeltas === true })
    d.log.info('monitor: client attached', { client: id, label: state.label })

    const guard = <M extends MonitorMethod>(
      method: M,
      impl: (...args: MethodArgs<M>) => Promise<MethodResult<M>>,
    ): ((...args: MethodArgs<M>) => Promise<MethodResult<M>>) => {
      return async (...args: MethodArgs<M>) => {
        const v = validateArgs(method, args)
        if (!v.ok) return fail(invalid(v.message)) as MethodResult<M>
        if (state.disposed || d.isClosed())
          return fail(invalid('This window is no longer attached.')) as MethodResult<M>
        try {
          return await impl(...v.args)
        } catch (err) {
          // The message may come from a library; it is logged by name only, and the window gets a generic error.
          d.log.error('monitor: call failed', { method, error: err instanceof Error ? err.name : 'error' })
          return fail(internal()) as MethodResult<M>
        }
      }
    }

    const refreshInspector = (): void => {
      d.inspector.setEnabled([...this.clients.values()].some((c) => c.inspector && !c.disposed))
    }

    return {
      id,
      listEvents: guard('listEvents', async (opts) => d.catalog.list(opts?.refresh === true)),
      setInterests: guard('setInterests', async (interests) => {
        state.interests = interests
        d.fanout.setUser(
          id,
          interests.some((i) => i.channel === 'user'),
        )
        d.fanout.setClientMarkets(id, d.interests.marketsOf(interests))
        d.registry.setInterests(id, interests)
        return ok(undefined)
      }),
      setBookDepth: guard('setBookDepth', async (depth) => {
        state.depth = depth
        d.fanout.setDepth(id, depth)
        return ok(undefined)
      }),
      getMarketSnapshot: guard('getMarketSnapshot', async (market) =>
        ok({
          book: d.books.bookView(market, state.depth),
          ticker: d.books.ticker(market),
          trades: d.tapes.history(market, TAPE_TRADES),
          candles: d.tapes.candles(market),
        }),
      ),
      getUserHistory: guard('getUserHistory', async () => ok(d.userFeed.history())),
      resync: guard('resync', async (market) => {
        if (!d.interests.routed(market)) return fail(invalid(`Market "${market}" is not being watched.`))
        d.books.delete(market)
        d.resync.need(market, 'requested')
        return ok(undefined)
      }),
      reconnectNow: guard('reconnectNow', async () => {
        d.connection.reconnectNow()
        return ok(undefined)
      }),
      getStatus: guard('getStatus', async () => ok(d.status.status())),
      setInspector: guard('setInspector', async (enabled) => {
        state.inspector = enabled
        d.fanout.setInspector(id, enabled)
        refreshInspector()
        return ok(undefined)
      }),
      setVisibility: guard('setVisibility', async (visible) => {
        d.fanout.setVisible(id, visible)
        return ok(undefined)
      }),
      getKeyInfo: guard('getKeyInfo', async () => {
        await d.keys.refreshHasKey()
        return ok(d.keys.info(d.connection.profile))
      }),
      setApiKey: guard('setApiKey', async (request) => d.keys.set(request)),
      clearApiKey: guard('clearApiKey', async () => d.keys.clear()),
      useDemoKey: guard('useDemoKey', async () => d.keys.useDemo()),
      listProfiles: guard('listProfiles', async () =>
        ok({ ...d.profiles.list(), ...(d.adapters ? { adapters: d.adapters() } : {}) }),
      ),
      saveProfile: guard('saveProfile', async (input) => d.profiles.save(input)),
      selectProfile: guard('selectProfile', async (profileId) => d.profiles.select(profileId)),
      deleteProfile: guard('deleteProfile', async (profileId) => d.profiles.delete(profileId)),
      getAlerts: guard('getAlerts', async () => ok(d.alerts.view())),
      saveAlert: guard('saveAlert', async (rule) => {
        // An unknown market is refused only against a loaded listing; try to have one first.
        if (!d.catalog.loaded()) await d.catalog.list(false)
        return d.alerts.save(rule)
      }),
      deleteAlert: guard('deleteAlert', async (ruleId) => d.alerts.delete(ruleId)),
      setAlertEnabled: guard('setAlertEnabled', async (ruleId, enabled) =>
        d.alerts.setEnabled(ruleId, enabled),
      ),
      snoozeAlert: guard('snoozeAlert', async (ruleId, minutes) => d.alerts.snooze(ruleId, minutes)),
      acknowledgeAlerts: guard('acknowledgeAlerts', async (ids) => d.alerts.acknowledge(ids)),
      pauseAlerts: guard('pauseAlerts', async (paused) => {
        d.alerts.pause(paused)
        return ok(undefined)
      }),
      setKeepRunning: guard('setKeepRunning', async (mode) => {
        d.alerts.setKeepRunning(mode)
        return ok(undefined)
      }),
      getWorkspaces: guard('getWorkspaces', async () => ok(d.workspaces.view())),
      saveWorkspace: guard('saveWorkspace', async (input) => d.workspaces.saveWorkspace(input)),
      deleteWorkspace: guard('deleteWorkspace', async (wsId) => d.workspaces.deleteWorkspace(wsId)),
      setWindowWorkspace: guard('setWindowWorkspace', async (window, workspace) =>
        d.workspaces.setWindowWorkspace(window, workspace),
      ),
      setWindowMarket: guard('setWindowMarket', async (window, market) =>
        d.workspaces.setWindowMarket(window, market),
      ),
      saveWatchlist: guard('saveWatchlist', async (input) => d.workspaces.saveWatchlist(input)),
      deleteWatchlist: guard('deleteWatchlist', async (listId) => d.workspaces.deleteWatchlist(listId)),
      setBigTrade: guard('setBigTrade', async (market, rule) => d.workspaces.setBigTrade(market, rule)),
      setPriceUnit: guard('setPriceUnit', async (unit) => d.workspaces.setPriceUnit(unit)),
      installUpdate: guard('installUpdate', async () => {
        const install = d.updateInstaller?.() ?? null
        if (!install) return fail({ code: 'unavailable', message: UPDATES_UNAVAILABLE })
        d.log.info('monitor: update install requested', { client: id })
        return install()
      }),
      // ---- record and replay (record-replay.ts)
      startRecording: guard('startRecording', async () =>
        d.recordReplay ? d.recordReplay.startRecording() : fail(NO_RECORD_REPLAY),
      ),
      stopRecording: guard('stopRecording', async () =>
        d.recordReplay ? d.recordReplay.stopRecording() : fail(NO_RECORD_REPLAY),
      ),
      listRecordings: guard('listRecordings', async () =>
        d.recordReplay ? d.recordReplay.listRecordings() : fail(NO_RECORD_REPLAY),
      ),
      startReplay: guard('startReplay', async (request) =>
        d.recordReplay ? d.recordReplay.startReplay(request) : fail(NO_RECORD_REPLAY),
      ),
      controlReplay: guard('controlReplay', async (control) =>
        d.recordReplay ? d.recordReplay.controlReplay(control) : fail(NO_RECORD_REPLAY),
      ),
      stopReplay: guard('stopReplay', async () =>
        d.recordReplay ? d.recordReplay.stopReplay() : fail(NO_RECORD_REPLAY),
      ),
      getAccount: guard('getAccount', async () => (d.trading ? ok(d.trading.account()) : fail(NO_TRADING))),
      setTrading: guard('setTrading', async (input) =>
        d.trading ? d.trading.setTrading(input) : fail(NO_TRADING),
      ),
      placeOrder: guard('placeOrder', async (request) =>
        d.trading ? d.trading.place(request, attach.trading ?? 'any') : fail(NO_TRADING),
      ),
      cancelOrder: guard('cancelOrder', async (orderId) =>
        d.trading ? d.trading.cancel(orderId) : fail(NO_TRADING),
      ),
      cancelAllOrders: guard('cancelAllOrders', async () =>
        d.trading ? d.trading.cancelAll() : fail(NO_TRADING),
      ),
      mergePositions: guard('mergePositions', async (request) =>
        d.trading ? d.trading.merge(request) : fail(NO_TRADING),
      ),
      getJournal: guard('getJournal', async () => (d.trading ? ok(d.trading.journal()) : fail(NO_TRADING))),
      dispose: () => {
        if (state.disposed) return
        state.disposed = true
        this.clients.delete(id)
        d.registry.removeClient(id)
        d.fanout.removeClient(id)
        refreshInspector()
        d.log.info('monitor: client detached', { client: id })
      },
    }
  }
}
