// The registry's bookkeeping in isolation (the wire behaviour is covered against the simulator elsewhere):
// union of interests, batching, chunking, replay on connect, and the user channel's auth state.
import { describe, expect, it } from 'vitest'
import type { ClientMessage } from '../../../src/shared/protocol'
import { createRegistry } from '../../../src/main/services/feed/registry'
import { captureLogger } from '../helpers'

function setup(opts: { key?: string | null; chunkSize?: number } = {}) {
  const sent: ClientMessage[] = []
  let open = true
  let key: string | null = opts.key === undefined ? 'k-1' : opts.key
  const tasks: Array<() => void> = []
  const log = captureLogger()
  const registry = createRegistry({
    logger: log.logger,
    send: (m) => {
      if (!open) return false
      sent.push(m)
      return true
    },
    isOpen: () => open,
    getUserKey: async () => key,
    schedule: (fn) => tasks.push(fn),
    ...(opts.chunkSize !== undefined ? { chunkSize: opts.chunkSize } : {}),
  })
  const tick = async () => {
    while (tasks.length > 0) tasks.shift()?.()
    await new Promise((r) => setImmediate(r))
  }
  return {
    registry,
    sent,
    tick,
    log,
    setOpen: (v: boolean) => (open = v),
    setKey: (k: string | null) => (key = k),
  }
}

describe('subscription registry', () => {
  it('subscribes on the first interest, once, and unsubscribes after the last', async () => {
    const t = setup()
    t.registry.setInterests('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    t.registry.setInterests('b', [{ channel: 'market', id: 'm1', filter: 'all' }])
    await t.tick()
    expect(t.sent).toEqual([{ type: 'subscribe', channel: 'market', markets: ['m1'], filter: 'all' }])
    t.registry.removeClient('a')
    await t.tick()
    expect(t.sent).toHaveLength(1)
    t.registry.setInterests('b', [])
    await t.tick()
    expect(t.sent[1]).toEqual({ type: 'unsubscribe', channel: 'market', markets: ['m1'] })
  })

  it('unites filters (orderbook + trades = all) and re-subscribes on a filter change', async () => {
    const t = setup()
    t.registry.setInterests('a', [{ channel: 'event', id: 'e1', filter: 'orderbook' }])
    await t.tick()
    t.registry.setInterests('b', [{ channel: 'event', id: 'e1', filter: 'trades' }])
    await t.tick()
    expect(t.sent).toEqual([
      { type: 'subscribe', channel: 'event', events: ['e1'], filter: 'orderbook' },
      { type: 'subscribe', channel: 'event', events: ['e1'], filter: 'all' },
    ])
    expect(t.registry.desired('event').get('e1')).toBe('all')
  })

  it('batches changes into one message per channel and filter per tick, chunked', async () => {
    const t = setup({ chunkSize: 100 })
    const ids = Array.from({ length: 250 }, (_, i) => `m${i}`)
    for (const id of ids) t.registry.setInterests(`c-${id}`, [{ channel: 'market', id, filter: 'all' }])
    await t.tick()
    expect(t.sent.map((m) => (m.channel === 'market' ? m.markets.length : 0))).toEqual([100, 100, 50])
  })

  it('replays everything on connect, including what was added while offline', async () => {
    const t = setup()
    t.setOpen(false)
    t.registry.setInterests('a', [
      { channel: 'market', id: 'm1', filter: 'trades' },
      { channel: 'event', id: 'e1', filter: 'all' },
      { channel: 'user' },
    ])
    await t.tick()
    expect(t.sent).toHaveLength(0)
    t.setOpen(true)
    t.registry.connected()
    await t.tick()
    expect(t.sent).toEqual([
      { type: 'subscribe', channel: 'market', markets: ['m1'], filter: 'trades' },
      { type: 'subscribe', channel: 'event', events: ['e1'], filter: 'all' },
      { type: 'subscribe', channel: 'user', auth: 'k-1' },
    ])
    t.registry.disconnected()
    t.registry.connected()
    await t.tick()
    expect(t.sent).toHaveLength(6)
  })

  it('makes an auth error sticky (no retry loop) until the key changes, then re-authenticates', async () => {
    const t = setup()
    t.registry.setInterests('a', [{ channel: 'user' }])
    await t.tick()
    expect(t.sent).toEqual([{ type: 'subscribe', channel: 'user', auth: 'k-1' }])
    expect(t.registry.handleServerError('unauthorized', 'bad key')).toBe(true)
    expect(t.registry.authError()?.code).toBe('unauthorized')
    expect(t.registry.userState()).toBe('auth-error')
    t.registry.disconnected()
    t.registry.connected()
    await t.tick()
    expect(t.sent).toHaveLength(1)
    t.setKey('k-2')
    t.registry.keyChanged()
    await t.tick()
    expect(t.registry.authError()).toBeNull()
    expect(t.sent[1]).toEqual({ type: 'subscribe', channel: 'user', auth: 'k-2' })
    // Rotation while subscribed: unsubscribe the old, subscribe the new.
    t.registry.handleAck('subscribed', { type: 'subscribed', channel: 'user' })
    t.setKey('k-3')
    t.registry.keyChanged()
    await t.tick()
    expect(t.sent.slice(2)).toEqual([
      { type: 'unsubscribe', channel: 'user' },
      { type: 'subscribe', channel: 'user', auth: 'k-3' },
    ])
    expect(t.registry.handleServerError('invalid_request', 'x')).toBe(false)
    expect(t.registry.authError()).toBeNull()
    expect(t.log.lines.join('\n')).not.toMatch(/k-[123]/)
  })

  it('does not subscribe the user channel without a key', async () => {
    const t = setup({ key: null })
    t.registry.setInterests('a', [{ channel: 'user' }])
    await t.tick()
    expect(t.sent).toHaveLength(0)
    expect(t.registry.userState()).toBe('no-key')
  })

  it('resubscribe() sends one market again', async () => {
    const t = setup()
    t.registry.setInterests('a', [
      { channel: 'market', id: 'm1', filter: 'all' },
      { channel: 'market', id: 'm2', filter: 'all' },
    ])
    await t.tick()
    t.registry.resubscribe('market', 'm2')
    await t.tick()
    expect(t.sent[1]).toEqual({ type: 'subscribe', channel: 'market', markets: ['m2'], filter: 'all' })
  })
})
