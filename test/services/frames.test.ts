// FrameRouter with the real stores, inspector, liveness, incident log, registry, interests, catalog, status
// and fan-out; the resync tracker is a recording stub (one test uses the real one). Frames are in the
// simulator's wire format (src/sim/stream.ts).
import { builtinAdapters, FrameDecoder } from '../../src/shared/adapters'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Interest, ViewBatch } from '../../src/shared/ipc'
import type { BookView, Level, TradeView, Update } from '../../src/shared/model'
import { mergeBatches } from '../../src/shared/batch-merge'
import { batchJson } from '../../src/main/services/fanout/batch-json'
import { DEFAULT_DEPTH } from '../../src/main/services/fanout/fanout'
import { BookStore } from '../../src/main/services/market/books'
import { Fanout } from '../../src/main/services/fanout/fanout'
import { FrameRouter } from '../../src/main/services/frames'
import { DuplicateFrames } from '../../src/main/services/feed/duplicate-frames'
import { VenueSilence } from '../../src/main/services/health/venue-silence'
import { IncidentLog } from '../../src/main/services/health/incidents'
import { createInspector } from '../../src/main/services/health/inspector'
import { InterestIndex } from '../../src/main/services/market/interests'
import { MarketLiveness } from '../../src/main/services/health/liveness'
import { LIVENESS_DEFAULTS, RESYNC_DEFAULTS } from '../../src/main/services/health/thresholds'
import { REDACTED } from '../../src/main/services/base/key-scrub'
import { SecretRedactor } from '../../src/main/services/feed/redact'
import { ResyncTracker } from '../../src/main/services/market/resync'
import { StatusTracker } from '../../src/main/services/health/status'
import { TapeStore } from '../../src/main/services/market/tapes'
import { UserFeed } from '../../src/main/services/account/user-feed'
import { AccountModel } from '../../src/main/services/account/model'
import type { AccountChange } from '../../src/shared/account'
import { captureLogger } from './helpers'
import { createCatalog, fakeRest, listing, recordingRegistry } from './fakes'

const closers: Array<() => void> = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
})

type ResyncCalls = Array<
  [method: 'need' | 'satisfied' | 'deltaWithoutSnapshot', market: string, reason?: string]
>
type RouterResync = Pick<ResyncTracker, 'need' | 'satisfied' | 'deltaWithoutSnapshot'>

function book(
  market: string,
  o: { snapshot: boolean; seq: number; bids?: Level[]; asks?: Level[]; channel?: string; event?: string },
): string {
  return JSON.stringify({
    channel: o.channel ?? 'market',
    type: 'orderbook',
    market,
    event: o.event ?? 'e1',
    snapshot: o.snapshot,
    seq: o.seq,
    bids: o.bids ?? [],
    asks: o.asks ?? [],
    ts: 1_700_000_000_000,
  })
}

function trade(market: string, price: number, id: string): string {
  return JSON.stringify({
    channel: 'market',
    type: 'trade',
    market,
    event: 'e1',
    price,
    size: 2,
    side: 'buy',
    id,
    ts: 1_700_000_000_000,
  })
}

