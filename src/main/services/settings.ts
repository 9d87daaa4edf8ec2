// Settings persistence: one JSON file, validated on every load and every update, written atomically,
// updates serialised. A bad file is renamed aside (never deleted, never overwritten) and defaults load.
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fail, ok } from '../../shared/ipc'
import type { Result } from '../../shared/model'
import { defaultSettings, parseSettings, type Settings } from './settings-schema'
import type { Logger } from './types'

export { defaultSettings, demoProfile, validateEndpoints, type Settings } from './settings-schema'

export interface SettingsStoreOptions {
  /** The settings file; null keeps settings in memory only (demo, tests). */
  path: string | null
  logger?: Logger
}

export interface SettingsLoad {
  settings: Settings
  /** Set when the file could not be used and defaults were loaded instead: show it to the user. */
  warning: string | null
}

export interface SettingsStore {
  load(): Promise<SettingsLoad>
  /** The current settings (defaults until load() ran). Callers get a copy and cannot change the store's state. */
  get(): Settings
  /** Applies mutator to a copy of the current settings, validates, persists, then publishes the result. */
  update(mutator: (settings: Settings) => Settings): Promise<Result<Settings>>
}

/** A settings file is a few kilobytes; anything this large is not ours. */
const MAX_FILE_BYTES = 4 * 1024 * 1024

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

function errnoCode(err: unknown): string | undefined {
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

/** Renames a bad file to `<name>.corrupt-<timestamp>[-n]`, never replacing an earlier one. */
async function setAside(file: string): Promise<string> {
  const base = `${file}.corrupt-${stamp(new Date())}`
  let target = base
  for (let n = 1; await exists(target); n++) target = `${base}-${n}`
  await fs.rename(file, target)
  return target
}

/** Write to a temp file beside the target, fsync, rename over it: a crash leaves the old or the new file. */
async function writeAtomically(file: string, text: string): Promise<void> {
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
  | { kind: 'bad'; reason: string }
  | { kind: 'unreadable'; reason: string }

async function readSettingsFile(file: string): Promise<ReadOutcome> {
  let text: string
  try {
    const stat = await fs.stat(file)
    if (!stat.isFile()) return { kind: 'unreadable', reason: 'it is not a regular file' }
    if (stat.size > MAX_FILE_BYTES)
      return { kind: 'bad', reason: `it is larger than ${MAX_FILE_BYTES} bytes` }
    text = await fs.readFile(file, 'utf8')
  } catch (err) {
    // ENOTDIR: a parent is a plain file, so there is no settings file to lose (the write will say why).
    const code = errnoCode(err)
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    return { kind: 'unreadable', reason: errorText(err) }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return { kind: 'bad', reason: `it is not valid JSON (${errorText(err)})` }
  }
  if (typeof json === 'object' && json !== null && 'version' in json && typeof json.version === 'number') {
    if (json.version > 1)
      return { kind: 'bad', reason: `it was written by a newer version (format ${json.version})` }
  }
  const parsed = parseSettings(json)
  return parsed.ok ? { kind: 'ok', settings: parsed.value } : { kind: 'bad', reason: parsed.error.message }
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
    if (file === null) return { settings: structuredClone(current), warning: null }
    const outcome = await readSettingsFile(file)
    if (outcome.kind === 'ok') {
      current = outcome.settings
      return { settings: structuredClone(current), warning: null }
    }
    current = defaultSettings()
    if (outcome.kind === 'missing') return { settings: structuredClone(current), warning: null }
    let warning: string
    try {
      const aside = await setAside(file)
      warning = `The settings file ${file} could not be used because ${outcome.reason}. It was kept as ${aside} and default settings were loaded.`
    } catch (err) {
      blocked = `The settings file ${file} could not be read (${outcome.reason}) nor moved aside (${errorText(err)}).`
      warning = `${blocked} Default settings are in use and changes will not be saved until the file is fixed.`
    }
    logger?.warn('settings file set aside', { file, reason: outcome.reason, warning })
    return { settings: structuredClone(current), warning }
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
          return fail({ code: 'internal', message: `Settings change failed: ${errorText(err)}` })
        }
        const parsed = parseSettings(next)
        if (!parsed.ok) return parsed
        if (file !== null) {
          try {
            await writeAtomically(file, `${JSON.stringify(parsed.value, null, 2)}\n`)
          } catch (err) {
            logger?.error('settings write failed', { file, error: errorText(err) })
            return fail({
              code: 'internal',
              message: `Settings could not be saved to ${file}: ${errorText(err)}`,
            })
          }
        }
        current = parsed.value
        return ok(structuredClone(current))
      })
    },
  }
}
