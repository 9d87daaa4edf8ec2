// The account of the active profile as the engine folds it (ViewBatch.account, getAccount): balances, positions
// (live, and paper marked PAPER), the app's and the venue's orders, fills, the reads the key could not do, and the
// raw user feed (which also shows updates whose shape could not be interpreted). This file is the pane's shell: it
// watches the user channel, seeds the feed's history (again on every new timeline: a profile switch, a replay), and
// lays out the parts, each in a file of its own. A new account shares every unchanged row with the last
// (store/account-share.ts), so rows memoised on their objects re-render only for what changed.
import { useEffect } from 'react'
import type { AccountView } from '../../../shared/trading'
import { useApi, useInterests } from '../../hooks/context'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { AccountReads } from './AccountReads'
import { Balances } from './Balances'
import { FillsTable } from './FillsTable'
import { ExpiryBanner, KeyError, NoKey } from './KeyNotices'
import { OrdersTable } from './OrdersTable'
import { PositionsTable } from './PositionsTable'
import { UserFeed } from './UserFeed'

/** The paper account is shown while the profile trades on paper, and while it holds anything. */
function showsPaper(account: AccountView): boolean {
  return (
    account.trading.settings.mode === 'paper' ||
    account.paper.positions.length > 0 ||
    account.orders.some((o) => o.mode === 'paper')
  )
}

function AccountBody({ onOpenMarket }: { onOpenMarket?(market: string): void }) {
  const account = useMonitor((s) => s.account)
  const error = useMonitor((s) => s.accountError)
  const unit = usePriceUnit()
  const names = useMarketNames()
  if (account === null)
    return (
      <div className="account-body">
        <div className="empty-note" data-testid="account-waiting">
          {error === null
            ? 'Waiting for the account from the engine…'
            : `The account is not available: ${error}`}
        </div>
      </div>
    )
  const currencies = new Set(account.balances.map((b) => b.currency))
  const accountCurrency = currencies.size === 1 ? ([...currencies][0] as string) : null
  const paper = showsPaper(account)
  return (
    <div className="account-body">
      <AccountReads reads={account.reads} />
      <Balances balances={account.balances} paper={paper ? account.paper.balance : null} />
      <PositionsTable
        positions={account.positions}
        paper={paper ? account.paper.positions : []}
        mode={account.trading.settings.mode}
        names={names}
        onOpenMarket={onOpenMarket}
      />
      <OrdersTable orders={account.orders} names={names} unit={unit} />
      <FillsTable fills={account.fills} currency={accountCurrency} names={names} unit={unit} />
    </div>
  )
}

export function AccountPane({
  onOpenKeySettings,
  onOpenMarket,
}: {
  onOpenKeySettings(): void
  /** Shows a market's ladder (a position's close fills its ticket there). */
  onOpenMarket?(market: string): void
}) {
  const api = useApi()
  const hasKey = useMonitor((s) => s.status?.hasKey ?? false)
  const authError = useMonitor((s) => s.status?.authError ?? null)
  const keychainError = useMonitor((s) => s.status?.credentialsError ?? null)
  // A new timeline (another profile, a replay) made the window forget its feed: read the new one's history.
  const epoch = useMonitor((s) => s.marketsEpoch)
  // Paper trading needs no key: its account shows without one.
  const paper = useMonitor((s) => s.account !== null && showsPaper(s.account))
  useInterests('account', hasKey ? [{ channel: 'user' }] : [])

  useEffect(() => {
    if (!hasKey) return
    // A reply asked for before the switch is the old account's: cancelled when the epoch moves on.
    let cancelled = false
    void api.getUserHistory().then((r) => {
      if (!cancelled && r.ok) useMonitor.getState().seedUser(r.value)
    })
    return () => {
      cancelled = true
    }
  }, [api, hasKey, epoch])

  return (
    <aside className="account-pane" data-testid="account-pane">
      <div className="pane-toolbar">
        <span className="pane-title">Account</span>
        <button className="link-btn" onClick={onOpenKeySettings} data-testid="open-key-settings">
          Key settings
        </button>
      </div>
      {hasKey ? <ExpiryBanner onOpenKeySettings={onOpenKeySettings} /> : null}
      {authError ? (
        <KeyError error={authError} testId="account-auth-error" onOpenKeySettings={onOpenKeySettings} />
      ) : null}
      {keychainError ? (
        <KeyError
          error={keychainError}
          testId="account-keychain-error"
          onOpenKeySettings={onOpenKeySettings}
        />
      ) : null}
      {hasKey || paper ? <AccountBody onOpenMarket={onOpenMarket} /> : null}
      {/* With an unusable keychain the alert above says what to do; a "add a key" prompt would only fail. */}
      {!hasKey && !keychainError ? <NoKey onOpenKeySettings={onOpenKeySettings} /> : null}
      <UserFeed hasKey={hasKey} />
    </aside>
  )
}
