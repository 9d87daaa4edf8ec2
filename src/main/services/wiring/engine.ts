// The engine's parts and what every room's wiring shares. Each wiring/<room>.ts builds its room's services and
// says whom they hear; monitor.ts calls them in order. A callback reads `parts` when it runs, after start-up,
// so a room may hear a part built after it.
import type { AccountReader } from '../account/rest-reader'
import type { UserFeed } from '../account/user-feed'
import type { AccountModel } from '../account/model'
import type { OrderJournal } from '../orders/journal'
import type { OrderService } from '../orders/service'
import type { TradingSettingsStore } from '../settings/trading'
import type { AlertRelay } from '../alerts/relay'
import type { AlertService } from '../alerts/service'
import type { AlertEvent } from '../../../shared/alerts'
import type { Logger } from '../base/types'
import type { ClientHub } from '../clients'
import type { KeyManager } from '../credentials/keys'
import type { CredentialStore } from '../credentials/store'
import type { Fanout } from '../fanout/fanout'
import type { ConnectionManager } from '../feed/connection'
import type { DemoHost } from '../feed/demo-host'
import type { DuplicateFrames } from '../feed/duplicate-frames'
import type { SecretRedactor } from '../feed/redact'
import type { SubscriptionRegistry } from '../feed/registry'
import type { VenueCloses } from '../feed/venue-close'
import type { VenueDecoder } from '../feed/venue-decoder'
import type { FrameRouter } from '../frames'
import type { IncidentLog } from '../health/incidents'
import type { Inspector } from '../health/inspector'
import type { MarketLiveness } from '../health/liveness'
import type { StatusTracker } from '../health/status'
import type { VenueSilence } from '../health/venue-silence'
import type { BookStore } from '../market/books'
import type { EventsCatalog } from '../market/catalog'
import type { InterestIndex } from '../market/interests'
import type { MarketData } from '../market/market-data'
import type { RestBooks } from '../market/rest-books'
import type { ResyncTracker } from '../market/resync'
import type { TapeStore } from '../market/tapes'
import type { CreateMonitorOptions } from '../options'
import type { RecordReplay } from '../recording/record-replay'
import type { SeekChanges } from '../recording/seek-changes'
import type { AlertHistoryFile } from '../settings/alert-history-file'
import type { FeedRecorder } from '../recording/recorder'
import type { ProfileService } from '../settings/profiles'
import type { SettingsStore } from '../settings/store'
import type { WorkspaceService } from '../settings/workspaces'
import type { Profile } from '../../../shared/model'

export interface Engine {
  // health and the fan-out
  incidents: IncidentLog
  inspector: Inspector
  liveness: MarketLiveness
  silence: VenueSilence
  status: StatusTracker
  fanout: Fanout
  // the feed
  venue: VenueDecoder
  replayVenue: VenueDecoder
  registry: SubscriptionRegistry
  closes: VenueCloses
  duplicates: DuplicateFrames
  connection: ConnectionManager
  // market data
  books: BookStore
  tapes: TapeStore
  catalog: EventsCatalog
  interests: InterestIndex
  resync: ResyncTracker
  restBooks: RestBooks
  data: MarketData
  stopLiveness(): void
  // the account and orders
  userFeed: UserFeed
  accountRest: AccountReader
  account: AccountModel
  tradingSettings: TradingSettingsStore
  journal: OrderJournal
  orders: OrderService
  // alerts
  alerts: AlertService
  relay: AlertRelay
  // frames
  router: FrameRouter
  replayRouter: FrameRouter
  /** A replay's seek: the replay router's path, with windows told only once it lands (recording/seek-changes.ts). */
  seekRouter: FrameRouter
  seekChanges: SeekChanges
  // keys, profiles, recording, workspaces, the windows' API
  keys: KeyManager
  profiles: ProfileService
  recorder: FeedRecorder
  recordReplay: RecordReplay
  workspaces: WorkspaceService
  clients: ClientHub
}

/** What the rooms' wiring shares: the options, the engine-wide helpers, and every part (read lazily). */
export interface Wiring {
  options: CreateMonitorOptions
  log: Logger
  now(): number
  random(): number
  secrets: SecretRedactor
  settings: SettingsStore
  /** The alert history file beside the settings, and what it held at start. */
  alertHistory: { file: AlertHistoryFile; entries: AlertEvent[] }
  credentials: CredentialStore
  storeFor(profile: Profile): CredentialStore
  demo: DemoHost
  isClosed(): boolean
  parts: Engine
  /** Windows and the shell must hear the status. */
  statusChanged(): void
  /** A market's book and ticker views changed. */
  bookChanged(market: string): void
  /** Whether the active venue may be VoxFi: its adapter chosen or picked, or auto before anything was picked. */
  maybeVoxfi(): boolean
  /** Which adapter a replay reads its frames with (the recorded profile's), set by the replay. */
  replayAdapter: { name: string | undefined }
}
