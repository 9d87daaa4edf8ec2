// Cancel-all, the kill switch: a button (in the ticket and over the account's orders) and the hotkey
// Ctrl+Shift+X (TradingLayer), for every working order of the active profile, live and paper. It never waits for
// an order in flight; with confirmations on it asks first.
import { useApi } from '../../hooks/context'
import { useTradingUi } from '../../store/trading'
import { requestCancelAll, useConfirmations } from './actions'

/** What the last cancel-all did, in a few words (or why it failed). */
export function CancelAllOutcome() {
  const state = useTradingUi((s) => s.cancelAll)
  if (state.running || (state.result === null && state.error === null)) return null
  if (state.error !== null)
    return (
      <span
        className="error-text"
        data-testid="cancel-all-result"
        data-ok="false"
        title={state.error.message}
      >
        Cancel-all failed: {state.error.message}
      </span>
    )
  const r = state.result
  if (r === null) return null
  return (
    <span
      className={r.failed > 0 ? 'warn-text' : 'muted'}
      data-testid="cancel-all-result"
      data-ok={r.failed === 0}
      title={`Asked ${r.asked}, cancelled ${r.cancelled}, failed ${r.failed}, in flight (cancelled when the venue names them) ${r.deferred}`}
    >
      {r.asked === 0
        ? 'Nothing to cancel'
        : `Cancelled ${r.cancelled}/${r.asked}${r.failed > 0 ? `, ${r.failed} failed` : ''}${r.deferred > 0 ? `, ${r.deferred} in flight` : ''}`}
    </span>
  )
}

export function CancelAllButton({ compact = false }: { compact?: boolean }) {
  const api = useApi()
  const running = useTradingUi((s) => s.cancelAll.running)
  const confirmations = useConfirmations()
  return (
    <button
      type="button"
      className={`btn danger-ghost ${compact ? 'small-btn' : ''}`}
      data-testid="cancel-all"
      data-running={running || undefined}
      disabled={running}
      title="Cancel every working order of this profile, live and paper (Ctrl+Shift+X)"
      onClick={(e) => {
        if (e.detail <= 1) requestCancelAll(api, confirmations)
      }}
    >
      {running ? 'Cancelling…' : 'Cancel all'}
    </button>
  )
}
