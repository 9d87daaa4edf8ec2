// Per-pane freshness: live with the age of the last update, or why the data cannot be trusted.
import type { BookState } from '../../shared/model'
import { useNow } from '../hooks/context'
import { formatDuration } from '../lib/format'

/** A live book that has not changed for this long is labelled quiet (still live, just no activity). */
const QUIET_MS = 15_000

export function FreshnessBadge({ state, updatedAt }: { state: BookState | null; updatedAt: number | null }) {
  const now = useNow(500)
  const age = updatedAt !== null ? now - updatedAt : null
  let label: string
  let cls: string
  switch (state) {
    case 'live':
      cls = age !== null && age > QUIET_MS ? 'quiet' : 'live'
      label = age !== null ? `Live · ${formatDuration(age)}` : 'Live'
      break
    case 'stale':
      cls = 'stale'
      label = age !== null ? `Stale · ${formatDuration(age)}` : 'Stale'
      break
    case 'resyncing':
      cls = 'resyncing'
      label = 'Resyncing…'
      break
    default:
      cls = 'empty'
      label = 'Waiting for data'
  }
  return (
    <span className={`badge badge-${cls}`} data-testid="freshness" data-state={state ?? 'empty'}>
      {label}
    </span>
  )
}
