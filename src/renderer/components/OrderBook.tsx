// The ladder: asks above, bids below, fixed rows so nothing moves while the book streams. Rows are memoised on
// plain values (price, size, running total), keyed by price, so a batch re-renders only the levels it changed.
// The depth bars scale against the ladder's largest total, which comes through a context read by the bars alone,
// so a new maximum (nearly every batch under load) re-renders the 30 bars, one inline transform each, and no
// row; an inherited CSS variable on the ladder restyled every element under it instead. Rows and their cells
// are layout roots (styles.css), so a changed size or total lays out its own cell only. A size change flashes:
// a class set with the change and removed by a timer FLASH_MS later, so a flash costs two small repaints and no
// animation frames. A quiet book keeps its levels readable under a static "Quiet?" mark; a stale or resyncing
// one is covered by an overlay.
// Alerts start here: right-click a level, or focus the ladder (one tab stop; ↑/↓ move a level cursor shown with
// aria-activedescendant) and press A, or the menu key / Shift+F10 for the level's menu. The handlers sit on the
// ladder body and read the level from the row's data attributes, so rows keep plain-value props and their memo.
import {
  createContext,
  memo,
  useContext,
  useEffect,
  useId,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react'
import type { Level } from '../../shared/model'
import { ladderDraft } from '../lib/alerts'
import { formatMid, formatPrice, formatSize, midOf, spreadOf } from '../lib/format'
import { openAlertForm, openAlertManager } from '../store/alerts-ui'
import { StaleOverlay } from './StaleOverlay'
import { useMonitor } from '../store/monitor'
import { ContextMenu, isMenuKey, menuPointFor, type MenuAt } from './ContextMenu'

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
}

function rowId(idPrefix: string, side: 'bid' | 'ask', price: number): string {
  return `${idPrefix}-${side}-${price}`
}

/** The ladder's largest running total (never 0): what every depth bar is scaled against. */
const MaxCumulative = createContext(1)

/** A level's depth bar: its running total as a share of the row's width (a transform: no layout, no repaint). */
const DepthBar = memo(function DepthBar({ cumulative }: { cumulative: number }) {
  const max = useContext(MaxCumulative)
  // Rounded to a thousandth: a share that moves by less does not rewrite the style.
  const share = Math.round((Math.min(Math.max(cumulative, 0), max) / max) * 1000) / 1000
  return <div className="depth-bar" style={{ transform: `scaleX(${share})` }} />
})

