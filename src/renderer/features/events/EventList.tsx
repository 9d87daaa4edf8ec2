// The events list: instant search over event and market titles, category and tag filters (where the venue sends
// them; they combine with the search), sorting, virtualised rows, expandable events with live quotes, keyboard
// navigation (arrows or j/k, Enter, Shift+Enter). An event row reads its category, status and time left to
// resolution under its title (EventMeta: one shared minute clock for every countdown). An event of one market
// (most of VoxFi's listing) quotes that market on its own row, collapsed or not; only the rows on screen, once
// the list holds still, subscribe for it. A market row's context menu (right click, the menu key or Shift+F10)
// and the A key set an alert on that market.
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import type { EventSummary, MarketSummary } from '../../../shared/model'
import { useApi, useInterests } from '../../hooks/context'
import {
  EVENT_SORTS,
  eventFacets,
  filterEvents,
  NO_EVENT_FILTERS,
  searchEvents,
  sortEvents,
  type EventFilters,
  type EventSort,
} from '../../lib/events'
import { formatChance, formatPrice } from '../../lib/format'
import { openMarketAlert } from '../../store/alerts-ui'
import { useMonitor } from '../../store/monitor'
import { useDim } from '../../hooks/freshness'
import { SETTLE_MS, useSettled } from '../../hooks/settled'
import { usePriceUnit } from '../../store/prefs'
import { toggleWatch, WatchToggle } from '../workspace'
import { ContextMenu, isMenuKey, menuPointFor, type MenuAt } from '../../ui/ContextMenu'
import { Options } from '../../ui/Options'
import { EventMeta } from './EventMeta'
import { ChevronIcon, ExternalIcon } from '../../ui/icons'

type Row =
  | { kind: 'event'; key: string; event: EventSummary; expanded: boolean; shown: number }
  | { kind: 'market'; key: string; event: EventSummary; market: MarketSummary }

const EVENT_ROW_H = 34
const MARKET_ROW_H = 26

/** The market an event row quotes: its only one. An event of several is quoted on its market rows. */
function quotedMarket(event: EventSummary): string | null {
  return event.markets.length === 1 ? (event.markets[0]?.id ?? null) : null
}

const MarketQuote = memo(function MarketQuote({ market }: { market: string }) {
  const t = useMonitor((s) => s.tickers[market])
  const unit = usePriceUnit()
  // Stale quotes (or ones nothing vouches for) are greyed out; a quiet one is only subdued (still applied).
  const dim = useDim(t)
  const mark = dim ? `${dim}-text` : ''
  return (
    <>
      <span className={`c-num bid-text ${mark}`}>{formatPrice(t?.bestBid, unit)}</span>
      <span className={`c-num ask-text ${mark}`}>{formatPrice(t?.bestAsk, unit)}</span>
      <span
        className={`c-num ${mark}`}
        title={t?.chance !== undefined ? `Chance of YES ${formatChance(t.chance)}` : undefined}
      >
        {formatPrice(t?.last, unit)}
      </span>
    </>
  )
})

export interface EventListProps {
  events: readonly EventSummary[]
  selectedMarket: string | null
  onOpenMarket(market: string, newWindow: boolean): void
  onOpenEvent(event: string): void
  /** Event to reveal (expand and scroll to), e.g. from quick open. */
  reveal?: { event: string; n: number } | null
  searchRef?: RefObject<HTMLInputElement | null>
  /** False while the list is a tab behind another: its rows then subscribe to nothing for their quotes. */
  subscribe?: boolean
}

/** The listing's two filters: by category and by tag, each offered when some event has one. */
const FACET_FILTERS = [
  {
    key: 'category',
    facets: 'categories',
    label: 'Show events of a category',
    testId: 'event-category-filter',
    all: 'All categories',
  },
  {
    key: 'tag',
    facets: 'tags',
    label: 'Show events with a tag',
    testId: 'event-tag-filter',
    all: 'All tags',
  },
] as const

