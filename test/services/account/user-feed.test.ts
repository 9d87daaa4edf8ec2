// UserFeed beyond tapes.test.ts: the default bound of 500 keeps the newest, size follows pushes and clear, history hands out a fresh array, and a feed with no room is refused.
import { describe, expect, it } from 'vitest'
import { UserFeed, type UserUpdate } from '../../../src/main/services/account/user-feed'

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