async function setup(
  options: { realResync?: boolean; replayed?: boolean; duplicates?: boolean; silence?: VenueSilence } = {},
) {
  let t = 10_000
  const now = () => t
  const log = captureLogger()
  const secrets = new SecretRedactor()
  const inspector = createInspector()
  // As ClientHub does while some window has the inspector open: ordinary frames are kept too.
  inspector.setEnabled(true)
  const f = fakeRest(listing({ e1: ['m1', 'm2'], e2: ['m3'] }))
  const { catalog } = createCatalog(f.rest)
  const loaded = await catalog.list(false)
  if (!loaded.ok) throw new Error(loaded.error.message)
  const { registry, sent } = recordingRegistry(log.logger)
  closers.push(() => registry.close())
  const interests = new InterestIndex(registry, catalog)
  const liveness = new MarketLiveness({ config: LIVENESS_DEFAULTS })
  const books = new BookStore((m) => liveness.usualGap(m))
  const tapes = new TapeStore()
  const userFeed = new UserFeed()
  const incidents = new IncidentLog(now, () => undefined)
  const status = new StatusTracker(
    {
      profileId: () => 'p-1',
      connectionState: () => 'live',
      stream: () => undefined,
      authError: () => registry.authError(),
      rateLimit: () => null,
      counters: () => inspector.counters(),
      unavailable: () => null,
    },
    incidents,
    () => undefined,
  )
  closers.push(() => status.close())
  const fanout = new Fanout({
    provider: {
      bookView: (m, depth) => books.bookView(m, depth),
      ticker: (m) => books.ticker(m),
      status: () => status.status(),
    },
    logger: log.logger,
    now,
  })
  closers.push(() => fanout.close())
  const batches: ViewBatch[] = []
  fanout.addClient('c1', (b) => batches.push(b))
  fanout.setClientMarkets('c1', ['m1', 'm2', 'm3'])
  fanout.setInspector('c1', true)
  fanout.setUser('c1', true)

  const calls: ResyncCalls = []
  let resync: RouterResync = {
    need: (market, reason) => void calls.push(['need', market, reason]),
    satisfied: (market) => void calls.push(['satisfied', market]),
    deltaWithoutSnapshot: (market) => void calls.push(['deltaWithoutSnapshot', market]),
  }
  if (options.realResync) {
    const real = new ResyncTracker({
      config: RESYNC_DEFAULTS,
      now,
      random: () => 0.5,
      books,
      incidents,
      log: log.logger,
      wantedBooks: () => interests.wantedBooks(),
      wantsBook: (m) => interests.wantsBook(m),
      resubscribe: (ms) => interests.resubscribe(ms),
      streamOpen: () => true,
      dataFlowing: () => true,
      reconnect: () => undefined,
      bookChanged: (m) => fanout.bookChanged(m),
    })
    closers.push(() => real.close())
    resync = real
  }
  // What the alert rules were told, and what the book looked like to them at that moment.
  const alertCalls: string[] = []
  const alerts = {
    onBook: (m: string) => void alertCalls.push(`book ${m} ${books.get(m)?.bestBid ?? '-'}`),
    onTicker: (m: string) => void alertCalls.push(`ticker ${m}`),
    onTrade: (t: TradeView) =>
      void alertCalls.push(`trade ${t.market} ${books.ticker(t.market)?.last ?? '-'}`),
    onAccount: (changes: readonly AccountChange[]) =>
      void alertCalls.push(`account ${changes.map((c) => c.kind).join(',')}`),
  }
  // What the recorder would write.
  const tapped: string[] = []
  // Counts the frames parsed, to tell a frame skipped by its text from one read.
  const inner = new FrameDecoder({ adapters: builtinAdapters(), selection: 'auto' })
  let decodes = 0
  const duplicates = new DuplicateFrames()
  const router = new FrameRouter({
    decoder: {
      decodeText: (text) => {
        decodes++
        return inner.decodeText(text)
      },
    },
    ...(options.duplicates ? { duplicate: duplicates } : {}),
    ...(options.silence ? { silence: options.silence } : {}),
    alerts,
    tap: (text) => void tapped.push(text),
    ...(options.replayed ? { replayed: true } : {}),
    secrets,
    inspector,
    interests,
    books,
    tapes,
    userFeed,
    account: new AccountModel({ changed: () => undefined }),
    registry,
    liveness,
    // The router calls only these three; the stub is cast to the class it stands in for.
    resync: resync as ResyncTracker,
    status,
    incidents,
    fanout,
  })
  const feed = (text: string, advance = 100) => {
    t += advance
    router.onFrame(text, t)
  }
  const flushed = (): ViewBatch[] => {
    const mark = batches.length
    fanout.flush()
    return batches.slice(mark)
  }
  return {
    router,
    feed,
    flushed,
    decodes: () => decodes,
    fanout,
    now,
    advance: (ms: number) => (t += ms),
    calls,
    sent,
    secrets,
    inspector,
    registry,
    books,
    tapes,
    userFeed,
    liveness,
    incidents,
    status,
    log,
    watch: registry.setInterests.bind(registry),
    alertCalls,
    tapped,
  }
}

