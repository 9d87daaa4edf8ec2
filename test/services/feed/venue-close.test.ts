// VoxFi's close codes (https://docs.voxfi.com.br/en/websockets/errors): 4001 leaves a lasting key state and no user
// resubscribe; 4003 and abnormal closes are ordinary; 4004 names no message, so the registry works out which
// subscription it refused from the venue's acks (docs/voxfi.md §8 item 20): the one open subscription is set
// aside, several are probed one at a time, and a valid one is never set aside. The wire behaviour is in
// venue-close.sim.test.ts; here the venue is played by hand, message by message.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRegistry } from '../../../src/main/services/feed/registry'
import { MAX_REFUSALS, SETTLE_MS } from '../../../src/main/services/feed/refusal-search'
import { unauthorizedClose, VenueCloses, venueCloseOf } from '../../../src/main/services/feed/venue-close'
import type { StreamCloseInfo } from '../../../src/main/services/feed/stream'
import type { ApiError, InspectorFrame } from '../../../src/shared/model'
import type { ClientMessage } from '../../../src/shared/protocol'
import { captureLogger } from '../helpers'

const KEY = 'sk_live_0123456789abcdef'

afterEach(() => {
  vi.useRealTimers()
})

function close(code: number, reason = ''): StreamCloseInfo {
  return { code, reason, cause: 'remote', wasOpen: true, error: null, openForMs: 1000 }
}

const market = (id: string) => ({ channel: 'market' as const, id, filter: 'all' as const })
const event = (id: string) => ({ channel: 'event' as const, id, filter: 'all' as const })

/** The ids a subscribe names, or null for any other message. */
function subscribed(m: ClientMessage): string[] | null {
  if (m.type !== 'subscribe') return null
  if (m.channel === 'market') return m.markets
  if (m.channel === 'event') return m.events
  return ['user']
}

function setup() {
  const sent: ClientMessage[] = []
  let open = true
  const registry = createRegistry({
    logger: captureLogger().logger,
    send: (m) => {
      if (!open) return false
      sent.push(m)
      return true
    },
    isOpen: () => open,
    getUserKey: async () => KEY,
    schedule: (fn) => fn(),
    now: () => Date.now(),
  })
  const incidents: string[] = []
  const frames: InspectorFrame[] = []
  let authError: ApiError | null = null
  const closes = new VenueCloses({
    setAuthError: (e) => {
      authError = e
      registry.setAuthError(e)
    },
    refusal: () => registry.venueRefused(),
    incident: (_kind, detail) => incidents.push(detail),
    refused: (f) => frames.push(f),
    recordRefused: (text, at, detail) => ({
      seq: 1,
      receivedAt: at,
      raw: text,
      truncated: false,
      classification: 'refused',
      decoded: [],
      error: detail,
    }),
    scrub: (t) => t.split(KEY).join('[redacted]'),
    now: () => Date.now(),
  })
  registry.connected()
  let acked = 0
  const s = {
    registry,
    closes,
    sent,
    incidents,
    frames,
    authError: () => authError,
    /** The venue acks the next `n` messages, echoing their channel and ids as the simulator does. */
    ack(n = 1) {
      for (let i = 0; i < n; i++) {
        const m = sent[acked++]
        if (!m) throw new Error('nothing to ack')
        const type = m.type === 'subscribe' ? 'subscribed' : 'unsubscribed'
        registry.handleAck(type, {
          type,
          channel: m.channel,
          status: 'ok',
          markets: m.channel === 'market' ? m.markets : null,
          events: m.channel === 'event' ? m.events : null,
        })
      }
    },
    /** Every message sent so far is left unanswered: the next ack is for what follows. */
    skip() {
      acked = sent.length
    },
    /** The socket closes with `code` (the registry hears of it first, as the engine's lifecycle does). */
    drop(code: number, reason = '') {
      open = false
      registry.disconnected()
      return closes.closed(close(code, reason))
    },
    reopen() {
      open = true
      sent.length = 0
      acked = 0
      registry.connected()
    },
    subscribes: () => sent.map(subscribed).filter((x): x is string[] => x !== null),
  }
  return s
}

const flushKey = () => new Promise((r) => setTimeout(r, 5))

