// The alert history file beside the settings on real files: what is saved reads back, at most ALERT_HISTORY_CAP
// entries newest first, and a file that is not wholly usable is renamed aside (kept, never deleted) with a
// warning, its valid entries kept, never a throw.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ALERT_HISTORY_CAP, type AlertEvent } from '../../../src/shared/alerts'
import {
  ALERT_HISTORY_FILE,
  alertHistoryPath,
  createAlertHistoryFile,
} from '../../../src/main/services/settings/alert-history-file'
import { captureLogger } from '../helpers'

function entry(id: number, partial: Partial<AlertEvent> = {}): AlertEvent {
  return {
    id,
    ruleId: 'a-1',
    kind: 'fired',
    at: 1_700_000_000_000 + id,
    title: `Rain · SP — mid crossed above 0.45 (#${id})`,
    detail: 'mid 0.46',
    value: 0.46,
    market: 'm1',
    sound: false,
    acknowledged: id % 2 === 0,
    ...partial,
  }
}

let dir = ''
let file = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-alert-history-'))
  file = join(dir, ALERT_HISTORY_FILE)
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const doc = (entries: unknown) =>
  JSON.stringify({ format: 'trading-monitor-alert-history', version: 1, entries })

describe('the alert history file', () => {
  it('lives beside the settings file, and nowhere without one', () => {
    expect(alertHistoryPath(join(dir, 'settings.json'))).toBe(file)
    expect(alertHistoryPath(null)).toBeNull()
  })

  it('reads back what was saved; a missing file is an empty history without a warning', async () => {
    const log = captureLogger()
    const h = createAlertHistoryFile(file, log.logger)
    expect(await h.load()).toEqual({ entries: [], warning: null })
    const entries = [entry(3), entry(2, { kind: 'held', market: null, value: null }), entry(1)]
    await h.save(entries)
    expect(await createAlertHistoryFile(file, log.logger).load()).toEqual({ entries, warning: null })
  })

  it('keeps the newest ALERT_HISTORY_CAP entries of an oversized list and sets the file aside', async () => {
    const log = captureLogger()
    const many = Array.from({ length: ALERT_HISTORY_CAP + 50 }, (_, i) => entry(i + 1))
    await writeFile(file, doc(many))
    const loaded = await createAlertHistoryFile(file, log.logger).load()
    expect(loaded.entries).toHaveLength(ALERT_HISTORY_CAP)
    expect(loaded.entries[0]?.id).toBe(ALERT_HISTORY_CAP + 50)
    expect(loaded.entries.at(-1)?.id).toBe(51)
    expect(loaded.warning).toMatch(/more than 200 entries/)
  })

  it('a file that is not JSON is set aside with a warning, kept whole, and the history starts empty', async () => {
    const log = captureLogger()
    await writeFile(file, '{"format": "trading-monitor-alert-his')
    const loaded = await createAlertHistoryFile(file, log.logger).load()
    expect(loaded.entries).toEqual([])
    expect(loaded.warning).toMatch(/could not be used as it was because it is not valid JSON/)
    const names = await readdir(dir)
    const aside = names.find((n) => n.startsWith(`${ALERT_HISTORY_FILE}.corrupt-`))
    expect(aside).toBeDefined()
    expect(await readFile(join(dir, aside as string), 'utf8')).toBe('{"format": "trading-monitor-alert-his')
    expect(names).not.toContain(ALERT_HISTORY_FILE)
    expect(log.lines.some((l) => l.includes('history file set aside'))).toBe(true)
  })

  it('bad entries are left out, the valid ones kept, and the file set aside', async () => {
    const log = captureLogger()
    await writeFile(file, doc([entry(2), { ...entry(5), at: 'yesterday' }, 'junk', entry(1), entry(2)]))
    const loaded = await createAlertHistoryFile(file, log.logger).load()
    expect(loaded.entries.map((e) => e.id)).toEqual([2, 1])
    expect(loaded.warning).toMatch(/3 of its entries are not valid.*its 2 valid entries were kept/)
    expect((await readdir(dir)).some((n) => n.includes('.corrupt-'))).toBe(true)
  })

  it('another format, a newer version or a huge file is not read', async () => {
    const log = captureLogger()
    for (const [text, why] of [
      [JSON.stringify({ format: 'x', version: 1, entries: [] }), /format is not/],
      [JSON.stringify({ format: 'trading-monitor-alert-history', version: 9, entries: [] }), /newer version/],
      [' '.repeat(3 * 1024 * 1024), /larger than/],
    ] as const) {
      await writeFile(file, text)
      const loaded = await createAlertHistoryFile(file, log.logger).load()
      expect(loaded.entries).toEqual([])
      expect(loaded.warning).toMatch(why)
    }
  })

  it('without a settings file nothing is read or written', async () => {
    const h = createAlertHistoryFile(null, captureLogger().logger)
    await h.save([entry(1)])
    expect(await h.load()).toEqual({ entries: [], warning: null })
    expect(await readdir(dir)).toEqual([])
  })
})
