// The account: the user channel's updates as they arrive, and VoxFi's account read over REST.
import { AccountReader } from '../account/rest-reader'
import { UserFeed } from '../account/user-feed'
import type { Engine, Wiring } from './engine'

export function wireAccount(w: Wiring): Pick<Engine, 'userFeed' | 'accountRest'> {
  const p = w.parts
  const accountRest = new AccountReader({
    rest: () => p.connection.rest,
    key: () => p.keys.stored(p.connection.profile).catch(() => null),
    wanted: () => p.registry.wantsUser() && p.registry.authError() === null && w.maybeVoxfi(),
    push: (updates, at) => p.router.applyAccount(updates, at),
    log: w.log,
    now: w.now,
  })
  return { userFeed: new UserFeed(), accountRest }
}
