// The raw user feed, newest first: every update as received, including those whose shape could not be
// interpreted (counted in the toolbar), each led by its market's name where the listing knows it.
import { memo, useMemo } from 'react'
import type { UserUpdateView } from '../../../shared/model'
import { formatClock } from '../../lib/format'
import { hintAbove, nameOf, type MarketNames } from '../../lib/market-names'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'

const FEED_ROWS = 120

/** The envelope fields every user update repeats; the feed shows what differs. */
const ENVELOPE = new Set(['channel', 'type'])

function preview(data: unknown): string {
  let text: string
  try {
    const shown =
      typeof data === 'object' && data !== null && !Array.isArray(data)
        ? Object.fromEntries(Object.entries(data).filter(([k]) => !ENVELOPE.has(k)))
        : data
    text = JSON.stringify(shown) ?? String(data)
  } catch {
    text = String(data)
  }
  return text.length > 240 ? `${text.slice(0, 240)}…` : text
}

const FeedRow = memo(function FeedRow({ u, names }: { u: UserUpdateView; names: MarketNames }) {
  const text = preview(u.data)
  const name = nameOf(names, u.market)
  return (
    <div
      className="feed-row"
      data-testid="user-feed-row"
      data-topic={u.topic}
      data-market={u.market ?? undefined}
    >
      <span className="c-time">{formatClock(u.receivedAt)}</span>
      <span className={`tag tag-${u.topic}`}>{u.topic}</span>
      <span className="mono ellipsis" title={hintAbove(names, u.market, text)}>
        {name ? <b data-testid="user-feed-market">{name.label} </b> : null}
        {text}
      </span>
    </div>
  )
})

export function UserFeed({ hasKey }: { hasKey: boolean }) {
  const user = useMonitor((s) => s.user)
  const undecoded = useMonitor((s) => s.account?.undecoded ?? 0)
  const names = useMarketNames()
  const feed = useMemo(() => {
    const rows: UserUpdateView[] = []
    for (let i = user.length - 1; i >= 0 && rows.length < FEED_ROWS; i--) rows.push(user[i] as UserUpdateView)
    return rows
  }, [user])
  return (
    <div className="feed-pane">
      <div className="pane-toolbar">
        <span className="pane-title">Raw user feed</span>
        <span className="muted num">
          {user.length}
          {undecoded > 0 ? ` · ${undecoded} not interpreted` : ''}
        </span>
      </div>
      <div className="feed" data-testid="user-feed">
        {feed.length === 0 ? (
          <div className="empty-note">
            {hasKey ? 'Waiting for account updates…' : 'No key: no account updates.'}
          </div>
        ) : (
          feed.map((u) => <FeedRow key={u.seq} u={u} names={names} />)
        )}
      </div>
    </div>
  )
}
