// The order ticket of a market pane (docs/trading.md, DESIGN §3.7): side, outcome, kind, price in the unit the app
// shows, quantity, and Send. Before it goes it shows what the order costs, the position it would leave and, when it
// would fill at once, the average price against the book on screen and the slippage from the touch; after, the
// order's state and round trip. Its title and colour say the mode.
// One press is one order: a press makes one intent, Send holds itself (a ref, set before any render) until the
// engine answers, a held key's auto-repeat and the second click of a double click are ignored, and Enter in the
// ticket is a press. With confirmations on, Send asks first and `order-confirm` sends; a warning the engine asks
// about (a duplicate, a price far through the touch) is asked too, and accepting it re-sends the same intent.
import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import { useShallow } from 'zustand/react/shallow'
import type { ApiError, ConfirmReason } from '../../../shared/model'
import type {
  OrderKind,
  OrderOutcome,
  OrderRequest,
  OrderSide,
  OrderView,
  TradingMode,
} from '../../../shared/trading'
import { useApi } from '../../hooks/context'
import { formatPrice, formatSize } from '../../lib/format'
import { parsePriceInput, priceTextIn } from '../../lib/price-input'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import {
  editTicket,
  setTicketRefusal,
  setTicketsCollapsed,
  useTicketDraft,
  useTradingUi,
} from '../../store/trading'
import { ChevronIcon } from '../../ui/icons'
import { Options } from '../../ui/Options'
import { changeTrading, thrown } from './actions'
import { CancelAllButton } from './CancelAll'
import { estimateOrder, heldContracts, outcomeBook, positionAfter, type OrderShape } from './estimate'
import { newIntentId } from './intent'
import { LimitsButton } from './Limits'
import { OrderConfirm } from './OrderConfirm'
import { explainBlock, explainRefusal } from './refusals'
import { readTicket, ticketRequest } from './ticket'
import { cents, MODE_TITLE, orderText, rtt } from './words'

const SIDES = [
  { value: 'buy', label: 'Buy' },
  { value: 'sell', label: 'Sell' },
] as const satisfies ReadonlyArray<{ value: OrderSide; label: string }>
const OUTCOMES = [
  { value: 'YES', label: 'YES' },
  { value: 'NO', label: 'NO' },
] as const satisfies ReadonlyArray<{ value: OrderOutcome; label: string }>
const KINDS = [
  { value: 'limit', label: 'Limit' },
  { value: 'market', label: 'Market' },
] as const satisfies ReadonlyArray<{ value: OrderKind; label: string }>

/** One of the ticket's selects: a value of a fixed list, the one DESIGN §3.7 names by its test id. */
function Choice<T extends string>({
  label,
  testId,
  className,
  value,
  of,
  onChange,
}: {
  label: string
  testId: string
  className?: string
  value: T
  of: ReadonlyArray<{ value: T; label: string }>
  onChange(value: T): void
}) {
  return (
    <select
      aria-label={label}
      data-testid={testId}
      className={className}
      value={value}
      onChange={(e) => {
        const picked = of.find((o) => o.value === e.target.value)
        if (picked) onChange(picked.value)
      }}
    >
      <Options of={of} />
    </select>
  )
}

/** What the confirmation holds: the request one press made, and the warnings the engine asked about, if any. */
interface Asking {
  request: OrderRequest
  reasons: ConfirmReason[]
}

/** The estimate's plain values, selected from the store so the ticket re-renders only when one changes. */
function useEstimate(market: string, shape: OrderShape | null, mode: TradingMode | null) {
  return useMonitor(
    useShallow((s) => {
      if (shape === null) return null
      const estimate = estimateOrder(shape, outcomeBook(s.books[market], shape.outcome))
      const positions = (mode === 'paper' ? s.account?.paper.positions : s.account?.positions) ?? []
      return { ...estimate, held: heldContracts(positions, market, shape.outcome) }
    }),
  )
}

/** Why Send cannot be pressed now, in words; null when it can. */
function useBlock(): { code: string; text: string } | null {
  const trading = useMonitor((s) => s.account?.trading ?? null)
  const error = useMonitor((s) => s.accountError)
  if (trading === null)
    return error === null
      ? { code: 'waiting', text: 'Waiting for the account from the engine…' }
      : { code: 'unavailable', text: `Trading is not available: ${error}` }
  const mode = trading.settings.mode
  if (mode === 'off') return null
  if (mode === 'live' && trading.blocked !== null)
    return { code: trading.blocked.code, text: explainBlock(trading.blocked) }
  if (trading.cancelling)
    return { code: 'busy', text: 'A cancel-all is in progress: new orders wait until it ends.' }
  return null
}