const LadderRow = memo(function LadderRow({
  side,
  market,
  price,
  size,
  cumulative,
  best,
  cursor,
  idPrefix,
}: RowProps) {
  const [prevSize, setPrevSize] = useState(size)
  const [flash, setFlash] = useState<{ n: number; dir: 'up' | 'down' } | null>(null)
  // Derive the flash from the previous render's size (React's "adjust state on prop change" pattern).
  if (prevSize !== size) {
    setPrevSize(size)
    setFlash({ n: (flash?.n ?? 0) + 1, dir: size > prevSize ? 'up' : 'down' })
  }
  // Each change restarts the wait, so a level that keeps changing stays lit and goes out FLASH_MS after the last.
  useEffect(() => {
    if (flash === null) return
    const id = setTimeout(() => setFlash(null), FLASH_MS)
    return () => clearTimeout(id)
  }, [flash])
  return (
    <div
      id={rowId(idPrefix, side, price)}
      role="option"
      aria-selected={cursor}
      className={`ladder-row ${side} ${best ? 'best' : ''} ${cursor ? 'cursor' : ''}`}
      data-testid={side === 'bid' ? 'book-bid-row' : 'book-ask-row'}
      data-market={market}
      data-side={side}
      data-price={price}
      data-size={size}
    >
      <DepthBar cumulative={cumulative} />
      <span className="c-price">{formatPrice(price)}</span>
      <span className={`c-size ${flash ? `flash-${flash.dir}` : ''}`}>{formatSize(size)}</span>
      <span className="c-total">{formatSize(cumulative)}</span>
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

function cumulate(levels: readonly Level[]): number[] {
  let total = 0
  return levels.map(([, s]) => (total += s))
}

export function OrderBook({ market, levels = LADDER_LEVELS }: { market: string; levels?: number }) {
  const book = useMonitor((s) => s.books[market])
  const state = book?.state ?? 'empty'
  const asks = book ? book.asks.slice(0, levels) : []
  const bids = book ? book.bids.slice(0, levels) : []
  const askCum = cumulate(asks)
  const bidCum = cumulate(bids)
  const maxCum = Math.max(askCum[askCum.length - 1] ?? 0, bidCum[bidCum.length - 1] ?? 0)
  // Every depth bar is its total over this; never 0, so an empty ladder divides nothing by zero.
  const barMax = maxCum > 0 ? maxCum : 1
  const bestBid = bids[0]?.[0] ?? null
  const bestAsk = asks[0]?.[0] ?? null
  const spread = spreadOf(bestBid, bestAsk)
  const mid = midOf(bestBid, bestAsk)
  const idPrefix = useId()
  const [cursor, setCursor] = useState<{ side: 'bid' | 'ask'; price: number } | null>(null)
  const [menu, setMenu] = useState<MenuAt | null>(null)

  // The levels top to bottom as shown: asks from the worst shown to the best, then bids from the best down.
  const shown: Array<{ side: 'bid' | 'ask'; price: number }> = []
  for (let i = asks.length - 1; i >= 0; i--) shown.push({ side: 'ask', price: (asks[i] as Level)[0] })
  for (const [price] of bids) shown.push({ side: 'bid', price })
  const at = cursor ? shown.findIndex((l) => l.side === cursor.side && l.price === cursor.price) : -1
  const active = at >= 0 ? cursor : null

  const alertAt = (side: 'bid' | 'ask', price: number) => openAlertForm(ladderDraft(market, side, price, mid))
  const menuFor = (side: 'bid' | 'ask', price: number, point: { x: number; y: number }) => {
    const draft = ladderDraft(market, side, price, mid)
    setMenu({
      ...point,
      items: [
        {
          label: `Alert when ${side} ${draft.op === 'crosses-above' ? 'crosses above' : 'crosses below'} ${formatPrice(price)}…`,
          testId: 'menu-alert-level',
          onSelect: () => openAlertForm(draft),
        },
        {
          label: `Alert when mid ${mid !== null && price < mid ? 'crosses below' : 'crosses above'} ${formatPrice(price)}…`,
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
  const levelOf = (target: EventTarget | null): { side: 'bid' | 'ask'; price: number } | null => {
    const el = (target as HTMLElement | null)?.closest?.<HTMLElement>('.ladder-row[data-price]')
    if (!el) return null
    const price = Number(el.dataset.price)
    const side = el.dataset.side === 'ask' ? 'ask' : 'bid'
    return Number.isFinite(price) ? { side, price } : null
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
        document
          .getElementById(rowId(idPrefix, next.side, next.price))
          ?.scrollIntoView?.({ block: 'nearest' })
      }
    } else if (e.key === 'Escape' && active) {
      setCursor(null)
    } else if ((e.key === 'a' || e.key === 'A') && !e.altKey && !e.ctrlKey && !e.metaKey && active) {
      e.preventDefault()
      alertAt(active.side, active.price)
    } else if (isMenuKey(e) && active) {
      e.preventDefault()
      menuFor(
        active.side,
        active.price,
        menuPointFor(document.getElementById(rowId(idPrefix, active.side, active.price))),
      )
    }
  }
  const onContextMenu = (e: MouseEvent<HTMLDivElement>) => {
    const level = levelOf(e.target)
    if (!level) return
    e.preventDefault()
    setCursor({ side: level.side, price: level.price })
    menuFor(level.side, level.price, { x: e.clientX, y: e.clientY })
  }
  const onMouseDown = (e: MouseEvent<HTMLDivElement>) => {
    const level = levelOf(e.target)
    if (level) setCursor({ side: level.side, price: level.price })
  }

  const row = (side: 'ask' | 'bid', i: number) => {
    const level = (side === 'ask' ? asks : bids)[i]
    return level ? (
      <LadderRow
        key={level[0]}
        side={side}
        market={market}
        price={level[0]}
        size={level[1]}
        cumulative={(side === 'ask' ? askCum : bidCum)[i] ?? 0}
        best={i === 0}
        cursor={active !== null && active.side === side && active.price === level[0]}
        idPrefix={idPrefix}
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

  return (
    <div
      className={`orderbook state-${state}`}
      data-testid="orderbook"
      data-market={market}
      data-state={state}
    >
      <div className="ladder-head">
        <span className="c-price">Price</span>
        <span className="c-size">Size</span>
        <span className="c-total">Total</span>
      </div>
      <div
        className="ladder-body"
        tabIndex={0}
        role="listbox"
        aria-label="Order book levels: arrow keys pick a level, A sets an alert at it, Shift+F10 opens its menu"
        aria-activedescendant={active ? rowId(idPrefix, active.side, active.price) : undefined}
        data-testid="ladder-levels"
        onKeyDown={onKeyDown}
        onContextMenu={onContextMenu}
        onMouseDown={onMouseDown}
        onFocus={(e) => {
          // Entering the ladder from the keyboard puts the cursor on the best bid, so A works at once.
          if (e.target === e.currentTarget && bestBid !== null)
            setCursor((c) => c ?? { side: 'bid', price: bestBid })
        }}
      >
        <MaxCumulative value={barMax}>
          <div className="ladder-side asks">{askRows}</div>
          <div className="spread-row" data-testid="book-spread">
            <span className="c-price" title="Mid">
              {formatMid(mid)}
            </span>
            {state === 'quiet' ? (
              <span
                className="quiet-mark"
                data-testid="book-quiet-mark"
                title="No update for longer than this market usually goes without one: the book may be behind. Levels are still applied; the next update makes it live again."
              >
                Quiet?
              </span>
            ) : (
              <span className="muted">mid</span>
            )}
            <span className="c-spread" title="Spread">
              spread <b>{formatPrice(spread)}</b>
            </span>
          </div>
          <div className="ladder-side bids">{bidRows}</div>
        </MaxCumulative>
        {book && (state === 'stale' || state === 'resyncing') ? (
          <StaleOverlay
            book={book}
            what="Prices"
            testIds={{ overlay: 'book-stale-overlay', resync: 'resync-button' }}
          />
        ) : null}
        {!book || (state === 'empty' && bids.length === 0 && asks.length === 0) ? (
          <div className="book-overlay soft">
            <span className="muted">Waiting for the first book snapshot…</span>
          </div>
        ) : null}
      </div>
      {menu ? <ContextMenu menu={menu} label="Price level" onClose={() => setMenu(null)} /> : null}
      <div className="ladder-foot muted">
        <span>{book ? `${book.depth.bids} bid / ${book.depth.asks} ask levels` : '\u00a0'}</span>
        {book?.seq !== null && book?.seq !== undefined ? (
          // Remounted on every new seq: its first paint is the moment this book version reached the screen
          // (Element Timing, read by the UI benchmark). It is the footer's flex item itself, so Chromium credits
          // the text's paint to it (text is timed on its nearest block-level box).
          <span key={book.seq} className="num" elementtiming={`book:${market}:${book.seq}`}>
            seq {book.seq}
          </span>
        ) : (
          <span className="num" />
        )}
      </div>
    </div>
  )
}
