// The browser host's address and token, kept beside its settings file, so a restarted host answers at the same
// URL and an open page's bridge reconnects by itself instead of staying offline with the old port and token.
// The file holds a credential for the local engine: owner-only (0600), written atomically, validated on read;
// anything unreadable or malformed gives way to a fresh identity. With `--settings none` nothing is kept.
import { readFile } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import { writeAtomically } from '../services'

export interface HostIdentity {
  port: number
  token: string
}

/**
 * Where the identity of a host using `settingsPath` is kept: beside it, named after it (web-settings.json →
 * web-settings.host.json), so two hosts with settings files in one folder never share a port.
 */
export function identityPath(settingsPath: string): string {
  return join(dirname(settingsPath), `${basename(settingsPath, extname(settingsPath))}.host.json`)
}

const TOKEN = /^[0-9a-f]{32,128}$/

/** The identity in `text`, or null when it is not one (a wrong port or token is never half-used). */
export function parseIdentity(text: string): HostIdentity | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const { port, token } = value as Record<string, unknown>
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return null
  if (typeof token !== 'string' || !TOKEN.test(token)) return null
  return { port, token }
}

/** The kept identity, or null (none yet, unreadable, malformed: `problem` says which, for the log). */
export async function loadIdentity(
  file: string,
): Promise<{ identity: HostIdentity | null; problem?: string }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as { code?: unknown }).code
    return code === 'ENOENT'
      ? { identity: null }
      : { identity: null, problem: `cannot read: ${String(code)}` }
  }
  const identity = parseIdentity(text)
  return identity ? { identity } : { identity: null, problem: 'not a valid host identity' }
}

export async function saveIdentity(file: string, identity: HostIdentity): Promise<void> {
  await writeAtomically(file, `${JSON.stringify(identity)}\n`)
}
