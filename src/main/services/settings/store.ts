// Settings persistence: one JSON file, validated on every load and every update, written atomically,
// updates serialised. A file with some bad entries loads without them: the original is copied aside first
// (never deleted, never overwritten) and the repaired file written. A file that cannot be interpreted at all
// is renamed aside and defaults load.
import { fail, ok } from '../../../shared/ipc'
import type { Result } from '../../../shared/model'
import { defaultSettings, parseSettings, repairSettings, type Settings } from './schema'
import type { Logger } from '../base/types'
import { errorMessage } from '../base/errors'
import { backUp, readJsonFile, setAside, writeAtomically } from './files'

export { defaultSettings, demoProfile, isBuiltInProfile, voxfiProfiles, type Settings } from './schema'

export interface SettingsStoreOptions {
  /** The settings file; null keeps settings in memory only (demo, tests). */
  path: string | null
  logger?: Logger
}

export interface SettingsLoad {
  settings: Settings
  /** Set when the file could not be used as it was (defaults or a repaired copy loaded): show it to the user. */
  warning: string | null
  /**
   * What was left out of the file, one human-readable line each (`windows[2] (target.kind: …)`). Empty when
   * the file was used as it was, and when it was set aside whole (then only warning says why).
   */
  dropped: string[]
}

/** What a settings mutator returns when there is nothing to change (SettingsStore.update). */
export const UNCHANGED: unique symbol = Symbol('settings unchanged')

export interface SettingsStore {
  load(): Promise<SettingsLoad>
  /** The current settings (defaults until load() ran). Callers get a copy and cannot change the store's state. */
  get(): Settings
  /**
   * Applies mutator to a copy of the current settings, validates, persists, then publishes the result. A mutator
   * that finds nothing to change, judged against the settings as they are when its turn comes, returns
   * UNCHANGED: nothing is written. (Returning its argument still saves, which rewrites a hand-edited file.)
   */
  update(mutator: (settings: Settings) => Settings | typeof UNCHANGED): Promise<Result<Settings>>
}

/** A settings file is a few kilobytes; anything this large is not ours. */
const MAX_FILE_BYTES = 4 * 1024 * 1024
/** The warning is read by a person: past this many, the rest is a count (all are in `dropped` and the log). */
const MAX_LISTED_DROPS = 10

function serialise(settings: Settings): string {
  return `${JSON.stringify(settings, null, 2)}\n`
}

type ReadOutcome =
  | { kind: 'missing' }
  | { kind: 'ok'; settings: Settings }
  | { kind: 'repaired'; settings: Settings; dropped: string[]; original: Buffer }
  | { kind: 'bad'; reason: string }
  | { kind: 'unreadable'; reason: string }

async function readSettingsFile(file: string): Promise<ReadOutcome> {
  const read = await readJsonFile(file, MAX_FILE_BYTES)
  if (read.kind !== 'json') return read
  const { value: json, bytes: original } = read
  if (typeof json === 'object' && json !== null && 'version' in json && typeof json.version === 'number') {
    if (json.version > 1)
      return { kind: 'bad', reason: `it was written by a newer version (format ${json.version})` }
  }
  const parsed = repairSettings(json)
  if (!parsed.ok) return { kind: 'bad', reason: parsed.error.message }
  const { settings, dropped } = parsed.value
  return dropped.length === 0 ? { kind: 'ok', settings } : { kind: 'repaired', settings, dropped, original }
}