function RefusalBox({ error, shown }: { error: ApiError; shown: string | null }) {
  const r = explainRefusal(error, shown)
  return (
    <div className="alert error ticket-error" role="alert" data-testid="order-error" data-code={r.code}>
      {r.sentence}
      {r.detail !== null ? <span className="muted"> ({r.detail})</span> : null}
    </div>
  )
}

/** The order this ticket sent last, as the engine keeps it now (its reply until the account lists it). */
function SentOrder({ reply }: { reply: OrderView }) {
  const unit = usePriceUnit()
  const order = useMonitor((s) => s.account?.orders.find((o) => o.id === reply.id)) ?? reply
  return (
    <div
      className="ticket-order"
      data-testid="ticket-order"
      data-order-id={order.id}
      data-state={order.state}
      data-mode={order.mode}
      data-rtt={order.rttMs ?? undefined}
      title={order.reason}
    >
      {order.mode === 'paper' ? <span className="mode-tag mode-paper">PAPER</span> : null}
      <span className="ellipsis">
        Sent {orderText(order, unit)}: <b className={`state-text state-${order.state}`}>{order.state}</b>
        {order.filled > 0 ? ` · ${formatSize(order.filled)}/${formatSize(order.quantity)} filled` : ''}
        {order.reason ? ` · ${order.reason}` : ''}
      </span>
      <span className="num muted" title="Round trip: your click to the venue's answer">
        {rtt(order.rttMs)}
      </span>
    </div>
  )
}

type EstimateView = NonNullable<ReturnType<typeof useEstimate>>

/** What the order would cost and leave, and how it would fill against the book on screen: two short lines. */
function Estimate({ est, shape, mode }: { est: EstimateView; shape: OrderShape; mode: TradingMode | null }) {
  const unit = usePriceUnit()
  const after = positionAfter(est.held, shape.side, shape.quantity)
  const price = (ticks: number | null) => formatPrice(ticks === null ? null : ticks / 100, unit)
  const sign = shape.side === 'buy' ? '+' : '−'
  return (
    <div className="ticket-estimate">
      <div
        data-testid="ticket-cost"
        data-total-cents={est.totalCents ?? undefined}
        data-fee-cents={est.feeCents}
        title={`${est.valueCents === null ? '—' : cents(est.valueCents)} (price × quantity) ${sign} fee ${cents(est.feeCents)}. The fee is the taker fee on what fills at once (a resting order pays none), estimated by the simulator's rule: 7% × p × (1 − p) a contract.`}
      >
        {shape.side === 'buy' ? 'Cost' : 'Receive'} <b className="num">{cents(est.totalCents)}</b>
        <span className="muted"> (fee {cents(est.feeCents)})</span>
        {' · '}
        <span
          data-testid="ticket-position"
          data-held={est.held}
          data-after={after}
          className={after < 0 ? 'warn-text' : undefined}
          title={
            after < 0
              ? `You hold ${formatSize(est.held)} ${shape.outcome}: selling ${formatSize(shape.quantity)} would be refused (PO4)`
              : `The ${shape.outcome} contracts held${mode === 'paper' ? ' on paper' : ''}, now and after this order fills whole`
          }
        >
          {shape.outcome} {formatSize(est.held)} → {formatSize(after)}
          {after < 0 ? ' (held too few)' : ''}
        </span>
      </div>
      {est.crosses ? (
        <div
          data-testid="ticket-fill"
          data-avg={est.avgTicks === null ? undefined : est.avgTicks / 100}
          data-slippage={est.slippageTicks === null ? undefined : est.slippageTicks / 100}
          title={`Against the ${shape.outcome} book on screen: ${formatSize(est.fillsNow)} fill at once, at ${price(est.avgTicks)} on average (worst ${price(est.worstTicks)}), ${price(est.slippageTicks)} worse than the touch ${price(est.touch)}`}
        >
          Fills {formatSize(est.fillsNow)} now @ <b className="num">{price(est.avgTicks)}</b>
          <span className="muted">
            {' '}
            avg · slippage {price(est.slippageTicks)} from {price(est.touch)}
            {est.shortfall > 0 ? ` · ${formatSize(est.shortfall)} unfilled` : ''}
          </span>
        </div>
      ) : shape.kind === 'market' ? (
        <div data-testid="ticket-fill" className="warn-text">
          {est.touch === null
            ? `No ${shape.outcome} ${shape.side === 'buy' ? 'asks' : 'bids'} on screen: the fill price is unknown.`
            : 'Nothing on the book on screen would fill it.'}
        </div>
      ) : null}
    </div>
  )
}

