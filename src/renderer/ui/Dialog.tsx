// A modal dialog: backdrop (a click outside closes), a titled head with a close button, and the keyboard
// behaviour every dialog shares (focus moves in, Tab stays inside, Escape closes). Every modal of the app is one:
// the alert form (a form of its own), the alert manager, key settings, the rules, record and replay, and the
// quick-open palette (a palette: no head, its input first).
import { useRef, type FormHTMLAttributes, type ReactNode, type RefObject } from 'react'
import { useDialog } from '../hooks/dialog'

/** What the dialog's own element may carry besides its role and name: a form's handlers, data attributes. */
export type DialogBoxProps = FormHTMLAttributes<HTMLElement> & {
  [data: `data-${string}`]: string | undefined
}

export interface DialogProps {
  /** The dialog's accessible name, and its heading unless `heading` says otherwise. */
  title: string
  /** What the head shows instead of the title; null: no head at all. */
  heading?: ReactNode
  testId: string
  className?: string
  onClose(): void
  children: ReactNode
  /** Buttons in the head, before the close button. */
  actions?: ReactNode
  /** The close button's test id, where a test needs one. */
  closeTestId?: string
  /** Where focus goes when it opens; the first focusable element by default. */
  initialFocus?: RefObject<HTMLElement | null>
  /** A form is a dialog of its own (Enter submits it); a palette has its own frame. Default 'modal'. */
  kind?: 'modal' | 'form' | 'palette'
  boxProps?: DialogBoxProps
  /** Set to the dialog's own element, for a caller that looks inside it. */
  boxRef?: RefObject<HTMLElement | null>
}

export function Dialog({
  title,
  heading = title,
  testId,
  className,
  onClose,
  children,
  actions,
  closeTestId,
  initialFocus,
  kind = 'modal',
  boxProps,
  boxRef,
}: DialogProps) {
  const ref = useRef<HTMLElement | null>(null)
  useDialog(ref, onClose, initialFocus)
  const Box = kind === 'form' ? 'form' : 'div'
  const frame = kind === 'palette' ? 'palette' : 'modal'
  return (
    <div className="modal-backdrop" onMouseDown={onClose}>
      <Box
        {...boxProps}
        ref={(el: HTMLElement | null) => {
          ref.current = el
          if (boxRef) boxRef.current = el
        }}
        className={className ? `${frame} ${className}` : frame}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
        onMouseDown={(e) => e.stopPropagation()}
      >
        {heading === null ? null : (
          <div className="modal-head">
            <h2>{heading}</h2>
            {actions ? (
              <div className="row-gap">
                {actions}
                <CloseButton onClose={onClose} testId={closeTestId} />
              </div>
            ) : (
              <CloseButton onClose={onClose} testId={closeTestId} />
            )}
          </div>
        )}
        {children}
      </Box>
    </div>
  )
}

function CloseButton({ onClose, testId }: { onClose(): void; testId: string | undefined }) {
  return (
    <button type="button" className="icon-btn" onClick={onClose} aria-label="Close" data-testid={testId}>
      ×
    </button>
  )
}