describe('VoxFi close codes', () => {
  it('classifies 4001–4004 and nothing else', () => {
    expect([4001, 4002, 4003, 4004, 1000, 1006, 4000].map(venueCloseOf)).toEqual([
      'unauthorized',
      'invalid-params',
      'server-error',
      'invalid-message',
      null,
      null,
      null,
    ])
  })

  it('4001: a lasting key state naming what to check; the reconnect resubscribes markets but not the user channel', async () => {
    const s = setup()
    s.registry.setInterests('w', [market('m1'), { channel: 'user' }])
    await flushKey()
    expect(s.sent.map((m) => m.channel)).toEqual(['market', 'user'])
    expect(s.drop(4001, 'unauthorized')).toBe('unauthorized')
    const error = s.authError()
    expect(error?.code).toBe('unauthorized')
    expect(error?.message).toMatch(/expired/)
    expect(error?.message).toMatch(/disabled/)
    expect(error?.message).toMatch(/allowed IPs/)
    expect(error?.message).toMatch(/Profile → Security/)
    s.reopen()
    await flushKey()
    expect(s.sent).toEqual([{ type: 'subscribe', channel: 'market', markets: ['m1'], filter: 'all' }])
    expect(s.registry.userState()).toBe('auth-error')
    // A new key is tried again.
    s.registry.keyChanged()
    await flushKey()
    expect(s.sent.at(-1)).toMatchObject({ type: 'subscribe', channel: 'user' })
  })

  it('4003 and abnormal closes change nothing but the reconnect', async () => {
    const s = setup()
    s.registry.setInterests('w', [market('m1'), { channel: 'user' }])
    await flushKey()
    expect(s.drop(4003)).toBe('server-error')
    expect(s.closes.closed(close(1006))).toBeNull()
    expect(s.authError()).toBeNull()
    expect(s.frames).toEqual([])
    s.reopen()
    await flushKey()
    expect(s.sent.map((m) => m.channel)).toEqual(['market', 'user'])
  })

  it('says what to check even when the venue gives no reason', () => {
    expect(unauthorizedClose('').message).not.toMatch(/\(""\)/)
  })
})

