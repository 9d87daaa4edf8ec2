// The app's tables of rows (`grid-table`): fixed column widths, a header row, a row that says why the table is
// empty, and an optional footer. Used by the account's positions, orders and fills, the event matrix and the
// incident log.
import type { ReactNode, TableHTMLAttributes } from 'react'

export interface GridColumn {
  /** The header's content; null: an empty header. */
  head: ReactNode
  /** Fixed width in px; none: the column takes the room the others leave. */
  width?: number
  /** Figures, right-aligned. */
  num?: boolean
  /** The header's tooltip. */
  title?: string
}

export type GridTableProps<T> = Omit<TableHTMLAttributes<HTMLTableElement>, 'children'> & {
  [data: `data-${string}`]: string | number | boolean | undefined
} & {
  /** One entry a column; false leaves the column out (a column shown only when some row has its value). */
  columns: ReadonlyArray<GridColumn | false>
  rows: readonly T[]
  row(item: T): ReactNode
  /** The text of the one row shown when there are no rows; without it the body is empty. */
  empty?: string
  /** Rows after the body, e.g. a total. */
  foot?: ReactNode
}

export function GridTable<T>({ columns, rows, row, empty, foot, className, ...table }: GridTableProps<T>) {
  const shown = columns.filter((c): c is GridColumn => c !== false)
  return (
    <table className={className ? `grid-table ${className}` : 'grid-table'} {...table}>
      <colgroup>
        {shown.map((c, i) => (
          <col key={i} style={c.width === undefined ? undefined : { width: c.width }} />
        ))}
      </colgroup>
      <thead>
        <tr>
          {shown.map((c, i) => (
            <th key={i} className={c.num ? 'num' : undefined} title={c.title}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty !== undefined ? (
          <tr>
            <td colSpan={shown.length} className="empty-cell">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map(row)
        )}
      </tbody>
      {foot ? <tfoot>{foot}</tfoot> : null}
    </table>
  )
}
