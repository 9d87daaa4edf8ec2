// Fired alerts as toasts (`alert-toast`), bottom right in every window. A toast goes by itself after TOAST_MS
// unless the pointer or the focus is on it; closing it marks the alert read, "Open" shows its market.
import { memo, useEffect, useState } from 'react'
import type { AlertEvent } from '../../../shared/alerts'
import { openAlertMarket } from '../../api/alert-delivery'
import { useApi } from '../../hooks/context'
import { alertText } from '../../lib/alerts'
import { formatClock } from '../../lib/format'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { visibleTimeout } from '../../store/page-visibility'
import { usePriceUnit } from '../../store/prefs'

export const TOAST_MS = 8_000

const Toast = memo(function Toast({ e }: { e: AlertEvent }) {
  const api = useApi()
  const text = alertText(e, useMarketNames(), usePriceUnit())
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const held = hovered || focused
  useEffect(() => {
    if (held) return
    // Timing out is not reading it: the alert stays unread in the history.
    return visibleTimeout(() => useMonitor.getState().dismissToast(e.id), TOAST_MS)
  }, [held, e.id])
  const dismiss = () => {
    useMonitor.getState().dismissToast(e.id)
    void api.acknowledgeAlerts([e.id])
  }
  return (
    <div
      className="toast"
      role="alert"
      data-testid="alert-toast"
      data-id={e.id}
      data-market={e.market ?? undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(ev) => {
        if (!ev.currentTarget.contains(ev.relatedTarget as Node | null)) setFocused(false)
      }}
      onKeyDown={(ev) => {
        if (ev.key === 'Escape') {
          ev.stopPropagation()
          dismiss()
        }
      }}
    >
      <div className="toast-head">
        <span className="toast-mark" aria-hidden="true" />
        <b title={e.market ?? undefined}>{text.title}</b>
        <span className="muted num small">{formatClock(e.at)}</span>
        <button type="button" className="icon-btn" aria-label="Dismiss (marks read)" onClick={dismiss}>
          ×
        </button>
      </div>
      {text.detail ? <div className="toast-detail small">{text.detail}</div> : null}
      {e.market ? (
        <div className="toast-actions">
          <button
            type="button"
            className="btn small-btn"
            data-testid="alert-toast-open"
            onClick={() => {
              dismiss()
              openAlertMarket(api, e.market as string)
            }}
          >
            Open market
          </button>
        </div>
      ) : null}
    </div>
  )
})

export function AlertToasts() {
  const toasts = useMonitor((s) => s.toasts)
  if (toasts.length === 0) return null
  return (
    <div className="toast-stack" aria-label="Alerts" data-testid="alert-toasts">
      {toasts.map((t) => (
        <Toast key={t.id} e={t} />
      ))}
    </div>
  )
}
