// UserFeed beyond tapes.test.ts: the default bound of 500 keeps the newest, size follows pushes and clear, history hands out a fresh array, a feed with no room is refused, and each update's data is kept within
// shared/json-limits.ts's limits so it always serialises into a batch and a getUserHistory reply.
import { describe, expect, it } from 'vitest'
import { UserFeed, type UserUpdate } from '../../../src/main/services/account/user-feed'
import { TRIMMED_DEEP } from '../../../src/shared/json-limits'

const order = (id: number): UserUpdate => ({ kind: 'user', topic: 'order', market: 'm1', data: { id } })

describe('UserFeed', () => {
  it('keeps the newest 500 updates by default', () => {
    const feed = new UserFeed()
    expect(feed.capacity).toBe(500)
    for (let i = 1; i <= 520; i++) feed.push(order(i), i)
    expect(feed.size).toBe(500)
    const history = feed.history()
    expect(history[0]).toMatchObject({ seq: 21, receivedAt: 21, data: { id: 21 } })
    expect(history.at(-1)).toMatchObject({ seq: 520, data: { id: 520 } })
  })

  it('size follows pushes and clear; history(limit) never gives more than it holds', () => {
    const feed = new UserFeed(3)
    expect(feed.size).toBe(0)
    feed.push(order(1), 1)
    feed.push(order(2), 2)
    expect(feed.size).toBe(2)
    expect(feed.history(10).map((u) => u.seq)).toEqual([1, 2])
    expect(feed.history(0)).toEqual([])
    feed.clear()
    expect(feed.size).toBe(0)
    expect(feed.history(10)).toEqual([])
  })

  it('history is a new array each time: changing it does not change the feed', () => {
    const feed = new UserFeed(3)
    feed.push(order(1), 1)
    const history = feed.history()
    history.length = 0
    expect(feed.history()).toHaveLength(1)
  })

  it('refuses a feed that can hold nothing', () => {
    expect(() => new UserFeed(0)).toThrow()
    expect(() => new UserFeed(1.5)).toThrow()
  })
})

function deep(depth: number): unknown {
  let v: unknown = 'bottom'
  for (let i = 0; i < depth; i++) v = { a: v }
  return v
}

describe('UserFeed keeps each update within the JSON limits', () => {
  it('trims a 10,000-deep update as it is kept, so history and the view serialise', () => {
    const feed = new UserFeed(10)
    const update: UserUpdate = {
      kind: 'user',
      topic: 'order',
      market: 'm1',
      data: { id: 'o1', status: 'open', extra: deep(10_000) },
    }
    const view = feed.push(update, 5)
    expect(view).toMatchObject({ seq: 1, topic: 'order', market: 'm1', receivedAt: 5 })
    expect(view.data).toMatchObject({ id: 'o1', status: 'open' })
    expect(JSON.stringify(view)).toContain(JSON.stringify(TRIMMED_DEEP))
    const history = feed.history()
    expect(() => JSON.stringify(history)).not.toThrow()
    expect(structuredClone(history)).toEqual(history)
  })

  it('keeps ordinary data as it came, uncopied', () => {
    const feed = new UserFeed(10)
    const data = { id: 'o2', price: 0.4, fills: [{ size: 1 }] }
    expect(feed.push({ kind: 'user', topic: 'order', market: null, data }, 1).data).toBe(data)
  })
})
