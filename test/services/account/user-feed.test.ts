// UserFeed keeps each update's data within shared/json-limits.ts's limits: what it holds always serialises into
// a window's batch and a getUserHistory reply.
import { describe, expect, it } from 'vitest'
import { UserFeed, type UserUpdate } from '../../../src/main/services/account/user-feed'
import { TRIMMED_DEEP } from '../../../src/shared/json-limits'

function deep(depth: number): unknown {
  let v: unknown = 'bottom'
  for (let i = 0; i < depth; i++) v = { a: v }
  return v
}

describe('UserFeed', () => {
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
