// The wallet: one card per currency, its total and what is available. Money in reais (balances whose currency is
// BRL: the engine has converted VoxFi's centavos) reads "R$ 1,234.56".
import { memo } from 'react'
import type { BalanceRow } from '../../../shared/account'
import { formatMoney } from '../../lib/format'

const BalanceCard = memo(function BalanceCard({ b }: { b: BalanceRow }) {
  return (
    <div className="balance-card" data-testid="balance" data-currency={b.currency}>
      <label>{b.currency}</label>
      <b className="num" data-testid="balance-total">
        {formatMoney(b.total ?? b.available, b.currency)}
      </b>
      <span className="muted num">available {formatMoney(b.available, b.currency)}</span>
    </div>
  )
})

export function Balances({ balances }: { balances: readonly BalanceRow[] }) {
  return (
    <div className="balances" data-testid="balances">
      {balances.length === 0 ? (
        <div className="balance-card muted">Wallet: waiting for a balance update…</div>
      ) : (
        balances.map((b) => <BalanceCard key={b.currency} b={b} />)
      )}
    </div>
  )
}
