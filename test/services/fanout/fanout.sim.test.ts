// Hidden windows against the real simulator: a window that says it is hidden gets no book, ticker or trade views
// while its market keeps trading; shown again, its first batch is a fresh full view at the engine's current book
// seq (never one from before it was hidden), marked `resume`, with the market's tape: the trades made while it was
// hidden, so the window never asks for them. And every window, hidden ones too, gets heartbeats while idle.
import { afterEach, describe, expect, it } from 'vitest'
import { ENGINE_HEARTBEAT_MS, isHeartbeat, type ViewBatch } from '../../../src/shared/ipc'
import type { BookView, TradeView } from '../../../src/shared/model'
import type { MonitorClient } from '../../../src/main/services/base/types'
import { waitFor } from '../helpers'
import { pickTargets, startHarness, type Harness } from '../harness'

let h: Harness | null = null
afterEach(async () => {
  await h?.close()
  h = null
})

type Snapshot = Awaited<ReturnType<MonitorClient['getMarketSnapshot']>>

interface Seen {
  batch: ViewBatch
  /** The engine's own view when the batch arrived: getMarketSnapshot reads it synchronously when called. */
  engine: Promise<Snapshot> | null
}

async function bookOf(snapshot: Promise<Snapshot> | null): Promise<BookView | null> {
  const r = await snapshot
  return r?.ok ? r.value.book : null
}

async function tradesOf(snapshot: Promise<Snapshot> | null): Promise<TradeView[]> {
  const r = await snapshot
  return r?.ok ? r.value.trades : []
}

describe('hidden windows (engine against the simulator)', () => {
  it('a hidden window receives no book or trade views until shown, then a fresh full view', async () => {
    h = await startHarness()
    const { market } = pickTargets(h.sim)
    const seen: Seen[] = []
    let client: MonitorClient | null = null
    client = h.engine.attachClient({
      label: 'visibility',
      sink: (batch) => {
        seen.push({ batch, engine: client?.getMarketSnapshot(market) ?? null })
      },
    })
    const c = client
    await c.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    const has = (from: number, pick: (b: ViewBatch) => boolean): boolean =>
      seen.slice(from).some((s) => pick(s.batch))
    await waitFor(
      () => has(0, (b) => (b.books ?? []).some((v) => v.market === market && v.state === 'live')),
      'a live book',
    )
    await waitFor(() => has(0, (b) => (b.trades ?? []).length > 0), 'a trade')

    const hid = await c.setVisibility(false)
    expect(hid.ok).toBe(true)
    // Hidden from here on: a trade received later reaches the window only through the resume batch.
    const hiddenTime = Date.now()
    const mark = seen.length
    const seqAtHide = (await bookOf(c.getMarketSnapshot(market)))?.seq ?? 0
    // The market keeps moving and trading while the window is hidden (the simulator ticks every 50 ms).
    await waitFor(
      async () => ((await bookOf(c.getMarketSnapshot(market)))?.seq ?? 0) > seqAtHide + 5,
      'the book to move on while hidden',
    )
    await waitFor(
      async () => (await tradesOf(c.getMarketSnapshot(market))).some((t) => t.receivedAt > hiddenTime),
      'a trade while hidden',
    )
    for (const s of seen.slice(mark)) {
      expect(s.batch.books).toBeUndefined()
      expect(s.batch.tickers).toBeUndefined()
      expect(s.batch.trades).toBeUndefined()
    }

    const shownAt = seen.length
    const shownTime = Date.now()
    const shown = await c.setVisibility(true)
    expect(shown.ok).toBe(true)
    await waitFor(() => has(shownAt, (b) => b.resume === true), 'the resume batch')
    const resume = seen.slice(shownAt).find((s) => s.batch.resume === true)
    const view = resume?.batch.books?.find((v) => v.market === market)
    const engineBook = await bookOf(resume?.engine ?? null)
    expect(view).toBeDefined()
    expect(resume?.batch.tickers?.some((t) => t.market === market)).toBe(true)
    // Fresh: exactly the engine's book when the batch was emitted, and newer than anything before hiding.
    expect(engineBook).not.toBeNull()
    expect(view?.seq).toBe(engineBook?.seq)
    expect(view?.bids).toEqual(engineBook?.bids)
    expect(view?.asks).toEqual(engineBook?.asks)
    expect(view?.seq ?? 0).toBeGreaterThan(seqAtHide + 5)
    // Trades made while hidden come in the market's tape: the engine's own, as it was when the batch went out,
    // oldest first and reaching back before the window was hidden. Trades are not sent twice.
    const tape = resume?.batch.tapes?.find((t) => t.market === market)?.trades ?? []
    expect(tape).toEqual(await tradesOf(resume?.engine ?? null))
    const madeWhileHidden = tape.filter((t) => t.receivedAt > hiddenTime && t.receivedAt < shownTime)
    expect(madeWhileHidden.length).toBeGreaterThan(0)
    const keysBefore = new Set(
      seen
        .slice(0, mark)
        .flatMap((s) => s.batch.trades ?? [])
        .map((t) => t.key),
    )
    expect(madeWhileHidden.some((t) => keysBefore.has(t.key))).toBe(false)
    expect(tape.some((t) => keysBefore.has(t.key))).toBe(true)
    for (let i = 1; i < tape.length; i++)
      expect(tape[i]?.receivedAt ?? 0).toBeGreaterThanOrEqual(tape[i - 1]?.receivedAt ?? 0)
    for (const t of resume?.batch.trades ?? []) expect(t.market).not.toBe(market)
    const after = seen.length
    await waitFor(() => has(after, (b) => (b.trades ?? []).length > 0), 'a trade after showing')
  })

  it('setVisibility refuses anything but a boolean', async () => {
    h = await startHarness()
    const { client } = h.attach('visibility-args')
    const setVisibility = client.setVisibility as (v: unknown) => ReturnType<MonitorClient['setVisibility']>
    const bad = await setVisibility('no')
    expect(bad.ok).toBe(false)
    if (!bad.ok) expect(bad.error.code).toBe('invalid_argument')
    expect((await client.setVisibility(false)).ok).toBe(true)
  })
})

describe('heartbeats (engine against the simulator)', () => {
  it('a hidden window watching nothing gets heartbeats while idle, on average within 1.5 × ENGINE_HEARTBEAT_MS, and none once disposed', async () => {
    h = await startHarness()
    const arrivals: Array<{ batch: ViewBatch; at: number }> = []
    const client = h.engine.attachClient({
      label: 'heartbeats',
      sink: (batch) => arrivals.push({ batch, at: Date.now() }),
    })
    expect((await client.setVisibility(false)).ok).toBe(true)
    await waitFor(() => arrivals.filter((a) => isHeartbeat(a.batch)).length >= 4, 'four heartbeats', 10_000)
    const beats = arrivals.filter((a) => isHeartbeat(a.batch))
    // Wall-clock gaps on a shared machine vary, so the mean is what is held to the bound.
    const span = (beats.at(-1)?.at ?? 0) - (beats[0]?.at ?? 0)
    expect(span / (beats.length - 1)).toBeLessThanOrEqual(ENGINE_HEARTBEAT_MS * 1.5 + 100)
    client.dispose()
    const count = arrivals.length
    await new Promise((r) => setTimeout(r, ENGINE_HEARTBEAT_MS * 4))
    expect(arrivals).toHaveLength(count)
  })
})
