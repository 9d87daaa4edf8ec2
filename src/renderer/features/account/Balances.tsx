// The wallet: one card per currency, its total and what is available, and the paper account's own balance (marked
// PAPER) while it is in use. Money in reais (balances whose currency is BRL: the engine has converted VoxFi's
// centavos) reads "R$ 1,234.56".
import { memo } from 'react'
import type { BalanceRow } from '../../../shared/account'
import { formatMoney } from '../../lib/format'

const BalanceCard = memo(function BalanceCard({ b, paper = false }: { b: BalanceRow; paper?: boolean }) {
  return (
    <div
      className={`balance-card${paper ? ' paper-card' : ''}`}
      data-testid="balance"
      data-currency={b.currency}
      data-mode={paper ? 'paper' : undefined}
      title={paper ? 'The paper account: orders on paper never reach the venue' : undefined}
    >
      <label>
        {paper ? <span className="mode-tag mode-paper">PAPER</span> : null}
        {b.currency}
      </label>
      <b className="num" data-testid="balance-total">
        {formatMoney(b.total ?? b.available, b.currency)}
      </b>
      <span className="muted num">available {formatMoney(b.available, b.currency)}</span>
    </div>
  )
})

export function Balances({
  balances,
  paper = null,
}: {
  balances: readonly BalanceRow[]
  /** The paper account's balance, when it is shown. */
  paper?: BalanceRow | null
}) {
  return (
    <div className="balances" data-testid="balances">
      {balances.length === 0 ? (
        <div className="balance-card muted">Wallet: waiting for a balance update…</div>
      ) : (
        balances.map((b) => <BalanceCard key={b.currency} b={b} />)
      )}
      {paper !== null ? <BalanceCard b={paper} paper /> : null}
    </div>
  )
}
