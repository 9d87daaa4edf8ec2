// Detection stays unambiguous with VoxFi beside the reference dialect: the voxfi adapter claims no other venue's
// documented frames nor any recorded frame of ../shared/venue-recordings, the reference dialect's frames (acks
// without `status`, `channel` + `type` updates) are still the sim adapter's, and the sim adapter claims none of
// VoxFi's frames (its acks carry `status`).
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtinAdapters, FrameDecoder } from '../../src/shared/adapters'
import { readCorpus, summariseCorpus } from '../../scripts/lib/corpus'
import { venueCases } from './venue-cases'
import { RECORDINGS_DIR, recordingsOrReason, recordingsPresent } from './venue-recordings'

const voxfi = builtinAdapters().find((a) => a.name === 'voxfi')
const sim = builtinAdapters().find((a) => a.name === 'sim')

function decode(selection: string, value: unknown) {
  return new FrameDecoder({ adapters: builtinAdapters(), selection }).decodeValue(value)
}

describe('voxfi claims no other venue’s frames', () => {
  it('is shipped', () => {
    expect(voxfi?.title).toMatch(/VoxFi/)
  })

  for (const c of venueCases()) {
    it(`${c.venue}/${c.file}`, () => {
      const d = new FrameDecoder({ adapters: builtinAdapters(), selection: 'voxfi' }).decodeText(c.text)
      // Not JSON and no prefix the voxfi adapter knows (Limitless's Socket.IO packets): not claimed either.
      if (!d.ok) return expect(d.error).toMatch(/^invalid JSON/)
      // A bare PING/PONG is a heartbeat for every adapter; anything else the voxfi adapter must leave alone.
      if (/^\s*(ping|pong)\s*$/i.test(c.text)) expect(d.updates.map((u) => u.kind)).toEqual(['control'])
      else expect(d.adapter, JSON.stringify(d.updates).slice(0, 200)).toBeNull()
    })
  }

  recordingsOrReason('voxfi on the recordings')
  it.skipIf(!recordingsPresent)('reads none of the recorded frames of 16 real venues', () => {
    const venues = readCorpus(RECORDINGS_DIR)
    const alone = summariseCorpus(venues, builtinAdapters(), 'voxfi')
    for (const s of alone) expect(s.read + s.partly, s.venue).toBe(0)
    const auto = summariseCorpus(venues, builtinAdapters(), 'auto')
    for (const s of auto) expect(Object.keys(s.byAdapter), s.venue).not.toContain('voxfi')
  })
})

describe('the reference dialect is still the sim adapter’s', () => {
  const reference: [string, unknown, string][] = [
    ['ack', { type: 'subscribed', channel: 'market', markets: ['m'], filter: 'all' }, 'control'],
    ['user ack', { type: 'subscribed', channel: 'user' }, 'control'],
    ['unsubscribe ack', { type: 'unsubscribed', channel: 'event', events: ['e'] }, 'control'],
    [
      'book',
      {
        channel: 'market',
        type: 'orderbook',
        market: 'm',
        event: 'e',
        snapshot: true,
        seq: 1,
        bids: [[0.4, 1]],
        asks: [],
      },
      'book',
    ],
    [
      'trade',
      { channel: 'market', type: 'trade', market: 'm', event: 'e', price: 0.4, size: 1, side: 'buy', ts: 1 },
      'trade',
    ],
    ['order with a status', { channel: 'user', type: 'order', id: 'o', market: 'm', status: 'open' }, 'user'],
    ['error', { type: 'error', error: 'unauthorized', message: 'bad key' }, 'control'],
  ]
  for (const [name, frame, kind] of reference) {
    it(`${name}: auto reads it with sim, and voxfi does not claim it`, () => {
      const d = decode('auto', frame)
      expect(d.adapter).toBe('sim')
      expect(d.updates.map((u) => u.kind)).toEqual([kind])
      expect(voxfi?.detect(frame)).toBe(false)
    })
  }

  it('sim claims none of VoxFi’s server frames, the acks included', () => {
    const dir = resolve(import.meta.dirname, '../fixtures/voxfi')
    const frames = readdirSync(dir)
      .filter((f) => /^ws-(ack|market|event|user)-/.test(f))
      .map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { example: unknown }).example)
    expect(frames.length).toBeGreaterThan(0)
    for (const frame of frames) {
      expect(sim?.detect(frame), JSON.stringify(frame).slice(0, 100)).toBe(false)
      expect(voxfi?.detect(frame), JSON.stringify(frame).slice(0, 100)).toBe(true)
    }
  })
})