describe('FrameRouter', () => {
  it('applies a snapshot and then deltas: the book is live with the right levels and windows see it', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(
      book('m1', {
        snapshot: true,
        seq: 1,
        bids: [
          [0.4, 10],
          [0.39, 5],
        ],
        asks: [[0.6, 7]],
      }),
    )
    s.feed(
      book('m1', {
        snapshot: false,
        seq: 2,
        bids: [
          [0.4, 0],
          [0.41, 3],
        ],
      }),
    )
    s.feed(book('m1', { snapshot: false, seq: 3, asks: [[0.55, 1]] }))
    const view = s.books.bookView('m1', 10)
    expect(view).toMatchObject({
      state: 'live',
      seq: 3,
      bids: [
        [0.41, 3],
        [0.39, 5],
      ],
      asks: [
        [0.55, 1],
        [0.6, 7],
      ],
    })
    expect(s.calls).toEqual([['satisfied', 'm1']])
    expect(s.status.lastMessageAt).toBe(s.now())
    expect(s.inspector.counters()).toMatchObject({ frames: 3, updates: 3, malformed: 0, unknown: 0 })
    const batches = s.flushed()
    const pushed = batches.flatMap((b) => b.books ?? []).find((v) => v.market === 'm1')
    expect(pushed?.state).toBe('live')
    expect(pushed?.bids[0]).toEqual([0.41, 3])
    expect(batches.flatMap((b) => b.inspector ?? []).map((fr) => fr.classification)).toEqual([
      'ok',
      'ok',
      'ok',
    ])
  })

  it('a sequence gap marks the book stale and asks the resync tracker', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m1', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.feed(book('m1', { snapshot: false, seq: 3, bids: [[0.45, 1]] }))
    expect(s.calls).toEqual([
      ['satisfied', 'm1'],
      ['need', 'm1', 'gap'],
    ])
    const view = s.books.bookView('m1', 10)
    expect(view?.state).toBe('stale')
    expect(view?.staleReason).toBe('gap')
    expect(view?.bids).toEqual([[0.4, 10]]) // the delta after the gap was not applied
  })

  it('a crossed snapshot asks for a resync with reason crossed', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m1', { snapshot: true, seq: 1, bids: [[0.7, 1]], asks: [[0.6, 1]] }))
    expect(s.calls).toEqual([['need', 'm1', 'crossed']])
  })

  it('a delta before any snapshot is not applied and tells the tracker the snapshot is missing', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m1', { snapshot: false, seq: 5, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    expect(s.calls).toEqual([['deltaWithoutSnapshot', 'm1']])
    const view = s.books.bookView('m1', 10)
    expect(view?.state).toBe('empty')
    expect(view?.bids).toEqual([])
    expect(view?.asks).toEqual([])
  })

  it('a malformed frame is counted, kept in the inspector and logged as a bad_frame incident', async () => {
    const s = await setup()
    s.feed('{"channel":"market","type":"orderbook",')
    expect(s.inspector.counters()).toMatchObject({ frames: 1, malformed: 1, updates: 0 })
    const frame = s.inspector.recent().at(-1)
    expect(frame?.classification).toBe('malformed')
    expect(frame?.error).toMatch(/invalid JSON/)
    const incidents = s.incidents.list()
    expect(incidents).toHaveLength(1)
    expect(incidents[0]?.kind).toBe('bad_frame')
    expect(incidents[0]?.detail).toMatch(/^malformed frame: invalid JSON/)
    s.feed('not json either')
    expect(s.incidents.list()[0]?.detail).toMatch(/\(2 frames\)$/)
    expect(s.flushed().flatMap((b) => b.inspector ?? [])).toHaveLength(2)
  })

  it('data for a market nobody watches is counted unknown and changes nothing', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m3', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.feed(trade('m3', 0.5, 't-1'))
    expect(s.inspector.counters()).toMatchObject({ frames: 2, unknown: 2 })
    expect(s.books.has('m3')).toBe(false)
    expect(s.tapes.history('m3')).toEqual([])
    expect(s.liveness.usualGap('m3')).toBeNull()
    expect(s.calls).toEqual([])
    expect(s.inspector.recent().map((fr) => fr.classification)).toEqual(['unknown', 'unknown'])
  })

  it('in a replay, a recorded frame for a market no window watches now is ok (not unknown), and says why it was not read', async () => {
    const s = await setup({ replayed: true })
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m3', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.feed('{"type":"mystery","n":1}')
    expect(s.inspector.counters()).toMatchObject({ frames: 2, unknown: 1 })
    expect(s.books.has('m3')).toBe(false)
    expect(s.inspector.recent().map((fr) => [fr.classification, fr.error])).toEqual([
      ['ok', 'recorded for a market no window watches now'],
      ['unknown', expect.any(String)],
    ])
  })

  it('routes event-channel data for the markets of a watched event', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'event', id: 'e1', filter: 'all' }])
    s.feed(book('m2', { channel: 'event', snapshot: true, seq: 1, bids: [[0.3, 1]], asks: [[0.5, 1]] }))
    s.feed(book('m3', { channel: 'event', event: 'e2', snapshot: true, seq: 1, bids: [[0.3, 1]] }))
    expect(s.books.bookView('m2', 5)?.state).toBe('live')
    expect(s.books.has('m3')).toBe(false)
    expect(s.inspector.counters().unknown).toBe(1)
  })

  it('tells the alert rules about each routed update after it is applied, and nothing about unwatched ones', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }, { channel: 'user' }])
    s.feed(book('m1', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.feed(book('m1', { snapshot: false, seq: 2, bids: [[0.45, 1]] }))
    s.feed(trade('m1', 0.52, 't-1'))
    s.feed(trade('m3', 0.5, 't-2'))
    s.feed(book('m3', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.feed(JSON.stringify({ channel: 'user', type: 'fill', data: { id: 'f1', price: 0.5, size: 2 } }))
    expect(s.alertCalls).toEqual(['book m1 0.4', 'book m1 0.45', 'trade m1 0.52', 'account fill'])
  })

  it('a trade goes on the tape, sets the last price and reaches the window', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'trades' }])
    s.feed(trade('m1', 0.52, 't-1'))
    s.feed(trade('m1', 0.53, 't-2'))
    expect(s.tapes.history('m1').map((x) => x.price)).toEqual([0.52, 0.53])
    expect(s.books.ticker('m1')?.last).toBe(0.53)
    const trades = s.flushed().flatMap((b) => b.trades ?? [])
    expect(trades.map((x) => x.price)).toEqual([0.52, 0.53])
  })

  it('a frame echoing a known key: neither the inspector, the recorder, any view nor the log has it', async () => {
    const s = await setup()
    const secret = 'sk-live-0123456789abcdef'
    s.secrets.add(secret)
    s.watch('a', [{ channel: 'user' }])
    s.feed(JSON.stringify({ channel: 'user', type: 'order', data: { note: `echo ${secret}`, id: 'o1' } }))
    s.feed(JSON.stringify({ type: 'error', error: 'invalid_request', message: `bad auth ${secret}` }))
    const everything = JSON.stringify([
      s.inspector.recent(),
      s.userFeed.history(),
      s.status.status(),
      s.flushed(),
    ])
    expect(everything).not.toContain(secret)
    // The registry logged the server's message: the redacted one.
    expect(s.log.lines.some((l) => l.includes('bad auth'))).toBe(true)
    expect(s.log.lines.join('\n')).not.toContain(secret)
    expect(s.inspector.recent()[0]?.raw).toContain(REDACTED)
    expect(JSON.stringify(s.userFeed.history())).toContain(REDACTED)
    expect(s.tapped.join('\n')).not.toContain(secret)
    expect(s.tapped.join('\n')).toContain(REDACTED)
  })

  it('decodes every frame as received: a known key changes only the copies that leave (issue 28 §2)', async () => {
    const s = await setup()
    // Contrived so that a scrub before decoding would break every book frame: the key is the market's id, which
    // every book frame names (a market id pasted as a key and refused is scrubbed like any well-formed key).
    const key = 'mkt-0123456789abcdef'
    s.secrets.add(key)
    s.watch('a', [{ channel: 'market', id: key, filter: 'all' }])
    s.feed(book(key, { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.feed(book(key, { snapshot: false, seq: 2, bids: [[0.45, 3]] }))
    expect(s.books.get(key)?.state).toBe('live')
    expect(s.books.get(key)?.bestBid).toBe(0.45)
    expect(s.inspector.counters()).toMatchObject({ frames: 2, malformed: 0, unknown: 0 })
    // The copies that leave: the recorder's lines and the inspector's frames are scrubbed.
    expect(s.tapped).toHaveLength(2)
    for (const line of s.tapped) expect(line.includes(key) || !line.includes(REDACTED)).toBe(false)
    for (const f of s.inspector.recent()) expect(f.raw).toContain(REDACTED)
    expect(s.inspector.recent().every((f) => f.classification === 'ok')).toBe(true)
  })

  it('a quiet book is live again on its next delta', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m1', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.advance(LIVENESS_DEFAULTS.marketQuiet.maxMs + 1)
    const reported: string[] = []
    s.liveness.check(s.now(), (m, silence) => {
      reported.push(`${m}:${silence}`)
      if (silence === 'quiet') s.books.markQuiet(m)
    })
    expect(reported).toEqual(['m1:quiet'])
    expect(s.books.bookView('m1', 5)?.state).toBe('quiet')
    s.feed(book('m1', { snapshot: false, seq: 2, bids: [[0.41, 1]] }))
    expect(s.books.bookView('m1', 5)).toMatchObject({ state: 'live', seq: 2 })
  })

  it('a trade lifts the quiet mark of its book and tells the windows', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m1', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.advance(LIVENESS_DEFAULTS.marketQuiet.maxMs + 1)
    s.liveness.check(s.now(), (m, silence) => {
      if (silence === 'quiet') s.books.markQuiet(m)
    })
    expect(s.books.bookView('m1', 5)?.state).toBe('quiet')
    s.flushed()
    s.feed(trade('m1', 0.5, 't-1'))
    expect(s.books.bookView('m1', 5)?.state).toBe('live')
    const views = s.flushed().flatMap((b) => b.books ?? [])
    expect(views.find((v) => v.market === 'm1')?.state).toBe('live')
  })

  it('a server error that is not about auth becomes lastError; an auth error goes to the registry', async () => {
    const s = await setup()
    s.feed(JSON.stringify({ type: 'error', error: 'invalid_request', message: 'no such market' }))
    expect(s.status.status().lastError).toMatchObject({ code: 'bad_response' })
    expect(s.status.status().lastError?.message).toContain('invalid_request')
    s.status.setError(null)
    s.feed(JSON.stringify({ type: 'error', error: 'unauthorized', message: 'bad key' }))
    expect(s.registry.authError()?.code).toBe('unauthorized')
    expect(s.status.status().lastError).toBeNull()
  })

  it('a REST book is applied when no stream book came after it was asked for, and never over one that did', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    const restBook = (bid: number): Update[] => [
      { kind: 'book', market: 'm1', snapshot: true, bids: [[bid, 4]], asks: [[0.6, 4]] },
    ]
    // Asked for before the stream spoke: nothing newer to keep, so it is the book.
    expect(s.router.applyRest('m1', restBook(0.3), s.now() - 50)).toBe(true)
    expect(s.books.bookView('m1', 5)).toMatchObject({ state: 'live', source: 'rest', bids: [[0.3, 4]] })
    // The stream's book, then a REST answer to a request that went out before it: the stream's stays.
    const askedAt = s.now() + 50
    s.feed(book('m1', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    expect(s.router.applyRest('m1', restBook(0.35), askedAt)).toBe(false)
    const kept = s.books.bookView('m1', 5)
    expect(kept).toMatchObject({ state: 'live', seq: 1, bids: [[0.4, 10]] })
    expect(kept?.source).toBeUndefined()
    // Asked for after the stream's book: applied, and dated when it was asked for.
    const later = s.now() + 10
    expect(s.router.applyRest('m1', restBook(0.45), later)).toBe(true)
    expect(s.books.get('m1')?.updatedAt).toBe(later)
    expect(s.books.bookView('m1', 5)).toMatchObject({ source: 'rest', bids: [[0.45, 4]] })
  })

  it('with the real resync tracker: a gap resubscribes the market, opens an incident, a snapshot ends it', async () => {
    const s = await setup({ realResync: true })
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(book('m1', { snapshot: true, seq: 1, bids: [[0.4, 10]], asks: [[0.6, 7]] }))
    s.sent.length = 0
    s.feed(book('m1', { snapshot: false, seq: 4, bids: [[0.45, 1]] }))
    expect(s.sent).toEqual([{ type: 'subscribe', channel: 'market', markets: ['m1'], filter: 'all' }])
    expect(s.books.bookView('m1', 5)).toMatchObject({ state: 'resyncing', staleReason: 'gap' })
    const open = s.incidents.list()[0]
    expect(open).toMatchObject({ kind: 'resync', market: 'm1', endedAt: null })
    s.feed(book('m1', { snapshot: true, seq: 10, bids: [[0.42, 2]], asks: [[0.58, 2]] }))
    expect(s.books.bookView('m1', 5)).toMatchObject({ state: 'live', seq: 10, bids: [[0.42, 2]] })
    const ended = s.incidents.list()[0]
    expect(ended?.endedAt).not.toBeNull()
    expect(ended?.detail).toMatch(/live again/)
  })
})

