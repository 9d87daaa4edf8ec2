// The adapters on real traffic: ../shared/venue-recordings (frames 16 real venues sent, kept outside the
// repository on purpose, see its README). Where that folder is present, at least 90% of every venue's frames
// are read by an adapter, and only frames of a venue's private (account) channel become account data. It is
// reference data beside the project, not a prerequisite of the product, so its absence skips with a reason,
// except under CI=true, where it fails (venue-recordings.ts).
import { describe, expect, it } from 'vitest'
import { builtinAdapters } from '../../src/shared/adapters'
import { readCorpus, summariseCorpus } from '../../scripts/lib/corpus'
import { RECORDINGS_DIR as DIR, recordingsOrReason, recordingsPresent as present } from './venue-recordings'

recordingsOrReason('recordings')

/**
 * The recorded frames that are the account's own, by the venues' documentation: Betfair's order stream
 * (`op: ocm`) and Polymarket's authenticated user channel (`event_type` order/trade with order owners).
 */
const PRIVATE_FRAMES: Record<string, (text: string) => boolean> = {
  betfair: (t) => (JSON.parse(t) as { op?: unknown }).op === 'ocm',
  polymarket: (t) => {
    const o = JSON.parse(t) as Record<string, unknown>
    return 'owner' in o || 'order_owner' in o || 'trade_owner' in o || Array.isArray(o['maker_orders'])
  },
}

describe.skipIf(!present)('venue recordings', () => {
  const venues = present ? readCorpus(DIR) : []
  const summary = summariseCorpus(venues, builtinAdapters(), 'auto')

  it('holds the 16 venues', () => {
    expect(summary.length).toBe(16)
  })

  for (const s of summary) {
    it(`${s.venue}: at least 90% read by an adapter, and no public frame read as the account's`, () => {
      expect(s.read / s.frames).toBeGreaterThanOrEqual(0.9)
      const venue = venues.find((v) => v.name === s.venue)
      const isPrivate = PRIVATE_FRAMES[s.venue] ?? (() => false)
      for (const label of s.userFrames) {
        const frame = venue?.frames.find((f) => f.label === label)
        expect(frame && isPrivate(frame.text), `${s.venue} ${label} read as account data`).toBe(true)
      }
    })
  }
})
