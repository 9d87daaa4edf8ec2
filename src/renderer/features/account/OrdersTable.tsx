// Open orders, newest first, each with a button for an alert when its market's order is filled. Prices follow
// the price preference (¢ or probability).
import { memo } from 'react'
import type { OrderRow } from '../../../shared/account'
import { prefill } from '../../lib/alerts'
import { marketHint, nameOf, type MarketName, type MarketNames } from '../../lib/market-names'
import { formatPrice, formatSize, type PriceUnit } from '../../lib/format'
import { openAlertForm } from '../../store/alerts-ui'
import { GridTable, type GridColumn } from '../../ui/GridTable'
import { MarketCell, SideCell } from './cells'

/** The most orders listed; the count in the heading is of all. */
const ORDER_ROWS = 50

/** Venue statuses are snake_case words of any length; the column has room for one short word. */
function statusLabel(status: string | null | undefined): string {
  if (!status) return 'open'
  const s = status.toLowerCase()
  if (s.startsWith('partial')) return 'partial'
  if (s === 'canceled' || s === 'cancelled') return 'cancelled'
  return s.replace(/_/g, ' ')
}

const OrderLine = memo(function OrderLine({
  o,
  name,
  unit,
}: {
  o: OrderRow
  name: MarketName | undefined
  unit: PriceUnit
}) {
  return (
    <tr data-market={o.market ?? undefined} title={`Order ${o.id}`}>
      <MarketCell id={o.market} name={name} />
      <SideCell side={o.side} />
      <td className="num">{formatPrice(o.price, unit)}</td>
      <td className="num">
        {formatSize(o.filled ?? 0)}/{formatSize(o.size)}
      </td>
      <td className="ellipsis" title={o.status ?? 'open'}>
        {statusLabel(o.status)}
      </td>
      <td className="row-btn-cell">
        <button
          type="button"
          className="row-btn"
          data-testid="order-alert"
          title={`Alert when this market's order is filled${o.market ? `: ${marketHint(name, o.market)}` : ''}`}
          aria-label={`Alert when an order in ${name?.label ?? o.market ?? 'any market'} is filled`}
          onClick={() => openAlertForm(prefill({ market: o.market, subject: 'order-filled' }, unit))}
        >
          Alert
        </button>
      </td>
    </tr>
  )
})

const COLUMNS: GridColumn[] = [
  { head: 'Market', min: 72 },
  { head: 'Side', width: 36 },
  { head: 'Price', width: 44, num: true },
  { head: 'Filled', width: 70, num: true },
  { head: 'Status', width: 64 },
  { head: <span className="sr-only">Alert</span>, width: 40 },
]

export function OrdersTable({
  orders,
  names,
  unit,
}: {
  orders: readonly OrderRow[]
  names: MarketNames
  unit: PriceUnit
}) {
  return (
    <>
      <h4>
        Open orders <span className="muted">{orders.length}</span>
      </h4>
      <GridTable
        className="compact"
        data-testid="open-orders"
        columns={COLUMNS}
        rows={orders.slice(0, ORDER_ROWS)}
        row={(o) => <OrderLine key={o.id} o={o} name={nameOf(names, o.market)} unit={unit} />}
        empty="No open orders"
      />
    </>
  )
}
