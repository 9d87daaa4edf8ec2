// ConnectionManager against the real simulator over loopback, with recording hooks: the states it reports,
// what a drop does to the status and the incident log, profiles without an endpoint, and describeClose().
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionState, Profile, StreamStatus } from '../../../src/shared/model'
import { createSimulator, type Simulator } from '../../../src/sim/index'
import {
  ConnectionManager,
  describeClose,
  type ConnectionHooks,
  type StreamTuning,
} from '../../../src/main/services/feed/connection'
import { DemoHost } from '../../../src/main/services/feed/demo-host'
import { IncidentLog } from '../../../src/main/services/health/incidents'
import { StatusTracker } from '../../../src/main/services/health/status'
import type { StreamCloseInfo } from '../../../src/main/services/feed/stream'
import { captureLogger, never, waitFor } from '../helpers'
import { profile } from '../fakes'

const TUNING: StreamTuning = {
  backoff: { baseMs: 20, capMs: 100, stableMs: 5_000 },
  quickRetryMs: 20,
  pingIntervalMs: 1_000,
  pongTimeoutMs: 1_500,
  connectTimeoutMs: 2_000,
}

const closers: Array<() => void | Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

async function sim(): Promise<Simulator> {
  const s = await createSimulator({ seed: 3, tickMs: 50, pingMs: 1_000 })
  closers.push(() => s.close())
  return s
}

function setup(initial: Profile) {
  const log = captureLogger()
  const events: string[] = []
  const states: ConnectionState[] = []
  /** The status as each change notification saw it. */
  const seen: StreamStatus[] = []
  const drops: StreamCloseInfo[] = []
  let frames = 0
  const incidents = new IncidentLog(Date.now, () => undefined)
  const hooks: ConnectionHooks = {
    reset: () => void events.push('reset'),
    opened: () => void events.push('opened'),
    dropped: (info) => {
      drops.push(info)
      events.push(`dropped:${info.cause}`)
    },
    frame: () => {
      frames += 1
    },
    expectsData: () => false,
    silenceScale: () => 1,
    afterConnect: async () => void events.push('afterConnect'),
  }
  const demo = new DemoHost({}, false, log.logger)
  // The status reads the connection, which is built right after it (as in createMonitor).
  const holder: { c: ConnectionManager | null } = { c: null }
  const status = new StatusTracker(
    {
      profileId: () => holder.c?.profile.id ?? '',
      connectionState: () => holder.c?.state() ?? 'offline',
      stream: () => holder.c?.streamState(),
      authError: () => null,
      rateLimit: () => null,
      counters: () => ({ frames, updates: 0, malformed: 0, unknown: 0, oversized: 0 }),
      unavailable: () => holder.c?.unavailable ?? null,
    },
    incidents,
    () => {
      if (holder.c === null) return
      const st = status.status()
      seen.push(st)
      if (states.at(-1) !== st.state) states.push(st.state)
    },
  )
  const connection = new ConnectionManager(
    { log: log.logger, now: Date.now, status, incidents, demo, stream: TUNING, authError: () => null, hooks },
    initial,
  )
  holder.c = connection
  closers.push(() => {
    connection.close()
    status.close()
  })
  return { connection, status, incidents, events, states, seen, drops, log }
}

function simProfile(s: Simulator, id = 'p-sim'): Profile {
  return profile(id, { baseUrl: s.baseUrl, wsUrl: s.wsUrl })
}

