// The question before an order goes (confirmations on), or the warnings the engine asks about (the same order a
// moment ago, a limit far through the touch): what will be sent, in which mode, for how much, and why it asks.
// Yes sends the very intent the press made; a warning accepted is sent back with it (`confirmed`).
import type { ConfirmReason } from '../../../shared/model'
import type { OrderRequest } from '../../../shared/trading'
import { marketLabel } from '../../lib/market-names'
import { useMarketNames } from '../../store/events'
import { usePriceUnit } from '../../store/prefs'
import { ConfirmDialog } from './ConfirmDialog'
import { cents, MODE_TITLE, orderText } from './words'

const WHY: Record<ConfirmReason, string> = {
  duplicate:
    'You sent the same order (market, side, outcome, price and quantity) less than a second ago. Send it again?',
  far_through:
    'The price is far through the touch: a buy well above the best ask, or a sell well below the best bid (more than the ticks your limits allow). Send it anyway?',
}

export function OrderConfirm({
  request,
  reasons,
  totalCents,
  onConfirm,
  onClose,
}: {
  request: OrderRequest
  reasons: readonly ConfirmReason[]
  totalCents: number | null
  onConfirm(): void
  onClose(): void
}) {
  const unit = usePriceUnit()
  const names = useMarketNames()
  const text = orderText({ ...request, priceTicks: request.priceTicks ?? null }, unit)
  const warned = reasons.length > 0
  return (
    <ConfirmDialog
      title={warned ? 'Send this order anyway?' : `Send this ${MODE_TITLE[request.mode]} order?`}
      testId="order-confirm-dialog"
      confirmTestId="order-confirm"
      confirmLabel={warned ? 'Send anyway' : 'Send order'}
      danger={warned}
      onConfirm={onConfirm}
      onClose={onClose}
      data={{ 'data-reasons': reasons.join(' ') || undefined, 'data-mode': request.mode }}
    >
      <p className={`confirm-order mode-${request.mode}`}>
        <span className={`mode-tag mode-${request.mode}`}>{MODE_TITLE[request.mode]}</span>{' '}
        <b className={request.side === 'buy' ? 'bid-text' : 'ask-text'}>{text}</b>
        <br />
        <span className="muted">{marketLabel(names, request.market)}</span>
        {totalCents !== null ? (
          <>
            <br />
            {request.side === 'buy' ? 'Cost' : 'You receive'} about <b>{cents(totalCents)}</b>
          </>
        ) : null}
      </p>
      {reasons.map((r) => (
        <p key={r} className="alert warn" data-testid="order-warning" data-reason={r}>
          {WHY[r]}
        </p>
      ))}
      {request.mode === 'paper' ? (
        <p className="muted">
          A paper order never reaches the venue: it fills only on a public trade at or through its price.
        </p>
      ) : null}
    </ConfirmDialog>
  )
}
