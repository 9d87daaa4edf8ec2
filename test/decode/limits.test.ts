// The tolerant reader keeps raw JSON (account data, control messages, unread values) only within
// shared/json-limits.ts's limits: whatever it returns serialises, however deep the frame was.
import { describe, expect, it } from 'vitest'
import { decodeFrame, decodeValue, limitUpdate } from '../../src/shared/decode'
import { JSON_LIMITS, TRIMMED_DEEP } from '../../src/shared/json-limits'
import type { Update } from '../../src/shared/model'

const deepText = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

function decoded(text: string): Update[] {
  const r = decodeFrame(text)
  if (!r.ok) throw new Error(r.error)
  return r.updates
}

describe('raw JSON in decoded updates', () => {
  it('trims a 10,000-deep unread frame, so the update serialises', () => {
    const updates = decoded(`{"notice":${deepText(10_000)}}`)
    expect(updates).toHaveLength(1)
    expect(updates[0]?.kind).toBe('unknown')
    const text = JSON.stringify(updates)
    expect(text).toContain(JSON.stringify(TRIMMED_DEEP))
    expect(structuredClone(updates)).toEqual(updates)
  })

  it("trims a 10,000-deep account update's data and keeps what it names", () => {
    const updates = decoded(
      `{"channel":"user","type":"fill","market":"m1","price":0.4,"data":${deepText(10_000)}}`,
    )
    const user = updates.find((u) => u.kind === 'user')
    expect(user).toMatchObject({ kind: 'user', topic: 'fill', market: 'm1' })
    const data = (user as Extract<Update, { kind: 'user' }>).data as Record<string, unknown>
    expect(data.price).toBe(0.4)
    expect(() => JSON.stringify(updates)).not.toThrow()
  })

  it('trims a deep error message and still reads its code', () => {
    const updates = decoded(`{"type":"error","error":"bad_request","detail":${deepText(10_000)}}`)
    expect(updates[0]).toMatchObject({ kind: 'control', topic: 'error', error: 'bad_request' })
    expect(() => JSON.stringify(updates)).not.toThrow()
  })

  it('leaves updates within the limits as they are, uncopied', () => {
    const frame = { type: 'notice', message: 'maintenance at noon', detail: { a: [1, 2, { b: 'c' }] } }
    const updates = decodeValue(frame)
    expect(updates).toEqual([{ kind: 'unknown', raw: frame }])
    expect((updates[0] as Extract<Update, { kind: 'unknown' }>).raw).toBe(frame)
  })

  it("limitUpdate trims an info update's data and leaves market data alone", () => {
    let deep: unknown = 1
    for (let i = 0; i < 10_000; i++) deep = [deep]
    const info: Update = { kind: 'info', topic: 'status', market: 'm1', data: deep }
    const limited = limitUpdate(info)
    expect(limited).toMatchObject({ kind: 'info', topic: 'status', market: 'm1' })
    const n = JSON_LIMITS.maxDepth
    const data = (limited as Extract<Update, { kind: 'info' }>).data
    expect(JSON.stringify(data)).toBe('['.repeat(n) + JSON.stringify(TRIMMED_DEEP) + ']'.repeat(n))
    const trade: Update = { kind: 'trade', market: 'm1', price: 0.5, size: 1, side: 'buy', ts: 1 }
    expect(limitUpdate(trade)).toBe(trade)
  })
})
