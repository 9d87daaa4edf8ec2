// Engine notices that are not connection trouble (a settings file repaired at start: which entries were set aside
// and where the original was kept). Shown in the main window until dismissed for this session.
import { useState } from 'react'
import { useMonitor } from '../../store/monitor'

export function NoticeBanner() {
  const notices = useMonitor((s) => s.status?.notices)
  const [dismissed, setDismissed] = useState<readonly string[]>([])
  const shown = (notices ?? []).filter((n) => !dismissed.includes(n))
  if (shown.length === 0) return null
  return (
    <div className="alert warn banner" role="status" data-testid="settings-notice">
      <div>
        {shown.map((n) => (
          <p key={n}>{n}</p>
        ))}
      </div>
      <button className="icon-btn" onClick={() => setDismissed(notices ?? [])} aria-label="Dismiss">
        ×
      </button>
    </div>
  )
}
