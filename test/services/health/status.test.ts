// StatusTracker on its own: the status view assembled from its sources, keychain stickiness, key presence,
// per-profile reset and the once-a-second tick.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApiError, ConnectionState, StreamCounters } from '../../../src/shared/model'
import { IncidentLog } from '../../../src/main/services/health/incidents'
import { STATUS_TICK_MS, StatusTracker, type StatusSources } from '../../../src/main/services/health/status'
import type { StreamState } from '../../../src/main/services/base/types'

const trackers: StatusTracker[] = []
afterEach(() => {
  for (const t of trackers.splice(0)) t.close()
  vi.useRealTimers()
})

function setup() {
  const world = {
    profileId: 'p-1',
    state: 'live' as ConnectionState,
    stream: undefined as StreamState | undefined,
    authError: null as ApiError | null,
    unavailable: null as ApiError | null,
    counters: { frames: 3, updates: 5, malformed: 1, unknown: 0, oversized: 0 } as StreamCounters,
  }
  const sources: StatusSources = {
    profileId: () => world.profileId,
    connectionState: () => world.state,
    stream: () => world.stream,
    authError: () => world.authError,
    rateLimit: () => ({ limit: 10, remaining: 9, resetAt: null, blockedUntil: null, observedAt: 1 }),
    counters: () => world.counters,
    unavailable: () => world.unavailable,
  }
  let changes = 0
  const incidents = new IncidentLog(
    () => 500,
    () => undefined,
  )
  const status = new StatusTracker(sources, incidents, () => {
    changes += 1
  })
  trackers.push(status)
  return { status, world, incidents, changes: () => changes }
}

const keyringLocked: ApiError = { code: 'keyring_locked', message: 'The keychain is locked.' }

describe('StatusTracker', () => {
  it('assembles the status from its sources and its own facts', () => {
    const s = setup()
    s.world.stream = {
      phase: 'open',
      attempt: 0,
      nextRetryAt: 77,
      connectedSince: 1_234,
      usualGapMs: null,
      silenceLimitMs: 3_000,
    }
    s.world.authError = { code: 'unauthorized', message: 'refused' }
    s.status.opened(true)
    s.status.opened(true)
    s.status.heard(999)
    s.status.setHasKey(true)
    s.incidents.record('disconnect', 'dropped')
    const v = s.status.status()
    expect(v).toMatchObject({
      profileId: 'p-1',
      state: 'live',
      reconnects: 2,
      connectedSince: 1_234,
      nextRetryAt: 77,
      lastMessageAt: 999,
      authError: { code: 'unauthorized' },
      credentialsError: null,
      lastError: null,
      counters: { frames: 3, updates: 5, malformed: 1 },
      hasKey: true,
    })
    expect(v.rateLimit).toMatchObject({ limit: 10, remaining: 9 })
    expect(v.incidents.map((i) => i.detail)).toEqual(['dropped'])
  })

  it('without a stream, times are null; lastError falls back to why the profile is unavailable', () => {
    const s = setup()
    s.world.unavailable = { code: 'invalid_argument', message: 'The REST base URL is empty.' }
    const v = s.status.status()
    expect(v.connectedSince).toBeNull()
    expect(v.nextRetryAt).toBeNull()
    expect(v.lastError?.message).toBe('The REST base URL is empty.')
    s.status.setError({ code: 'network', message: 'down' })
    expect(s.status.status().lastError?.message).toBe('down')
    s.status.setError(null)
    expect(s.status.status().lastError?.code).toBe('invalid_argument')
  })

  it('noteKeychain: a keyring_* failure sets credentialsError, other failures keep it, a success clears it', () => {
    const s = setup()
    s.status.noteKeychain({ ok: false, error: { code: 'network', message: 'unrelated' } })
    expect(s.status.credentialsError).toBeNull()
    expect(s.changes()).toBe(0)

    s.status.noteKeychain({ ok: false, error: keyringLocked })
    expect(s.status.credentialsError).toEqual(keyringLocked)
    expect(s.status.status().credentialsError?.code).toBe('keyring_locked')
    expect(s.changes()).toBe(1)

    s.status.noteKeychain({ ok: false, error: { code: 'invalid_argument', message: 'bad id' } })
    expect(s.status.credentialsError?.code).toBe('keyring_locked')
    expect(s.changes()).toBe(1)

    s.status.noteKeychain({ ok: true, value: null })
    expect(s.status.credentialsError).toBeNull()
    expect(s.changes()).toBe(2)

    s.status.noteKeychain({ ok: true, value: 'x' })
    expect(s.changes()).toBe(2)
  })

  it('setHasKey notifies only when the value changes', () => {
    const s = setup()
    s.status.setHasKey(false)
    expect(s.changes()).toBe(0)
    s.status.setHasKey(true)
    s.status.setHasKey(true)
    expect(s.changes()).toBe(1)
    expect(s.status.status().hasKey).toBe(true)
    s.status.setHasKey(false)
    expect(s.changes()).toBe(2)
  })

  it('resetForProfile forgets the errors, keeps the counters that span profiles', () => {
    const s = setup()
    s.status.noteKeychain({ ok: false, error: keyringLocked })
    s.status.setError({ code: 'network', message: 'down' })
    for (let i = 0; i < 4; i++) s.status.opened(true)
    s.status.resetForProfile()
    const v = s.status.status()
    expect(v.credentialsError).toBeNull()
    expect(v.lastError).toBeNull()
    expect(v.reconnects).toBe(4)
  })

  it('the tick notifies once per change of lastMessageAt, not otherwise', () => {
    vi.useFakeTimers()
    const s = setup()
    vi.advanceTimersByTime(STATUS_TICK_MS * 3)
    expect(s.changes()).toBe(0)
    s.status.heard(10)
    vi.advanceTimersByTime(STATUS_TICK_MS - 1)
    expect(s.changes()).toBe(0)
    vi.advanceTimersByTime(1)
    expect(s.changes()).toBe(1)
    vi.advanceTimersByTime(STATUS_TICK_MS * 3)
    expect(s.changes()).toBe(1)
    s.status.heard(11)
    vi.advanceTimersByTime(STATUS_TICK_MS)
    expect(s.changes()).toBe(2)
  })

  it('close() stops the tick', () => {
    vi.useFakeTimers()
    const s = setup()
    s.status.close()
    s.status.heard(10)
    vi.advanceTimersByTime(STATUS_TICK_MS * 5)
    expect(s.changes()).toBe(0)
  })

  it('changed() and setError() notify', () => {
    const s = setup()
    s.status.changed()
    s.status.setError(null)
    expect(s.changes()).toBe(2)
  })
})