describe('ConnectionManager', () => {
  it('connecting -> live against the simulator; the hooks run in order', async () => {
    const s = await sim()
    const p = simProfile(s)
    const c = setup(p)
    expect(c.connection.state()).toBe('offline') // nothing connected yet
    await c.connection.connect(p)
    expect(c.connection.rest).not.toBeNull()
    expect(c.connection.hasStream()).toBe(true)
    expect(c.connection.state()).toBe('connecting')
    await waitFor(() => c.connection.state() === 'live', 'live', 5_000)
    expect(c.connection.isOpen()).toBe(true)
    expect(c.events).toEqual(['reset', 'afterConnect', 'opened'])
    expect(c.states).toEqual(['connecting', 'live'])
    expect(c.status.status()).toMatchObject({ state: 'live', reconnects: 0, lastError: null })
    expect(c.status.status().connectedSince).not.toBeNull()
  })

  it('a drop: reconnecting, a disconnect incident and lastError; then live again, one reconnect, incident ended', async () => {
    const s = await sim()
    const p = simProfile(s)
    const c = setup(p)
    await c.connection.connect(p)
    await waitFor(() => c.connection.state() === 'live', 'live', 5_000)
    s.faults.dropAll()
    await waitFor(() => c.drops.length > 0, 'the drop reported', 5_000)
    const drop = c.drops[0] as StreamCloseInfo
    expect(drop).toMatchObject({ wasOpen: true, cause: 'remote' })
    // While it was down, the status said so: reconnecting, an open disconnect incident, the reason as lastError.
    const down = c.seen.find((st) => st.state === 'reconnecting')
    expect(down?.lastError).toEqual({ code: 'network', message: describeClose(drop) })
    expect(down?.incidents[0]).toMatchObject({
      kind: 'disconnect',
      endedAt: null,
      detail: describeClose(drop),
    })
    await waitFor(() => c.connection.state() === 'live', 'live again', 5_000)
    expect(c.states).toEqual(['connecting', 'live', 'reconnecting', 'live'])
    const st = c.status.status()
    expect(st.reconnects).toBe(1)
    expect(st.lastError).toBeNull()
    expect(st.incidents).toHaveLength(1)
    expect(st.incidents[0]?.endedAt).not.toBeNull()
    expect(c.events.filter((e) => e === 'opened')).toHaveLength(2)
  })

  it('a stream it cannot reach: connecting, then offline after three failed attempts; no incident', async () => {
    const s = await sim()
    const p = simProfile(s)
    await s.close()
    closers.pop()
    const c = setup(p)
    await c.connection.connect(p)
    expect(c.connection.state()).toBe('connecting')
    await waitFor(() => c.connection.state() === 'offline', 'offline', 5_000)
    expect((c.connection.streamState()?.attempt ?? 0) >= 3).toBe(true)
    expect(c.drops.every((d) => !d.wasOpen && d.cause === 'error')).toBe(true)
    // The status says why, in words, with a stable kind (feed/link-errors.ts).
    expect(c.status.status().lastError).toMatchObject({ code: 'network', link: 'refused' })
    expect(c.status.status().lastError?.message).toMatch(
      /^Nothing accepts connections .*\(connect ECONNREFUSED .*the connection was refused/,
    )
    expect(c.incidents.list()).toEqual([])
  })

  it('a profile without usable endpoints has no stream and says why', async () => {
    const bad = profile('p-bad', { baseUrl: 'ftp://example', wsUrl: 'ws://127.0.0.1:1/ws' })
    const c = setup(bad)
    await c.connection.connect(bad)
    expect(c.connection.hasStream()).toBe(false)
    expect(c.connection.rest).toBeNull()
    expect(c.connection.state()).toBe('offline')
    expect(c.connection.unavailable?.code).toBe('invalid_argument')
    expect(c.status.status().lastError?.code).toBe('invalid_argument')
    expect(c.connection.send({ type: 'unsubscribe', channel: 'user' })).toBe(false)
  })

  it('the demo profile with the simulator disabled is offline with a reason', async () => {
    const demo = profile('demo', { demo: true, baseUrl: '', wsUrl: '' })
    const c = setup(demo)
    await c.connection.connect(demo)
    expect(c.connection.state()).toBe('offline')
    expect(c.connection.unavailable?.message).toMatch(/embedded simulator is not running/)
    expect(c.connection.withRuntimeUrls(demo)).toEqual(demo)
  })

  it('switching profile closes the old stream (its events are ignored) and resets', async () => {
    const s1 = await sim()
    const s2 = await sim()
    const p1 = simProfile(s1, 'p-1')
    const p2 = simProfile(s2, 'p-2')
    const c = setup(p1)
    await c.connection.connect(p1)
    await waitFor(() => c.connection.state() === 'live', 'live on p1', 5_000)
    c.events.length = 0
    await c.connection.connect(p2)
    expect(c.connection.profile).toBe(p2)
    await waitFor(() => c.connection.state() === 'live', 'live on p2', 5_000)
    await waitFor(() => s1.connections() === 0, 'the old socket closed on the server', 5_000)
    expect(c.events).toEqual(['dropped:closed', 'reset', 'afterConnect', 'opened'])
    expect(c.status.status().reconnects).toBe(0)
    expect(c.incidents.list()).toEqual([])
  })

  it('close(): offline, and a reconnect request does nothing', async () => {
    const s = await sim()
    const p = simProfile(s)
    const c = setup(p)
    await c.connection.connect(p)
    await waitFor(() => c.connection.state() === 'live', 'live', 5_000)
    // Open, a reconnect request opens a new socket at once.
    c.connection.reconnectNow()
    await waitFor(() => c.events.filter((e) => e === 'opened').length === 2, 'the requested reconnect', 5_000)
    const incidents = c.incidents.list()
    c.connection.close()
    expect(c.connection.state()).toBe('offline')
    await waitFor(() => s.connections() === 0, 'the socket closed on the server', 5_000)
    c.connection.reconnectNow()
    // Closed, it opens none (the backoff is at most 100 ms).
    await never(
      () => c.connection.state() !== 'offline' || s.connections() > 0,
      'a socket after close()',
      1_000,
    )
    expect(c.incidents.list()).toEqual(incidents)
    expect(c.drops.map((d) => d.cause)).toEqual(['reconnect', 'closed'])
  })
})

describe('describeClose', () => {
  const base: StreamCloseInfo = {
    code: 1006,
    reason: '',
    cause: 'remote',
    wasOpen: true,
    error: null,
    openForMs: 5,
  }
  it('says what happened, per cause', () => {
    expect(describeClose({ ...base, cause: 'silence', error: 'no frame for 3 s' })).toBe(
      'No data from the exchange (no frame for 3 s); reconnecting.',
    )
    expect(describeClose({ ...base, cause: 'silence' })).toBe(
      'No data from the exchange (silence); reconnecting.',
    )
    expect(describeClose({ ...base, cause: 'ping-timeout', error: '1500 ms' })).toBe(
      'The exchange stopped answering pings (1500 ms); reconnecting.',
    )
    expect(describeClose({ ...base, cause: 'oversized' })).toBe(
      'The exchange sent a frame larger than the limit; reconnecting.',
    )
    expect(describeClose({ ...base, cause: 'reconnect' })).toBe('Reconnect requested.')
    expect(describeClose({ ...base, cause: 'error', error: 'ECONNREFUSED' })).toBe(
      'Cannot reach the exchange stream: ECONNREFUSED.',
    )
    expect(describeClose({ ...base, cause: 'error' })).toBe(
      'Cannot reach the exchange stream: connection failed.',
    )
    expect(describeClose(base)).toBe('The stream connection closed (code 1006).')
    expect(describeClose({ ...base, code: 1001, reason: 'going away' })).toBe(
      'The stream connection closed (code 1001: going away).',
    )
  })
})