/** A VoxFi fixture's example frame (test/fixtures/voxfi/, each with its docs URL), placed in market m1 of e1. */
function voxfi(name: string, change: (frame: Record<string, unknown>) => void = () => undefined): string {
  const fixture = JSON.parse(readFileSync(join(__dirname, '../fixtures/voxfi', name), 'utf8')) as {
    example: Record<string, unknown>
  }
  const frame = fixture.example
  frame.event_id = 'e1'
  frame.market_id = 'm1'
  change(frame)
  return JSON.stringify(frame)
}

/** VoxFi's whole-book frame (market channel, playground example) for m1 with this YES bid. */
function voxBook(market = 'm1', yesBid = 40): string {
  return voxfi('ws-market-update-orderbook.json', (f) => {
    f.market_id = market
    const yes = (f.orderbook as { yes_orderbook: { bids: Array<{ price_ticks: number }> } }).yes_orderbook
    const bid = yes.bids[0]
    if (bid !== undefined) bid.price_ticks = yesBid
  })
}

/** A window watching these markets whole. */
function watchMarkets(s: { watch: RecordingWatch }, ...markets: string[]): void {
  s.watch(
    'a',
    markets.map((id) => ({ channel: 'market' as const, id, filter: 'all' as const })),
  )
}
type RecordingWatch = (client: string, interests: readonly Interest[]) => void

