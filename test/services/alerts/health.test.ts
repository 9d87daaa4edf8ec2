// Feed-health rules on the tick: since-when tracking for the connection and each book, and the edge firing.
import { wordsText } from '../../../src/shared/alert-text'
import { describe, expect, it } from 'vitest'
import type { AlertCondition, AlertRule } from '../../../src/shared/alerts'
import type { ApiError, BookState, ConnectionState } from '../../../src/shared/model'
import { HealthWatch, parseExpiry } from '../../../src/main/services/alerts/health'
import { createRuntime, type RuleRuntime } from '../../../src/main/services/alerts/rules'
import type { OrderBook } from '../../../src/main/services/market/books'

const T0 = Date.UTC(2030, 0, 1)

function rt(condition: AlertCondition, patch: Partial<AlertRule> = {}): RuleRuntime {
  return createRuntime({
    v: 1,
    id: 'r',
    label: null,
    condition,
    mode: 'rearm',
    hysteresis: 0,
    cooldownSec: 0,
    sound: false,
    enabled: true,
    snoozedUntil: null,
    createdAt: T0,
    firedAt: null,
    ...patch,
  })
}

function setup() {
  const s = {
    books: new Map<string, { state: BookState; staleReason: string | null; bestBid: null; bestAsk: null }>(),
    connection: 'live' as ConnectionState,
    auth: null as ApiError | null,
    key: null as string | null,
    wanted: [] as string[],
    fired: [] as { title: string; detail: string; value: number | null; market: string | null }[],
  }
  const watch = new HealthWatch({
    books: { get: (m) => s.books.get(m) as unknown as OrderBook | undefined },
    connectionState: () => s.connection,
    authError: () => s.auth,
    keyExpiresAt: () => s.key,
    wantedBooks: () => s.wanted,
    marketTitle: () => null,
  })
  const check = (rules: RuleRuntime[], now: number, paused = false) =>
    watch.check(rules, now, paused, (r, f) => {
      r.rule = { ...r.rule, firedAt: now }
      // Words without prices (health alerts have none) read the same in either unit.
      s.fired.push({ ...f, title: wordsText(f.title, 'cents'), detail: wordsText(f.detail, 'cents') })
    })
  const book = (m: string, state: BookState, staleReason: string | null = null) =>
    s.books.set(m, { state, staleReason, bestBid: null, bestAsk: null })
  return { s, watch, check, book }
}

describe('parseExpiry', () => {
  it('reads YYYY-MM-DD as UTC midnight, other ISO text as Date.parse, anything else as nothing', () => {
    expect(parseExpiry('2030-01-05')).toBe(Date.UTC(2030, 0, 5))
    expect(parseExpiry('2030-01-05T12:00:00Z')).toBe(Date.UTC(2030, 0, 5, 12))
    expect(parseExpiry('soon')).toBeNull()
    expect(parseExpiry(null)).toBeNull()
  })
})

describe('HealthWatch', () => {
  it('measures a disconnection from the first tick that saw it', () => {
    const { s, check } = setup()
    const rule = rt({ kind: 'disconnected', seconds: 10 })
    s.connection = 'connecting'
    check([rule], T0)
    check([rule], T0 + 9_999)
    expect(s.fired).toHaveLength(0)
    check([rule], T0 + 10_000)
    expect(s.fired[0]?.title).toBe('Disconnected for 10 s')
    expect(s.fired[0]?.value).toBe(10)
  })

  it('a reconnect between two ticks ends the outage: the next one fires again', () => {
    const { s, check, watch } = setup()
    const rule = rt({ kind: 'disconnected', seconds: 1 })
    s.connection = 'reconnecting'
    check([rule], T0)
    check([rule], T0 + 1000)
    expect(s.fired).toHaveLength(1)
    // Live for half a second, between ticks: no tick saw it.
    watch.connected()
    check([rule], T0 + 2000)
    check([rule], T0 + 2500)
    expect(s.fired).toHaveLength(1)
    check([rule], T0 + 3000)
    expect(s.fired).toHaveLength(2)
  })

  it('any-book rules watch the wanted books only; quiet and absent books are not down', () => {
    const { s, check, book } = setup()
    const any = rt({ kind: 'book-stale', market: null, seconds: 2 })
    book('named', 'stale', 'gap')
    book('w1', 'quiet')
    book('w2', 'empty')
    s.wanted = ['w1', 'w2', 'w3']
    check([any], T0)
    check([any], T0 + 2000)
    expect(s.fired.map((f) => f.market)).toEqual(['w2'])
    expect(s.fired[0]?.detail).toMatch(/^the book has no snapshot yet since \d\d:\d\d:\d\d \(w2\)$/)
  })

  it('a book that recovers in between starts its count again', () => {
    const { s, check, book } = setup()
    const one = rt({ kind: 'book-stale', market: 'm1', seconds: 3 })
    book('m1', 'stale', 'gap')
    check([one], T0)
    book('m1', 'live')
    check([one], T0 + 2000)
    book('m1', 'resyncing', 'gap')
    check([one], T0 + 2500)
    check([one], T0 + 5000)
    expect(s.fired).toHaveLength(0)
    check([one], T0 + 5500)
    expect(s.fired).toHaveLength(1)
  })

  it('paused: no firing, and it fires when resumed if still down', () => {
    const { s, check } = setup()
    const rule = rt({ kind: 'auth-error' })
    s.auth = { code: 'unauthorized', message: 'refused' }
    check([rule], T0, true)
    expect(s.fired).toHaveLength(0)
    check([rule], T0 + 1000)
    expect(s.fired.map((f) => f.detail)).toEqual(['refused'])
  })

  it('key expiring: fires within the window, says when it has expired, re-arms on a new date', () => {
    const { s, check } = setup()
    const rule = rt({ kind: 'key-expiring', days: 3 })
    s.key = '2030-01-05'
    check([rule], T0)
    expect(s.fired).toHaveLength(0)
    check([rule], T0 + 86_400_000)
    expect(s.fired.at(-1)?.title).toBe('The API key expires in 3 days')
    s.key = '2029-12-31'
    check([rule], T0 + 86_400_000)
    expect(s.fired.at(-1)?.title).toBe('The API key has expired')
    expect(s.fired).toHaveLength(2)
  })

  it('forgets its history when no health rule is left', () => {
    const { s, check } = setup()
    const rule = rt({ kind: 'disconnected', seconds: 10 })
    s.connection = 'offline'
    check([rule], T0)
    check([], T0 + 5000)
    check([rule], T0 + 10_000)
    expect(s.fired).toHaveLength(0)
    check([rule], T0 + 20_000)
    expect(s.fired).toHaveLength(1)
  })
})
