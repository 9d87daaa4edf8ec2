// The one account of the active profile (docs/trading.md "The account, one model in the engine"): the venue's
// balance, positions, open orders and fills, folded once from every user update (the REST reads and the user
// channel) with the shared rules of src/shared/account.ts, plus which REST reads could be done and why not. Windows
// draw views of it and the alert rules read its changes: nobody folds a second copy. Identical fills are two fills:
// nothing here de-duplicates what the venue sent twice.
import {
  applyUserUpdates,
  emptyAccount,
  type AccountChange,
  type AccountState,
} from '../../../shared/account'
import type { ApiError, UserUpdateView } from '../../../shared/model'
import type { AccountEndpoint, AccountRead } from '../../../shared/trading'

export class AccountModel {
  private current: AccountState = emptyAccount()
  private readonly readState: Partial<Record<AccountEndpoint, AccountRead>> = {}

  constructor(private readonly d: { changed(): void }) {}

  /** Folds user updates (oldest first); returns what each record changed, in order. */
  apply(updates: readonly UserUpdateView[]): AccountChange[] {
    const changes: AccountChange[] = []
    this.current = applyUserUpdates(this.current, updates, (c) => changes.push(c))
    if (updates.length > 0) this.d.changed()
    return changes
  }

  /** One REST read's outcome: the account pane says which reads failed and why. */
  read(endpoint: AccountEndpoint, at: number, error: ApiError | null): void {
    const before = this.readState[endpoint]
    if (before !== undefined && before.ok === (error === null) && before.error?.code === error?.code) {
      before.at = at
      return
    }
    this.readState[endpoint] = error === null ? { ok: true, at } : { ok: false, at, error }
    this.d.changed()
  }

  state(): AccountState {
    return this.current
  }

  reads(): Partial<Record<AccountEndpoint, AccountRead>> {
    return { ...this.readState }
  }

  /** Another profile or key: nothing of the old account is kept. */
  clear(): void {
    this.current = emptyAccount()
    for (const k of Object.keys(this.readState) as AccountEndpoint[]) delete this.readState[k]
    this.d.changed()
  }
}
