// The latest fills, with a CSV export of all held. Fills show the contract (YES/NO) and the fee where their
// record says (src/shared/account.ts); those columns appear only when some fill has them. A paper fill is marked
// PAPER. Prices follow the price preference (¢ or probability).
import { memo } from 'react'
import type { FillRow } from '../../../shared/account'
import { csvFilename, downloadCsv, fillsCsv } from '../../lib/csv'
import { nameOf, type MarketName, type MarketNames } from '../../lib/market-names'
import {
  formatClock,
  formatMoney,
  formatPrice,
  formatSize,
  hasMoneySymbol,
  type PriceUnit,
} from '../../lib/format'
import { ExportButton } from '../../ui/ExportButton'
import { GridTable } from '../../ui/GridTable'
import { MarketCell, SideCell } from './cells'

/** The most fills listed; the export has all. */
const FILL_ROWS = 30

const FillLine = memo(function FillLine({
  f,
  name,
  unit,
  showOutcome,
  showFee,
  currency,
}: {
  f: FillRow
  name: MarketName | undefined
  unit: PriceUnit
  showOutcome: boolean
  showFee: boolean
  /** The account's currency (its one balance's), for a fee whose record names none. */
  currency: string | null
}) {
  return (
    <tr
      data-testid="fill-row"
      data-market={f.market ?? undefined}
      data-outcome={f.outcome?.toUpperCase()}
      data-fee={f.fee}
      data-mode={f.mode}
      data-order-id={f.orderId ?? undefined}
      data-side={f.side ?? undefined}
      data-price={f.price ?? undefined}
      data-size={f.size ?? undefined}
      data-ts={f.ts}
      className={f.mode === 'paper' ? 'paper-row' : undefined}
    >
      <td className="num">{formatClock(f.ts)}</td>
      <MarketCell
        id={f.market}
        name={name}
        tag={f.mode === 'paper' ? <span className="mode-tag mode-paper">PAPER</span> : null}
      />
      <SideCell side={f.side} />
      {showOutcome ? (
        <td data-testid="fill-outcome">
          {f.outcome ? (
            <span className={`outcome-mark outcome-${f.outcome}`}>{f.outcome.toUpperCase()}</span>
          ) : (
            '—'
          )}
        </td>
      ) : null}
      <td className="num">{formatPrice(f.price, unit)}</td>
      <td className="num">{formatSize(f.size)}</td>
      {showFee ? (
        <td
          className="num"
          data-testid="fill-fee"
          title={
            f.fee === undefined
              ? 'No fee in this fill’s update'
              : `Fee ${formatMoney(f.fee, currency)}${currency && !hasMoneySymbol(currency) ? ` ${currency}` : ''}`
          }
        >
          {f.fee === undefined ? '—' : formatMoney(f.fee, currency)}
        </td>
      ) : null}
    </tr>
  )
})

export function FillsTable({
  fills: all,
  currency,
  names,
  unit,
}: {
  fills: readonly FillRow[]
  /** A fee's currency when its record names none: the account's, when it has one currency only. */
  currency: string | null
  names: MarketNames
  unit: PriceUnit
}) {
  const fills = all.slice(0, FILL_ROWS)
  const showOutcome = fills.some((x) => x.outcome !== undefined)
  const showFee = fills.some((x) => x.fee !== undefined)
  return (
    <>
      <h4 className="section-head">
        Fills <span className="muted">{all.length}</span>
        <ExportButton
          testId="fills-export"
          count={all.length}
          what="fills"
          onExport={() => downloadCsv(csvFilename('fills', null), fillsCsv(all, names))}
        />
      </h4>
      <GridTable
        className="compact"
        data-testid="fills"
        columns={[
          // The market keeps room for a name: the extra VoxFi columns are narrow.
          { head: 'Time', width: 66 },
          { head: 'Market', min: 72 },
          { head: 'Side', width: 36 },
          showOutcome && { head: 'Out.', width: 34, title: 'The contract filled: YES or NO' },
          { head: 'Price', width: 42, num: true },
          { head: 'Size', width: 44, num: true },
          showFee && { head: 'Fee', width: 58, num: true },
        ]}
        rows={fills}
        row={(f) => (
          <FillLine
            key={f.key}
            f={f}
            name={nameOf(names, f.market)}
            unit={unit}
            showOutcome={showOutcome}
            showFee={showFee}
            currency={currency}
          />
        )}
        empty="No fills yet"
      />
    </>
  )
}
