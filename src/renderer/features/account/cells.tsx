// Cells the account's tables share: a market named by its event and its own title, and a side coloured as the
// ladder is.
import type { ReactNode } from 'react'
import type { Side } from '../../../shared/model'
import { marketHint, type MarketName } from '../../lib/market-names'

/**
 * The market's own title, then its event's, muted: a title such as "-5% to 0%" or "Goes to overtime" only
 * means something with its event, and in a narrow column the market's words are the ones kept. The id is in
 * the tooltip, and is the cell's text only when the listing does not hold the market.
 */
export function MarketCell({
  id,
  name,
  tag = null,
}: {
  id: string | null
  name: MarketName | undefined
  /** A mark before the name (PAPER on a paper order, position or fill). */
  tag?: ReactNode
}) {
  if (id === null) return <td>—</td>
  if (!name)
    return (
      <td className="ellipsis" title={marketHint(name, id)} data-testid="market-cell">
        {tag}
        <span className="mono">{id}</span>
      </td>
    )
  const own = name.market.trim()
  const primary = own === '' ? name.label : own
  // The label is the market's title alone when its event adds nothing (empty, or the same words).
  const event = name.label === primary ? null : name.event
  return (
    <td className="ellipsis market-cell" title={marketHint(name, id)} data-testid="market-cell">
      {tag}
      <span data-testid="market-cell-market">{primary}</span>
      {event !== null ? (
        <span className="muted" data-testid="market-cell-event">
          {' · '}
          {event}
        </span>
      ) : null}
    </td>
  )
}

export function SideCell({ side }: { side: Side | null }) {
  return <td className={side === 'buy' ? 'bid-text' : side === 'sell' ? 'ask-text' : ''}>{side ?? '—'}</td>
}