export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const file = options.path
  const logger = options.logger
  let current: Settings = defaultSettings()
  let loaded = false
  // Set when the file exists but could neither be read nor moved: writing would destroy data we never saw.
  let blocked: string | null = null
  // Every load and update runs in order on this chain, so a write never races another write or a read.
  let queue: Promise<unknown> = Promise.resolve()

  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task)
    queue = run.catch(() => undefined)
    return run
  }

  async function loadNow(): Promise<SettingsLoad> {
    loaded = true
    blocked = null
    if (file === null) return { settings: structuredClone(current), warning: null, dropped: [] }
    const outcome = await readSettingsFile(file)
    if (outcome.kind === 'ok') {
      current = outcome.settings
      return { settings: structuredClone(current), warning: null, dropped: [] }
    }
    if (outcome.kind === 'repaired') {
      current = outcome.settings
      return {
        settings: structuredClone(current),
        warning: await persistRepair(file, outcome),
        dropped: outcome.dropped,
      }
    }
    current = defaultSettings()
    if (outcome.kind === 'missing') return { settings: structuredClone(current), warning: null, dropped: [] }
    let warning: string
    try {
      const aside = await setAside(file)
      warning = `The settings file ${file} could not be used because ${outcome.reason}. It was kept as ${aside} and default settings were loaded.`
    } catch (err) {
      blocked = `The settings file ${file} could not be read (${outcome.reason}) nor moved aside (${errorMessage(err)}).`
      warning = `${blocked} Default settings are in use and changes will not be saved until the file is fixed.`
    }
    logger?.warn('settings file set aside', { file, reason: outcome.reason, warning })
    return { settings: structuredClone(current), warning, dropped: [] }
  }

  /** Keeps the original bytes, then replaces the file with what was usable; returns the user's warning. */
  async function persistRepair(
    settingsFile: string,
    repair: { settings: Settings; dropped: string[]; original: Buffer },
  ): Promise<string> {
    const listed = repair.dropped.slice(0, MAX_LISTED_DROPS).join(', ')
    const extra = repair.dropped.length - MAX_LISTED_DROPS
    const what = `Some settings could not be used and were set aside: ${listed}${extra > 0 ? ` and ${extra} more` : ''}.`
    const report = (warning: string, backup: string | null): string => {
      logger?.warn('settings file repaired', {
        file: settingsFile,
        dropped: repair.dropped.join('; '),
        backup,
        warning,
      })
      return warning
    }
    let backup: string
    try {
      backup = await backUp(settingsFile, repair.original)
    } catch (err) {
      // Without a copy, saving would destroy the entries we could not read: refuse to write until fixed.
      blocked = `The settings file ${settingsFile} has entries that could not be used and could not be backed up (${errorMessage(err)}).`
      return report(
        `${what} ${blocked} The usable settings are loaded, but changes will not be saved until the file is fixed.`,
        null,
      )
    }
    try {
      await writeAtomically(settingsFile, serialise(repair.settings))
    } catch (err) {
      // The original is safe in the backup, so the next successful save may still replace the file.
      return report(
        `${what} The original file was kept as ${backup}; the repaired settings could not be saved yet (${errorMessage(err)}).`,
        backup,
      )
    }
    return report(`${what} The original file was kept as ${backup}.`, backup)
  }

  return {
    load: () => serial(loadNow),
    get: () => structuredClone(current),
    update(mutator) {
      return serial(async (): Promise<Result<Settings>> => {
        // Updating before loading would overwrite a file nobody read.
        if (!loaded) await loadNow()
        if (blocked !== null) return fail({ code: 'internal', message: blocked })
        let next: unknown
        try {
          next = mutator(structuredClone(current))
        } catch (err) {
          return fail({ code: 'internal', message: `Settings change failed: ${errorMessage(err)}` })
        }
        if (next === UNCHANGED) return ok(structuredClone(current))
        const parsed = parseSettings(next)
        if (!parsed.ok) return parsed
        if (file !== null) {
          try {
            await writeAtomically(file, serialise(parsed.value))
          } catch (err) {
            logger?.error('settings write failed', { file, error: errorMessage(err) })
            return fail({
              code: 'internal',
              message: `Settings could not be saved to ${file}: ${errorMessage(err)}`,
            })
          }
        }
        current = parsed.value
        return ok(structuredClone(current))
      })
    },
  }
}
