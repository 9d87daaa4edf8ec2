// A modal dialog: backdrop (a click outside closes), a titled head with a close button, and the keyboard
// behaviour every dialog shares (focus moves in, Tab stays inside, Escape closes).
import { useRef, type ReactNode } from 'react'
import { useDialog } from '../hooks/dialog'

export function Dialog({
  title,
  testId,
  className,
  onClose,
  children,
}: {
  title: string
  testId: string
  className: string
  onClose(): void
  children: ReactNode
}) {
  const ref = useRef<HTMLDivElement | null>(null)
  useDialog(ref, onClose)
  return (
    <div className="modal-backdrop" onMouseDown={onClose}>
      <div
        ref={ref}
        className={`modal ${className}`}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <div className="modal-head">
          <h2>{title}</h2>
          <button className="icon-btn" onClick={onClose} aria-label="Close">
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  )
}
