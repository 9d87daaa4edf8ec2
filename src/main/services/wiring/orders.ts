// Orders (docs/trading.md): the per-profile trading settings, the journal beside the settings file, and the order
// service that is the one way an order, a cancel or a merge leaves the app.
import { takerFeeCents } from '../../../shared/voxfi-orders'
import { OrderJournal } from '../orders/journal'
import { OrderService } from '../orders/service'
import { folderBesideSettings } from '../options'
import { REPLAY_PROFILE_ID } from '../recording/record-replay'
import { TradingSettingsStore } from '../settings/trading'
import type { Engine, Wiring } from './engine'

/** Where a book is read for the checks: as deep as a window's ladder could ever show it. */
const CHECK_DEPTH = 500

export function wireOrders(w: Wiring): Pick<Engine, 'tradingSettings' | 'journal' | 'orders'> {
  const { options, log, now, settings, parts: p } = w
  const tradingSettings = new TradingSettingsStore({
    settings,
    changed: () => p.fanout.accountChanged(),
    paperOnly: (profileId) => profileId === REPLAY_PROFILE_ID,
  })
  const journal = new OrderJournal({
    dir: folderBesideSettings(options, options.journalDir, 'journal'),
    log,
    now,
  })
  const orders = new OrderService({
    log,
    now,
    profile: () => {
      const replay = p.recordReplay.replaying
      const profile = p.connection.profile
      return { id: replay ? REPLAY_PROFILE_ID : profile.id, demo: !replay && profile.demo, replay }
    },
    venue: () => (p.recordReplay.replaying ? null : p.connection.rest),
    key: () => p.keys.stored(p.connection.profile).catch(() => null),
    settings: tradingSettings,
    book: (market) => p.books.bookView(market, CHECK_DEPTH),
    eventOf: (market) => p.catalog.eventOf(market) ?? null,
    account: p.account,
    journal,
    feeCents: takerFeeCents,
    // Paced as executions are (a round once a burst settles, 5 s apart at most often): a round after every answer
    // spent the venue's data rate limit in seconds of active trading, and its 429 held back every REST read.
    refreshAccount: () => p.accountRest.executed(),
    changed: () => p.fanout.accountChanged(),
    journalled: (entry) => p.fanout.journal(entry),
  })
  return { tradingSettings, journal, orders }
}
