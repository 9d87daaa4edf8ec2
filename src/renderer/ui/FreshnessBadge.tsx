// Per-pane freshness badge: what lib/freshness.ts says this view may claim (live with its age once it is older
// than the market usually goes without an update, quiet, stale with its reason, resyncing with its attempt, or
// not live at all: engine lost, connection down, replay).
import type { ViewFreshness } from '../lib/freshness'
import { useFreshness } from '../hooks/freshness'

export type FreshnessBadgeProps = ViewFreshness

export function FreshnessBadge(props: FreshnessBadgeProps) {
  const { state, label, title } = useFreshness(props)
  return (
    <span className={`badge badge-${state}`} data-testid="freshness" data-state={state} title={title}>
      {label}
    </span>
  )
}
