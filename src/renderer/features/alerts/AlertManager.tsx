// The alert manager (`alert-manager`): every rule with its state, what it is waiting for, and its switches;
// the alert history; pausing everything; and what the app does when all windows are closed. Opened from the
// status bar's badge or Alt+A in any window. Opening it marks nothing read: a row is read when the trader
// clicks it (or presses Enter on it), or with "Mark all read".
import { memo, useState } from 'react'
import type { AlertEvent, AlertRuleView, KeepRunning } from '../../../shared/alerts'
import type { MonitorApi } from '../../../shared/ipc'
import type { Result } from '../../../shared/model'
import { notificationState, openAlertMarket, requestNotificationPermission } from '../../api/alert-delivery'
import { useApi } from '../../hooks/context'
import { alertText, conditionText, draftFromRule, minutesUntilTomorrowMorning } from '../../lib/alerts'
import { formatClock, formatPrice, formatSize } from '../../lib/format'
import { openAlertForm, openMarketAlert, useAlertUi } from '../../store/alerts-ui'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { usePrefs, usePriceUnit } from '../../store/prefs'
import { Dialog } from '../../ui/Dialog'
import { MenuSelect } from '../../ui/MenuSelect'
import { Options } from '../../ui/Options'

type Report = (p: Promise<Result<unknown>>) => void

const STATE_LABEL: Record<AlertRuleView['state'], string> = {
  armed: 'Armed',
  fired: 'Fired',
  disabled: 'Off',
  snoozed: 'Snoozed',
}

const KEEP_RUNNING: ReadonlyArray<{ value: KeepRunning; label: string }> = [
  { value: 'auto', label: 'Keep watching while any alert is armed' },
  { value: 'always', label: 'Always keep running in the background' },
  { value: 'never', label: 'Quit' },
]

function dayTime(ts: number): string {
  const d = new Date(ts)
  const today = new Date()
  const sameDay = d.toDateString() === today.toDateString()
  return sameDay
    ? formatClock(ts).slice(0, 5)
    : `${d.toLocaleDateString('en-GB', { weekday: 'short' })} ${formatClock(ts).slice(0, 5)}`
}

