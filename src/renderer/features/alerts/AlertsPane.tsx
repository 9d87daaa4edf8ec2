// The alert rules at a glance, docked: each rule's state and why it is not firing, the newest firings, and the
// way into the full manager (Alt+A) or a new rule on the selected market.
import type { AlertRuleView } from '../../../shared/alerts'
import { formatClock } from '../../lib/format'
import { openAlertManager, openMarketAlert } from '../../store/alerts-ui'
import { useMonitor } from '../../store/monitor'
import { useWindowWorkspace } from '../workspace/window-state'

const SHOWN_HISTORY = 20

function RuleLine({ rule }: { rule: AlertRuleView }) {
  return (
    <li
      className={`alerts-pane-row state-${rule.state}`}
      data-testid="alerts-pane-row"
      data-state={rule.state}
    >
      <span className={`tag tag-rule-${rule.state}`}>{rule.state}</span>
      <span className="ellipsis" title={rule.note ?? rule.summary}>
        {rule.label ? <b>{rule.label} · </b> : null}
        {rule.summary}
        {rule.note ? <span className="muted"> · {rule.note}</span> : null}
      </span>
    </li>
  )
}

export function AlertsPane() {
  const alerts = useMonitor((s) => s.alerts)
  const error = useMonitor((s) => s.alertsError)
  const selected = useWindowWorkspace((s) => s.selectedMarket)
  const rules = alerts?.rules ?? []
  const history = (alerts?.history ?? []).slice(-SHOWN_HISTORY).reverse()
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
              <RuleLine key={r.id} rule={r} />
            ))}
          </ul>
        )}
        {history.length > 0 ? (
          <>
            <div className="pane-subtitle muted">Recent</div>
            <ul className="alerts-pane-list">
              {history.map((h) => (
                <li key={h.id} className={`alerts-pane-row kind-${h.kind}`}>
                  <span className="c-time">{formatClock(h.at)}</span>
                  <span className="ellipsis" title={h.detail}>
                    {h.title}
                  </span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  )
}
