// Per-pane freshness: live (with the age of the last update once it is older than the market usually goes
// without one), quiet, stale with its reason, or resyncing with its attempt. The engine decides the state; this
// only words it, and never says "Live" for anything else.
import type { BookState } from '../../../shared/model'
import { useAgeNow } from '../../hooks/clock'
import { formatAge, formatDuration } from '../../lib/format'

/** Without a learnt usual gap, a live market's age is shown once it is older than this. */
export const AGE_AFTER_MS = 15_000
/** Even for a market that updates many times a second, the age is not shown below this (it would flicker). */
export const MIN_AGE_AFTER_MS = 1_000

export interface FreshnessBadgeProps {
  state: BookState | null
  /** ms since epoch of the last update, or null before any. */
  updatedAt: number | null
  /** The market's learnt usual gap between updates (ms). */
  usualGapMs?: number | undefined
  /** While resyncing: the attempt number of this episode. */
  resyncAttempt?: number | undefined
  /** Why the data is stale, when known ('gap', 'crossed', …). */
  staleReason?: string | null | undefined
}

/** When the age starts being shown (ms since epoch), or null if it never is in this state. */
function ageShownFrom(state: BookState | null, updatedAt: number | null, usualGapMs: number | undefined) {
  if (updatedAt === null) return null
  if (state === 'live') {
    const after =
      usualGapMs !== undefined && usualGapMs > 0 ? Math.max(usualGapMs, MIN_AGE_AFTER_MS) : AGE_AFTER_MS
    return updatedAt + after
  }
  if (state === 'quiet' || state === 'stale') return updatedAt
  return null
}

export function FreshnessBadge({
  state,
  updatedAt,
  usualGapMs,
  resyncAttempt,
  staleReason,
}: FreshnessBadgeProps) {
  const from = ageShownFrom(state, updatedAt, usualGapMs)
  // Ticks only while an age is (or is about to be) shown: one timer up to that moment, then the shared second
  // clock; nothing otherwise (a resyncing or empty badge, or a live one within its usual gap).
  const now = useAgeNow(updatedAt, from)
  const age = from !== null && updatedAt !== null && now >= from ? formatAge(now - updatedAt) : null
  const usual = usualGapMs !== undefined ? formatDuration(usualGapMs) : null
  let label: string
  let cls: string
  let title: string
  switch (state) {
    case 'live':
      cls = 'live'
      label = age !== null ? `Live · ${age}` : 'Live'
      title = usual ? `Receiving updates, usually every ${usual}.` : 'Receiving updates.'
      break
    case 'quiet':
      cls = 'quiet'
      label = age !== null ? `Quiet? · ${age}` : 'Quiet?'
      title = `No update for longer than this market usually goes without one${usual ? ` (about ${usual})` : ''}: it may be behind. The next update makes it live again.`
      break
    case 'stale':
      cls = 'stale'
      label = `Stale${staleReason ? ` (${staleReason})` : ''}${age !== null ? ` · ${age}` : ''}`
      title = `Known to be out of date${staleReason ? ` (${staleReason})` : ''} until a fresh snapshot arrives.`
      break
    case 'resyncing':
      cls = 'resyncing'
      label = resyncAttempt !== undefined ? `Resyncing #${resyncAttempt}…` : 'Resyncing…'
      title = `Out of date; a fresh snapshot has been asked for${resyncAttempt !== undefined ? ` (attempt ${resyncAttempt})` : ''} and is chased until it arrives.`
      break
    default:
      cls = 'empty'
      label = 'Waiting for data'
      title = 'No data for this market yet.'
  }
  return (
    <span
      className={`badge badge-${cls}`}
      data-testid="freshness"
      data-state={state ?? 'empty'}
      title={title}
    >
      {label}
    </span>
  )
}
