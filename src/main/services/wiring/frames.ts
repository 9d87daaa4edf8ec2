// Frames: live ones feed everything; replayed ones take the same path to books, tapes and windows, but the
// alert rules and the recorder never see them (docs/recording.md).
import { FrameRouter, type FrameRouterDeps } from '../frames'
import { SeekChanges } from '../recording/seek-changes'
import type { Engine, Wiring } from './engine'

/** Replayed data is not the market: alert rules never see it. */
const REPLAY_ALERTS = { onBook() {}, onTicker() {}, onTrade() {}, onAccount() {} }

export function wireFrames(
  w: Wiring,
): Pick<Engine, 'router' | 'replayRouter' | 'seekRouter' | 'seekChanges'> {
  const p = w.parts
  const shared: Omit<FrameRouterDeps, 'decoder' | 'alerts' | 'tap' | 'duplicate'> = {
    secrets: w.secrets,
    inspector: p.inspector,
    interests: p.interests,
    books: p.books,
    tapes: p.tapes,
    userFeed: p.userFeed,
    registry: p.registry,
    liveness: p.liveness,
    resync: p.resync,
    status: p.status,
    incidents: p.incidents,
    fanout: p.fanout,
    account: p.account,
    printed: (trade) => p.orders.onPrint(trade.market, trade.price, trade.size),
  }
  // A recording's copies are told apart as its own profile reads them, whatever the live profile is: a reference
  // recording replayed beside a VoxFi profile keeps a print sent twice, and a VoxFi one drops the copy.
  const replayed: Pick<FrameRouterDeps, 'decoder' | 'alerts' | 'replayed' | 'duplicate'> = {
    decoder: p.replayVenue,
    alerts: REPLAY_ALERTS,
    replayed: true,
    duplicate: p.duplicates.when(() => p.replayVenue.mayRead('voxfi')),
  }
  const seekChanges = new SeekChanges()
  return {
    router: new FrameRouter({
      ...shared,
      decoder: p.venue,
      duplicate: p.duplicates.whenLive(w.maybeVoxfi),
      silence: p.silence,
      alerts: p.alerts,
      tap: (text, receivedAt) => p.recorder.frame(text, receivedAt),
      userHeard: () => p.accountRest.executed(),
    }),
    replayRouter: new FrameRouter({ ...shared, ...replayed }),
    seekRouter: new FrameRouter({ ...shared, ...replayed, fanout: seekChanges }),
    seekChanges,
  }
}
