// The account: the user channel's updates as they arrive, VoxFi's account read over REST, and the one account model
// both fold into.
import { AccountModel } from '../account/model'
import { AccountReader } from '../account/rest-reader'
import { UserFeed } from '../account/user-feed'
import type { Engine, Wiring } from './engine'

export function wireAccount(w: Wiring): Pick<Engine, 'userFeed' | 'accountRest' | 'account'> {
  const p = w.parts
  const accountRest = new AccountReader({
    rest: () => p.connection.rest,
    key: () => p.keys.stored(p.connection.profile).catch(() => null),
    // Wanted by a window, or by live trading (the orders read the venue's open orders and fills).
    wanted: () =>
      (p.registry.wantsUser() || p.tradingSettings.get(p.connection.profile.id).mode === 'live') &&
      p.registry.authError() === null &&
      w.maybeVoxfi(),
    push: (updates, at) => p.router.applyAccount(updates, at),
    readResult: (endpoint, at, error) => p.account.read(endpoint, at, error),
    ordersRead: (at) => p.orders.venueOrdersRead(at),
    fills: () => p.account.state().fills,
    log: w.log,
    now: w.now,
  })
  const account = new AccountModel({ changed: () => p.fanout.accountChanged() })
  return { userFeed: new UserFeed(), accountRest, account }
}
