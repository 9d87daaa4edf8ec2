// What trading adds over a window: the cancel-all confirmation and the hotkey Ctrl+Shift+X. Mounted once by each
// view (main, market, event), as the alerts' layer is.
import { useEffect, useRef } from 'react'
import { useApi } from '../../hooks/context'
import { setCancelAll, useTradingUi } from '../../store/trading'
import { requestCancelAll, runCancelAll, useConfirmations } from './actions'
import { ConfirmDialog } from './ConfirmDialog'

/** Ctrl+Shift+X (by key position, as on every layout), never a key's auto-repeat. */
export function isCancelAllShortcut(e: KeyboardEvent): boolean {
  return e.ctrlKey && e.shiftKey && !e.altKey && !e.metaKey && !e.repeat && e.code === 'KeyX'
}

export function TradingLayer() {
  const api = useApi()
  const asking = useTradingUi((s) => s.cancelAll.asking)
  const confirmations = useConfirmations()
  const latest = useRef(confirmations)
  useEffect(() => {
    latest.current = confirmations
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && e.shiftKey && e.code === 'KeyX') e.preventDefault()
      if (!isCancelAllShortcut(e)) return
      requestCancelAll(api, latest.current)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [api])
  if (!asking) return null
  return (
    <ConfirmDialog
      title="Cancel every working order?"
      testId="cancel-all-dialog"
      confirmTestId="cancel-all-confirm"
      confirmLabel="Cancel all orders"
      danger
      onClose={() => setCancelAll({ asking: false })}
      onConfirm={() => void runCancelAll(api)}
    >
      <p>
        Every working order of this profile is cancelled: live ones at the venue (orders placed on its site
        too) and paper ones. An order still on its way is cancelled as soon as the venue names it.
      </p>
    </ConfirmDialog>
  )
}
