// One market's ladder pane: a header with the quote (and the venue's chance, volume and liquidity where it sends
// them), the event's category, status and time left, freshness and the market's actions (the event's rules one
// click away), then the order book and the market's order ticket under it. The depth chart, chart and tape are
// panes of their own (features/workspace/panes.tsx).
import { useState, type HTMLAttributes, type KeyboardEvent, type MouseEvent } from 'react'
import { useApi } from '../../hooks/context'
import { gridOfMarket, quoteDraft } from '../../lib/alerts'
import { findMarket } from '../../lib/events'
import { formatChance, formatCompact, formatPrice } from '../../lib/format'
import { ladderSides } from './ladder'
import { formatSubject, quoteOf } from '../../lib/quote'
import { openAlertForm, openMarketAlert } from '../../store/alerts-ui'
import { listingAnswered, useEvents, useMarketNames } from '../../store/events'
import { marketHint, unnamedMarket } from '../../lib/market-names'
import { NO_TRADES, useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { ContextMenu, isMenuKey, menuPointFor, type MenuAt } from '../../ui/ContextMenu'
import { EventMeta, RulesDialog } from '../events'
import { FreshnessBadge } from '../../ui/FreshnessBadge'
import { viewFreshness } from '../../lib/freshness'
import { OrderBook } from './OrderBook'
import { useMarketFeed } from './market-feed'
import { WatchToggle } from '../workspace'
import { ExternalIcon } from '../../ui/icons'
import { titleOnHover } from '../../ui/hover-title'
import { OrderTicket } from '../trading'

/** The venue's own figures, where it sends them: the ticker's field, its label, and what it counts. */
const VENUE_FIGURES = [
  ['volume', 'Vol', 'Traded volume'],
  ['liquidity', 'Liq', 'Resting liquidity'],
] as const

/** One figure of the quote under its label. */
function QuoteCell({
  label,
  valueClass,
  children,
  ...span
}: HTMLAttributes<HTMLSpanElement> & {
  label: string
  valueClass?: string
  'data-testid'?: string
  'data-chance'?: number
  /** Names the cell's tooltip in the quote's `titleOnHover` hints. */
  'data-hint'?: string
}) {
  return (
    <span className="quote-cell" {...span}>
      <label>{label}</label>
      <b className={valueClass}>{children}</b>
    </span>
  )
}

function Quote({ market }: { market: string }) {
  const book = useMonitor((s) => s.books[market])
  const ticker = useMonitor((s) => s.tickers[market])
  const lastTrade = useMonitor((s) => {
    const t = s.trades[market] ?? NO_TRADES
    return t[t.length - 1]
  })
  const unit = usePriceUnit()
  // Read when an alert is asked for, not on every quote update: only the form needs the market's price grid.
  const grid = () => gridOfMarket(useEvents.getState().events, market)
  const values = quoteOf(book, ticker, lastTrade?.price)
  const { bid, ask, last } = values
  // The quote is the YES book's own (what alerts watch); a better level implied from the NO book is named.
  const best = book?.no ? ladderSides(book, 'yes', 1) : null
  const impliedNote = (side: 'bid' | 'ask') => {
    const l = side === 'bid' ? best?.bids[0] : best?.asks[0]
    return l?.implied
      ? `The YES book's own best ${side}; the ladder's best is ${formatPrice(l.price, unit)}, implied from the NO book`
      : undefined
  }
  // Tooltips that change with the values are set on hover (ui/hover-title.ts), not rewritten with every batch.
  const hints: Record<string, string | undefined> = { bid: impliedNote('bid'), ask: impliedNote('ask') }
  for (const [key, , what] of VENUE_FIGURES) {
    const v = ticker?.[key]
    if (v !== undefined) hints[key] = `${what}, as the venue counts it: ${v.toLocaleString('en-US')}`
  }
  const [menu, setMenu] = useState<MenuAt | null>(null)
  const openMenu = (point: { x: number; y: number }) =>
    setMenu({
      ...point,
      items: (['last', 'bid', 'ask', 'mid', 'spread'] as const).map((subject) => ({
        label: `Alert on ${subject === 'last' ? 'the last price' : subject}${values[subject] === null ? '' : ` (${formatSubject(subject, values[subject], unit)})`}…`,
        testId: `menu-alert-${subject}`,
        onSelect: () => openAlertForm(quoteDraft(market, subject, values[subject], grid(), unit)),
      })),
    })
  return (
    <div className="quote" data-testid="market-quote" onPointerOver={titleOnHover(hints)}>
      <QuoteCell label="Bid" valueClass="bid-text" data-hint="bid">
        {formatPrice(bid, unit)}
      </QuoteCell>
      <QuoteCell label="Ask" valueClass="ask-text" data-hint="ask">
        {formatPrice(ask, unit)}
      </QuoteCell>
      <button
        type="button"
        className="quote-cell quote-btn"
        data-testid="quote-last"
        title="Set an alert on the last price (right-click or Shift+F10 for bid, ask, mid, spread)"
        onClick={() => openAlertForm(quoteDraft(market, 'last', last, grid(), unit))}
        onContextMenu={(e: MouseEvent) => {
          e.preventDefault()
          openMenu({ x: e.clientX, y: e.clientY })
        }}
        onKeyDown={(e: KeyboardEvent<HTMLButtonElement>) => {
          if (!isMenuKey(e)) return
          e.preventDefault()
          openMenu(menuPointFor(e.currentTarget))
        }}
      >
        <span className="q-label">Last</span>
        <b className={lastTrade?.side === 'buy' ? 'bid-text' : lastTrade?.side === 'sell' ? 'ask-text' : ''}>
          {formatPrice(last, unit)}
        </b>
      </button>
      {menu ? <ContextMenu menu={menu} label="Quote alerts" onClose={() => setMenu(null)} /> : null}
      <QuoteCell label="Spread">{formatPrice(values.spread, unit)}</QuoteCell>
      {ticker?.chance !== undefined ? (
        <QuoteCell
          label="Chance"
          data-testid="quote-chance"
          data-chance={ticker.chance}
          title="The venue's chance of YES"
        >
          {formatChance(ticker.chance)}
        </QuoteCell>
      ) : null}
      {VENUE_FIGURES.map(([key, label]) => {
        const v = ticker?.[key]
        return v === undefined ? null : (
          <QuoteCell
            key={key}
            label={label}
            data-testid={`quote-${key}`}
            valueClass="quote-small"
            data-hint={key}
          >
            {formatCompact(v)}
          </QuoteCell>
        )
      })}
      <span className="freshness-slot">
        <FreshnessBadge {...viewFreshness(book ?? ticker)} />
      </span>
    </div>
  )
}

export function MarketPane({
  market,
  owner,
  inWindow = false,
}: {
  market: string
  owner: string
  inWindow?: boolean
}) {
  const api = useApi()
  const { loading, error } = useMarketFeed(market, owner)
  const events = useEvents((s) => s.events)
  const answered = useEvents(listingAnswered)
  const names = useMarketNames()
  const found = findMarket(events, market)
  const title = found?.market.title ?? unnamedMarket(market, answered)
  const [openError, setOpenError] = useState<string | null>(null)
  const [rulesOpen, setRulesOpen] = useState(false)

  return (
    <section className="market-pane" data-testid="market-pane" data-market={market}>
      <header className="market-head">
        <WatchToggle market={market} />
        <div className="market-title" data-testid="market-title">
          <h2 title={title}>{title}</h2>
          <span className="muted ellipsis" title={marketHint(names.get(market), market)}>
            {found ? found.event.title : answered ? 'Not in the events listing' : 'Loading the listing…'}
            {found ? <EventMeta event={found.event} /> : null}
            {loading ? ' · loading history…' : null}
            {error ? <span className="error-text"> · history unavailable: {error.message}</span> : null}
          </span>
        </div>
        <Quote market={market} />
        <div className="market-actions">
          {found ? (
            <button
              type="button"
              className="btn ghost"
              title={`The event's resolution rules${found.event.rules ? '' : ' (the venue sent none)'}`}
              data-testid="rules-button"
              aria-haspopup="dialog"
              onClick={() => setRulesOpen(true)}
            >
              Rules
            </button>
          ) : null}
          <button
            className="btn ghost"
            title="New alert for this market (Alt+A lists your alerts)"
            data-testid="alert-new"
            onClick={() => openMarketAlert(market)}
          >
            + Alert
          </button>
          {!inWindow ? (
            <button
              className="btn ghost"
              title="Open this market in its own window (Shift+Enter)"
              data-testid="open-market-window"
              onClick={() => {
                setOpenError(null)
                void api.openWindow({ kind: 'market', market }).then((r) => {
                  if (!r.ok) setOpenError(r.error.message)
                })
              }}
            >
              Window <ExternalIcon />
            </button>
          ) : null}
          {found && !inWindow ? (
            <button
              className="btn ghost"
              title="Open the event's markets as a matrix"
              onClick={() => void api.openWindow({ kind: 'event', event: found.event.id })}
            >
              Event <ExternalIcon />
            </button>
          ) : null}
          {openError ? <span className="error-text">{openError}</span> : null}
        </div>
      </header>
      <div className="book-col">
        <OrderBook market={market} />
        <OrderTicket market={market} />
      </div>
      {rulesOpen && found ? <RulesDialog event={found.event} onClose={() => setRulesOpen(false)} /> : null}
    </section>
  )
}
