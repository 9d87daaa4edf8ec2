// The alert history beside the settings file (`alert-history.json`), so what the user was told outlives a restart.
// Read once at start and checked like the settings file: bounded in size, every entry validated, at most
// ALERT_HISTORY_CAP kept. A file that is not wholly usable is renamed aside (never deleted) with a notice, and
// whatever entries were valid are kept; nothing in it can stop the engine from starting.
import { dirname, join } from 'node:path'
import { ALERT_HISTORY_CAP, alertEventSchema, type AlertEvent } from '../../../shared/alerts'
import { errorMessage } from '../base/errors'
import type { Logger } from '../base/types'
import { readJsonFile, setAside, writeAtomically } from './files'

export const ALERT_HISTORY_FILE = 'alert-history.json'
const FORMAT = 'trading-monitor-alert-history'
const VERSION = 1
/** ALERT_HISTORY_CAP entries of at most a few kilobytes each; anything larger is not ours. */
const MAX_FILE_BYTES = 2 * 1024 * 1024

export interface AlertHistoryLoad {
  /** Newest first, at most ALERT_HISTORY_CAP. */
  entries: AlertEvent[]
  /** Set when the file could not be used as it was: shown to the user. */
  warning: string | null
}

export interface AlertHistoryFile {
  load(): Promise<AlertHistoryLoad>
  /** Replaces the file with `entries` (in order; writes never overtake each other). Failures are logged. */
  save(entries: readonly AlertEvent[]): Promise<void>
}

/** The history file beside a settings file; none when settings are kept in memory. */
export function alertHistoryPath(settingsPath: string | null): string | null {
  return settingsPath === null ? null : join(dirname(settingsPath), ALERT_HISTORY_FILE)
}

type Read = { entries: AlertEvent[]; problem: string | null }

function readEntries(json: unknown): Read {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { entries: [], problem: 'it is not an alert history' }
  const doc = json as Record<string, unknown>
  if (doc['format'] !== FORMAT) return { entries: [], problem: `its format is not "${FORMAT}"` }
  if (doc['version'] !== VERSION) {
    const newer = typeof doc['version'] === 'number' && doc['version'] > VERSION
    return { entries: [], problem: newer ? 'it was written by a newer version' : 'its version is unknown' }
  }
  const list = doc['entries']
  if (!Array.isArray(list)) return { entries: [], problem: 'it has no list of entries' }
  const entries: AlertEvent[] = []
  const ids = new Set<number>()
  let bad = 0
  for (const raw of list as unknown[]) {
    const parsed = alertEventSchema.safeParse(raw)
    if (!parsed.success || ids.has(parsed.data.id)) {
      bad++
      continue
    }
    ids.add(parsed.data.id)
    entries.push(parsed.data)
  }
  // Newest first whatever the file's order; ids break ties the way the engine made them.
  entries.sort((a, b) => b.at - a.at || b.id - a.id)
  const over = Math.max(0, entries.length - ALERT_HISTORY_CAP)
  entries.length = Math.min(entries.length, ALERT_HISTORY_CAP)
  if (bad > 0) return { entries, problem: `${bad} of its entries are not valid` }
  if (over > 0) return { entries, problem: `it holds more than ${ALERT_HISTORY_CAP} entries` }
  return { entries, problem: null }
}

async function read(file: string): Promise<Read | 'missing'> {
  const r = await readJsonFile(file, MAX_FILE_BYTES)
  if (r.kind === 'missing') return 'missing'
  if (r.kind !== 'json') return { entries: [], problem: r.reason }
  return readEntries(r.value)
}

export function createAlertHistoryFile(file: string | null, log: Logger): AlertHistoryFile {
  // Set when a bad file could not be moved aside: writing over it would lose what was never read.
  let blocked = false
  let writes: Promise<void> = Promise.resolve()
  return {
    async load() {
      if (file === null) return { entries: [], warning: null }
      const r = await read(file)
      if (r === 'missing') return { entries: [], warning: null }
      if (r.problem === null) return { entries: r.entries, warning: null }
      const kept =
        r.entries.length > 0 ? `its ${r.entries.length} valid entries were kept` : 'it starts empty'
      let warning: string
      try {
        const aside = await setAside(file)
        warning = `The alert history ${file} could not be used as it was because ${r.problem}. It was kept as ${aside}; ${kept}.`
      } catch (err) {
        blocked = true
        warning = `The alert history ${file} could not be used (${r.problem}) nor moved aside (${errorMessage(err)}); ${kept}, and new alerts will not be saved until the file is fixed.`
      }
      log.warn('alerts: history file set aside', { file, reason: r.problem, warning })
      return { entries: r.entries, warning }
    },
    save(entries) {
      if (file === null || blocked) return writes
      const text = `${JSON.stringify({ format: FORMAT, version: VERSION, entries }, null, 1)}\n`
      writes = writes.then(() =>
        writeAtomically(file, text).catch((err: unknown) => {
          log.warn('alerts: could not save the history', { file, error: errorMessage(err) })
        }),
      )
      return writes
    },
  }
}
