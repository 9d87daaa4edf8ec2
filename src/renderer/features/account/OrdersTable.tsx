// The profile's orders as the engine keeps them (AccountView.orders): working ones first, then today's finished
// ones, each newest first; live and paper together, every paper order marked PAPER. A working order can be
// cancelled from its row; cancel-all sits over the table. Each row also offers an alert for when its market's
// order fills. Prices are the order's own outcome's, in the trader's unit.
import { memo, useCallback, useMemo, useState } from 'react'
import type { ApiError } from '../../../shared/model'
import { isWorking, type OrderView } from '../../../shared/trading'
import { useApi } from '../../hooks/context'
import { prefill } from '../../lib/alerts'
import { formatPrice, formatSize, type PriceUnit } from '../../lib/format'
import { marketHint, nameOf, type MarketName, type MarketNames } from '../../lib/market-names'
import { openAlertForm } from '../../store/alerts-ui'
import { GridTable, type GridColumn } from '../../ui/GridTable'
import { BellIcon, CloseIcon } from '../../ui/icons'
import { CancelAllButton, CancelAllOutcome, cancelOrder, explainRefusal, rtt } from '../trading'
import { MarketCell } from './cells'

/** The most orders listed; the count in the heading is of the working ones. */
const ORDER_ROWS = 50

/** The state in one short word for the column; the full state is the row's data-state and tooltip. */
const STATE_WORD: Record<OrderView['state'], string> = {
  pending: 'sending',
  open: 'open',
  partially_filled: 'partial',
  cancelling: 'cancelling',
  cancelled: 'cancelled',
  filled: 'filled',
  rejected: 'rejected',
  unknown: 'unknown',
}

function orderTitle(o: OrderView): string {
  const parts = [`Order ${o.id}${o.venueId && o.venueId !== o.id ? ` (venue ${o.venueId})` : ''}`]
  parts.push(
    `${o.mode === 'paper' ? 'Paper' : 'Live'}, ${o.origin === 'venue' ? 'placed at the venue' : 'from this app'}`,
  )
  parts.push(`state ${o.state}${o.reason ? `: ${o.reason}` : ''}`)
  if (o.error) parts.push(explainRefusal(o.error).sentence)
  parts.push(`round trip ${rtt(o.rttMs)}`)
  return parts.join('\n')
}

const OrderLine = memo(function OrderLine({
  o,
  name,
  unit,
  onCancel,
}: {
  o: OrderView
  name: MarketName | undefined
  unit: PriceUnit
  onCancel(o: OrderView): void
}) {
  const working = isWorking(o.state)
  const price = o.priceTicks === null ? null : o.priceTicks / 100
  return (
    <tr
      data-testid="order-row"
      data-order-id={o.id}
      data-venue-id={o.venueId ?? undefined}
      data-market={o.market}
      data-state={o.state}
      data-side={o.side}
      data-outcome={o.outcome}
      data-price={price ?? undefined}
      data-qty={o.quantity}
      data-mode={o.mode}
      className={`${o.mode === 'paper' ? 'paper-row' : ''}${working ? '' : ' done-row'}`}
      title={orderTitle(o)}
    >
      <MarketCell
        id={o.market}
        name={name}
        tag={o.mode === 'paper' ? <span className="mode-tag mode-paper">PAPER</span> : null}
      />
      <td
        className="ellipsis"
        title={`${o.side} ${o.outcome} ${price === null ? 'at market' : `at ${formatPrice(price, unit)}`}`}
      >
        <span className={o.side === 'buy' ? 'bid-text' : 'ask-text'}>{o.side}</span>{' '}
        <span className={`outcome-mark outcome-${o.outcome.toLowerCase()}`}>{o.outcome}</span>{' '}
        <span className="num">{price === null ? 'mkt' : formatPrice(price, unit)}</span>
      </td>
      <td className="num">
        {formatSize(o.filled)}/{formatSize(o.quantity)}
      </td>
      <td className={`ellipsis state-text state-${o.state}`}>{STATE_WORD[o.state]}</td>
      <td className="row-btn-cell">
        {working && o.state !== 'cancelling' ? (
          <button
            type="button"
            className="row-btn icon-row-btn"
            data-testid="order-cancel"
            aria-label={`Cancel this ${o.side} order`}
            title="Cancel this order"
            onClick={() => onCancel(o)}
          >
            <CloseIcon size={10} />
          </button>
        ) : null}
        <button
          type="button"
          className="row-btn icon-row-btn"
          data-testid="order-alert"
          title={`Alert when this market's order is filled: ${marketHint(name, o.market)}`}
          aria-label={`Alert when an order in ${name?.label ?? o.market} is filled`}
          onClick={() => openAlertForm(prefill({ market: o.market, subject: 'order-filled' }, unit))}
        >
          <BellIcon size={10} />
        </button>
      </td>
    </tr>
  )
})

const COLUMNS: GridColumn[] = [
  { head: 'Market', min: 72 },
  { head: 'Order', width: 82, title: 'Side, outcome and the outcome’s own price' },
  { head: 'Filled', width: 50, num: true },
  { head: 'State', width: 58 },
  { head: <span className="sr-only">Actions</span>, width: 52 },
]

/** Working orders first, then finished ones; each newest first, as the engine lists them. */
export function listedOrders(orders: readonly OrderView[]): OrderView[] {
  const working = orders.filter((o) => isWorking(o.state))
  return working.length === orders.length
    ? working
    : working.concat(orders.filter((o) => !isWorking(o.state)))
}

export function OrdersTable({
  orders,
  names,
  unit,
}: {
  orders: readonly OrderView[]
  names: MarketNames
  unit: PriceUnit
}) {
  const api = useApi()
  const [error, setError] = useState<ApiError | null>(null)
  const listed = useMemo(() => listedOrders(orders), [orders])
  const working = useMemo(() => orders.filter((o) => isWorking(o.state)).length, [orders])
  // Stable, so the memoised rows do not re-render for a new callback.
  const onCancel = useCallback(
    (o: OrderView) => {
      setError(null)
      void cancelOrder(api, o.id).then(setError)
    },
    [api],
  )
  return (
    <>
      <h4 className="section-head">
        Open orders <span className="muted">{working}</span>
        <span className="section-actions">
          <CancelAllOutcome />
          <CancelAllButton compact />
        </span>
      </h4>
      {error !== null ? (
        <div className="alert error" data-testid="order-action-error" data-code={explainRefusal(error).code}>
          Cancel refused: {explainRefusal(error).sentence}
        </div>
      ) : null}
      <GridTable
        className="compact orders-table"
        data-testid="open-orders"
        columns={COLUMNS}
        rows={listed.slice(0, ORDER_ROWS)}
        row={(o) => (
          <OrderLine key={o.id} o={o} name={nameOf(names, o.market)} unit={unit} onCancel={onCancel} />
        )}
        empty="No orders today"
      />
    </>
  )
}
