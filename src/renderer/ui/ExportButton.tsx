// The "Export CSV" link of a list that saves what it holds (fills, the blotter's order actions): disabled with the
// reason while there is nothing, and saying how many rows it saves.
export function ExportButton({
  testId,
  count,
  what,
  onExport,
}: {
  testId: string
  /** Rows it would save. */
  count: number
  /** What the rows are, plural ("fills", "order actions"). */
  what: string
  onExport(): void
}) {
  return (
    <button
      type="button"
      className="link-btn export-btn"
      data-testid={testId}
      disabled={count === 0}
      title={
        count === 0 ? `No ${what} to export` : `Save the ${count} ${what} held (newest first) as a CSV file`
      }
      onClick={onExport}
    >
      Export CSV
    </button>
  )
}
