// The ladder: asks above, bids below, fixed rows so nothing moves while the book streams. Rows are memoised on
// plain values (price, size, running total), keyed by price, so a batch re-renders only the levels it changed.
// The depth bars scale against a steady scale near the ladder's largest total (bar-scale.ts), which comes through a
// context read by the bars alone, so a new scale (only when the largest total moved well away from it) re-renders
// the 30 bars, one inline transform each, and no row; an inherited CSS variable on the ladder restyled every
// element under it instead. Rows and their cells
// are layout roots (styles.css), so a changed size or total lays out its own cell only. A size change flashes:
// a class set with the change and removed about FLASH_MS later in the frame of a later batch (store/highlights.ts),
// so a flash costs two small repaints, no animation frames, and mostly no frame of its own. A quiet book keeps its levels readable under a static "Quiet?" mark; a stale or resyncing
// one is covered by an overlay.
// Alerts start here: right-click a level, or focus the ladder (one tab stop; ↑/↓ move a level cursor shown with
// aria-activedescendant) and press A, or the menu key / Shift+F10 for the level's menu. The handlers sit on the
// ladder body and read the level from the row's data attributes, so rows keep plain-value props and their memo.
// Where the venue keeps the NO contract's book apart (VoxFi, BookView.no), the YES ladder folds the NO book's
// levels in as implied ones (ladder.ts: a NO bid at q is a YES ask at 1 − q), marked apart and carrying
// data-outcome="NO"; a toggle in the ladder's bar shows the NO book alone, in its own prices. Without a NO book
// the ladder is the book's own levels, as on every other venue.
// Trading starts here too: a click on an ask row fills the market's ticket as a buy at its price, on a bid row as
// a sell (YES, or NO in the NO view); it never sends, even in one-click mode. The trader's working orders show on
// their rows (ladder.ts, ownOrderMarks) as a plain text prop, so a book update re-renders no row for them and an
// account update only the rows whose marks changed; a click on a mark cancels its order.
import {
  createContext,
  memo,
  useContext,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react'
import { isWorking } from '../../../shared/trading'
import { useApi } from '../../hooks/context'
import { ladderDraft } from '../../lib/alerts'
import { formatMid, formatPrice, formatSize, midOf, spreadOf, type PriceUnit } from '../../lib/format'
import {
  ladderRowId,
  ladderSides,
  ownOrderMarks,
  parseOwnMarks,
  yesTermsOfNo,
  type LadderLevel,
  type LadderSides,
  type LadderView,
  type OwnOrder,
} from './ladder'
import { fillTicket, setTicketRefusal } from '../../store/trading'
import { cancelOrder } from '../trading'
import { openAlertForm, openAlertManager } from '../../store/alerts-ui'
import { barScale } from './bar-scale'
import { QuietMark } from './QuietMark'
import { StaleOverlay } from './StaleOverlay'
import { useFreshnessNoAge } from '../../hooks/freshness'
import { viewFreshness } from '../../lib/freshness'
import { useMonitor } from '../../store/monitor'
import { litUntil, useLit } from '../../store/highlights'
import { usePriceUnit } from '../../store/prefs'
import { ContextMenu, isMenuKey, menuPointFor, type MenuAt } from '../../ui/ContextMenu'
import { DiamondIcon } from '../../ui/icons'
import { titleIfTruncated } from '../../ui/truncated-title'

export const LADDER_LEVELS = 15
/** How long a changed size stays highlighted. */
export const FLASH_MS = 600

interface RowProps {
  side: 'bid' | 'ask'
  market: string
  price: number
  size: number
  cumulative: number
  best: boolean
  /** The keyboard's level cursor is on this row. */
  cursor: boolean
  /** Unique per ladder, for the row's element id (aria-activedescendant). */
  idPrefix: string
  unit: PriceUnit
  /** The book the level comes from: the NO book's rows carry data-outcome="NO". */
  outcome: 'yes' | 'no'
  /** Folded in from the NO book (shown at 1 − its NO price, marked apart). */
  implied: boolean
  /** For an implied row, the NO book's own price. */
  noPrice: number | undefined
  /** The trader's working orders on this row, as ownOrderMarks writes them ('' for none). */
  own: string
}

/** A level the ladder points at: its side and price as shown, and whether it is an implied one. */
interface LevelRef {
  side: 'bid' | 'ask'
  price: number
  implied: boolean
}

const sameLevel = (a: LevelRef, b: LevelRef) =>
  a.side === b.side && a.price === b.price && a.implied === b.implied

function rowId(idPrefix: string, level: LevelRef): string {
  return `${idPrefix}-${level.side}-${level.implied ? 'i' : ''}${level.price}`
}

const NO_SIDES: LadderSides = { bids: [], asks: [] }

/** A truncated size or total gets its full text as a tooltip on hover. */
const ladderTitles = titleIfTruncated('.ladder-row > span')

/** The size a full-width depth bar stands for (never 0): what every depth bar is scaled against. */
const MaxCumulative = createContext(1)

/** A level's depth bar: its running total as a share of the row's width (a transform: no layout, no repaint). */
const DepthBar = memo(function DepthBar({ cumulative }: { cumulative: number }) {
  const max = useContext(MaxCumulative)
  // Rounded to a thousandth: a share that moves by less does not rewrite the style.
  const share = Math.round((Math.min(Math.max(cumulative, 0), max) / max) * 1000) / 1000
  return <div className="depth-bar" style={{ transform: `scaleX(${share})` }} />
})

/** The trader's own orders on a row: each its remaining quantity, in the mode's colour; a click cancels it. */
function OwnMarks({ own, unit, price }: { own: string; unit: PriceUnit; price: number }) {
  return (
    <div className="own-marks">
      {parseOwnMarks(own).map((m) => (
        <button
          key={m.id}
          type="button"
          className={`own-mark ${m.side} mode-${m.mode}`}
          data-testid="ladder-own-order"
          data-order-id={m.id}
          data-qty={m.remaining}
          data-mode={m.mode}
          title={`Your ${m.mode === 'paper' ? 'PAPER ' : ''}${m.side} order at ${formatPrice(price, unit)}: ${formatSize(m.remaining)} left. Click to cancel it.`}
          aria-label={`Cancel your ${m.side} order of ${m.remaining} at ${formatPrice(price, unit)}`}
        >
          {formatSize(m.remaining)}
        </button>
      ))}
    </div>
  )
}

const LadderRow = memo(function LadderRow({
  side,
  market,
  price,
  size,
  cumulative,
  best,
  cursor,
  idPrefix,
  unit,
  outcome,
  implied,
  noPrice,
  own,
}: RowProps) {
  const [prevSize, setPrevSize] = useState(size)
  const [flash, setFlash] = useState<{ until: number; dir: 'up' | 'down' } | null>(null)
  // Derive the flash from the previous render's size (React's "adjust state on prop change" pattern). Each change
  // sets a new end, so a level that keeps changing stays lit and goes out FLASH_MS after the last.
  if (prevSize !== size) {
    setPrevSize(size)
    setFlash({ until: litUntil(FLASH_MS), dir: size > prevSize ? 'up' : 'down' })
  }
  const lit = useLit(flash?.until ?? Number.NEGATIVE_INFINITY)
  // A narrow pane truncates a figure rather than letting it run into the next: the price's cell carries its full
  // text (it never changes in a row), a size's or total's gets it on hover (ladderTitles).
  const priceText = formatPrice(price, unit)
  const sizeText = formatSize(size)
  const totalText = formatSize(cumulative)
  const impliedText =
    implied && noPrice !== undefined
      ? `Implied from the NO book: a NO ${side === 'ask' ? 'bid' : 'ask'} at ${formatPrice(noPrice, unit)} is a YES ${side} at ${priceText}`
      : undefined
  return (
    <div
      id={rowId(idPrefix, { side, price, implied })}
      role="option"
      aria-selected={cursor}
      className={`ladder-row ${side} ${best ? 'best' : ''} ${cursor ? 'cursor' : ''}${implied ? ' implied' : ''}${own !== '' ? ' own' : ''}`}
      data-testid={side === 'bid' ? 'book-bid-row' : 'book-ask-row'}
      data-market={market}
      data-side={side}
      data-price={price}
      data-size={size}
      data-outcome={outcome === 'no' ? 'NO' : undefined}
      data-implied={implied ? 'true' : undefined}
      data-no-price={implied ? noPrice : undefined}
      title={impliedText}
    >
      <DepthBar cumulative={cumulative} />
      {own !== '' ? <OwnMarks own={own} unit={unit} price={price} /> : null}
      <span className="c-price" title={impliedText ?? priceText}>
        {priceText}
      </span>
      <span className={`c-size ${flash && lit ? `flash-${flash.dir}` : ''}`}>{sizeText}</span>
      <span className="c-total">{totalText}</span>
    </div>
  )
})

function PlaceholderRow({ side }: { side: 'bid' | 'ask' }) {
  return (
    <div className={`ladder-row ${side} placeholder`} aria-hidden="true">
      <span className="c-price" />
      <span className="c-size" />
      <span className="c-total" />
    </div>
  )
}

function cumulate(levels: readonly LadderLevel[]): number[] {
  let total = 0
  return levels.map((l) => (total += l.size))
}

/** The ladder's bar where the venue keeps a NO book: what the marks mean, and the YES / NO book toggle. */
function OutcomeBar({ view, onToggle }: { view: LadderView; onToggle(): void }) {
  return (
    <div className="ladder-bar" data-testid="book-outcome-bar" data-view={view}>
      {view === 'yes' ? (
        <span
          className="ladder-legend"
          data-testid="book-implied-legend"
          title="Rows marked ◇ are implied from the NO book: a NO bid at q is a YES ask at 1 − q, a NO ask at q a YES bid at 1 − q, for the same size. They sit beside the YES book's own levels (own first at an equal price)."
        >
          <span className="implied-mark" aria-hidden="true">
            <DiamondIcon size={9} />
          </span>{' '}
          implied from the NO book
        </span>
      ) : (
        <span
          className="ladder-legend"
          data-testid="book-implied-legend"
          title="The NO contract's own book, in NO prices (a NO price q is a YES price of 1 − q)."
        >
          NO book · NO prices
        </span>
      )}
      <button
        type="button"
        className={`btn ghost outcome-toggle${view === 'no' ? ' on' : ''}`}
        data-testid="book-outcome-toggle"
        aria-pressed={view === 'no'}
        title={
          view === 'no'
            ? 'Showing the NO book alone: press for the YES ladder with implied NO levels'
            : 'Show the NO book alone, in its own prices'
        }
        onClick={onToggle}
      >
        NO book
      </button>
    </div>
  )
}

/** The trader's working orders of a market, from the account (the same array while the account's is). */
function useOwnOrders(market: string): OwnOrder[] {
  const orders = useMonitor((s) => s.account?.orders)
  return useMemo(
    () =>
      (orders ?? [])
        .filter((o) => o.market === market && isWorking(o.state))
        .map((o) => ({ ...o, remaining: o.quantity - o.filled })),
    [orders, market],
  )
}

export function OrderBook({ market, levels = LADDER_LEVELS }: { market: string; levels?: number }) {
  const api = useApi()
  const book = useMonitor((s) => s.books[market])
  const unit = usePriceUnit()
  const [view, setView] = useState<LadderView>('yes')
  const hasNo = book?.no !== undefined
  // Without a NO book there is nothing to toggle: the YES ladder (the book's own levels), whatever was chosen.
  const showing: LadderView = hasNo ? view : 'yes'
  const sides = book ? ladderSides(book, showing, levels) : NO_SIDES
  const state = book?.state ?? 'empty'
  // The quiet mark follows the badge rule: no "Quiet?" (a live claim's shadow) in a replay or without an engine.
  const fresh = useFreshnessNoAge(viewFreshness(book))
  const asks = sides.asks
  const bids = sides.bids
  const askCum = cumulate(asks)
  const bidCum = cumulate(bids)
  const maxCum = Math.max(askCum[askCum.length - 1] ?? 0, bidCum[bidCum.length - 1] ?? 0)
  // Every depth bar is its total over this: held while the largest total moves a little (bar-scale.ts), so a
  // batch rewrites only the bars whose totals changed. Kept as state, set during render (React's "adjust state
  // on prop change" pattern): the first render of this book already uses it. Never 0.
  const [heldScale, setHeldScale] = useState(0)
  const barMax = barScale(heldScale, maxCum)
  if (barMax !== heldScale) setHeldScale(barMax)
  // With implied levels, the best of either: the best price a trader can deal at, whichever book holds it.
  const bestBid = bids[0]?.price ?? null
  const bestAsk = asks[0]?.price ?? null
  const spread = spreadOf(bestBid, bestAsk)
  const mid = midOf(bestBid, bestAsk)
  const idPrefix = useId()
  const ownOrders = useOwnOrders(market)
  const own = useMemo(() => ownOrderMarks(ownOrders, showing), [ownOrders, showing])
  const [cursor, setCursor] = useState<LevelRef | null>(null)
  const [menu, setMenu] = useState<MenuAt | null>(null)

  // The levels top to bottom as shown: asks from the worst shown to the best, then bids from the best down.
  const shown: LevelRef[] = []
  for (let i = asks.length - 1; i >= 0; i--) {
    const l = asks[i] as LadderLevel
    shown.push({ side: 'ask', price: l.price, implied: l.implied })
  }
  for (const l of bids) shown.push({ side: 'bid', price: l.price, implied: l.implied })
  const at = cursor ? shown.findIndex((l) => sameLevel(l, cursor)) : -1
  const active = at >= 0 ? cursor : null

  /**
   * Alerts watch the YES book: a level of the NO view is offered in YES terms (a NO bid at q as the YES ask at
   * 1 − q), with the mid of the YES ladder.
   */
  const alertTerms = (level: LevelRef) => {
    if (showing === 'yes') return { side: level.side, price: level.price, mid, note: '' }
    const yes = yesTermsOfNo(level.side, level.price)
    const yesSides = book ? ladderSides(book, 'yes', 1) : NO_SIDES
    return {
      ...yes,
      mid: midOf(yesSides.bids[0]?.price, yesSides.asks[0]?.price),
      note: ` (NO ${level.side} ${formatPrice(level.price, unit)})`,
    }
  }
  const alertAt = (level: LevelRef) => {
    const t = alertTerms(level)
    openAlertForm(ladderDraft(market, t.side, t.price, t.mid, unit))
  }
  const menuFor = (level: LevelRef, point: { x: number; y: number }) => {
    const { side, price, mid, note } = alertTerms(level)
    const draft = ladderDraft(market, side, price, mid, unit)
    setMenu({
      ...point,
      items: [
        {
          label: `Alert when ${side} ${draft.op === 'crosses-above' ? 'crosses above' : 'crosses below'} ${formatPrice(price, unit)}${note}…`,
          testId: 'menu-alert-level',
          onSelect: () => openAlertForm(draft),
        },
        {
          label: `Alert when mid ${mid !== null && price < mid ? 'crosses below' : 'crosses above'} ${formatPrice(price, unit)}${note}…`,
          testId: 'menu-alert-mid',
          onSelect: () =>
            openAlertForm({
              ...draft,
              subject: 'mid',
              op: mid !== null && price < mid ? 'crosses-below' : 'crosses-above',
            }),
        },
        { label: 'Manage alerts…', testId: 'menu-alert-manager', onSelect: openAlertManager },
      ],
    })
  }
  const levelOf = (target: EventTarget | null): LevelRef | null => {
    const el = (target as HTMLElement | null)?.closest?.<HTMLElement>('.ladder-row[data-price]')
    if (!el) return null
    const price = Number(el.dataset.price)
    const side = el.dataset.side === 'ask' ? 'ask' : 'bid'
    return Number.isFinite(price) ? { side, price, implied: el.dataset.implied === 'true' } : null
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (shown.length === 0) return
      e.preventDefault()
      const bestBidAt = asks.length < shown.length ? asks.length : shown.length - 1
      const from = at >= 0 ? at : e.key === 'ArrowDown' ? bestBidAt - 1 : bestBidAt
      const next = shown[Math.max(0, Math.min(shown.length - 1, from + (e.key === 'ArrowDown' ? 1 : -1)))]
      if (next) {
        setCursor(next)
        document.getElementById(rowId(idPrefix, next))?.scrollIntoView?.({ block: 'nearest' })
      }
    } else if (e.key === 'Escape' && active) {
      setCursor(null)
    } else if ((e.key === 'a' || e.key === 'A') && !e.altKey && !e.ctrlKey && !e.metaKey && active) {
      e.preventDefault()
      alertAt(active)
    } else if (isMenuKey(e) && active) {
      e.preventDefault()
      menuFor(active, menuPointFor(document.getElementById(rowId(idPrefix, active))))
    }
  }
  const onContextMenu = (e: MouseEvent<HTMLDivElement>) => {
    const level = levelOf(e.target)
    if (!level) return
    e.preventDefault()
    setCursor(level)
    menuFor(level, { x: e.clientX, y: e.clientY })
  }
  const onMouseDown = (e: MouseEvent<HTMLDivElement>) => {
    const level = levelOf(e.target)
    if (level) setCursor(level)
  }
  /** A click on one of the trader's marks cancels that order; on a level, it fills the ticket (never sends). */
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const mark = (e.target as HTMLElement | null)?.closest?.<HTMLElement>('[data-testid="ladder-own-order"]')
    if (mark) {
      const id = mark.dataset.orderId
      if (id !== undefined && e.detail <= 1)
        void cancelOrder(api, id).then((error) => {
          if (error !== null) setTicketRefusal(market, error)
        })
      return
    }
    const level = levelOf(e.target)
    if (!level) return
    fillTicket(market, {
      side: level.side === 'ask' ? 'buy' : 'sell',
      outcome: showing === 'no' ? 'NO' : 'YES',
      price: level.price,
    })
  }

  // Rows that carry the trader's marks; an order whose price is not among the levels shown is counted in the foot.
  const placed = new Set<string>()
  const row = (side: 'ask' | 'bid', i: number) => {
    const level = (side === 'ask' ? asks : bids)[i]
    const rowId = level ? ladderRowId(side, level) : ''
    if (level && own.has(rowId)) placed.add(rowId)
    return level ? (
      <LadderRow
        // The book's own level and an implied one can share a price: two rows, two keys.
        key={`${level.implied ? 'i' : level.outcome === 'no' ? 'n' : ''}${level.price}`}
        side={side}
        market={market}
        price={level.price}
        size={level.size}
        cumulative={(side === 'ask' ? askCum : bidCum)[i] ?? 0}
        best={i === 0}
        cursor={active !== null && sameLevel(active, { side, price: level.price, implied: level.implied })}
        idPrefix={idPrefix}
        unit={unit}
        outcome={level.outcome}
        implied={level.implied}
        noPrice={level.noPrice}
        own={own.get(rowId) ?? ''}
      />
    ) : (
      <PlaceholderRow key={`p${i}`} side={side} />
    )
  }
  // Asks render top-down from the worst shown level to the best, so the best ask sits on the spread line.
  const askRows = []
  for (let i = levels - 1; i >= 0; i--) askRows.push(row('ask', i))
  const bidRows = []
  for (let i = 0; i < levels; i++) bidRows.push(row('bid', i))
  // Each side is a relayout boundary of a fixed height (styles.css): a level coming or going lays out its side only.
  const sideHeight = { height: `calc(${levels} * var(--row))` }
  let offLadder = 0
  for (const [id, marks] of own) if (!placed.has(id)) offLadder += marks.split(';').length

  return (
    <div
      className={`orderbook state-${state}${hasNo ? ` view-${showing}` : ''}`}
      data-testid="orderbook"
      data-market={market}
      data-state={state}
      data-fresh={fresh.state}
      data-view={hasNo ? showing : undefined}
    >
      {hasNo ? (
        <OutcomeBar
          view={showing}
          onToggle={() => {
            setView(showing === 'no' ? 'yes' : 'no')
            setCursor(null)
          }}
        />
      ) : null}
      <div className="ladder-head">
        <span className="c-price">{showing === 'no' ? 'NO price' : 'Price'}</span>
        <span className="c-size">Size</span>
        <span className="c-total">Total</span>
      </div>
      <div
        className="ladder-body"
        tabIndex={0}
        role="listbox"
        aria-label="Order book levels: a click fills the ticket at a level, arrow keys pick a level, A sets an alert at it, Shift+F10 opens its menu"
        aria-activedescendant={active ? rowId(idPrefix, active) : undefined}
        data-testid="ladder-levels"
        onKeyDown={onKeyDown}
        onContextMenu={onContextMenu}
        onMouseDown={onMouseDown}
        onPointerOver={ladderTitles}
        onClick={onClick}
        onFocus={(e) => {
          // Entering the ladder from the keyboard puts the cursor on the best bid, so A works at once.
          const best = bids[0]
          if (e.target === e.currentTarget && best)
            setCursor((c) => c ?? { side: 'bid', price: best.price, implied: best.implied })
        }}
      >
        <MaxCumulative value={barMax}>
          <div className="side-box">
            <div className="ladder-side asks" style={sideHeight}>
              {askRows}
            </div>
          </div>
          <div className="spread-box">
            <div className="spread-row" data-testid="book-spread">
              <span
                className="c-price"
                title={
                  hasNo && showing === 'yes'
                    ? 'Mid, of the best levels including those implied from the NO book'
                    : 'Mid'
                }
              >
                {formatMid(mid, unit)}
              </span>
              {fresh.state === 'quiet' ? (
                <QuietMark
                  testId="book-quiet-mark"
                  more=" Levels are still applied; the next update makes it live again."
                />
              ) : (
                <span className="muted">mid</span>
              )}
              <span className="c-spread" title="Spread">
                spread <b>{formatPrice(spread, unit)}</b>
              </span>
            </div>
          </div>
          <div className="side-box">
            <div className="ladder-side bids" style={sideHeight}>
              {bidRows}
            </div>
          </div>
        </MaxCumulative>
        <StaleOverlay
          book={book}
          what="Prices"
          testIds={{ overlay: 'book-stale-overlay', resync: 'resync-button' }}
        />
        {!book || (state === 'empty' && bids.length === 0 && asks.length === 0) ? (
          <div className="book-overlay soft">
            <span className="muted">Waiting for the first book snapshot…</span>
          </div>
        ) : null}
      </div>
      {menu ? <ContextMenu menu={menu} label="Price level" onClose={() => setMenu(null)} /> : null}
      <div className="ladder-foot-box">
        <div className="ladder-foot muted">
          <span
            // Remounted with every book version the engine applied (its receipt time, BookView.updatedAt): its first
            // paint is the moment that version reached the screen (Element Timing, read by the UI benchmark), on a
            // venue with sequences or without. It is the footer's flex item itself, so Chromium credits the text's
            // paint to it (text is timed on its nearest block-level box).
            key={book?.updatedAt ?? undefined}
            elementtiming={book && book.updatedAt !== null ? `book:${market}:${book.updatedAt}` : undefined}
          >
            {!book
              ? '\u00a0'
              : book.no === undefined
                ? `${book.depth.bids} bid / ${book.depth.asks} ask levels`
                : showing === 'no'
                  ? `NO ${book.no.depth.bids} bid / ${book.no.depth.asks} ask levels`
                  : `${book.depth.bids} bid / ${book.depth.asks} ask · NO ${book.no.depth.bids}/${book.no.depth.asks}`}
          </span>
          {offLadder > 0 ? (
            <span
              className="own-off"
              data-testid="ladder-own-off"
              data-count={offLadder}
              title="Your working orders at prices this ladder does not show (see the account's orders)"
            >
              {offLadder} own off the ladder
            </span>
          ) : null}
          {book?.seq !== null && book?.seq !== undefined ? (
            <span className="num">seq {book.seq}</span>
          ) : (
            <span className="num" />
          )}
        </div>
      </div>
    </div>
  )
}
