// The account's recent user-channel updates (orders, fills, positions, balance), bounded.
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

  push(update: UserUpdate, receivedAt: number): UserUpdateView {
    const view: UserUpdateView = {
      seq: ++this.seq,
      topic: update.topic,
      market: update.market,
      data: update.data,
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
