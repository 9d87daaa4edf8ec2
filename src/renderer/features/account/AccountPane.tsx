// The account from the user channel: balances, positions, open orders, fills, and the raw feed (which also
// shows updates whose shape we could not interpret). This file is the pane's shell: it watches the user channel,
// seeds its history (again on every new timeline: a profile switch, a replay), and lays out the parts, each in a
// file of its own. Rows are memoised on the account's row objects, which an update replaces only for what it
// changed, so an update re-renders its own rows, not every table.
import { useEffect, useMemo } from 'react'
import { useApi, useInterests } from '../../hooks/context'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'
import { usePriceUnit } from '../../store/prefs'
import { Balances } from './Balances'
import { FillsTable } from './FillsTable'
import { ExpiryBanner, KeyError, NoKey } from './KeyNotices'
import { OrdersTable } from './OrdersTable'
import { PositionsTable } from './PositionsTable'
import { UserFeed } from './UserFeed'

function AccountBody() {
  const account = useMonitor((s) => s.account)
  const unit = usePriceUnit()
  const names = useMarketNames()
  const orders = useMemo(() => Object.values(account.orders).reverse(), [account.orders])
  const positions = useMemo(() => Object.values(account.positions), [account.positions])
  const balances = useMemo(() => Object.values(account.balances), [account.balances])
  const currencies = new Set(balances.map((b) => b.currency))
  const accountCurrency = currencies.size === 1 ? ([...currencies][0] as string) : null
  return (
    <div className="account-body">
      <Balances balances={balances} />
      <PositionsTable positions={positions} names={names} />
      <OrdersTable orders={orders} names={names} unit={unit} />
      <FillsTable fills={account.fills} currency={accountCurrency} names={names} unit={unit} />
    </div>
  )
}

export function AccountPane({ onOpenKeySettings }: { onOpenKeySettings(): void }) {
  const api = useApi()
  const hasKey = useMonitor((s) => s.status?.hasKey ?? false)
  const authError = useMonitor((s) => s.status?.authError ?? null)
  const keychainError = useMonitor((s) => s.status?.credentialsError ?? null)
  // A new timeline (another profile, a replay) made the window forget its account: read the new one's history.
  const epoch = useMonitor((s) => s.marketsEpoch)
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
      {hasKey ? <AccountBody /> : null}
      {/* With an unusable keychain the alert above says what to do; a "add a key" prompt would only fail. */}
      {!hasKey && !keychainError ? <NoKey onOpenKeySettings={onOpenKeySettings} /> : null}
      <UserFeed hasKey={hasKey} />
    </aside>
  )
}
