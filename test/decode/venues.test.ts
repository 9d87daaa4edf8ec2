// Every shipped adapter against its venue's documented examples: the right kind, market, prices, sizes, sides
// and sequence, number for number.
import { describe, expect, it } from 'vitest'
import { builtinAdapters, FrameDecoder } from '../../src/shared/adapters'
import { venueCases } from './venue-cases'

const cases = venueCases()

describe('documented venue examples', () => {
  it('has cases, each with the documentation it came from', () => {
    expect(cases.length).toBeGreaterThan(0)
    for (const c of cases) expect(c.source, `${c.venue}/${c.file}`).toMatch(/^(https:\/\/|spec:)/)
  })

  for (const c of cases) {
    it(`${c.venue}: ${c.file}`, () => {
      const decoder = new FrameDecoder({ adapters: builtinAdapters(), selection: c.adapter })
      expect(decoder.problem).toBeNull()
      const d = decoder.decodeText(c.text)
      if (!d.ok) throw new Error(d.error)
      expect(d.reasons).toEqual([])
      expect(d.adapter).toBe(c.adapter)
      expect(d.updates).toHaveLength(c.expect.length)
      d.updates.forEach((u, i) => expect(u).toMatchObject(c.expect[i] as Record<string, unknown>))
    })
  }
})
