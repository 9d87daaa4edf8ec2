// What a trader reads an event by besides its title: category, the venue's status word and the time left to its
// resolution. The countdown is its own small component on the shared minute clock (hooks/clock), so a list of
// them changes in one pass a minute, only while one is running, and re-renders a few characters, not the row.
import { memo } from 'react'
import type { EventSummary } from '../../../shared/model'
import { useMinuteClock } from '../../hooks/clock'
import { eventTiming, type EventTiming } from '../../lib/events'
import { formatDateTime } from '../../lib/format'

type Timed = Pick<EventSummary, 'status' | 'startsAt' | 'resolvesAt' | 'finishedAt'>

/** The event's countdown now, on the shared minute clock while it runs (no timer at all once it is over). */
export function useEventTiming(event: Timed): EventTiming {
  const clock = useMinuteClock(false)
  const now = useMinuteClock(eventTiming(event, clock).running)
  return eventTiming(event, now)
}

function timingTitle(event: Timed): string {
  const parts: string[] = []
  if (event.startsAt !== undefined) parts.push(`Opens ${formatDateTime(event.startsAt)}`)
  if (event.resolvesAt !== undefined) parts.push(`Resolves ${formatDateTime(event.resolvesAt)}`)
  if (event.finishedAt !== undefined) parts.push(`Finished ${formatDateTime(event.finishedAt)}`)
  if (event.status) parts.push(`Status: ${event.status}`)
  return parts.length > 0 ? `${parts.join(' · ')} (local time)` : 'No resolution time from the venue'
}

/** "3d 4h", "closes in 12m", "closed", "resolved"; nothing when the event has no time to count to. */
export const TimeLeft = memo(function TimeLeft({ event }: { event: Timed }) {
  const t = useEventTiming(event)
  if (t.phase === 'none') return null
  return (
    <span
      className={`time-left phase-${t.phase}`}
      data-testid="event-time-left"
      data-phase={t.phase}
      title={timingTitle(event)}
    >
      {t.text}
    </span>
  )
})

/** Category · status · time left, for a list row or a header; nothing for a venue that sends none of them. */
export const EventMeta = memo(function EventMeta({ event }: { event: EventSummary }) {
  const trimmed = event.status?.trim()
  // A status that is itself the countdown's final word ("Resolved", "Closed") is said once, by the countdown.
  const final = eventTiming({ status: trimmed }, 0)
  const status =
    (final.phase === 'resolved' || final.phase === 'closed') && final.text === trimmed?.toLowerCase()
      ? undefined
      : trimmed
  const tags = event.tags ?? []
  if (!event.category && !trimmed && event.resolvesAt === undefined && event.startsAt === undefined)
    return null
  return (
    <span
      className="event-meta"
      data-testid="event-meta"
      title={tags.length > 0 ? `Tags: ${tags.join(', ')}` : undefined}
    >
      {event.category ? (
        <span className="event-category" data-testid="event-category">
          {event.category}
        </span>
      ) : null}
      {status ? (
        <span className="event-status" data-testid="event-status" data-status={status.toLowerCase()}>
          {status}
        </span>
      ) : null}
      <TimeLeft event={event} />
    </span>
  )
})
