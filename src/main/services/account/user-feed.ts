// The account's recent user-channel updates (orders, fills, positions, balance), bounded: in number, and each
// update's data in depth and size (shared/json-limits.ts), so that what is kept here always serialises into a
// window's batch and a getUserHistory reply.
import { limitJson } from '../../../shared/json-limits'
import type { Update, UserUpdateView } from '../../../shared/model'
import { RingBuffer } from '../market/tapes'

export type UserUpdate = Extract<Update, { kind: 'user' }>

export class UserFeed {
  private readonly ring: RingBuffer<UserUpdateView>
  private seq = 0

  constructor(readonly capacity = 500) {
    this.ring = new RingBuffer<UserUpdateView>(capacity)
  }

  get size(): number {
    return this.ring.size
  }

  /** Keeps the update, its data trimmed to the limits where it is too deep or too large. */
  push(update: UserUpdate, receivedAt: number): UserUpdateView {
    const view: UserUpdateView = {
      seq: ++this.seq,
      topic: update.topic,
      market: update.market,
      data: limitJson(update.data).value,
      receivedAt,
    }
    this.ring.push(view)
    return view
  }

  /** Oldest first; the newest `limit` updates when given. */
  history(limit?: number): UserUpdateView[] {
    return this.ring.toArray(limit)
  }

  /** Key change or profile switch: the previous account's updates must not be shown. Seq keeps increasing. */
  clear(): void {
    this.ring.clear()
  }
}
