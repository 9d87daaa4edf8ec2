// The engine-link watchdog (store/engine-link.ts): lost when no batch (heartbeat or otherwise) arrived for
// ENGINE_LOST_AFTER_MS, and at once when the bridge socket closes; up again with the next batch. Time is the
// fake timers' clock, so nothing depends on the machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ENGINE_HEARTBEAT_MS, ENGINE_LOST_AFTER_MS, type ViewBatch } from '../../src/shared/ipc'
import {
  FIRST_BATCH_WITHIN_MS,
  startEngineLink,
  useEngineLink,
  type EngineLinkSource,
} from '../../src/renderer/store/engine-link'

class FakeSource implements EngineLinkSource {
  batches = new Set<(batch: ViewBatch) => void>()
  sockets = new Set<(open: boolean) => void>()
  seq = 0
  onBatch(listener: (batch: ViewBatch) => void): () => void {
    this.batches.add(listener)
    return () => this.batches.delete(listener)
  }
  onConnectionChange(listener: (open: boolean) => void): () => void {
    this.sockets.add(listener)
    return () => this.sockets.delete(listener)
  }
  beat(): void {
    for (const l of this.batches) l({ seq: ++this.seq, at: Date.now() })
  }
  socket(open: boolean): void {
    for (const l of this.sockets) l(open)
  }
}

const link = () => useEngineLink.getState()
let stop: (() => void) | null = null

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 })
})
afterEach(() => {
  stop?.()
  stop = null
  vi.useRealTimers()
})

describe('the engine link', () => {
  it('stays up on heartbeats 1.5 × ENGINE_HEARTBEAT_MS apart, is lost within ENGINE_LOST_AFTER_MS + a check of the last one, and is back with the next', () => {
    const source = new FakeSource()
    stop = startEngineLink(source)
    for (let i = 0; i < 40; i++) {
      vi.advanceTimersByTime(ENGINE_HEARTBEAT_MS * 1.5)
      source.beat()
      expect(link().link).toBe('up')
    }
    const lastBeat = Date.now()
    vi.advanceTimersByTime(ENGINE_LOST_AFTER_MS)
    expect(link().link).toBe('up')
    vi.advanceTimersByTime(ENGINE_LOST_AFTER_MS / 6 + 1)
    expect(link()).toMatchObject({ link: 'lost', reconnecting: false })
    expect(link().lostAt! - lastBeat).toBeLessThanOrEqual(ENGINE_LOST_AFTER_MS * 1.2)
    // Stays lost while nothing comes.
    vi.advanceTimersByTime(10_000)
    expect(link().link).toBe('lost')
    source.beat()
    expect(link()).toMatchObject({ link: 'up', lostAt: null })
  })

  it('a window whose engine never sends anything is lost once its first batch is FIRST_BATCH_WITHIN_MS late', () => {
    stop = startEngineLink(new FakeSource())
    vi.advanceTimersByTime(FIRST_BATCH_WITHIN_MS - 50)
    expect(link().link).toBe('up')
    vi.advanceTimersByTime(ENGINE_LOST_AFTER_MS / 3)
    expect(link().link).toBe('lost')
  })

  it('a bridge socket that closes loses the link at once; what arrives while closed does not bring it back; the first batch after reopening does', () => {
    const source = new FakeSource()
    stop = startEngineLink(source)
    source.beat()
    source.socket(false)
    expect(link()).toMatchObject({ link: 'lost', reconnecting: true })
    // The bridge's own "offline" status, delivered after the close.
    source.beat()
    expect(link().link).toBe('lost')
    vi.advanceTimersByTime(5_000)
    expect(link().link).toBe('lost')
    source.socket(true)
    expect(link().link).toBe('lost')
    source.beat()
    expect(link()).toMatchObject({ link: 'up', reconnecting: false })
  })

  it('a window that was suspended (its timer fires far too late) gets a grace check instead of a false alarm', () => {
    const source = new FakeSource()
    stop = startEngineLink(source)
    source.beat()
    // The whole page was frozen for 10 s: the clock jumps, and the first timer to run sees it.
    vi.setSystemTime(Date.now() + 10_000)
    vi.advanceTimersByTime(ENGINE_LOST_AFTER_MS / 6)
    expect(link().link).toBe('up')
    // The heartbeats queued meanwhile are read now.
    source.beat()
    vi.advanceTimersByTime(ENGINE_LOST_AFTER_MS / 2)
    expect(link().link).toBe('up')
    // But a page that wakes to a dead engine is told within the usual time.
    vi.advanceTimersByTime(ENGINE_LOST_AFTER_MS)
    expect(link().link).toBe('lost')
  })

  it('stopping it removes its listeners and timer and leaves the link up', () => {
    const source = new FakeSource()
    const halt = startEngineLink(source)
    source.socket(false)
    halt()
    expect(source.batches.size + source.sockets.size).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    expect(link().link).toBe('up')
  })
})
