// The order journal survives a crash mid-write: a torn last line is skipped on reading, the next entry starts on a
// line of its own, and every whole line before and after reads back. It rotates at its size and keeps its count.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { OrderJournal } from '../../../src/main/services/orders/journal'
import type { JournalEntry } from '../../../src/shared/trading'
import { captureLogger } from '../helpers'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const NOW = Date.parse('2026-11-28T12:00:00Z')
const DAY = '20261128'

function entry(market: string): Omit<JournalEntry, 'seq' | 'at'> {
  return {
    profileId: 'demo',
    mode: 'live',
    action: 'place',
    outcome: 'sent',
    orderId: 'o',
    venueId: null,
    market,
  }
}

function journal(
  dir: string,
  extra: Partial<ConstructorParameters<typeof OrderJournal>[0]> = {},
): OrderJournal {
  return new OrderJournal({ dir, log: captureLogger().logger, now: () => NOW, ...extra })
}

describe('the order journal', () => {
  it('reads every whole line around a line torn by a crash, and writes the next on a line of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-journal-'))
    dirs.push(dir)
    const first = journal(dir)
    first.append(entry('m1'))
    first.append(entry('m2'))
    // The crash: half a line, no newline.
    const file = join(dir, `orders-${DAY}.jsonl`)
    appendFileSync(file, '{"seq":3,"at":1,"profileId":"demo","mode":"li')
    const after = journal(dir)
    // Today's entries are there again after the restart, numbered on from the last whole one.
    expect(after.today().map((e) => e.market)).toEqual(['m1', 'm2'])
    const written = after.append(entry('m3'))
    expect(written.seq).toBe(3)
    expect(after.readDay(DAY).map((e) => e.market)).toEqual(['m1', 'm2', 'm3'])
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines.filter((l) => l.includes('"m3"'))).toHaveLength(1)
    expect(lines.find((l) => l.includes('"m3"'))?.startsWith('{"seq":3')).toBe(true)
  })

  it('rotates past its size and keeps at most its count of files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-journal-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'orders-20200101.jsonl'), '')
    const j = journal(dir, { maxFileBytes: 300, maxFiles: 3 })
    for (let i = 0; i < 20; i++) j.append(entry(`m${i}`))
    const files = readdirSync(dir).sort()
    expect(files.length).toBeLessThanOrEqual(3)
    expect(files).not.toContain('orders-20200101.jsonl')
    // The newest entries are all there, across the parts kept.
    expect(
      j
        .readDay(DAY)
        .map((e) => e.market)
        .slice(-3),
    ).toEqual(['m17', 'm18', 'm19'])
  })

  it('keeps the journal in memory when it has no folder, and never throws on a folder it cannot write', () => {
    const mem = new OrderJournal({ dir: null, log: captureLogger().logger, now: () => NOW })
    mem.append(entry('m1'))
    expect(mem.today()).toHaveLength(1)
    const log = captureLogger()
    // A folder whose parent is a file: nothing can be made or written there.
    const parent = mkdtempSync(join(tmpdir(), 'tm-journal-'))
    dirs.push(parent)
    writeFileSync(join(parent, 'a-file'), '')
    const broken = new OrderJournal({
      dir: join(parent, 'a-file', 'journal'),
      log: log.logger,
      now: () => NOW,
    })
    expect(() => broken.append(entry('m1'))).not.toThrow()
    expect(broken.today()).toHaveLength(1)
    expect(log.lines.some((l) => l.includes('cannot write the order journal'))).toBe(true)
  })
})
