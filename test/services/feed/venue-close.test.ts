// VoxFi's close codes (https://docs.voxfi.com.br/en/websockets/errors): 4001 leaves a lasting key state and no user
// resubscribe; 4004 shows the refused message (never its key) and sets that subscription aside, so the reconnect
// does not resend it; 4003 and abnormal closes are ordinary.
import { describe, expect, it } from 'vitest'
import { createRegistry } from '../../../src/main/services/feed/registry'
import { unauthorizedClose, VenueCloses, venueCloseOf } from '../../../src/main/services/feed/venue-close'
import type { StreamCloseInfo } from '../../../src/main/services/feed/stream'
import type { ApiError, InspectorFrame } from '../../../src/shared/model'
import type { ClientMessage } from '../../../src/shared/protocol'
import { captureLogger } from '../helpers'

const KEY = 'sk_live_0123456789abcdef'

function close(code: number, reason = ''): StreamCloseInfo {
  return { code, reason, cause: 'remote', wasOpen: true, error: null, openForMs: 1000 }
}

function setup() {
  const sent: ClientMessage[] = []
  let open = true
  const registry = createRegistry({
    logger: captureLogger().logger,
    send: (m) => {
      if (!open) return false
      sent.push(m)
      closes.sent(m)
      return true
    },
    isOpen: () => open,
    getUserKey: async () => KEY,
    schedule: (fn) => fn(),
  })
  const incidents: string[] = []
  const frames: InspectorFrame[] = []
  let authError: ApiError | null = null
  const closes = new VenueCloses({
    setAuthError: (e) => {
      authError = e
      registry.setAuthError(e)
    },
    refuse: (channel, ids) => registry.refuse(channel, ids),
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
  return {
    registry,
    closes,
    sent,
    incidents,
    frames,
    authError: () => authError,
    drop: () => {
      open = false
      registry.disconnected()
    },
    reopen: () => {
      open = true
      sent.length = 0
      closes.opened()
      registry.connected()
    },
  }
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
    s.registry.setInterests('w', [{ channel: 'market', id: 'm1', filter: 'all' }, { channel: 'user' }])
    await flushKey()
    expect(s.sent.map((m) => m.channel)).toEqual(['market', 'user'])
    s.drop()
    expect(s.closes.closed(close(4001, 'unauthorized'))).toBe('unauthorized')
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

  it('4004: the refused subscribe is shown without its key and set aside until asked for anew', async () => {
    const s = setup()
    s.registry.setInterests('w', [
      { channel: 'market', id: 'good', filter: 'all' },
      { channel: 'event', id: 'bad', filter: 'all' },
    ])
    await flushKey()
    s.drop()
    expect(s.closes.closed(close(4004, 'invalid channel'))).toBe('invalid-message')
    expect(s.frames).toHaveLength(1)
    expect(s.frames[0]?.raw).toContain('"bad"')
    expect(s.frames[0]?.error).toMatch(/4004.*invalid channel/)
    expect(s.incidents.join('\n')).toMatch(/not asked for again/)
    s.reopen()
    await flushKey()
    expect(s.sent).toEqual([{ type: 'subscribe', channel: 'market', markets: ['good'], filter: 'all' }])
    expect([...s.registry.refused('event')]).toEqual(['bad'])
    // Dropped and asked for again: another chance.
    s.registry.setInterests('w', [{ channel: 'market', id: 'good', filter: 'all' }])
    s.registry.setInterests('w', [
      { channel: 'market', id: 'good', filter: 'all' },
      { channel: 'event', id: 'bad', filter: 'all' },
    ])
    await flushKey()
    expect(s.sent.at(-1)).toEqual({ type: 'subscribe', channel: 'event', events: ['bad'], filter: 'all' })
  })

  it('4004 after the user subscribe never shows the key', async () => {
    const s = setup()
    s.registry.setInterests('w', [{ channel: 'user' }])
    await flushKey()
    s.drop()
    s.closes.closed(close(4004, 'invalid message type'))
    expect(s.frames[0]?.raw).not.toContain(KEY)
    expect(s.frames[0]?.raw).toContain('[redacted]')
    expect(s.incidents.join('\n')).not.toContain(KEY)
  })

  it('4003 and abnormal closes change nothing but the reconnect', async () => {
    const s = setup()
    s.registry.setInterests('w', [{ channel: 'market', id: 'm1', filter: 'all' }, { channel: 'user' }])
    await flushKey()
    s.drop()
    expect(s.closes.closed(close(4003))).toBe('server-error')
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
