// Cells the account's tables share: a market named by its listing title, and a side coloured as the ladder is.
import type { Side } from '../../../shared/model'

export function MarketCell({ id, title }: { id: string | null; title: string | undefined }) {
  return (
    <td className="ellipsis" title={id ?? undefined}>
      {id === null ? '—' : (title ?? <span className="mono">{id}</span>)}
    </td>
  )
}

export function SideCell({ side }: { side: Side | null }) {
  return <td className={side === 'buy' ? 'bid-text' : side === 'sell' ? 'ask-text' : ''}>{side ?? '—'}</td>
}

/** The market's title from the listing, for a row whose market may be unknown. */
export type TitleOf = (market: string | null) => string | undefined
