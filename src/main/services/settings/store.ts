// Settings persistence: one JSON file, validated on every load and every update, written atomically,
// updates serialised. A file with some bad entries loads without them: the original is copied aside first
// (never deleted, never overwritten) and the repaired file written. A file that cannot be interpreted at all
// is renamed aside and defaults load.
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fail, ok } from '../../../shared/ipc'
import type { Result } from '../../../shared/model'
import { defaultSettings, parseSettings, repairSettings, type Settings } from './schema'
import type { Logger } from '../base/types'
import { errorMessage } from '../base/errors'

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

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-')
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file)
    return true
  } catch {
    return false
  }
}

function asideBase(file: string): string {
  return `${file}.corrupt-${stamp(new Date())}`
}

/** Renames a bad file to `<name>.corrupt-<timestamp>[-n]`, never replacing an earlier one. */
export async function setAside(file: string): Promise<string> {
  const base = asideBase(file)
  let target = base
  for (let n = 1; await exists(target); n++) target = `${base}-${n}`
  await fs.rename(file, target)
  return target
}

/**
 * Writes the bytes that were read to `<name>.corrupt-<timestamp>[-n]`, never replacing an earlier one, and
 * syncs them before the caller replaces the file: the original must be safe before the repaired copy lands.
 */
async function backUp(file: string, original: Buffer): Promise<string> {
  const base = asideBase(file)
  for (let n = 0; ; n++) {
    const target = n === 0 ? base : `${base}-${n}`
    let handle: fs.FileHandle
    try {
      handle = await fs.open(target, 'wx', 0o600)
    } catch (err) {
      if (errnoCode(err) === 'EEXIST' && n < 1000) continue
      throw err
    }
    try {
      try {
        await handle.writeFile(original)
        await handle.sync()
      } finally {
        await handle.close()
      }
    } catch (err) {
      await fs.rm(target, { force: true })
      throw err
    }
    return target
  }
}

function serialise(settings: Settings): string {
  return `${JSON.stringify(settings, null, 2)}\n`
}

/** Write to a temp file beside the target, fsync, rename over it: a crash leaves the old or the new file. */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const dir = path.dirname(file)
  await fs.mkdir(dir, { recursive: true, mode: 0o700 })
  const temp = path.join(dir, `.${path.basename(file)}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`)
  const handle = await fs.open(temp, 'wx', 0o600)
  try {
    try {
      await handle.writeFile(text, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await fs.rename(temp, file)
  } catch (err) {
    await fs.rm(temp, { force: true })
    throw err
  }
  // Persist the rename itself; not every filesystem supports fsync on a directory, and the data is safe anyway.
  try {
    const dirHandle = await fs.open(dir, 'r')
    try {
      await dirHandle.sync()
    } finally {
      await dirHandle.close()
    }
  } catch {
    // best effort
  }
}

type ReadOutcome =
  | { kind: 'missing' }
  | { kind: 'ok'; settings: Settings }
  | { kind: 'repaired'; settings: Settings; dropped: string[]; original: Buffer }
  | { kind: 'bad'; reason: string }
  | { kind: 'unreadable'; reason: string }

async function readSettingsFile(file: string): Promise<ReadOutcome> {
  let original: Buffer
  try {
    const stat = await fs.stat(file)
    if (!stat.isFile()) return { kind: 'unreadable', reason: 'it is not a regular file' }
    if (stat.size > MAX_FILE_BYTES)
      return { kind: 'bad', reason: `it is larger than ${MAX_FILE_BYTES} bytes` }
    original = await fs.readFile(file)
  } catch (err) {
    // ENOTDIR: a parent is a plain file, so there is no settings file to lose (the write will say why).
    const code = errnoCode(err)
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    return { kind: 'unreadable', reason: errorMessage(err) }
  }
  let json: unknown
  try {
    json = JSON.parse(original.toString('utf8'))
  } catch (err) {
    return { kind: 'bad', reason: `it is not valid JSON (${errorMessage(err)})` }
  }
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