describe('FrameRouter: a whole book sent again unchanged (VoxFi)', () => {
  it('is not parsed again, yet the market spoke: liveness, the inspector and the status hear it', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    const text = voxBook()
    s.feed(text)
    expect(s.books.bookView('m1', 5)?.state).toBe('live')
    const before = s.books.get('m1')?.revision
    // Twenty seconds of the same book, one a second: past the quiet limit of a market heard only once.
    for (let i = 0; i < 20; i++) s.feed(text, 1_000)
    expect(s.decodes()).toBe(1)
    expect(s.liveness.lastDataAt()).toBe(s.now())
    expect(s.status.lastMessageAt).toBe(s.now())
    const reported: string[] = []
    s.liveness.check(s.now() + 1, (m, silence) => reported.push(`${m}:${silence}`))
    expect(reported).toEqual([])
    expect(s.inspector.counters()).toMatchObject({ frames: 21, malformed: 0, unknown: 0 })
    const recent = s.inspector.recent()
    expect(recent.at(-1)).toMatchObject({ raw: text, classification: 'ok', receivedAt: s.now() })
    expect(recent.at(-1)?.decoded).toEqual(recent[0]?.decoded)
    // Nothing changed in the book, so nothing for a window.
    expect(s.books.get('m1')?.revision).toBe(before)
    expect(s.tapped).toHaveLength(21)
  })

  it('ends a silence episode as a decoded frame does', async () => {
    const silence = new VenueSilence()
    const s = await setup({ silence, realResync: true })
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    const text = voxBook()
    s.feed(text)
    silence.rebuilt(s.now(), s.now())
    expect(silence.active).toBe(true)
    s.feed(text)
    expect(s.decodes()).toBe(1)
    expect(silence.active).toBe(false)
  })

  it('a book the engine cannot vouch for is read again from the very same text, and healed', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    const text = voxBook('m1', 40)
    const upsets: Array<[string, () => void]> = [
      ['stale after a reconnect', () => void s.books.markAllStale('reconnect')],
      ['stale after a gap', () => s.books.markStale('m1', 'gap')],
      ['resyncing', () => s.books.markResyncing('m1', 2)],
      ['quiet', () => void s.books.markQuiet('m1')],
      [
        'replaced by a REST read',
        () => {
          const rest = new FrameDecoder({ adapters: builtinAdapters(), selection: 'auto' }).decodeText(
            voxBook('m1', 30),
          )
          if (!rest.ok) throw new Error(rest.error)
          expect(s.router.applyRest('m1', rest.updates, s.now() + 1)).toBe(true)
        },
      ],
      ['a replay reset or a profile switch', () => s.books.clear()],
      ['an unsubscribe and a subscribe again', () => s.books.delete('m1')],
    ]
    for (const [name, upset] of upsets) {
      s.feed(text)
      s.feed(text)
      const decoded = s.decodes()
      upset()
      // The windows are shown the upset, as the engine's own paths tell them.
      s.fanout.bookChanged('m1')
      s.flushed()
      s.feed(text)
      expect(s.decodes(), name).toBe(decoded + 1)
      expect(s.books.bookView('m1', 5), name).toMatchObject({ state: 'live', bids: [[0.4, 100]] })
      const shown = s.flushed().flatMap((b) => b.books ?? [])
      expect(shown.at(-1), name).toMatchObject({ market: 'm1', state: 'live', bids: [[0.4, 100]] })
    }
  })

  it('a book gone quiet is live again on the same whole book, and the windows are told', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    const text = voxBook()
    s.feed(text)
    s.advance(LIVENESS_DEFAULTS.marketQuiet.maxMs + 1)
    // As MarketData.silent does for a quiet market.
    s.liveness.check(s.now(), (m, silence) => {
      if (silence === 'quiet' && s.books.markQuiet(m)) s.fanout.bookChanged(m)
    })
    expect(s.flushed().flatMap((b) => b.books ?? [])).toMatchObject([{ market: 'm1', state: 'quiet' }])
    s.feed(text)
    expect(s.books.bookView('m1', 5)?.state).toBe('live')
    expect(s.flushed().flatMap((b) => b.books ?? [])).toMatchObject([{ market: 'm1', state: 'live' }])
  })

  it('a trade is never skipped for being the same text: two identical prints are two prints', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(voxBook())
    const print = voxfi('ws-market-new-trade.json')
    // An `update` frame carries the whole book and a trade.
    const both = voxfi('ws-market-update.json')
    s.feed(print)
    s.feed(print)
    s.feed(both)
    s.feed(both)
    expect(s.decodes()).toBe(5)
    expect(s.tapes.history('m1')).toHaveLength(4)
  })

  it('the cross-channel copy filter stays as it was: a copy within the second is dropped, trade or book', async () => {
    const s = await setup({ duplicates: true })
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    const text = voxBook()
    const print = voxfi('ws-market-new-trade.json')
    s.feed(text)
    s.feed(text, 10)
    s.feed(print)
    s.feed(print, 10)
    expect(s.tapes.history('m1')).toHaveLength(1)
    expect(s.inspector.counters()).toMatchObject({ frames: 2 })
    // Past the second, the book is heard (and not parsed), the print counted again.
    s.feed(text, 2_000)
    s.feed(print, 2_000)
    expect(s.tapes.history('m1')).toHaveLength(2)
    expect(s.inspector.counters()).toMatchObject({ frames: 4 })
    // The book's copy and its resend were found by their text, and so was the print's copy: only the two
    // first arrivals of the print were read.
    expect(s.decodes()).toBe(3)
  })

  it('an account frame is never skipped: two identical fills are two fills', async () => {
    const s = await setup()
    s.watch('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    s.feed(voxBook())
    const fill = voxfi('ws-user-order-info.json')
    s.feed(fill)
    s.feed(fill)
    expect(s.userFeed.history()).toHaveLength(2)
    expect(s.decodes()).toBe(3)
  })

  it('remembers one text per watched market, and forgets it with the market', async () => {
    const s = await setup()
    watchMarkets(s, 'm1', 'm2')
    for (let bid = 1; bid <= 30; bid++) {
      s.feed(voxBook('m1', bid))
      s.feed(voxBook('m2', bid))
    }
    expect(s.books.rememberedFrames).toBe(2)
    s.books.delete('m1')
    expect(s.books.rememberedFrames).toBe(1)
    s.books.clear()
    expect(s.books.rememberedFrames).toBe(0)
  })
})

