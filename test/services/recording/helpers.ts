// Shared parts of the record-and-replay tests: a throwaway settings folder, and the book a recording's frames build
// when they are decoded and applied directly (the reference a replay through the engine must match).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AUTO, builtinAdapters, FrameDecoder } from '../../../src/shared/adapters'
import type { BookView } from '../../../src/shared/model'
import { BookStore } from '../../../src/main/services/market/books'
import type { RecordedFrame } from '../../../src/main/services/recording/file'
import type { RecordReplayDeps } from '../../../src/main/services/recording/record-replay'
import { FeedRecorder } from '../../../src/main/services/recording/recorder'
import { captureLogger } from '../helpers'
import { createMemoryStore, createMonitor, type MonitorEngine } from '../../../src/main/services'

export function tempDir(prefix = 'tm-replay-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The book of `market` after every frame with t <= uptoMs, decoded and applied outside the engine. */
export function expectedBook(
  frames: readonly RecordedFrame[],
  market: string,
  uptoMs: number,
  depth = 25,
): BookView | null {
  const decoder = new FrameDecoder({ adapters: builtinAdapters(), selection: AUTO })
  const books = new BookStore()
  for (const frame of frames) {
    if (frame.t > uptoMs) break
    const decoded = decoder.decodeText(frame.f)
    if (!decoded.ok) continue
    for (const u of decoded.updates) {
      if (u.kind === 'book' && u.market === market) books.apply({ ...u, market }, 0)
    }
  }
  return books.bookView(market, depth)
}

/** What must agree between two views of a book: its levels and sequence. */
export function levels(book: BookView | null | undefined): unknown {
  return book ? { bids: book.bids, asks: book.asks, seq: book.seq } : null
}

/** RecordReplay's deps over a folder, with no engine behind them (each can be replaced). */
export function replayDeps(dir: string, over: Partial<RecordReplayDeps> = {}): RecordReplayDeps {
  const log = captureLogger().logger
  return {
    dir,
    log,
    now: Date.now,
    recorder: new FeedRecorder({ dir, log, now: Date.now, changed: () => {}, notice: () => {} }),
    liveProfile: () => ({ id: 'p1', name: 'desk' }),
    listing: async () => null,
    refreshSnapshots: () => {},
    suspendLive: () => {},
    resumeLive: async () => {},
    useListing: () => {},
    useAdapter: () => {},
    feed: () => {},
    resetData: () => {},
    changed: () => {},
    ...over,
  }
}

/** The whole engine over a recordings folder, with settings in memory and no demo: what a replay runs in. */
export function replayEngine(dir: string): Promise<MonitorEngine> {
  return createMonitor({
    settingsPath: null,
    recordingsDir: dir,
    credentials: createMemoryStore(),
    demo: false,
    logger: captureLogger().logger,
  })
}