const RuleRow = memo(function RuleRow({
  rule,
  summary,
  api,
  report,
}: {
  rule: AlertRuleView
  /** The rule's condition with its market named as the listing names it (conditionText). */
  summary: string
  api: MonitorApi
  report: Report
}) {
  const [confirm, setConfirm] = useState(false)
  const snoozed = rule.state === 'snoozed'
  return (
    <li
      className={`rule-row state-${rule.state}`}
      data-testid="alert-row"
      data-state={rule.state}
      data-id={rule.id}
    >
      <button
        type="button"
        role="switch"
        className="switch"
        aria-checked={rule.enabled}
        aria-label={`${rule.enabled ? 'Disable' : 'Enable'} ${rule.label ?? summary}`}
        data-testid="alert-enabled"
        onClick={() => report(api.setAlertEnabled(rule.id, !rule.enabled))}
      >
        <span className="knob" />
      </button>
      <div className="rule-text">
        <div className="ellipsis" title={`${summary} (${rule.summary})`}>
          {rule.label ? <b>{rule.label} · </b> : null}
          <span>{summary}</span>
        </div>
        <div className="muted small ellipsis">
          {rule.mode === 'once' ? 'once' : `re-arms · cooldown ${rule.cooldownSec}s`}
          {rule.sound ? ' · sound' : ''}
          {rule.firedAt ? ` · last fired ${dayTime(rule.firedAt)}` : ''}
          {snoozed && rule.snoozedUntil ? ` · snoozed until ${dayTime(rule.snoozedUntil)}` : ''}
        </div>
        {rule.note ? (
          <div
            className={`rule-note small ${/held|stale|resync|crossed|not live|paused/i.test(rule.note) ? 'warn-text' : 'muted'}`}
            data-testid="alert-note"
          >
            {rule.note}
          </div>
        ) : null}
      </div>
      <span className={`tag tag-rule-${rule.state}`}>{STATE_LABEL[rule.state]}</span>
      <div className="rule-actions">
        {snoozed ? (
          <button
            type="button"
            className="btn small-btn"
            onClick={() => report(api.snoozeAlert(rule.id, null))}
          >
            Un-snooze
          </button>
        ) : (
          <MenuSelect
            className="small-select"
            label="Snooze"
            placeholder="Snooze…"
            disabled={!rule.enabled}
            onPick={(v) => {
              const minutes = v === 'morning' ? minutesUntilTomorrowMorning(Date.now()) : Number(v)
              report(api.snoozeAlert(rule.id, minutes))
            }}
          >
            <option value="15">15 min</option>
            <option value="60">1 hour</option>
            <option value="240">4 hours</option>
            <option value="morning">Until 08:00 tomorrow</option>
          </MenuSelect>
        )}
        {rule.state === 'fired' && rule.enabled ? (
          // A spent `once` rule: enabling it again arms it (the switch is still on, so it gets its own button).
          <button
            type="button"
            className="btn small-btn"
            data-testid="alert-rearm"
            onClick={() => report(api.setAlertEnabled(rule.id, true))}
          >
            Re-arm
          </button>
        ) : null}
        <button
          type="button"
          className="btn small-btn"
          data-testid="alert-edit"
          onClick={() => openAlertForm(draftFromRule(rule, usePrefs.getState().priceUnit))}
        >
          Edit
        </button>
        {confirm ? (
          <span className="confirm">
            <button
              type="button"
              className="btn small-btn danger"
              data-testid="alert-delete-confirm"
              autoFocus
              onClick={() => {
                setConfirm(false)
                report(api.deleteAlert(rule.id))
              }}
            >
              Delete
            </button>
            <button type="button" className="btn small-btn ghost" onClick={() => setConfirm(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="btn small-btn ghost danger-text"
            data-testid="alert-delete"
            aria-label={`Delete ${rule.label ?? summary}`}
            onClick={() => setConfirm(true)}
          >
            Delete
          </button>
        )}
      </div>
    </li>
  )
})

const HistoryRow = memo(function HistoryRow({
  e,
  api,
  report,
}: {
  e: AlertEvent
  api: MonitorApi
  report: Report
}) {
  const unit = usePriceUnit()
  const text = alertText(e, useMarketNames(), unit)
  const ack = () => {
    if (!e.acknowledged) report(api.acknowledgeAlerts([e.id]))
  }
  const unread = e.kind === 'fired' && !e.acknowledged
  return (
    <li
      className={`history-row kind-${e.kind} ${unread ? 'unread' : ''}`}
      data-testid="alert-history-row"
      data-kind={e.kind}
      data-acknowledged={e.acknowledged}
      data-id={e.id}
      data-at={e.at}
      data-market={e.market ?? undefined}
      tabIndex={0}
      aria-label={`${e.kind === 'held' ? 'Held' : 'Fired'} ${formatClock(e.at)}: ${text.title}${unread ? ' (unread; Enter marks read)' : ''}`}
      onClick={ack}
      onKeyDown={(ev) => {
        if (ev.target === ev.currentTarget && (ev.key === 'Enter' || ev.key === ' ')) {
          ev.preventDefault()
          ack()
        }
      }}
    >
      <span className="unread-dot" aria-hidden="true" />
      <span className="c-time num">{formatClock(e.at)}</span>
      <span className={`tag tag-history-${e.kind}`}>{e.kind}</span>
      <div className="history-text">
        <div className="ellipsis" title={e.market ? `${text.title} (${e.market})` : text.title}>
          {text.title}
        </div>
        <div className="muted small ellipsis" title={text.detail}>
          {text.detail}
        </div>
      </div>
      <span className="num history-value">
        {e.value === null ? '' : e.quote ? formatPrice(e.value, unit) : formatSize(e.value)}
      </span>
      {e.market ? (
        <button
          type="button"
          className="link-btn"
          onClick={(ev) => {
            ev.stopPropagation()
            ack()
            openAlertMarket(api, e.market as string)
          }}
        >
          Open
        </button>
      ) : (
        <span />
      )}
    </li>
  )
})

function NotificationNote() {
  // Re-read after a permission request (the API has no change event that every browser fires).
  useAlertUi((s) => s.permissionVersion)
  const state = notificationState()
  if (state === 'electron' || state === 'granted') return null
  if (state === 'unsupported')
    return (
      <div className="notify-note muted" data-testid="alert-notify-note" data-state={state}>
        This browser has no notifications: alerts show in-page only.
      </div>
    )
  if (state === 'denied')
    return (
      <div className="notify-note warn-text" data-testid="alert-notify-note" data-state={state}>
        Notifications blocked: alerts show in-page only. Allow notifications for this page in the browser’s
        site settings to be told with the tab in the background.
      </div>
    )
  return (
    <div className="notify-note muted" data-testid="alert-notify-note" data-state={state}>
      Browser notifications are off.{' '}
      <button type="button" className="link-btn" onClick={() => void requestNotificationPermission()}>
        Allow notifications
      </button>
    </div>
  )
}

export function AlertManager({ onClose }: { onClose(): void }) {
  const api = useApi()
  const names = useMarketNames()
  const unit = usePriceUnit()
  const alerts = useMonitor((s) => s.alerts)
  const loadError = useMonitor((s) => s.alertsError)
  const selected = useAlertUi((s) => s.selectedMarket)
  const [error, setError] = useState<string | null>(null)

  const report: Report = (p) => {
    setError(null)
    void p.then(
      (r) => {
        if (!r.ok) setError(r.error.message)
      },
      (e: unknown) => setError(String(e)),
    )
  }

  const rules = alerts?.rules ?? []
  const history = alerts?.history ?? []
  const armed = rules.filter((r) => r.state === 'armed').length

  return (
    <Dialog
      title="Alerts"
      heading={
        <>
          Alerts{' '}
          <span className="muted small">
            {rules.length} {rules.length === 1 ? 'rule' : 'rules'} · {armed} armed · {alerts?.unread ?? 0}{' '}
            unread
          </span>
        </>
      }
      testId="alert-manager"
      className="alert-manager"
      onClose={onClose}
      actions={
        <button
          type="button"
          className="btn primary"
          data-testid="alert-new"
          onClick={() => openMarketAlert(selected)}
        >
          + New alert
        </button>
      }
    >
      {loadError && !alerts ? (
        <div className="alert error" role="alert">
          Alerts could not be loaded: {loadError}
        </div>
      ) : null}
      {error ? (
        <div className="alert error" role="alert" data-testid="alert-manager-error">
          {error}
        </div>
      ) : null}
      {alerts?.paused ? (
        <div className="alert warn" data-testid="alerts-paused-note">
          All alerts are paused: nothing fires until you resume them.
        </div>
      ) : null}
      <NotificationNote />
      <div className="manager-settings">
        <button
          type="button"
          className={`btn ${alerts?.paused ? 'on-warn' : ''}`}
          aria-pressed={alerts?.paused ?? false}
          data-testid="alerts-pause"
          disabled={!alerts}
          onClick={() => report(api.pauseAlerts(!(alerts?.paused ?? false)))}
        >
          {alerts?.paused ? 'Resume alerts' : 'Pause all alerts'}
        </button>
        <label className="inline">
          <span>When all windows are closed</span>
          <select
            data-testid="alerts-keep-running"
            value={alerts?.keepRunning ?? 'auto'}
            disabled={!alerts}
            onChange={(e) => report(api.setKeepRunning(e.target.value as KeepRunning))}
          >
            <Options of={KEEP_RUNNING} />
          </select>
        </label>
      </div>
      <section className="manager-section">
        <h3>Rules</h3>
        {alerts === null && !loadError ? <div className="empty-note">Loading alerts…</div> : null}
        {alerts && rules.length === 0 ? (
          <div className="empty-note">
            No alerts yet. Right-click a price in the ladder (or press <kbd>A</kbd> on a focused level), click
            the last price, or use + New alert.
          </div>
        ) : null}
        <ul className="rule-list" aria-label="Alert rules">
          {rules.map((r) => (
            <RuleRow
              key={r.id}
              rule={r}
              summary={conditionText(r.condition, names, unit)}
              api={api}
              report={report}
            />
          ))}
        </ul>
      </section>
      <section className="manager-section">
        <div className="section-head">
          <h3>History</h3>
          <button
            type="button"
            className="link-btn"
            data-testid="alerts-ack-all"
            disabled={!alerts || alerts.unread === 0}
            onClick={() => report(api.acknowledgeAlerts('all'))}
          >
            Mark all read
          </button>
        </div>
        {alerts && history.length === 0 ? <div className="empty-note">Nothing has fired yet.</div> : null}
        <ul className="history-list" aria-label="Alert history">
          {history.map((e) => (
            <HistoryRow key={`${e.id}@${e.at}`} e={e} api={api} report={report} />
          ))}
        </ul>
      </section>
      <div className="shortcuts muted small">
        <kbd>Alt A</kbd> alerts · in the ladder <kbd>↑</kbd>
        <kbd>↓</kbd> pick a level, <kbd>A</kbd> alert at it, <kbd>⇧F10</kbd> menu · on a market row{' '}
        <kbd>A</kbd> alert · <kbd>Enter</kbd> on a history row marks it read · <kbd>Esc</kbd> close
      </div>
    </Dialog>
  )
}
