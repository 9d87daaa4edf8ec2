// Auto-detection from a single frame: every documented example is recognised by its own venue's adapter and no
// other, as the decode CLI's default `--adapter auto` needs.
import { describe, expect, it } from 'vitest'
import { builtinAdapters, FrameDecoder } from '../../src/shared/adapters'
import { venueCases } from './venue-cases'

describe('auto-detection from one frame', () => {
  for (const c of venueCases()) {
    it(`${c.venue}/${c.file} is read by ${c.adapter}`, () => {
      const decoder = new FrameDecoder({ adapters: builtinAdapters(), selection: 'auto' })
      const d = decoder.decodeText(c.text)
      if (!d.ok) throw new Error(d.error)
      // A bare PING/PONG text is the same on every venue: a heartbeat, which no adapter needs to claim.
      const bare = /^\s*(ping|pong)\s*$/i.test(c.text)
      expect(d.adapter).toBe(bare ? null : c.adapter)
    })
  }
})
