// The blotter: today's order actions of the active profile from the engine's journal, newest first, each with what
// came of it (sent, accepted, refused, rejected, unknown, reconciled), the market, the order, the venue's or the
// app's code and message, and the round trip. Read whole when the pane opens (getJournal), then followed as
// batches bring new entries; exported as CSV like the fills.
import { memo, useEffect, useMemo, useState } from 'react'
import type { JournalEntry, JournalOutcome } from '../../../shared/trading'
import { useApi } from '../../hooks/context'
import { csvFilename, downloadCsv, journalCsv } from '../../lib/csv'
import { formatClock, formatPrice, formatSize, type PriceUnit } from '../../lib/format'
import { marketHint, marketLabel, type MarketNames } from '../../lib/market-names'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { ExportButton } from '../../ui/ExportButton'
import { GridTable, type GridColumn } from '../../ui/GridTable'
import { rtt } from './words'

/** The most rows drawn; the export has every entry held. */
const BLOTTER_ROWS = 300

/** How each result reads: good, pending, or bad. */
const RESULT_CLASS: Record<JournalOutcome, string> = {
  refused: 'ask-text',
  sent: 'muted',
  accepted: 'bid-text',
  rejected: 'ask-text',
  unknown: 'warn-text',
  reconciled: '',
}

const COLUMNS: GridColumn[] = [
  { head: 'Time', width: 62 },
  { head: 'Action', width: 60 },
  { head: 'Result', width: 68 },
  { head: 'Market', min: 90 },
  { head: 'Order', width: 92, title: 'Side, quantity, outcome and price (the outcome’s own)' },
  { head: 'Code / message', min: 110 },
  { head: 'RTT', width: 48, num: true, title: 'Round trip: the click to the venue’s answer' },
]

function orderCell(e: JournalEntry, unit: PriceUnit): string {
  if (e.side === undefined) return e.quantity === undefined ? '—' : formatSize(e.quantity)
  const price =
    e.kind === 'market' ? 'mkt' : e.priceTicks == null ? '' : formatPrice(e.priceTicks / 100, unit)
  return [e.side, e.quantity === undefined ? '' : formatSize(e.quantity), e.outcomeOf ?? '', price]
    .filter((p) => p !== '')
    .join(' ')
}

const BlotterRow = memo(function BlotterRow({
  e,
  names,
  unit,
}: {
  e: JournalEntry
  names: MarketNames
  unit: PriceUnit
}) {
  const code = [e.status, e.code].filter((x) => x !== undefined).join(' ')
  const note = [code, e.message].filter((x) => x !== undefined && x !== '').join(' · ')
  return (
    <tr
      data-testid="blotter-row"
      data-action={e.action}
      data-outcome={e.outcome}
      data-mode={e.mode}
      data-code={e.code}
      data-order-id={e.orderId ?? undefined}
      data-qty={e.quantity}
      data-market={e.market ?? undefined}
      className={e.mode === 'paper' ? 'paper-row' : undefined}
    >
      <td className="num">{formatClock(e.at)}</td>
      <td className="ellipsis">{e.action}</td>
      <td className={`ellipsis ${RESULT_CLASS[e.outcome]}`}>{e.outcome}</td>
      <td
        className="ellipsis"
        title={e.market === null ? undefined : marketHint(names.get(e.market), e.market)}
      >
        {e.mode === 'paper' ? <span className="mode-tag mode-paper">PAPER</span> : null}
        {e.market === null ? '—' : marketLabel(names, e.market)}
      </td>
      <td className={`ellipsis ${e.side === 'buy' ? 'bid-text' : e.side === 'sell' ? 'ask-text' : ''}`}>
        {orderCell(e, unit)}
      </td>
      <td className="ellipsis" title={note || undefined}>
        {note || '—'}
      </td>
      <td className="num">{rtt(e.rttMs)}</td>
    </tr>
  )
})

export function Blotter() {
  const api = useApi()
  const journal = useMonitor((s) => s.journal)
  const profile = useMonitor((s) => s.account?.profileId ?? s.status?.profileId ?? null)
  const names = useMarketNames()
  const unit = usePriceUnit()
  const [error, setError] = useState<string | null>(null)
  // Until the engine's whole journal is read, the store may hold only what batches brought while no blotter was open.
  const [loaded, setLoaded] = useState(false)
  useEffect(() => {
    let cancelled = false
    void api.getJournal().then(
      (r) => {
        if (cancelled) return
        if (r.ok) useMonitor.getState().seedJournal(r.value)
        setError(r.ok ? null : r.error.message)
        setLoaded(r.ok)
      },
      (e: unknown) => {
        if (!cancelled) setError(String(e))
      },
    )
    return () => {
      cancelled = true
    }
  }, [api])
  // The active profile's entries, newest first.
  const rows = useMemo(() => {
    const out: JournalEntry[] = []
    for (let i = journal.length - 1; i >= 0; i--) {
      const e = journal[i] as JournalEntry
      if (profile === null || e.profileId === profile) out.push(e)
    }
    return out
  }, [journal, profile])
  return (
    <section className="blotter-pane" data-testid="blotter" data-loaded={loaded}>
      <div className="pane-toolbar">
        <span className="pane-title">Blotter</span>
        <span className="muted num">{rows.length}</span>
        <span className="spacer" />
        <ExportButton
          testId="blotter-export"
          count={rows.length}
          what="order actions"
          onExport={() => downloadCsv(csvFilename('journal', null), journalCsv(rows, names))}
        />
      </div>
      {error !== null ? (
        <div className="alert warn" data-testid="blotter-error">
          The journal could not be read: {error}
        </div>
      ) : null}
      <div className="blotter-body">
        <GridTable
          className="compact"
          data-testid="blotter-table"
          columns={COLUMNS}
          rows={rows.slice(0, BLOTTER_ROWS)}
          row={(e) => <BlotterRow key={`${e.seq}@${e.at}`} e={e} names={names} unit={unit} />}
          empty="No order actions today"
        />
      </div>
    </section>
  )
}