describe('FrameRouter: what a window holds of a run of VoxFi whole books', () => {
  it("after every flush, the window (batches sent as text and folded as the renderer folds them) holds the engine's book", async () => {
    const s = await setup()
    watchMarkets(s, 'm1', 'm2')
    let seed = 11
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      return seed / 2_147_483_648
    }
    type Side = Array<{ price_ticks: number; quantity: number; order_count: number }>
    const side = (from: number, step: number): Side =>
      Array.from({ length: Math.floor(random() * 20) }, (_, i) => ({
        price_ticks: from + step * i,
        quantity: 1 + Math.floor(random() * 3),
        order_count: 1,
      }))
    // The levels of each market's last frame.
    const sent = new Map<string, { yes: { bids: Side; asks: Side }; no: { bids: Side; asks: Side } }>()
    const frame = (market: string): string =>
      voxfi('ws-market-update-orderbook.json', (f) => {
        f.market_id = market
        const ob = f.orderbook as Record<string, { bids: Side; asks: Side }>
        const yes = ob.yes_orderbook as { bids: Side; asks: Side }
        const no = ob.no_orderbook as { bids: Side; asks: Side }
        const bid = 40 + Math.floor(random() * 3)
        yes.bids = side(bid, -1)
        yes.asks = side(bid + 2, 1)
        no.bids = side(100 - bid - 2, -1)
        no.asks = side(100 - bid, 1)
        sent.set(market, { yes, no })
      })
    const levels = (l: Side): Level[] =>
      l.slice(0, DEFAULT_DEPTH).map((x): Level => [x.price_ticks / 100, x.quantity])
    const last = new Map<string, string>()
    const window = new Map<string, BookView>()
    let queued: ViewBatch | null = null
    let checked = 0
    for (let step = 0; step < 600; step++) {
      const market = random() < 0.5 ? 'm1' : 'm2'
      const roll = random()
      // Often the very same text again (a resend), sometimes a book upset the engine's own way.
      const text = roll < 0.4 ? (last.get(market) ?? frame(market)) : frame(market)
      if (roll > 0.97) {
        s.books.markStale(market, 'gap')
        s.fanout.bookChanged(market)
      }
      last.set(market, text)
      s.feed(text, 50)
      if (random() < 0.5) continue
      // As the transport sends them and the renderer queues them within one animation frame.
      for (const b of s.flushed()) {
        const sent = JSON.parse(batchJson(b)) as ViewBatch
        queued = queued === null ? sent : mergeBatches(queued, sent)
      }
      if (queued === null || random() < 0.3) continue
      for (const b of queued.books ?? []) window.set(b.market, b)
      queued = null
      for (const m of ['m1', 'm2']) {
        const engine = s.books.bookView(m, DEFAULT_DEPTH)
        if (engine === null) continue
        const { usualGapMs: _gap, ...held } = window.get(m) ?? ({} as BookView)
        const { usualGapMs: _now, ...wanted } = JSON.parse(JSON.stringify(engine)) as BookView
        expect(held, `step ${step}, ${m}`).toEqual(wanted)
        // And that is the book the venue sent last.
        const venue = sent.get(m)
        if (venue === undefined) continue
        expect([held.bids, held.asks, held.no?.bids, held.no?.asks], `step ${step}, ${m}`).toEqual([
          levels(venue.yes.bids),
          levels(venue.yes.asks),
          levels(venue.no.bids),
          levels(venue.no.asks),
        ])
        checked++
      }
    }
    expect(checked).toBeGreaterThan(200)
  })
})
