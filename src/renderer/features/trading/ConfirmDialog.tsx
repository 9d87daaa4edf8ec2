// The question a trading action asks first (an order, cancel-all, switching to live): put on the document's body
// (a dock pane is the containing block of anything fixed inside it), with the yes button focused so Enter answers
// it, and a held Enter that opened it cannot answer it: a key's auto-repeat is never a press here.
import { useRef, type KeyboardEvent, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { Dialog } from '../../ui/Dialog'

export function ConfirmDialog({
  title,
  testId,
  confirmTestId,
  confirmLabel,
  danger = false,
  onConfirm,
  onClose,
  children,
  data,
}: {
  title: string
  testId: string
  confirmTestId: string
  confirmLabel: string
  /** The yes button in the danger colour (switching to live, cancel-all). */
  danger?: boolean
  onConfirm(): void
  onClose(): void
  children: ReactNode
  /** Data attributes on the dialog (e.g. the warnings it asks about). */
  data?: Record<`data-${string}`, string | undefined>
}) {
  const yes = useRef<HTMLButtonElement | null>(null)
  const onKeyDownCapture = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Enter' && e.repeat) {
      e.preventDefault()
      e.stopPropagation()
    }
  }
  return createPortal(
    <Dialog
      title={title}
      testId={testId}
      className="trading-confirm"
      onClose={onClose}
      initialFocus={yes}
      boxProps={{ onKeyDownCapture, ...data }}
    >
      {children}
      <div className="modal-foot">
        <button
          ref={yes}
          type="button"
          className={`btn ${danger ? 'danger' : 'primary'}`}
          data-testid={confirmTestId}
          // The second click of a double click is not a second yes.
          onClick={(e) => {
            if (e.detail <= 1) onConfirm()
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" className="btn" data-testid={`${confirmTestId}-cancel`} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>,
    document.body,
  )
}
