// What a position row offers (docs/trading.md): "close" fills that market's ticket with the opposite order for the
// held quantity at the touch (the trader still sends it), and `merge`, on a market holding both YES and NO,
// turns min(YES, NO) pairs into R$1.00 each at the venue (asking first while confirmations are on). Small icon
// buttons at the start of the row's market cell: the positions table has no room for a column more.
import { useState } from 'react'
import type { OrderOutcome } from '../../../shared/trading'
import { useApi } from '../../hooks/context'
import { marketLabel } from '../../lib/market-names'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { fillTicket } from '../../store/trading'
import { mergePairs, useConfirmations } from './actions'
import { ConfirmDialog } from './ConfirmDialog'
import { outcomeBook } from './estimate'
import { explainRefusal } from './refusals'
import { cents } from './words'
import { ExitIcon, MergeIcon } from '../../ui/icons'

/** Fills the market's ticket to sell what is held of `outcome`, at the best bid of its own book on screen. */
export function closePosition(market: string, outcome: OrderOutcome, held: number): void {
  const bids = outcomeBook(useMonitor.getState().books[market], outcome)?.bids ?? []
  const touch = bids[0]?.[0] ?? null
  fillTicket(market, { side: 'sell', outcome, price: touch, kind: 'limit', quantity: held })
}

function MergeButton({ market, pairs }: { market: string; pairs: number }) {
  const api = useApi()
  const names = useMarketNames()
  const confirmations = useConfirmations()
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = () => {
    setAsking(false)
    setBusy(true)
    setError(null)
    void mergePairs(api, market, pairs).then((e) => {
      setBusy(false)
      setError(e === null ? null : explainRefusal(e).sentence)
    })
  }
  return (
    <>
      <button
        type="button"
        className={`row-btn icon-row-btn${error !== null ? ' failed' : ''}`}
        data-testid="merge"
        data-pairs={pairs}
        data-error={error ?? undefined}
        disabled={busy}
        aria-label={`Merge ${pairs} YES and NO pairs`}
        title={error ?? `Merge ${pairs} YES+NO pairs into ${cents(pairs * 100)} (R$1.00 a pair) at the venue`}
        onClick={(e) => {
          if (e.detail > 1) return
          if (confirmations) setAsking(true)
          else run()
        }}
      >
        <MergeIcon size={10} />
      </button>
      {asking ? (
        <ConfirmDialog
          title="Merge YES and NO pairs?"
          testId="merge-dialog"
          confirmTestId="merge-confirm"
          confirmLabel={`Merge ${pairs} pairs`}
          onConfirm={run}
          onClose={() => setAsking(false)}
        >
          <p>
            {pairs} YES and {pairs} NO contracts of <b>{marketLabel(names, market)}</b> become{' '}
            <b>{cents(pairs * 100)}</b>: a pair always pays R$1.00, whichever way the market resolves.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  )
}

export function PositionActions({
  market,
  outcome,
  held,
  pairs,
  onOpenMarket,
}: {
  market: string
  /** The outcome the row holds, and how many. */
  outcome: OrderOutcome
  held: number
  /** YES+NO pairs the row's market can merge now (0: no merge offered). */
  pairs: number
  onOpenMarket?(market: string): void
}) {
  return (
    <span className="row-actions">
      {held > 0 ? (
        <button
          type="button"
          className="row-btn icon-row-btn"
          data-testid="position-close"
          aria-label={`Close: sell the ${held} ${outcome} held`}
          title={`Close: fill this market's ticket to sell the ${held} ${outcome} held at the best bid (you still press Send)`}
          onClick={() => {
            closePosition(market, outcome, held)
            onOpenMarket?.(market)
          }}
        >
          <ExitIcon size={10} />
        </button>
      ) : null}
      {pairs > 0 ? <MergeButton market={market} pairs={pairs} /> : null}
    </span>
  )
}
