// A watchlist: the markets the trader stars, each with live bid/ask, last, change since the day's open, spread
// and freshness. Virtualised (fixed rows), and only the rows on screen are subscribed: the interest follows the
// visible range, settled for a moment so a fling through 500 rows does not subscribe each one on the way.
// Rows select their own ticker, so a busy market re-renders its row only. Reorder by drag or Alt+↑/↓. The
// venue's chance, volume and liquidity (VoxFi) are in the row's tooltip, so the columns stay as narrow.
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import type { TickerView } from '../../../shared/model'
import type { Watchlist } from '../../../shared/workspace'
import { useApi, useInterests } from '../../hooks/context'
import {
  formatChance,
  formatClock,
  formatCompact,
  formatPrice,
  formatPriceChange,
  spreadOf,
  type PriceUnit,
} from '../../lib/format'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { useFreshnessNoAge } from '../../hooks/freshness'
import { SETTLE_MS, useSettled } from '../../hooks/settled'
import { dimOf, viewFreshness } from '../../lib/freshness'
import { usePriceUnit } from '../../store/prefs'
import { NameInput } from '../../ui/NameInput'
import { editWatchlist } from './watchlists'
import { useWindowWorkspace } from './window-state'
import { CloseIcon, StarIcon } from '../../ui/icons'

export const WATCH_ROW_H = 22
const NO_MARKETS: readonly string[] = []

/** Change since the day's open, with what it is measured from; null when either end is unknown. */
export function changeOf(
  t: TickerView | undefined,
  unit: PriceUnit = 'probability',
): { value: number | null; title: string } {
  if (!t) return { value: null, title: 'No data yet.' }
  if (t.open === undefined || t.openAt === undefined)
    return { value: null, title: 'No trade seen today yet: nothing to measure a change from.' }
  if (t.last === null) return { value: null, title: 'No last price.' }
  return {
    value: t.last - t.open,
    title: `Since the day's first trade the app saw, ${formatPrice(t.open, unit)} at ${formatClock(t.openAt)}.`,
  }
}

/** The venue's own figures for the row's tooltip: " · chance 40% · vol 29.5K · liq 5,000"; "" without them. */
export function venueFigures(t: TickerView | undefined): string {
  if (!t) return ''
  let out = ''
  if (t.chance !== undefined) out += ` · chance ${formatChance(t.chance)}`
  if (t.volume !== undefined) out += ` · vol ${formatCompact(t.volume)}`
  if (t.liquidity !== undefined) out += ` · liq ${formatCompact(t.liquidity)}`
  return out
}