export function EventList({
  events,
  selectedMarket,
  onOpenMarket,
  onOpenEvent,
  reveal,
  searchRef,
  subscribe = true,
}: EventListProps) {
  const api = useApi()
  const [query, setQuery] = useState('')
  const [filters, setFilters] = useState<EventFilters>(NO_EVENT_FILTERS)
  const [sort, setSort] = useState<EventSort>('listing')
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  const [cursorKey, setCursorKey] = useState<string | null>(null)
  const [revealed, setRevealed] = useState<{ event: string; n: number } | null>(null)
  const [menu, setMenu] = useState<MenuAt | null>(null)
  const scrollRef = useRef<HTMLDivElement | null>(null)

  // Quick open asks to reveal an event: expand it and put the cursor on it (state adjusted during render).
  if (reveal && reveal !== revealed) {
    setRevealed(reveal)
    setQuery('')
    setFilters(NO_EVENT_FILTERS)
    if (!expanded.has(reveal.event)) setExpanded(new Set(expanded).add(reveal.event))
    setCursorKey(`e:${reveal.event}`)
  }

  const facets = useMemo(() => eventFacets(events), [events])
  // A chosen category or tag the listing no longer has filters nothing out (and its select shows "All").
  const shownFilters = useMemo<EventFilters>(
    () => ({
      category: facets.categories.some((c) => c.value === filters.category) ? filters.category : null,
      tag: facets.tags.some((t) => t.value === filters.tag) ? filters.tag : null,
    }),
    [facets, filters],
  )
  const filtering = shownFilters.category !== null || shownFilters.tag !== null
  const filtered = useMemo(() => filterEvents(events, shownFilters), [events, shownFilters])

  const rows = useMemo<Row[]>(() => {
    const out: Row[] = []
    for (const m of sortEvents(searchEvents(filtered, query), sort)) {
      const open = expanded.has(m.event.id) || (query.trim() !== '' && m.viaMarkets)
      const markets = expanded.has(m.event.id) ? m.event.markets : m.markets
      out.push({
        kind: 'event',
        key: `e:${m.event.id}`,
        event: m.event,
        expanded: open,
        shown: markets.length,
      })
      if (open)
        for (const market of markets)
          out.push({ kind: 'market', key: `m:${m.event.id}:${market.id}`, event: m.event, market })
    }
    return out
  }, [filtered, query, sort, expanded])

  useInterests(
    'event-list',
    [...expanded].sort().map((id) => ({ channel: 'event' as const, id, filter: 'all' as const })),
  )

  const cursor = Math.max(
    0,
    rows.findIndex((r) => r.key === cursorKey),
  )

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render on purpose
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'event' ? EVENT_ROW_H : MARKET_ROW_H),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 10,
  })

  // A collapsed one-market event on screen watches its market; an expanded one has its event's subscription.
  const quoted: string[] = []
  for (const v of virtualizer.getVirtualItems()) {
    const row = rows[v.index]
    const market = row?.kind === 'event' && !row.expanded ? quotedMarket(row.event) : null
    if (market !== null) quoted.push(market)
  }
  const settledQuotes = useSettled(quoted, quoted.join('\n'), SETTLE_MS)
  useInterests(
    'event-list-quotes',
    subscribe ? settledQuotes.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })) : [],
  )

  const toggle = (id: string) => {
    const next = new Set(expanded)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    setExpanded(next)
  }

  const moveTo = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))]
    if (!row) return
    setCursorKey(row.key)
    virtualizer.scrollToIndex(rows.indexOf(row), { align: 'auto' })
  }

  const activate = (row: Row | undefined, newWindow: boolean) => {
    if (!row) return
    if (row.kind === 'market') onOpenMarket(row.market.id, newWindow)
    else if (newWindow) onOpenEvent(row.event.id)
    else toggle(row.event.id)
  }

  const marketMenu = (market: string, point: { x: number; y: number }) =>
    setMenu({
      ...point,
      items: [
        {
          label: 'New alert on this market…',
          testId: 'menu-alert-market',
          onSelect: () => openMarketAlert(market),
        },
        { label: 'Add to or remove from the watchlist (s)', onSelect: () => void toggleWatch(api, market) },
        { label: 'Open', onSelect: () => onOpenMarket(market, false) },
        { label: 'Open in a new window', onSelect: () => onOpenMarket(market, true) },
      ],
    })

  const onKeyDown = (e: KeyboardEvent<HTMLElement>, fromInput: boolean) => {
    const key = e.key
    const row = rows[cursor]
    if (
      !fromInput &&
      row?.kind === 'market' &&
      (isMenuKey(e) || (key.toLowerCase() === 'a' && !e.altKey && !e.ctrlKey && !e.metaKey))
    ) {
      e.preventDefault()
      if (isMenuKey(e)) marketMenu(row.market.id, menuPointFor(document.getElementById(`row-${row.key}`)))
      else openMarketAlert(row.market.id)
      return
    }
    if (!fromInput && row?.kind === 'market' && key === 's' && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault()
      void toggleWatch(api, row.market.id)
      return
    }
    if (key === 'ArrowDown' || (!fromInput && key === 'j')) {
      e.preventDefault()
      moveTo(cursor + 1)
    } else if (key === 'ArrowUp' || (!fromInput && key === 'k')) {
      e.preventDefault()
      moveTo(cursor - 1)
    } else if (key === 'Enter') {
      e.preventDefault()
      activate(rows[cursor], e.shiftKey)
    } else if (!fromInput && (key === 'ArrowRight' || key === 'ArrowLeft')) {
      const row = rows[cursor]
      if (row?.kind === 'event' && row.expanded === (key === 'ArrowLeft')) {
        e.preventDefault()
        toggle(row.event.id)
      }
    } else if (fromInput && key === 'Escape') {
      setQuery('')
    }
  }

  const totalMarkets = useMemo(() => events.reduce((n, e) => n + e.markets.length, 0), [events])

  return (
    <div className="event-list-pane">
      <div className="list-tools">
        <input
          ref={searchRef}
          className="search"
          type="search"
          placeholder="Filter events and markets…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => onKeyDown(e, true)}
          aria-label="Filter events and markets"
          data-testid="event-search"
        />
        <select
          value={sort}
          onChange={(e) => setSort(e.target.value as EventSort)}
          aria-label="Sort events"
          data-testid="event-sort"
        >
          <Options of={EVENT_SORTS} />
        </select>
      </div>
      {facets.categories.length > 0 || facets.tags.length > 0 ? (
        <div className="list-filters" data-testid="event-filters">
          {FACET_FILTERS.map(({ key, facets: of, label, testId, all }) =>
            facets[of].length > 0 ? (
              <select
                key={key}
                className={shownFilters[key] !== null ? 'on' : ''}
                value={shownFilters[key] ?? ''}
                onChange={(e) =>
                  setFilters({ ...filters, [key]: e.target.value === '' ? null : e.target.value })
                }
                aria-label={label}
                data-testid={testId}
              >
                <option value="">{all}</option>
                {facets[of].map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.value} ({f.count})
                  </option>
                ))}
              </select>
            ) : null,
          )}
          {filtering ? (
            <button
              type="button"
              className="link-btn"
              data-testid="event-filters-clear"
              title="Show every category and tag"
              onClick={() => setFilters(NO_EVENT_FILTERS)}
            >
              Clear
            </button>
          ) : null}
        </div>
      ) : null}
      <div className="list-head">
        <span className="c-title">
          {query || filtering
            ? `${rows.filter((r) => r.kind === 'event').length} of ${events.length} events`
            : `${events.length} events · ${totalMarkets} markets`}
        </span>
        <span className="c-num">Bid</span>
        <span className="c-num">Ask</span>
        <span className="c-num">Last</span>
      </div>
      <div
        ref={scrollRef}
        className="event-list"
        data-testid="event-list"
        tabIndex={0}
        role="listbox"
        aria-label="Events"
        aria-activedescendant={rows[cursor] ? `row-${rows[cursor].key}` : undefined}
        onKeyDown={(e) => onKeyDown(e, false)}
      >
        {rows.length === 0 ? (
          <div className="empty-note">
            {filtering && !query
              ? 'No event of the chosen category or tag.'
              : `No event or market${filtering ? ' of the chosen category or tag' : ''} matches “${query}”.`}
          </div>
        ) : null}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index]
            if (!row) return null
            const active = v.index === cursor
            // Either kind of row is an option of the listbox, at the place the virtualizer gives it.
            const option = {
              id: `row-${row.key}`,
              role: 'option',
              'aria-selected': active,
              style: { transform: `translateY(${v.start}px)`, height: v.size },
            }
            if (row.kind === 'event') {
              const single = quotedMarket(row.event)
              return (
                <div
                  key={row.key}
                  {...option}
                  aria-expanded={row.expanded}
                  className={`list-row event-row ${active ? 'cursor' : ''} ${row.expanded ? 'open' : ''} ${single !== null ? 'single' : ''}`}
                  data-testid="event-row"
                  data-event={row.event.id}
                  data-market={single ?? undefined}
                  onClick={() => {
                    setCursorKey(row.key)
                    toggle(row.event.id)
                  }}
                  onDoubleClick={() => onOpenEvent(row.event.id)}
                  title={row.event.title}
                >
                  <span className="chevron">
                    <ChevronIcon open={row.expanded} size={10} />
                  </span>
                  <span className="c-title event-title">
                    <span className="ellipsis">{row.event.title}</span>
                    <EventMeta event={row.event} />
                  </span>
                  {single === null ? (
                    <span className="count" title="Markets">
                      {row.shown !== row.event.markets.length ? `${row.shown}/` : ''}
                      {row.event.markets.length}
                    </span>
                  ) : null}
                  <button
                    className="row-action"
                    title="Open the event matrix in a new window"
                    onClick={(e) => {
                      e.stopPropagation()
                      onOpenEvent(row.event.id)
                    }}
                    tabIndex={-1}
                    aria-label="Open the event matrix in a new window"
                  >
                    <ExternalIcon />
                  </button>
                  {single !== null ? <MarketQuote market={single} /> : null}
                </div>
              )
            }
            return (
              <div
                key={row.key}
                {...option}
                className={`list-row market-row ${active ? 'cursor' : ''} ${selectedMarket === row.market.id ? 'selected' : ''}`}
                data-testid="market-row"
                data-market={row.market.id}
                data-event={row.event.id}
                onClick={(e) => {
                  setCursorKey(row.key)
                  onOpenMarket(row.market.id, e.shiftKey)
                }}
                onContextMenu={(e) => {
                  e.preventDefault()
                  setCursorKey(row.key)
                  marketMenu(row.market.id, { x: e.clientX, y: e.clientY })
                }}
                title={`${row.market.title} (${row.market.id}) · right-click or A: alert`}
              >
                <WatchToggle market={row.market.id} />
                <span className="c-title ellipsis">{row.market.title}</span>
                <MarketQuote market={row.market.id} />
              </div>
            )
          })}
        </div>
      </div>
      <div className="list-foot muted">
        <kbd>/</kbd> jump · <kbd>j</kbd>
        <kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>Shift Enter</kbd> window · <kbd>a</kbd> alert ·{' '}
        <kbd>s</kbd> watch
      </div>
      {menu ? <ContextMenu menu={menu} label="Market" onClose={() => setMenu(null)} /> : null}
    </div>
  )
}
