// The app's tables of rows (`grid-table`): fixed column widths, a header row, a row that says why the table is
// empty, and an optional footer. Used by the account's positions, orders and fills, the event matrix and the
// incident log.
import type { ReactNode, TableHTMLAttributes } from 'react'
import { titleIfTruncated } from './truncated-title'

export interface GridColumn {
  /** The header's content; null: an empty header. */
  head: ReactNode
  /** Fixed width in px; none: the column takes the room the others leave. */
  width?: number
  /**
   * For a column without a width: the least it keeps (px). The table then scrolls sideways in a narrow pane
   * rather than collapsing the column to nothing.
   */
  min?: number
  /** Figures, right-aligned. */
  num?: boolean
  /** The header's tooltip; a text header is its own tooltip without one (it may be truncated). */
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

/** A table's truncated cell gets its full text as a tooltip on hover. */
const titleCells = titleIfTruncated('td, th')

export function GridTable<T>({
  columns,
  rows,
  row,
  empty,
  foot,
  className,
  style,
  ...table
}: GridTableProps<T>) {
  const shown = columns.filter((c): c is GridColumn => c !== false)
  const least = shown.some((c) => c.min !== undefined)
    ? shown.reduce((sum, c) => sum + (c.width ?? c.min ?? 0), 0)
    : undefined
  return (
    <table
      className={className ? `grid-table ${className}` : 'grid-table'}
      style={least === undefined ? style : { ...style, minWidth: least }}
      onPointerOver={titleCells}
      {...table}
    >
      <colgroup>
        {shown.map((c, i) => (
          <col key={i} style={c.width === undefined ? undefined : { width: c.width }} />
        ))}
      </colgroup>
      <thead>
        <tr>
          {shown.map((c, i) => (
            <th
              key={i}
              className={c.num ? 'num' : undefined}
              title={c.title ?? (typeof c.head === 'string' ? c.head : undefined)}
            >
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