const Row = memo(function Row({
  market,
  title,
  index,
  top,
  cursor,
  selected,
  onOpen,
  onRemove,
  onDragStart,
  onDrop,
}: {
  market: string
  title: string | undefined
  index: number
  top: number
  cursor: boolean
  selected: boolean
  onOpen(market: string, newWindow: boolean): void
  onRemove(market: string): void
  onDragStart(index: number): void
  onDrop(index: number): void
}) {
  const t = useMonitor((s) => s.tickers[market])
  const unit = usePriceUnit()
  const change = changeOf(t, unit)
  const spread = spreadOf(t?.bestBid, t?.bestAsk)
  const fresh = useFreshnessNoAge(viewFreshness(t))
  const state = t ? fresh.state : null
  const dimmed = dimOf(fresh.state)
  const dim = dimmed ? `${dimmed}-text` : ''
  return (
    <div
      className={`watch-row ${cursor ? 'cursor' : ''} ${selected ? 'selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      data-testid="watchlist-row"
      data-market={market}
      data-state={state ?? 'none'}
      role="option"
      aria-selected={cursor}
      draggable
      onDragStart={(e: DragEvent) => {
        e.dataTransfer.effectAllowed = 'move'
        e.dataTransfer.setData('text/plain', market)
        onDragStart(index)
      }}
      onDragOver={(e: DragEvent) => {
        e.preventDefault()
        e.dataTransfer.dropEffect = 'move'
      }}
      onDrop={(e: DragEvent) => {
        e.preventDefault()
        onDrop(index)
      }}
      onClick={(e) => onOpen(market, e.shiftKey)}
      title={`${title ?? market} (${market})${venueFigures(t)} · Enter opens · Delete removes · Alt+↑/↓ moves`}
    >
      <button
        type="button"
        className="watch-toggle on"
        aria-label="Remove from watchlist"
        title="Remove from watchlist"
        tabIndex={-1}
        onClick={(e) => {
          e.stopPropagation()
          onRemove(market)
        }}
      >
        <StarIcon filled />
      </button>
      <span className="c-title ellipsis">{title ?? <span className="mono">{market}</span>}</span>
      <span className={`c-num bid-text ${dim}`} data-testid="watch-bid">
        {formatPrice(t?.bestBid, unit)}
      </span>
      <span className={`c-num ask-text ${dim}`} data-testid="watch-ask">
        {formatPrice(t?.bestAsk, unit)}
      </span>
      <span className={`c-num ${dim}`} data-testid="watch-last">
        {formatPrice(t?.last, unit)}
      </span>
      <span
        className={`c-num ${change.value === null ? '' : change.value > 0 ? 'bid-text' : change.value < 0 ? 'ask-text' : ''}`}
        title={change.title}
        data-testid="watch-change"
      >
        {change.value === null ? '—' : formatPriceChange(change.value, unit)}
      </span>
      <span className={`c-num c-spread ${dim}`}>{formatPrice(spread, unit)}</span>
      <span
        className={`watch-fresh state-${state ?? 'none'}`}
        data-testid="watch-fresh"
        aria-label={fresh.label}
        title={`${fresh.label}: ${fresh.title}${t?.updatedAt ? ` · updated ${formatClock(t.updatedAt)}` : ''}`}
      />
    </div>
  )
})

function ListTools({ lists, list }: { lists: Watchlist[]; list: Watchlist | null }) {
  const api = useApi()
  const [naming, setNaming] = useState<null | 'new' | 'rename'>(null)
  const [name, setName] = useState('')
  const [confirm, setConfirm] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const report = (p: Promise<{ ok: boolean; error?: { message: string } }>) =>
    void p.then((r) => setError(r.ok ? null : (r.error?.message ?? 'failed')))
  const submit = () => {
    const trimmed = name.trim()
    if (!trimmed) return
    if (naming === 'new')
      void api.saveWatchlist({ name: trimmed, markets: [] }).then((r) => {
        if (r.ok) useWindowWorkspace.setState({ watchlistId: r.value.id })
        setError(r.ok ? null : r.error.message)
      })
    else if (list) report(api.saveWatchlist({ id: list.id, name: trimmed, markets: list.markets }))
    setNaming(null)
  }
  if (naming)
    return (
      <div className="pane-toolbar">
        <NameInput
          label={naming === 'new' ? 'New watchlist name' : 'Watchlist name'}
          testId="watchlist-name"
          value={name}
          onChange={setName}
          onSubmit={submit}
          onCancel={() => setNaming(null)}
        />
        <button className="btn" onClick={submit}>
          {naming === 'new' ? 'Create' : 'Rename'}
        </button>
        <button className="btn ghost" onClick={() => setNaming(null)}>
          Cancel
        </button>
      </div>
    )
  return (
    <div className="pane-toolbar">
      <select
        aria-label="Watchlist"
        data-testid="watchlist-select"
        value={list?.id ?? ''}
        onChange={(e) => useWindowWorkspace.setState({ watchlistId: e.target.value })}
      >
        {lists.length === 0 ? <option value="">Watchlist</option> : null}
        {lists.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name} ({l.markets.length})
          </option>
        ))}
      </select>
      <span className="spacer" />
      <button
        className="btn ghost"
        title="New watchlist"
        data-testid="watchlist-new"
        onClick={() => {
          setName('')
          setNaming('new')
        }}
      >
        + List
      </button>
      {list ? (
        <button
          className="btn ghost"
          title="Rename this watchlist"
          onClick={() => {
            setName(list.name)
            setNaming('rename')
          }}
        >
          Rename
        </button>
      ) : null}
      {list ? (
        confirm ? (
          <button
            className="btn danger"
            onClick={() => {
              setConfirm(false)
              report(api.deleteWatchlist(list.id))
            }}
            onBlur={() => setConfirm(false)}
          >
            Delete “{list.name}”?
          </button>
        ) : (
          <button
            className="btn ghost"
            title="Delete this watchlist"
            aria-label="Delete this watchlist"
            onClick={() => setConfirm(true)}
          >
            <CloseIcon />
          </button>
        )
      ) : null}
      {error ? <span className="error-text ellipsis">{error}</span> : null}
    </div>
  )
}

export function WatchlistPane({
  owner,
  subscribe = true,
  onOpenMarket,
}: {
  owner: string
  /** False while the pane is a tab behind another: its rows then subscribe to nothing. */
  subscribe?: boolean
  onOpenMarket(market: string, newWindow: boolean): void
}) {
  const api = useApi()
  const lists = useMonitor((s) => s.workspace?.watchlists)
  const chosen = useWindowWorkspace((s) => s.watchlistId)
  const selected = useWindowWorkspace((s) => s.selectedMarket)
  const names = useMarketNames()
  const all = lists ?? []
  const list = all.find((l) => l.id === chosen) ?? all[0] ?? null
  const markets = list?.markets ?? NO_MARKETS
  const [cursor, setCursor] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const dragFrom = useRef<number | null>(null)
  const scrollRef = useRef<HTMLDivElement | null>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render on purpose
  const virtualizer = useVirtualizer({
    count: markets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => WATCH_ROW_H,
    getItemKey: (i) => markets[i] ?? i,
    overscan: 4,
  })
  const items = virtualizer.getVirtualItems()
  const visible = items.map((i) => markets[i.index]).filter((m): m is string => m !== undefined)
  const visibleKey = visible.join('\n')
  const settled = useSettled(visible, visibleKey, SETTLE_MS)
  const interests = useMemo(
    () =>
      subscribe ? settled.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })) : [],
    [settled, subscribe],
  )
  useInterests(owner, interests)

  const at = Math.min(cursor, Math.max(0, markets.length - 1))
  const edit = (change: (m: string[]) => string[]) => {
    if (!list) return
    void editWatchlist(api, list.id, change).then(setError)
  }
  const remove = (market: string) => edit((m) => m.filter((x) => x !== market))
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= markets.length) return
    edit((m) => {
      const next = [...m]
      const [item] = next.splice(from, 1)
      if (item !== undefined) next.splice(to, 0, item)
      return next
    })
  }
  const go = (index: number) => {
    const i = Math.max(0, Math.min(markets.length - 1, index))
    setCursor(i)
    virtualizer.scrollToIndex(i, { align: 'auto' })
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const market = markets[at]
    if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault()
      const to = at + (e.key === 'ArrowUp' ? -1 : 1)
      move(at, to)
      go(to)
    } else if (e.key === 'ArrowDown' || e.key === 'j') {
      e.preventDefault()
      go(at + 1)
    } else if (e.key === 'ArrowUp' || e.key === 'k') {
      e.preventDefault()
      go(at - 1)
    } else if (e.key === 'Home') go(0)
    else if (e.key === 'End') go(markets.length - 1)
    else if (e.key === 'Enter' && market !== undefined) {
      e.preventDefault()
      onOpenMarket(market, e.shiftKey)
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && market !== undefined) {
      e.preventDefault()
      remove(market)
    }
  }

  return (
    <section className="watchlist-pane" data-testid="watchlist" data-count={markets.length}>
      <ListTools lists={all} list={list} />
      <div className="watch-head">
        <span />
        <span>Market</span>
        <span className="c-num">Bid</span>
        <span className="c-num">Ask</span>
        <span className="c-num">Last</span>
        <span className="c-num" title="Change since the day's first trade the app saw">
          Chg
        </span>
        <span className="c-num c-spread">Sprd</span>
        <span />
      </div>
      {error ? <div className="alert error">{error}</div> : null}
      <div
        ref={scrollRef}
        className="watch-body"
        tabIndex={0}
        role="listbox"
        aria-label={list ? `Watchlist ${list.name}` : 'Watchlist'}
        onKeyDown={onKeyDown}
      >
        {markets.length === 0 ? (
          <div className="empty-note" data-testid="watchlist-empty">
            No markets yet. Star <StarIcon /> a market in Events or on the ladder, or press <kbd>s</kbd> on a
            market row.
          </div>
        ) : (
          <div className="watch-rows" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const market = markets[item.index]
              if (market === undefined) return null
              return (
                <Row
                  key={market}
                  market={market}
                  title={names.get(market)?.label}
                  index={item.index}
                  top={item.start}
                  cursor={item.index === at}
                  selected={market === selected}
                  onOpen={onOpenMarket}
                  onRemove={remove}
                  onDragStart={(i) => {
                    dragFrom.current = i
                  }}
                  onDrop={(i) => {
                    if (dragFrom.current !== null) move(dragFrom.current, i)
                    dragFrom.current = null
                  }}
                />
              )
            })}
          </div>
        )}
      </div>
    </section>
  )
}
