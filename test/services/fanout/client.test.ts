// A window's queues in the fan-out: appendCapped lets a list run to twice its cap and then keeps the newest cap, trimOldest cuts to the cap, clampDepth bounds a depth, and hiding drops only the market queues.
import { describe, expect, it } from 'vitest'
import {
  appendCapped,
  clampDepth,
  DEFAULT_DEPTH,
  FanoutClient,
  MAX_DEPTH,
  trimOldest,
} from '../../../src/main/services/fanout/client'
import { fired, frame, trade, userUpdate } from '../../shared/batch-fixtures'

describe('appendCapped', () => {
  it('grows to just under twice the cap, then cuts to the newest cap entries and says how many went', () => {
    const list: number[] = []
    const drops: number[] = []
    for (let i = 1; i <= 7; i++) drops.push(appendCapped(list, i, 3))
    // 1..5 fit (under 2 × 3); the 6th makes six, cut to the newest three.
    expect(drops).toEqual([0, 0, 0, 0, 0, 3, 0])
    expect(list).toEqual([4, 5, 6, 7])
  })
})

describe('trimOldest', () => {
  it('cuts the oldest entries down to the cap and counts them; a list within the cap is left alone', () => {
    const list = [1, 2, 3, 4, 5]
    expect(trimOldest(list, 2)).toBe(3)
    expect(list).toEqual([4, 5])
    expect(trimOldest(list, 2)).toBe(0)
    expect(trimOldest(list, 10)).toBe(0)
    expect(list).toEqual([4, 5])
  })
})

describe('clampDepth', () => {
  it('floors a depth into 1..MAX_DEPTH, and a non-number becomes the default', () => {
    expect(clampDepth(10.9)).toBe(10)
    expect(clampDepth(0)).toBe(1)
    expect(clampDepth(-5)).toBe(1)
    expect(clampDepth(MAX_DEPTH + 1)).toBe(MAX_DEPTH)
    expect(clampDepth(Number.NaN)).toBe(DEFAULT_DEPTH)
  })
})

describe('FanoutClient', () => {
  it('starts idle and visible with nothing queued', () => {
    const c = new FanoutClient('w1', () => {}, 25)
    expect(c).toMatchObject({
      idle: true,
      visible: true,
      resume: false,
      seq: 0,
      user: false,
      inspector: false,
    })
    expect(c.readyAt).toBe(-Infinity)
  })

  it("dropMarketQueues drops the markets' books, tickers, trades and frames, and keeps account updates and alerts", () => {
    const c = new FanoutClient('w1', () => {}, 25)
    c.dirtyBooks.add('m1')
    c.dirtyTickers.add('m2')
    c.trades.push(trade(1))
    c.frames.push(frame(1))
    c.userUpdates.push(userUpdate(1))
    c.alertsFired.push(fired(1))
    c.status = true
    c.dropMarketQueues()
    expect([c.dirtyBooks.size, c.dirtyTickers.size, c.trades.length, c.frames.length]).toEqual([0, 0, 0, 0])
    expect(c.userUpdates).toHaveLength(1)
    expect(c.alertsFired).toHaveLength(1)
    expect(c.status).toBe(true)
  })
})
