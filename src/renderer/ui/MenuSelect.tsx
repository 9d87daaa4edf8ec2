// A select used as a menu: it always shows its placeholder (the empty choice) and hands each pick to onPick,
// so picking the same item twice runs it twice (the workspace actions, add a pane, snooze).
import type { ReactNode } from 'react'

export function MenuSelect({
  label,
  placeholder,
  onPick,
  children,
  testId,
  className,
  disabled,
  icon,
}: {
  /** The select's accessible name. */
  label: string
  /** What the closed menu shows. */
  placeholder: ReactNode
  onPick(value: string): void
  /** The items: <option>s with non-empty values. */
  children: ReactNode
  testId?: string
  className?: string
  disabled?: boolean
  /** Shown in place of the placeholder's text, which stays the closed menu's text for assistive technology. */
  icon?: ReactNode
}) {
  const select = (
    <select
      className={className}
      aria-label={label}
      data-testid={testId}
      value=""
      disabled={disabled}
      onChange={(e) => {
        if (e.target.value) onPick(e.target.value)
      }}
    >
      <option value="">{placeholder}</option>
      {children}
    </select>
  )
  if (icon === undefined) return select
  return (
    <span className="menu-icon">
      {icon}
      {select}
    </span>
  )
}
