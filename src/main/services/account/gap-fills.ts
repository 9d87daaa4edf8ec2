// Executions the user channel missed while it was down. VoxFi sends each execution once, as an `order-info` frame,
// and its docs describe no replay after a reconnect (only that subscriptions must be sent again: docs/voxfi.md §6),
// so a fill made while the socket was down (an order placed on VoxFi's site, a resting order met) reaches the app
// only through the activity read (docs/voxfi.md §8 item 49). Activity rows and
// frames carry no execution id, and two identical executions are two (docs/voxfi.md §8 item 5): a row is missing
// when the fills the account already holds from the gap's start on have fewer of its content than the activity
// does. Counting by content keeps both of two identical executions and adds neither twice.
import { deriveAccount, type FillRow } from '../../../shared/account'
import type { Update } from '../../../shared/model'
import { VENUE_TIME_SKEW_MS } from '../../../shared/voxfi-orders'

type UserUpdate = Extract<Update, { kind: 'user' }>

/**
 * An activity row counts from this long before the gap began, and the account's fills from twice that (a frame is
 * received after its execution was made).
 */
export const GAP_SKEW_MS = VENUE_TIME_SKEW_MS

const contentOf = (f: FillRow): string =>
  `${f.market ?? ''}|${f.outcome ?? 'yes'}|${f.side ?? ''}|${f.price === null ? '' : Math.round(f.price * 100)}|${f.size ?? ''}`

/**
 * The activity's fills (`activityUpdates`, oldest first) made since the gap began that `known` (the account's
 * fills, newest first) does not hold yet, in the activity's order.
 */
export function missingFills(
  activity: readonly UserUpdate[],
  known: readonly FillRow[],
  since: number,
): UserUpdate[] {
  const have = new Map<string, number>()
  for (const f of known) {
    if (f.mode === 'paper' || f.ts < since - 2 * GAP_SKEW_MS) continue
    const k = contentOf(f)
    have.set(k, (have.get(k) ?? 0) + 1)
  }
  const out: UserUpdate[] = []
  for (const u of activity) {
    if (u.topic !== 'fill') continue
    // Read as the account reads it, so both sides of the comparison are the same rows.
    const row = deriveAccount([{ seq: 0, topic: u.topic, market: u.market, data: u.data, receivedAt: since }])
      .fills[0]
    if (row === undefined || row.ts < since - GAP_SKEW_MS) continue
    const k = contentOf(row)
    const n = have.get(k) ?? 0
    if (n > 0) have.set(k, n - 1)
    else out.push(u)
  }
  return out
}
