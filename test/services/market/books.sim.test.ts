// Books against the real simulator: a gap or a crossed delta makes the book stale, it resyncs that one market and
// goes live again; after an outage the book equals a fresh reference book (no ghost levels).
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Level } from '../../../src/shared/model'
import { never, waitFor } from '../helpers'
import { pickTargets, startHarness, type Harness, type Recorder } from '../harness'

let h: Harness | null = null
const sockets: WebSocket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate()
  await h?.close()
  h = null
})

async function watchMarket() {
  h = await startHarness()
  const { client, rec } = h.attach('books')
  const { market } = pickTargets(h.sim)
  await client.setBookDepth(500)
  await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
  await waitFor(() => rec.bookState(market, 'live'), 'live book')
  return { client, rec, market, sim: h.sim }
}

/** An independent raw client that keeps its own book per seq, to compare the engine's book with. */
function referenceBook(url: string, market: string) {
  const history = new Map<number, { bids: Level[]; asks: Level[] }>()
  const bids = new Map<number, number>()
  const asks = new Map<number, number>()
  const ws = new WebSocket(url)
  sockets.push(ws)
  ws.on('open', () =>
    ws.send(JSON.stringify({ type: 'subscribe', channel: 'market', markets: [market], filter: 'orderbook' })),
  )
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as {
      type?: string
      market?: string
      snapshot?: boolean
      seq?: number
      bids?: Level[]
      asks?: Level[]
    }
    if (m.type !== 'orderbook' || m.market !== market || typeof m.seq !== 'number') return
    if (m.snapshot) {
      bids.clear()
      asks.clear()
    }
    for (const [p, s] of m.bids ?? []) {
      if (s === 0) bids.delete(p)
      else bids.set(p, s)
    }
    for (const [p, s] of m.asks ?? []) {
      if (s === 0) asks.delete(p)
      else asks.set(p, s)
    }
    history.set(m.seq, {
      bids: [...bids].sort((a, b) => b[0] - a[0]),
      asks: [...asks].sort((a, b) => a[0] - b[0]),
    })
  })
  return history
}

function snapshotsSince(rec: Recorder, market: string, mark: number): number {
  return rec.batches
    .slice(mark)
    .flatMap((b) => b.inspector ?? [])
    .filter((f) => f.decoded.some((u) => u.kind === 'book' && u.market === market && u.snapshot)).length
}

describe('books', () => {
  it('a sequence gap marks the book stale, resyncs that one market and makes it live again', async () => {
    const { client, rec, market, sim } = await watchMarket()
    await client.setInspector(true)
    const mark = rec.mark()
    expect(sim.faults.gap(market)).toBe(true)
    // The stale view may be coalesced away by the fan-out when the snapshot comes back within one batch, so the
    // proof is: a resync incident for this market, a second snapshot on the wire, and a live book after it.
    await waitFor(async () => {
      const st = await client.getStatus()
      return (
        st.ok &&
        st.value.incidents.some((i) => i.kind === 'resync' && i.market === market && i.endedAt !== null)
      )
    }, 'a closed resync incident')
    const s = await client.getStatus()
    expect(s.ok && s.value.incidents.find((i) => i.kind === 'resync')?.detail).toContain('gap')
    await waitFor(() => snapshotsSince(rec, market, mark) >= 1, 'a fresh snapshot')
    const after = rec.mark()
    await waitFor(() => rec.bookState(market, 'live', after), 'live after the resync')
    expect(sim.subscriptions()[0]?.market.map((m) => m.id)).toEqual([market])
  })

  it('a crossed book is shown stale/resyncing until a snapshot arrives, then live (and a lost snapshot is re-requested)', async () => {
    const { rec, market, sim } = await watchMarket()
    const mark = rec.mark()
    expect(sim.faults.crossed(market)).toBe(true)
    // Stall at once so the resync snapshot is lost: the window must see the book as not live, with its reason.
    sim.faults.stall(true)
    await waitFor(
      () =>
        rec.batches
          .slice(mark)
          .some((b) =>
            (b.books ?? []).some(
              (v) => v.market === market && v.staleReason === 'crossed' && v.state === 'resyncing',
            ),
          ),
      'a resyncing view after the crossed delta',
    )
    // This window saw the book live before: while its snapshot is lost, it is not live again.
    await never(() => rec.latestBook(market)?.state === 'live', 'a live book without its snapshot', 1_000)
    sim.faults.stall(false)
    const after = rec.mark()
    await waitFor(() => rec.bookState(market, 'live', after), 'live again', 15_000)
    const live = rec.latestBook(market)
    expect(live && live.bids[0] && live.asks[0] ? live.bids[0][0] < live.asks[0][0] : false).toBe(true)
  })

  it('after an outage the book equals a fresh reference book: no ghost levels', async () => {
    const { client, rec, market, sim } = await watchMarket()
    sim.faults.refuseConnections(1200)
    sim.faults.dropAll()
    const mark = rec.mark()
    await waitFor(() => rec.bookState(market, 'stale', mark), 'stale during the outage')
    const staleMark = rec.mark()
    await waitFor(() => rec.bookState(market, 'live', staleMark), 'live after the outage', 15_000)
    const reference = referenceBook(sim.wsUrl, market)
    let compared = 0
    await waitFor(
      async () => {
        const snap = await client.getMarketSnapshot(market)
        if (!snap.ok || !snap.value.book || snap.value.book.seq === null) return false
        const ref = reference.get(snap.value.book.seq)
        if (!ref || snap.value.book.state !== 'live') return false
        expect(snap.value.book.bids).toEqual(ref.bids)
        expect(snap.value.book.asks).toEqual(ref.asks)
        compared += 1
        return compared >= 3
      },
      'engine and reference books at the same seq',
      15_000,
      5,
    )
  })
})
