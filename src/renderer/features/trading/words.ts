// How trading reads in the window: the mode's name, an order in a line ("Buy 10 YES @ 40¢"), money in R$ from
// centavos, and a round trip. One place, so the ticket, its confirmation, the orders and the blotter say the same.
import type { OrderKind, OrderOutcome, OrderSide, TradingMode } from '../../../shared/trading'
import { formatDuration, formatMoney, formatPrice, formatSize, type PriceUnit } from '../../lib/format'

/** The ticket's title in each mode: PAPER stands out, as the mode's colour does. */
export const MODE_TITLE: Record<TradingMode, string> = {
  off: 'Trading off',
  paper: 'PAPER',
  live: 'LIVE',
}

/** Centavos as reais: "R$ 4.17". */
export function cents(value: number | null): string {
  return formatMoney(value === null ? null : value / 100, 'BRL')
}

/** An order in one line: "Buy 10 YES @ 40¢", "Sell 5 NO at market". */
export function orderText(
  o: { side: OrderSide; outcome: OrderOutcome; kind: OrderKind; quantity: number } & (
    { ticks: number | null } | { priceTicks: number | null }
  ),
  unit: PriceUnit,
): string {
  const ticks = 'ticks' in o ? o.ticks : o.priceTicks
  const price = o.kind === 'market' || ticks === null ? 'at market' : `@ ${formatPrice(ticks / 100, unit)}`
  return `${o.side === 'buy' ? 'Buy' : 'Sell'} ${formatSize(o.quantity)} ${o.outcome} ${price}`
}

/** A round trip in ms ("38 ms"), or a dash before the answer. */
export function rtt(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—'
  return ms < 10_000 ? `${Math.round(ms)} ms` : formatDuration(ms)
}
