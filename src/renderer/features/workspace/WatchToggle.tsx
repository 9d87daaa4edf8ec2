// The star that puts a market on (or takes it off) this window's watchlist. On market rows and the ladder.
import { useState, type MouseEvent } from 'react'
import { useApi } from '../../hooks/context'
import { useMonitor } from '../../store/monitor'
import { toggleWatch } from './watchlists'
import { useWindowWorkspace } from './window-state'
import { StarIcon } from '../../ui/icons'

export function WatchToggle({ market }: { market: string }) {
  const api = useApi()
  const chosen = useWindowWorkspace((s) => s.watchlistId)
  const watched = useMonitor((s) => {
    const lists = s.workspace?.watchlists ?? []
    const list = lists.find((l) => l.id === chosen) ?? lists[0]
    return list?.markets.includes(market) ?? false
  })
  const [error, setError] = useState<string | null>(null)
  const onClick = (e: MouseEvent) => {
    // A star inside a row must not also open the row's market.
    e.stopPropagation()
    void toggleWatch(api, market).then(setError)
  }
  return (
    <button
      type="button"
      className={`watch-toggle ${watched ? 'on' : ''} ${error ? 'error' : ''}`}
      data-testid="watch-toggle"
      data-market={market}
      aria-pressed={watched}
      aria-label={watched ? 'Remove from watchlist' : 'Add to watchlist'}
      title={error ?? (watched ? 'On your watchlist (Alt+W removes)' : 'Add to watchlist (Alt+W)')}
      onClick={onClick}
    >
      <StarIcon filled={watched} />
    </button>
  )
}
