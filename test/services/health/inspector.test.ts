// The raw-frame inspector: every frame counted, ordinary frames kept only while enabled and bad ones always, the ring capped with its order kept across the wrap, raw text capped, refused sends kept but not counted.
import { describe, expect, it } from 'vitest'
import { createInspector } from '../../../src/main/services/health/inspector'
import type { Update } from '../../../src/shared/model'

const trade: Update = { kind: 'trade', market: 'm', price: 0.5, size: 1, side: 'buy', ts: 1 }

describe('createInspector', () => {
  it('counts every frame and its updates by class, keeping ordinary frames only while enabled', () => {
    const ins = createInspector()
    expect(ins.enabled()).toBe(false)
    expect(ins.record('{"ok":1}', 1, 'ok', [trade, trade])).toBeNull()
    const bad = ins.record('{oops', 2, 'malformed', [], 'not JSON')
    expect(bad).toMatchObject({ seq: 2, raw: '{oops', classification: 'malformed', error: 'not JSON' })
    ins.record('{"what":1}', 3, 'unknown', [])
    ins.setEnabled(true)
    const kept = ins.record('{"ok":2}', 4, 'ok', [trade])
    expect(kept).toMatchObject({ seq: 4, receivedAt: 4, raw: '{"ok":2}', truncated: false, decoded: [trade] })
    expect(kept).not.toHaveProperty('error')
    expect(ins.counters()).toEqual({ frames: 4, updates: 3, malformed: 1, unknown: 1, oversized: 0 })
    // While off, only the bad frames were kept.
    expect(ins.recent().map((f) => f.seq)).toEqual([2, 3, 4])
  })

  it('keeps a copy of the decoded updates, and caps the raw text at rawCap', () => {
    const ins = createInspector({ rawCap: 16 })
    ins.setEnabled(true)
    const updates = [trade]
    const frame = ins.record('x'.repeat(40), 1, 'ok', updates)
    updates.push(trade)
    expect(frame?.decoded).toHaveLength(1)
    expect(frame?.raw).toBe('x'.repeat(16))
    expect(frame?.truncated).toBe(true)
    expect(ins.record('y'.repeat(16), 2, 'ok', [])?.truncated).toBe(false)
  })

  it('the ring drops the oldest past its capacity and lists oldest first across the wrap; limit gives the newest', () => {
    const ins = createInspector({ capacity: 3 })
    ins.setEnabled(true)
    for (let i = 1; i <= 7; i++) ins.record(`f${i}`, i, 'ok', [])
    expect(ins.recent().map((f) => f.raw)).toEqual(['f5', 'f6', 'f7'])
    expect(ins.recent(2).map((f) => f.raw)).toEqual(['f6', 'f7'])
    expect(ins.recent(10).map((f) => f.raw)).toEqual(['f5', 'f6', 'f7'])
  })

  it('an oversized frame is counted and kept without text; a refused send is kept but not counted as received', () => {
    const ins = createInspector()
    const big = ins.recordOversized(10, 'frame of 2 MiB refused')
    expect(big).toMatchObject({
      seq: 1,
      raw: '',
      classification: 'oversized',
      error: 'frame of 2 MiB refused',
    })
    const refused = ins.recordRefused('{"subscribe":"[redacted]"}', 11, 'closed with 4004')
    expect(refused).toMatchObject({ seq: 2, classification: 'refused', raw: '{"subscribe":"[redacted]"}' })
    expect(ins.counters()).toEqual({ frames: 1, updates: 0, malformed: 0, unknown: 0, oversized: 1 })
    expect(ins.recent().map((f) => f.classification)).toEqual(['oversized', 'refused'])
  })

  it('clear empties the ring but keeps the counters and the sequence; counters() is a copy', () => {
    const ins = createInspector({ capacity: 2 })
    ins.setEnabled(true)
    for (let i = 1; i <= 3; i++) ins.record(`f${i}`, i, 'ok', [])
    ins.clear()
    expect(ins.recent()).toEqual([])
    const next = ins.record('f4', 4, 'ok', [])
    expect(next?.seq).toBe(4)
    expect(ins.recent()).toEqual([next])
    const counters = ins.counters()
    counters.frames = 999
    expect(ins.counters().frames).toBe(4)
  })
})
