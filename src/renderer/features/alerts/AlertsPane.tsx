// The alert rules at a glance, docked: each rule's state and why it is not firing, the newest firings, and the
// way into the full manager (Alt+A) or a new rule on the selected market.
import { conditionMarket, type AlertEvent, type AlertRuleView } from '../../../shared/alerts'
import { alertText, conditionText } from '../../lib/alerts'
import { formatClock, type PriceUnit } from '../../lib/format'
import type { MarketNames } from '../../lib/market-names'
import { openAlertManager, openMarketAlert } from '../../store/alerts-ui'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { useWindowWorkspace } from '../workspace'

const SHOWN_HISTORY = 20

function RuleLine({ rule, names, unit }: { rule: AlertRuleView; names: MarketNames; unit: PriceUnit }) {
  const summary = conditionText(rule.condition, names, unit)
  return (
    <li
      className={`alerts-pane-row state-${rule.state}`}
      data-testid="alerts-pane-row"
      data-state={rule.state}
      data-market={conditionMarket(rule.condition) ?? undefined}
    >
      <span className={`tag tag-rule-${rule.state}`}>{rule.state}</span>
      {/* The engine's summary names the market by id: the secondary text, in the tooltip. */}
      <span className="ellipsis" title={`${rule.summary}${rule.note ? ` · ${rule.note}` : ''}`}>
        {rule.label ? <b>{rule.label} · </b> : null}
        {summary}
        {rule.note ? <span className="muted"> · {rule.note}</span> : null}
      </span>
    </li>
  )
}

function RecentLine({ e, names, unit }: { e: AlertEvent; names: MarketNames; unit: PriceUnit }) {
  const text = alertText(e, names, unit)
  return (
    <li className={`alerts-pane-row kind-${e.kind}`} data-testid="alerts-pane-history-row">
      <span className="c-time">{formatClock(e.at)}</span>
      <span className="ellipsis" title={e.market ? `${text.detail} (${e.market})` : text.detail}>
        {text.title}
      </span>
    </li>
  )
}

export function AlertsPane() {
  const alerts = useMonitor((s) => s.alerts)
  const error = useMonitor((s) => s.alertsError)
  const selected = useWindowWorkspace((s) => s.selectedMarket)
  const names = useMarketNames()
  const unit = usePriceUnit()
  const rules = alerts?.rules ?? []
  // The view's history is newest first.
  const history = (alerts?.history ?? []).slice(0, SHOWN_HISTORY)
  return (
    <section className="alerts-pane">
      <div className="pane-toolbar">
        <span className="pane-title">
          {rules.length} rule{rules.length === 1 ? '' : 's'}
          {alerts?.paused ? ' · paused' : ''}
        </span>
        <span className="spacer" />
        <button className="btn ghost" onClick={() => openMarketAlert(selected)}>
          + Alert
        </button>
        <button className="btn ghost" onClick={openAlertManager} title="All rules and the history (Alt+A)">
          Manage…
        </button>
      </div>
      <div className="alerts-pane-body">
        {error ? <div className="alert error">{error}</div> : null}
        {rules.length === 0 ? (
          <div className="empty-note">No alert rules yet. Right-click a price, or press + Alert.</div>
        ) : (
          <ul className="alerts-pane-list">
            {rules.map((r) => (
              <RuleLine key={r.id} rule={r} names={names} unit={unit} />
            ))}
          </ul>
        )}
        {history.length > 0 ? (
          <>
            <div className="pane-subtitle muted">Recent</div>
            <ul className="alerts-pane-list">
              {history.map((h) => (
                <RecentLine key={h.id} e={h} names={names} unit={unit} />
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  )
}
