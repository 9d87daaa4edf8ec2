// The engine sends the account whole whenever any of it changes, and every row arrives as a new object (a batch is
// copied across IPC). A new account keeps the previous one's objects for everything that did not change, so the
// rows of the account pane, the ladder's own-order marks and the ticket (memoised or selected by identity)
// re-render only for what changed, as they would with a fold kept in the window.
import { positionKey } from '../../shared/account'
import type { AccountView } from '../../shared/trading'

/** Deep equality of plain JSON values (what a batch carries: no functions, dates or cycles). */
export function samePlain(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => samePlain(v, b[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  for (const k of ka)
    if (!samePlain((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false
  return true
}

/** `next` with each row that equals the previous row of its key replaced by that row; `prev` if all did. */
export function shareRows<T>(prev: readonly T[], next: readonly T[], key: (row: T) => string): T[] {
  const before = new Map<string, T>()
  for (const row of prev) before.set(key(row), row)
  let same = prev.length === next.length
  const out = next.map((row, i) => {
    const old = before.get(key(row))
    const kept = old !== undefined && samePlain(old, row) ? old : row
    if (kept !== prev[i]) same = false
    return kept
  })
  return same ? (prev as T[]) : out
}

function keep<T>(prev: T, next: T): T {
  return samePlain(prev, next) ? prev : next
}

/** The new account, sharing every unchanged part with the previous one of the same profile. */
export function shareAccount(prev: AccountView | null, next: AccountView): AccountView {
  if (prev === null || prev.profileId !== next.profileId) return next
  const positionOf = (p: AccountView['positions'][number]) => positionKey(p.market, p.outcome)
  return {
    ...next,
    trading: keep(prev.trading, next.trading),
    balances: shareRows(prev.balances, next.balances, (b) => b.currency),
    positions: shareRows(prev.positions, next.positions, positionOf),
    fills: shareRows(prev.fills, next.fills, (f) => f.key),
    orders: shareRows(prev.orders, next.orders, (o) => o.id),
    paper: {
      balance: keep(prev.paper.balance, next.paper.balance),
      positions: shareRows(prev.paper.positions, next.paper.positions, positionOf),
    },
    reads: keep(prev.reads, next.reads),
  }
}
