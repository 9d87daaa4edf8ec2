// Raw JSON an adapter itself keeps (a user update's data, a frame a named adapter does not recognise) is held
// within shared/json-limits.ts's limits as it is decoded, so neither a window's batch nor the inspector's copy of
// the update can fail to serialise later. Books and trades are untouched.
import { describe, expect, it } from 'vitest'
import { builtinAdapters } from '../../src/shared/adapters'
import { FrameDecoder } from '../../src/shared/adapters/decoder'

const deep = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n)

describe('adapters keep raw JSON within the limits', () => {
  it('a VoxFi order-info frame with 10,000-deep fields decodes to an update that serialises', () => {
    const decoder = new FrameDecoder({ adapters: builtinAdapters(), selection: 'voxfi' })
    const text = `{"type":"order-info","data":{"id":"o-1","status":"filled","extra":${deep(10_000)}}}`
    const d = decoder.decodeText(text)
    if (!d.ok) throw new Error(d.error)
    expect(d.updates.length).toBeGreaterThan(0)
    expect(() => JSON.stringify(d.updates)).not.toThrow()
    expect(JSON.stringify(d.updates)).toContain('[trimmed: too deep]')
  })

  it('a frame the named adapter does not read is kept unread within the limits', () => {
    const decoder = new FrameDecoder({ adapters: builtinAdapters(), selection: 'voxfi' })
    const d = decoder.decodeText(`{"nobody":${deep(10_000)}}`)
    if (!d.ok) throw new Error(d.error)
    expect(d.unknown).toBe(true)
    expect(() => JSON.stringify(d.updates)).not.toThrow()
  })
})