export function OrderTicket({ market }: { market: string }) {
  const api = useApi()
  const unit = usePriceUnit()
  const trading = useMonitor((s) => s.account?.trading ?? null)
  const draft = useTicketDraft(market)
  const refusal = useTradingUi((s) => s.refusals[market] ?? null)
  const collapsed = useTradingUi((s) => s.collapsed)
  const mode = trading?.settings.mode ?? null
  const confirmations = !(trading?.settings.oneClick ?? false)
  const block = useBlock()
  const read = readTicket(draft)
  const shape = read.ok ? read.shape : null
  const est = useEstimate(market, shape, mode)
  const [asking, setAsking] = useState<Asking | null>(null)
  const [sent, setSent] = useState<OrderView | null>(null)
  // Held from the press until the engine answers: a ref, so a second press in the same frame finds it set.
  const holding = useRef(false)
  const [busy, setBusy] = useState(false)
  const submit = useRef<HTMLButtonElement | null>(null)
  const canSend = trading !== null && mode !== 'off' && block === null

  const send = async (request: OrderRequest): Promise<void> => {
    if (holding.current) return
    holding.current = true
    setBusy(true)
    let reply
    try {
      reply = await api.placeOrder(request)
    } catch (e) {
      reply = { ok: false as const, error: thrown(e) }
    }
    holding.current = false
    setBusy(false)
    if (reply.ok) {
      setSent(reply.value)
      setTicketRefusal(market, null)
    } else if (reply.error.code === 'confirm' && (reply.error.confirm?.length ?? 0) > 0) {
      setAsking({ request, reasons: reply.error.confirm ?? [] })
    } else setTicketRefusal(market, reply.error)
  }

  /** One press of Send (a click or Enter): one intent, sent now or after the confirmation. */
  const press = () => {
    if (holding.current || !canSend || trading === null || asking !== null) return
    const built = ticketRequest(draft, market, trading, newIntentId(), Date.now())
    if (!built.ok) {
      setTicketRefusal(market, built.error)
      return
    }
    setTicketRefusal(market, null)
    if (confirmations) setAsking({ request: built.value, reasons: [] })
    else void send(built.value)
  }

  /** The confirmation's yes: the same intent, timed from this click, with the warnings it answered accepted. */
  const confirm = () => {
    if (asking === null) return
    const accepted = [...new Set([...(asking.request.confirmed ?? []), ...asking.reasons])]
    setAsking(null)
    void send({
      ...asking.request,
      clickedAt: Date.now(),
      ...(accepted.length > 0 ? { confirmed: accepted } : {}),
    })
  }

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey) return
    // Keys from the ticket's dialogs (put on the body, but React's events still bubble here) are their own.
    if (!e.currentTarget.contains(e.target as Node)) return
    // A held key repeats: only its first keydown is a press (and a repeat must not activate a button either).
    if (e.repeat) {
      e.preventDefault()
      return
    }
    const target = e.target as HTMLElement
    // Enter on another of the ticket's buttons (one-click, limits, cancel-all) is that button's own.
    if (target.tagName === 'BUTTON' && target !== submit.current) return
    e.preventDefault()
    press()
  }

  const onSubmitClick = (e: MouseEvent<HTMLButtonElement>) => {
    // The second click of a double click is not a second press.
    if (e.detail > 1) return
    press()
  }

  const priceText = priceTextIn(draft.price, draft.priceUnit, unit)
  // The price field's own value in 0–1, whatever else the ticket lacks yet.
  const typedPrice = draft.kind === 'limit' ? parsePriceInput(draft.price, draft.priceUnit) : null
  const field = refusal === null ? null : explainRefusal(refusal).field
  const title = mode === null ? 'Ticket' : MODE_TITLE[mode]
  return (
    <form
      className={`order-ticket mode-${mode ?? 'none'}`}
      data-testid="order-ticket"
      data-market={market}
      data-mode={mode ?? undefined}
      data-confirmations={confirmations}
      aria-label={`${title} order ticket`}
      onSubmit={(e) => e.preventDefault()}
      onKeyDown={onKeyDown}
    >
      <div className="ticket-head">
        <button
          type="button"
          className="icon-btn ticket-collapse"
          data-testid="ticket-collapse"
          aria-expanded={!collapsed}
          aria-label={
            collapsed ? 'Show the order ticket' : 'Hide the order ticket (the ladder gets the room)'
          }
          title={collapsed ? 'Show the ticket' : 'Hide the ticket: the ladder gets the room'}
          onClick={() => setTicketsCollapsed(!collapsed)}
        >
          <ChevronIcon open={!collapsed} />
        </button>
        <b className="ticket-title" data-testid="ticket-title">
          {title}
        </b>
        {trading !== null ? (
          <button
            type="button"
            className={`btn ghost small-btn one-click ${confirmations ? '' : 'on'}`}
            data-testid="order-one-click"
            aria-pressed={!confirmations}
            title={
              confirmations
                ? 'Each order and cancel-all asks first. Click for one-click: Send sends at once (kept for this profile).'
                : 'One-click: Send sends at once, with no confirmation. Click to confirm each order again.'
            }
            onClick={() => {
              void changeTrading(api, { oneClick: confirmations }).then((e) => setTicketRefusal(market, e))
            }}
          >
            {confirmations ? 'Confirm: on' : 'One-click'}
          </button>
        ) : null}
        <LimitsButton />
        <CancelAllButton compact />
      </div>
      {collapsed ? null : (
        <>
          {mode === 'off' ? (
            <div className="ticket-note" data-testid="ticket-off">
              Trading is off for this profile. Choose <b>Paper</b> or <b>Live</b> in the status bar, or{' '}
              <button
                type="button"
                className="link-btn"
                data-testid="ticket-paper-on"
                onClick={() =>
                  void changeTrading(api, { mode: 'paper' }).then((e) => setTicketRefusal(market, e))
                }
              >
                trade on paper
              </button>
              .
            </div>
          ) : block !== null ? (
            <div className="ticket-note warn-text" data-testid="ticket-blocked" data-code={block.code}>
              {block.text}
            </div>
          ) : null}
          <div className="ticket-row">
            <Choice
              label="Side"
              testId="order-side"
              className={draft.side === 'buy' ? 'bid-text' : 'ask-text'}
              value={draft.side}
              of={SIDES}
              onChange={(side) => editTicket(market, { side })}
            />
            <Choice
              label="Outcome"
              testId="order-outcome"
              value={draft.outcome}
              of={OUTCOMES}
              onChange={(outcome) => editTicket(market, { outcome })}
            />
            <Choice
              label="Order kind"
              testId="order-kind"
              value={draft.kind}
              of={KINDS}
              onChange={(kind) => editTicket(market, { kind })}
            />
          </div>
          <div className="ticket-row">
            <label className="ticket-field" title={`The ${draft.outcome} contract's own price`}>
              <span>Price</span>
              <input
                data-testid="order-price"
                className="num-input"
                inputMode="decimal"
                autoComplete="off"
                aria-invalid={field === 'price' ? true : undefined}
                disabled={draft.kind === 'market'}
                placeholder={draft.kind === 'market' ? 'market' : unit === 'cents' ? '40' : '0.40'}
                data-price={typedPrice?.ok ? typedPrice.price : undefined}
                value={draft.kind === 'market' ? '' : priceText}
                onChange={(e) => editTicket(market, { price: e.target.value, priceUnit: unit })}
              />
              <span className="unit muted">{unit === 'cents' ? '¢' : ''}</span>
            </label>
            <label className="ticket-field">
              <span>Qty</span>
              <input
                data-testid="order-qty"
                className="num-input"
                inputMode="numeric"
                autoComplete="off"
                aria-invalid={field === 'quantity' ? true : undefined}
                placeholder="contracts"
                value={draft.quantity}
                onChange={(e) => editTicket(market, { quantity: e.target.value })}
              />
            </label>
            <button
              ref={submit}
              type="button"
              className={`btn primary ticket-send ${draft.side}`}
              data-testid="order-submit"
              data-busy={busy || undefined}
              disabled={busy || !canSend}
              title={confirmations ? 'Send (Enter): asks first' : 'Send (Enter): one-click, no confirmation'}
              onClick={onSubmitClick}
            >
              {busy ? 'Sending…' : shape ? orderText(shape, unit) : 'Send'}
            </button>
          </div>
          {est !== null && shape !== null ? <Estimate est={est} shape={shape} mode={mode} /> : null}
        </>
      )}
      {refusal !== null ? <RefusalBox error={refusal} shown={block?.code ?? null} /> : null}
      {sent !== null && !collapsed ? <SentOrder reply={sent} /> : null}
      {asking !== null ? (
        <OrderConfirm
          request={asking.request}
          reasons={asking.reasons}
          totalCents={est?.totalCents ?? null}
          onConfirm={confirm}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </form>
  )
}
