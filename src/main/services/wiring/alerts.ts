// Alerts: the service judges the rules, the relay carries its news to the windows (through the fan-out), the
// shell and the settings file. The relay hears the service, and the fan-out the relay, through typed events.
import { marketLabelOf } from '../../../shared/market-label'
import { AlertRelay } from '../alerts/relay'
import { AlertService } from '../alerts/service'
import type { Engine, Wiring } from './engine'

/** The alert rules watch their markets under this name in the subscription registry, like one more window. */
const ALERTS_CLIENT = 'alerts'

export function wireAlerts(w: Wiring): Pick<Engine, 'alerts' | 'relay'> {
  const { log, now, settings, parts: p } = w
  const alerts = new AlertService(
    {
      now,
      log,
      balances: () => Object.values(p.account.state().balances),
      books: p.books,
      eventOf: (market) => p.catalog.eventOf(market),
      isKnownMarket: (market) => p.data.isKnown(market),
      marketTitle: (market) => {
        const title = p.catalog.marketTitle(market)
        return title === null ? null : marketLabelOf(p.catalog.eventTitleOf(market) ?? '', title)
      },
      priceGrid: (market) => p.catalog.priceGrid(market),
      priceUnit: () => p.workspaces.priceUnit(),
      connectionState: () => p.connection.state(),
      authError: () => p.registry.authError(),
      keyExpiresAt: () => p.connection.profile.keyExpiresAt,
      wantedBooks: () => p.interests.wantedBooks(),
      setInterests: (list) => p.registry.setInterests(ALERTS_CLIENT, list),
    },
    {
      rules: settings.get().alertRules,
      keepRunning: settings.get().keepRunning,
      history: w.alertHistory.entries,
    },
  )
  const relay = new AlertRelay({
    log,
    now,
    alerts,
    connection: () => p.connection.state(),
    save: async ({ rules, keepRunning }) => {
      const r = await settings.update((s) => ({ ...s, alertRules: rules, keepRunning }))
      if (!r.ok) log.warn('monitor: could not save alert rules', { code: r.error.code })
    },
    saveHistory: (entries) => w.alertHistory.file.save(entries),
  })
  relay.onDidChangeView(() => p.fanout.alertsChanged())
  relay.onDidFire((event) => p.fanout.alertFired(event))
  return { alerts, relay }
}
