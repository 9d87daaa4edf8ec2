// The static "Quiet?" mark of a book that has gone longer without an update than its market usually does.
export function QuietMark({
  testId,
  className,
  more = '',
}: {
  testId: string
  className?: string
  more?: string
}) {
  return (
    <span
      className={className ? `quiet-mark ${className}` : 'quiet-mark'}
      data-testid={testId}
      title={`No update for longer than this market usually goes without one: the book may be behind.${more}`}
    >
      Quiet?
    </span>
  )
}
