// The badge rule's table (lib/freshness.ts): what a view may say for each book state under each feed context.
// The one promise that matters: only a live book on a live feed, with its engine, in no replay, says "Live".
import { describe, expect, it } from 'vitest'
import {
  AGE_AFTER_MS,
  ageShownFrom,
  dimOf,
  freshness,
  LIVE_FEED,
  viewFreshness,
  type FeedContext,
  type ViewFreshness,
} from '../../src/renderer/lib/freshness'
import type { BookState } from '../../src/shared/model'
import { book } from './fake-api'

const NOW = 1_700_000_000_000
const STATES: Array<BookState | null> = [null, 'empty', 'live', 'quiet', 'stale', 'resyncing']
const view = (state: BookState | null, extra: Partial<ViewFreshness> = {}): ViewFreshness => ({
  state,
  updatedAt: state === null ? null : NOW - 30_000,
  usualGapMs: 1_000,
  ...extra,
})
const feed = (partial: Partial<FeedContext>): FeedContext => ({ ...LIVE_FEED, ...partial })

describe('the badge rule', () => {
  it('a live feed words the engine’s state: live with its age past the usual gap, quiet, stale, resyncing, waiting', () => {
    const table = STATES.map((s) => {
      const f = freshness(view(s, { staleReason: 'gap', resyncAttempt: 2 }), LIVE_FEED, NOW)
      return [s, f.state, f.label, f.cover]
    })
    expect(table).toEqual([
      [null, 'empty', 'Waiting for data', false],
      ['empty', 'empty', 'Waiting for data', false],
      ['live', 'live', 'Live · 30s', false],
      ['quiet', 'quiet', 'Quiet? · 30s', false],
      ['stale', 'stale', 'Stale (gap) · 30s', true],
      ['resyncing', 'resyncing', 'Resyncing #2…', true],
    ])
    // Within the usual gap no age; without a learnt gap, none before AGE_AFTER_MS.
    expect(freshness(view('live', { updatedAt: NOW - 500 }), LIVE_FEED, NOW).label).toBe('Live')
    const noGap = view('live', { usualGapMs: undefined, updatedAt: NOW - AGE_AFTER_MS + 1 })
    expect(freshness(noGap, LIVE_FEED, NOW).label).toBe('Live')
    expect(freshness(noGap, LIVE_FEED, NOW + 1).label).toBe('Live · 15s')
  })

  it('an age ticks (ageShownFrom) for exactly the labels that can show one, so no badge re-renders for nothing', () => {
    const feeds: FeedContext[] = [
      LIVE_FEED,
      feed({ link: 'lost' }),
      feed({ replay: { speed: 10, paused: false, ended: false } }),
      feed({ replay: { speed: 1, paused: true, ended: false } }),
      feed({ replay: { speed: 1, paused: false, ended: true } }),
      feed({ connection: 'offline' }),
      feed({ dataPaused: true }),
    ]
    for (const f of feeds)
      for (const s of STATES) {
        const v = view(s)
        const from = ageShownFrom(v, f)
        // Long after any threshold: an age shows now if it ever does.
        const label = freshness(v, f, NOW + 3_600_000).label
        expect(from !== null, `${JSON.stringify(f)} ${String(s)}: "${label}"`).toBe(label.includes(' · '))
      }
  })

  it('a lost engine link makes every view "Engine lost", covered, whatever its state', () => {
    for (const s of STATES) {
      const f = freshness(view(s), feed({ link: 'lost' }), NOW)
      expect([f.state, f.label, f.cover]).toEqual(['lost', 'Engine lost', true])
    }
  })

  it('a replay says "Replay N×", "Replay paused" or "Replay ended" for live and quiet books, never "Live"', () => {
    const playing = feed({ replay: { speed: 10, paused: false, ended: false } })
    const rows = STATES.map((s) => freshness(view(s), playing, NOW).label)
    expect(rows).toEqual([
      'Waiting for data',
      'Waiting for data',
      'Replay 10×',
      'Replay 10×',
      'Stale · 30s',
      'Resyncing…',
    ])
    expect(
      freshness(view('live'), feed({ replay: { speed: 1, paused: true, ended: false } }), NOW).label,
    ).toBe('Replay paused')
    expect(
      freshness(view('live'), feed({ replay: { speed: 1, paused: true, ended: true } }), NOW).label,
    ).toBe('Replay ended')
    expect(freshness(view('live'), playing, NOW).state).toBe('replay')
  })

  it('a connection that is down makes live and quiet books say why instead, covered', () => {
    const words = { connecting: 'Connecting', reconnecting: 'Reconnecting', offline: 'Offline' }
    for (const [connection, word] of Object.entries(words)) {
      for (const s of ['live', 'quiet'] as const) {
        const f = freshness(view(s), feed({ connection: connection as FeedContext['connection'] }), NOW)
        expect([f.state, f.label, f.cover]).toEqual(['offline', `${word} · 30s`, true])
      }
    }
    // No status yet: nothing to contradict the engine. A refused key: the socket is open, the data flows.
    expect(freshness(view('live'), feed({ connection: null }), NOW).state).toBe('live')
    expect(freshness(view('live'), feed({ connection: 'auth-error' }), NOW).state).toBe('live')
  })

  it('data paused turns a book the engine still calls live into quiet', () => {
    const f = freshness(view('live'), feed({ dataPaused: true }), NOW)
    expect([f.state, f.label]).toEqual(['quiet', 'Quiet? · 30s'])
  })

  it('"Live" appears in no label but the live one, across every combination', () => {
    const feeds: FeedContext[] = []
    for (const link of ['up', 'lost'] as const)
      for (const connection of [null, 'live', 'connecting', 'reconnecting', 'offline', 'auth-error'] as const)
        for (const replay of [null, { speed: 5, paused: false, ended: false }])
          for (const dataPaused of [false, true]) feeds.push({ link, connection, replay, dataPaused })
    for (const f of feeds)
      for (const s of STATES) {
        const out = freshness(view(s), f, NOW)
        const live =
          f.link === 'up' &&
          f.replay === null &&
          (f.connection === null || f.connection === 'live' || f.connection === 'auth-error') &&
          !f.dataPaused &&
          s === 'live'
        expect(out.state === 'live', JSON.stringify({ f, s })).toBe(live)
        expect(/\bLive\b/.test(out.label), JSON.stringify({ f, s, out })).toBe(live)
      }
  })

  it('dims stale, resyncing, lost and offline rows, subdues quiet ones, leaves the rest', () => {
    expect(
      (['live', 'quiet', 'stale', 'resyncing', 'lost', 'offline', 'replay', 'empty'] as const).map(dimOf),
    ).toEqual([null, 'quiet', 'stale', 'stale', 'stale', 'stale', null, null])
  })

  it('reads a book view’s and a ticker view’s fields', () => {
    const b = book({ state: 'resyncing', resyncAttempt: 3, staleReason: 'gap', usualGapMs: 200 })
    expect(viewFreshness(b)).toEqual({
      state: 'resyncing',
      updatedAt: b.updatedAt,
      usualGapMs: 200,
      resyncAttempt: 3,
      staleReason: 'gap',
    })
    expect(viewFreshness(undefined)).toEqual({ state: null, updatedAt: null })
  })
})
