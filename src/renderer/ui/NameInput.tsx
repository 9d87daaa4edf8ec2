// The field a new or renamed thing's name is typed in (a watchlist, a workspace): focused when it appears,
// Enter submits, Escape cancels.
export function NameInput({
  value,
  onChange,
  onSubmit,
  onCancel,
  label,
  testId,
  placeholder,
}: {
  value: string
  onChange(value: string): void
  onSubmit(): void
  onCancel(): void
  label: string
  testId: string
  placeholder?: string
}) {
  return (
    <input
      autoFocus
      className="search"
      placeholder={placeholder}
      aria-label={label}
      data-testid={testId}
      value={value}
      maxLength={60}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onSubmit()
        else if (e.key === 'Escape') onCancel()
      }}
    />
  )
}
