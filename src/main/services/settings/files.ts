// The JSON files the engine keeps beside the settings (the settings, the alert history): read within a size
// bound, a bad one renamed aside (never deleted, never overwritten), and written atomically. One place for how a
// file is read and kept safe, whatever the file holds; what its contents must be is its owner's business.
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { errorMessage } from '../base/errors'

export type JsonRead =
  | { kind: 'missing' }
  | { kind: 'json'; value: unknown; bytes: Buffer }
  /** There, but not JSON or too large: set it aside. */
  | { kind: 'bad'; reason: string }
  /** There, but not a regular file or not readable. */
  | { kind: 'unreadable'; reason: string }

/** The file parsed as JSON, with its bytes; `missing` when it (or a parent folder) does not exist. */
export async function readJsonFile(file: string, maxBytes: number): Promise<JsonRead> {
  let bytes: Buffer
  try {
    const stat = await fs.stat(file)
    if (!stat.isFile()) return { kind: 'unreadable', reason: 'it is not a regular file' }
    if (stat.size > maxBytes) return { kind: 'bad', reason: `it is larger than ${maxBytes} bytes` }
    bytes = await fs.readFile(file)
  } catch (err) {
    // ENOTDIR: a parent is a plain file, so there is no file to lose (a write will say why).
    const code = errnoCode(err)
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    return { kind: 'unreadable', reason: errorMessage(err) }
  }
  try {
    return { kind: 'json', value: JSON.parse(bytes.toString('utf8')) as unknown, bytes }
  } catch (err) {
    return { kind: 'bad', reason: `it is not valid JSON (${errorMessage(err)})` }
  }
}

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
export async function backUp(file: string, original: Buffer): Promise<string> {
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
