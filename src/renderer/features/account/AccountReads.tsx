// Which of the account's reads the engine could not do, and why (AccountView.reads): a key without a permission
// still reads the rest, and the pane says what is missing rather than showing an empty table as if it were empty.
import type { AccountEndpoint, AccountRead } from '../../../shared/trading'

const WHAT: Record<AccountEndpoint, string> = {
  balance: 'balance',
  portfolio: 'positions',
  orders: 'open orders',
  activity: 'fills',
}

export function AccountReads({ reads }: { reads: Partial<Record<AccountEndpoint, AccountRead>> }) {
  const failed = (Object.entries(reads) as [AccountEndpoint, AccountRead][]).filter(([, r]) => !r.ok)
  if (failed.length === 0) return null
  return (
    <div className="alert warn account-reads" data-testid="account-reads">
      <b>Some of the account could not be read</b>
      <ul>
        {failed.map(([endpoint, r]) => (
          <li
            key={endpoint}
            data-testid="account-read-error"
            data-endpoint={endpoint}
            data-code={r.error?.code}
          >
            {WHAT[endpoint]}: {r.error?.message ?? 'not read'}
          </li>
        ))}
      </ul>
    </div>
  )
}