describe('4004: the refused subscription, and only it, is set aside', () => {
  it('the one unanswered subscription is the refused one: shown, set aside, and asked for again when opened anew', () => {
    const s = setup()
    s.registry.setInterests('w', [market('good'), event('bad')])
    // The venue accepted good and closed on bad, which was sent last.
    s.ack()
    expect(s.drop(4004, 'invalid channel')).toBe('invalid-message')
    expect(s.frames).toHaveLength(1)
    expect(s.frames[0]?.raw).toContain('"bad"')
    expect(s.frames[0]?.error).toBe('refused by the venue (4004), "invalid channel"')
    expect(s.incidents.join('\n')).toMatch(/refused by the venue \(4004\).*event "bad" is set aside/)
    s.reopen()
    expect(s.sent).toEqual([{ type: 'subscribe', channel: 'market', markets: ['good'], filter: 'all' }])
    expect([...s.registry.refused('event')]).toEqual(['bad'])
    // Dropped and asked for again: another chance.
    s.registry.setInterests('w', [market('good')])
    s.registry.setInterests('w', [market('good'), event('bad')])
    expect(s.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'event', events: ['bad'], filter: 'all' })
  })

  it('BAD then good, both unanswered: each is sent alone, BAD draws the close and is set aside, good streams', () => {
    const s = setup()
    s.registry.setInterests('w', [market('BAD'), event('good')])
    expect(s.drop(4004)).toBe('invalid-message')
    // Nothing is set aside yet: the close could be about either.
    expect(s.frames).toEqual([])
    expect(s.incidents.at(-1)).toMatch(/2 subscriptions were unanswered \(market "BAD", event "good"\)/)
    expect(s.registry.refused('event').size + s.registry.refused('market').size).toBe(0)
    s.reopen()
    // The oldest first, alone; good waits for it.
    expect(s.subscribes()).toEqual([['BAD']])
    s.drop(4004)
    expect([...s.registry.refused('market')]).toEqual(['BAD'])
    expect(s.frames.map((f) => f.raw)).toEqual([
      '{"type":"subscribe","channel":"market","markets":["BAD"],"filter":"all"}',
    ])
    s.reopen()
    expect(s.subscribes()).toEqual([['good']])
    s.ack()
    expect(s.registry.refused('event').size).toBe(0)
    // Accepted: good is an ordinary subscription again, replayed with the others on the next socket.
    s.drop(1006)
    s.reopen()
    expect(s.subscribes()).toEqual([['good']])
  })

  it('several bad among many in one message: probes go one, two, four at a time while accepted, oldest first after each close', () => {
    const s = setup()
    const ids = ['a', 'b', 'X', 'c', 'd', 'e', 'Y', 'f']
    s.registry.setInterests('w', [market('known')])
    s.ack()
    s.registry.setInterests('w', [market('known'), ...ids.map(market)])
    expect(s.subscribes()).toEqual([['known'], ids])
    s.drop(4004)
    const venue = (bad: ReadonlySet<string>) => {
      // A venue that acks in order and closes at the first bad message.
      for (;;) {
        const next = s.sent.findIndex((m, i) => i >= answered && subscribed(m) !== null)
        if (next < 0) return false
        const names = subscribed(s.sent[next] as ClientMessage) ?? []
        if (names.some((n) => bad.has(n))) return true
        answered = next + 1
        s.ack()
      }
    }
    let answered = 0
    const rounds: string[][][] = []
    for (let round = 0; round < 5; round++) {
      s.reopen()
      answered = 0
      const refused = venue(new Set(['X', 'Y']))
      rounds.push(s.subscribes())
      if (!refused) break
      s.drop(4004)
    }
    expect(rounds).toEqual([
      // known flows; a alone, then b and X: X is the one left open at the close.
      [['known'], ['a'], ['b'], ['X']],
      // Every accepted one is replayed at once; c alone, d and e, then Y and f: the venue stopped at Y.
      [['known', 'a', 'b'], ['c'], ['d'], ['e'], ['Y'], ['f']],
      // Y is the oldest of the two left open: alone, refused.
      [['known', 'a', 'b', 'c', 'd', 'e'], ['Y']],
      // f alone, accepted: the search is over.
      [['known', 'a', 'b', 'c', 'd', 'e'], ['f']],
    ])
    expect([...s.registry.refused('market')].sort()).toEqual(['X', 'Y'])
  })

  it('an ack that names a later message answers the earlier ones too (their acks were lost)', () => {
    const s = setup()
    s.registry.setInterests('w', [market('m1')])
    s.registry.setInterests('w', [market('m1'), market('m2')])
    s.registry.setInterests('w', [market('m1'), market('m2'), event('BAD')])
    // m1's ack never came (the venue's duplicate, or lost); m2's did; BAD drew the close.
    s.registry.handleAck('subscribed', { type: 'subscribed', channel: 'market', markets: ['m2'] })
    s.drop(4004)
    expect([...s.registry.refused('event')]).toEqual(['BAD'])
    expect(s.registry.refused('market').size).toBe(0)
  })

  it('an ack that names no channel (VoxFi documents them so) answers the oldest message', () => {
    const s = setup()
    s.registry.setInterests('w', [market('m1')])
    s.registry.setInterests('w', [market('m1'), market('BAD')])
    s.registry.handleAck('subscribed', { type: 'subscribed', channel: 'user', status: 'ok', markets: null })
    s.drop(4004)
    expect([...s.registry.refused('market')]).toEqual(['BAD'])
  })

  it('a venue that never acks: a message unrefused for SETTLE_MS was accepted, and probes move on by time', async () => {
    vi.useFakeTimers()
    const s = setup()
    s.registry.setInterests('w', [market('old')])
    vi.advanceTimersByTime(SETTLE_MS)
    s.registry.setInterests('w', [market('old'), market('g'), market('BAD')])
    s.drop(4004)
    // old had settled: only g and BAD were open.
    expect(s.incidents.at(-1)).toMatch(/2 subscriptions were unanswered \(market "g", market "BAD"\)/)
    s.reopen()
    expect(s.subscribes()).toEqual([['old'], ['g']])
    vi.advanceTimersByTime(SETTLE_MS - 1)
    expect(s.subscribes()).toHaveLength(2)
    vi.advanceTimersByTime(1)
    expect(s.subscribes()).toEqual([['old'], ['g'], ['BAD']])
    s.drop(4004)
    expect([...s.registry.refused('market')]).toEqual(['BAD'])
  })

  it('a 4004 with every message answered sets nothing aside', () => {
    const s = setup()
    s.registry.setInterests('w', [market('m1'), event('e1')])
    s.ack(2)
    s.drop(4004, 'invalid channel')
    expect(s.frames).toEqual([])
    expect(s.incidents.at(-1)).toMatch(/every message of ours had been answered, so nothing is set aside/)
    s.reopen()
    expect(s.subscribes()).toEqual([['m1'], ['e1']])
  })

  it('bounded: a search that keeps meeting ambiguous closes ends, setting aside only what was open then', () => {
    const s = setup()
    s.registry.setInterests('w', [market('ok')])
    s.ack()
    s.registry.setInterests('w', [market('ok'), market('p'), market('q')])
    s.drop(4004)
    for (let i = 1; i <= MAX_REFUSALS; i++) {
      s.reopen()
      // Each socket: the probe and a new subscription from a window, both unanswered at the close.
      s.registry.setInterests('w', [market('ok'), market('p'), market('q'), market(`n${i}`)])
      s.drop(4004)
    }
    expect(s.incidents.at(-1)).toMatch(/reached its bound/)
    const aside = [...s.registry.refused('market')]
    expect(aside).not.toContain('ok')
    expect(aside.length).toBeLessThanOrEqual(2)
    s.reopen()
    // The search is over: what was not set aside goes out with the rest, nothing is held back.
    const out = s.subscribes().flat()
    for (const id of ['ok', 'p', 'q', `n${MAX_REFUSALS}`]) {
      if (!aside.includes(id)) expect(out).toContain(id)
    }
  })

  it('another venue (a profile switch) forgets what the last one accepted and refused', () => {
    const s = setup()
    s.registry.setInterests('w', [market('m1'), event('bad')])
    s.ack()
    s.drop(4004)
    expect([...s.registry.refused('event')]).toEqual(['bad'])
    s.registry.venueChanged()
    s.reopen()
    expect(s.subscribes()).toEqual([['m1'], ['bad']])
    // m1's acceptance was the other venue's: a 4004 now could be about either.
    s.drop(4004)
    expect(s.incidents.at(-1)).toMatch(/2 subscriptions were unanswered/)
  })

  it('4004 after the user subscribe never shows the key', async () => {
    const s = setup()
    s.registry.setInterests('w', [{ channel: 'user' }])
    await flushKey()
    s.drop(4004, 'invalid message type')
    expect(s.frames[0]?.raw).not.toContain(KEY)
    expect(s.frames[0]?.raw).toContain('[redacted]')
    expect(s.incidents.join('\n')).not.toContain(KEY)
  })
})
