// Health (incidents, the inspector, market liveness, the status windows see) and the fan-out that carries every
// view to the windows.
import { ENGINE_HEARTBEAT_MS } from '../../../shared/ipc'
import { Fanout } from '../fanout/fanout'
import { IncidentLog } from '../health/incidents'
import { createInspector } from '../health/inspector'
import { MarketLiveness } from '../health/liveness'
import { StatusTracker } from '../health/status'
import { LIVENESS_DEFAULTS } from '../health/thresholds'
import { VenueSilence } from '../health/venue-silence'
import { REPLAY_PROFILE_ID } from '../recording/record-replay'
import type { Engine, Wiring } from './engine'

export function wireHealth(
  w: Wiring,
): Pick<Engine, 'incidents' | 'inspector' | 'liveness' | 'silence' | 'status' | 'fanout'> {
  const { options, now, parts: p } = w
  const incidents = new IncidentLog(now, w.statusChanged)
  const silence = new VenueSilence()
  const status = new StatusTracker(
    {
      profileId: () => (p.recordReplay.replaying ? REPLAY_PROFILE_ID : p.connection.profile.id),
      recording: () => p.recordReplay.recordingStatus(),
      replay: () => p.recordReplay.replayStatus(),
      connectionState: () => p.connection.state(),
      stream: () => p.connection.streamState(),
      authError: () => p.registry.authError(),
      rateLimit: () => p.connection.rest?.rateLimit() ?? null,
      counters: () => p.inspector.counters(),
      unavailable: () => p.connection.unavailable,
      adapter: () => p.venue.view(),
      marketsPaused: () => p.liveness.paused(),
      silence: () => silence.view(),
    },
    incidents,
    w.statusChanged,
  )
  const fanout = new Fanout({
    ...(options.fanoutIntervalMs !== undefined ? { intervalMs: options.fanoutIntervalMs } : {}),
    heartbeatMs: options.fanoutHeartbeatMs ?? ENGINE_HEARTBEAT_MS,
    logger: w.log,
    now,
    provider: {
      bookView: (market, depth) => p.books.bookView(market, depth),
      ticker: (market) => p.books.ticker(market),
      status: () => status.status(),
      alerts: () => p.alerts.view(),
      workspace: () => p.workspaces.view(),
      account: () => p.orders.account(),
      recentTrades: (market, limit) => p.tapes.history(market, limit),
      recentCandles: (market) => p.tapes.candles(market),
      recentFrames: (limit) => p.inspector.recent(limit),
    },
  })
  return {
    incidents,
    inspector: createInspector(),
    liveness: new MarketLiveness({ config: { ...LIVENESS_DEFAULTS, ...options.liveness } }),
    silence,
    status,
    fanout,
  }
}
