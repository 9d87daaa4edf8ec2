// Where API keys live: the OS keychain (Secret Service on Linux, pinned; never a plain-text or kernel-keyring
// fallback), or memory for demo mode and tests. The only module that touches @napi-rs/keyring (DESIGN §2, §4).
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring'
import { fail, ok } from '../../../shared/ipc'
import type { ApiError, Result } from '../../../shared/model'
import { keyringError, keyringTimeoutError } from './errors'
import type { Logger } from '../base/types'
import { scrubKeys } from '../base/key-scrub'

export interface CredentialStore {
  readonly kind: 'keyring' | 'memory'
  /** For the engine only: the key never crosses to a window. Resolves null when no key is stored. */
  get(profileId: string): Promise<Result<string | null>>
  set(profileId: string, key: string): Promise<Result<void>>
  /** Succeeds when there was nothing to delete. */
  delete(profileId: string): Promise<Result<void>>
  /**
   * Whether the keychain can be reached right now (no session bus, no Secret Service, a D-Bus policy that
   * refuses us), found by a lookup: it never writes, so it never creates an entry or raises an unlock prompt
   * at start. A locked keychain holding no entry of ours looks empty to a lookup; it shows when a key is saved.
   */
  probe(): Promise<Result<void>>
}

/** One keychain entry, as @napi-rs/keyring's AsyncEntry exposes it (tests give a fake one). */
export interface KeyringEntry {
  getPassword(signal?: AbortSignal): Promise<string | null>
  setPassword(password: string, signal?: AbortSignal): Promise<void>
  deleteCredential(signal?: AbortSignal): Promise<boolean | void>
}

/** Opens entries; may throw (the native constructor talks to D-Bus and throws without a Secret Service). */
export interface KeyringBackend {
  entry(service: string, account: string): KeyringEntry
}

// Pinning the store turns "no Secret Service" into an error instead of keyring-rs' silent fallback to the
// kernel keyring (keyutils), which does not survive a reboot and is readable by any process of the user.
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } }

export const nativeKeyringBackend: KeyringBackend = {
  entry: (service, account) => new AsyncEntry(service, account, ENTRY_OPTIONS),
}

/** How long one keychain call may wait for an answer (an unlock prompt) before it fails with keyring_timeout. */
export const KEYRING_TIMEOUT_MS = 60_000

export interface KeyringStoreOptions {
  /** Secret Service "service" attribute; tests use their own so they never touch the real entries. */
  service?: string
  logger?: Logger
  /** The keychain itself; @napi-rs/keyring unless a test passes a fake. */
  backend?: KeyringBackend
  /** Default KEYRING_TIMEOUT_MS. */
  timeoutMs?: number
  /**
   * Whether this session can show a keychain prompt: false on Linux without a display, where a "dismissed"
   * prompt means the keyring is locked, not that someone cancelled. Default: from the environment.
   */
  canPrompt?: boolean
  /** Clock in ms, for how long a call ran (a prompt dismissed at once was never seen). */
  now?: () => number
}

export const DEFAULT_KEYRING_SERVICE = 'trading-monitor'
const KEY_MAX = 4096
const PROFILE_ID_MAX = 200
/** Accounts are namespaced so that the probe's lookup can never find a profile's key. */
const PROBE_ACCOUNT = 'probe'
const accountFor = (profileId: string): string => `profile:${profileId}`

function sessionCanPrompt(): boolean {
  if (process.platform !== 'linux') return true
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
}

function invalid(message: string): Result<never> {
  return fail({ code: 'invalid_argument', message })
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/

function checkProfileId(profileId: unknown): Result<string> {
  if (typeof profileId !== 'string' || profileId.length === 0) return invalid('The profile id is empty.')
  if (profileId.length > PROFILE_ID_MAX)
    return invalid(`The profile id is longer than ${PROFILE_ID_MAX} characters.`)
  if (CONTROL_CHARS.test(profileId)) return invalid('The profile id contains control characters.')
  return ok(profileId)
}

// The message never quotes the key: it may be a real secret that was merely malformed.
function checkKey(key: unknown): Result<string> {
  if (typeof key !== 'string' || key.trim().length === 0) return invalid('The API key is empty.')
  if (key.length > KEY_MAX) return invalid(`The API key is longer than ${KEY_MAX} characters.`)
  if (CONTROL_CHARS.test(key)) return invalid('The API key contains control characters (a line break?).')
  return ok(key)
}

export function createMemoryStore(initial?: Record<string, string>): CredentialStore {
  const keys = new Map<string, string>(Object.entries(initial ?? {}))
  return {
    kind: 'memory',
    async get(profileId) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      return ok(keys.get(id.value) ?? null)
    },
    async set(profileId, key) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      const k = checkKey(key)
      if (!k.ok) return k
      keys.set(id.value, k.value)
      return ok(undefined)
    },
    async delete(profileId) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      keys.delete(id.value)
      return ok(undefined)
    },
    async probe() {
      return ok(undefined)
    },
  }
}

type Outcome<T> = { kind: 'done'; value: T } | { kind: 'failed'; err: unknown; elapsedMs: number }

export function createKeyringStore(options: KeyringStoreOptions = {}): CredentialStore {
  const service = options.service ?? DEFAULT_KEYRING_SERVICE
  const logger = options.logger
  const backend = options.backend ?? nativeKeyringBackend
  const timeoutMs = options.timeoutMs ?? KEYRING_TIMEOUT_MS
  const canPrompt = options.canPrompt ?? sessionCanPrompt()
  const now = options.now ?? (() => performance.now())
  // One keychain call at a time. A call that timed out may still be blocked in the native module until its
  // prompt is answered, holding a libuv thread (the AbortSignal is passed on, but @napi-rs/keyring 2.1.2 did
  // not honour it), so the next call waits for it to settle rather than raising a second prompt beside it.
  let inFlight: Promise<unknown> = Promise.resolve()

  function report(op: string, account: string, secrets: readonly string[], error: ApiError): Result<never> {
    logger?.warn('keyring operation failed', {
      op,
      service,
      account: scrubKeys(account, secrets),
      code: error.code,
      detail: error.message,
    })
    return fail(error)
  }

  // Every failure funnels through here so that the key is redacted from both the result and the log line.
  async function attempt<T>(
    op: string,
    account: string,
    secrets: readonly string[],
    run: (entry: KeyringEntry, signal: AbortSignal) => Promise<T>,
  ): Promise<Result<T>> {
    const abort = new AbortController()
    let started = false
    const call = inFlight.then(async (): Promise<Outcome<T> | null> => {
      // Given up on while waiting for the call before it: never start it.
      if (abort.signal.aborted) return null
      started = true
      const t0 = now()
      try {
        // The constructor already talks to D-Bus and throws when there is no session bus or no service.
        return { kind: 'done', value: await run(backend.entry(service, account), abort.signal) }
      } catch (err) {
        return { kind: 'failed', err, elapsedMs: now() - t0 }
      }
    })
    inFlight = call
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
    })
    const outcome = await Promise.race([call, timeout])
    clearTimeout(timer)
    if (outcome === 'timeout' || outcome === null) {
      abort.abort()
      return report(op, account, secrets, keyringTimeoutError(timeoutMs, !started))
    }
    if (outcome.kind === 'done') return ok(outcome.value)
    return report(
      op,
      account,
      secrets,
      keyringError(outcome.err, secrets, { elapsedMs: outcome.elapsedMs, canPrompt }),
    )
  }

  return {
    kind: 'keyring',
    async get(profileId) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      return attempt('get', accountFor(id.value), [], (entry, signal) => entry.getPassword(signal))
    },
    async set(profileId, key) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      const k = checkKey(key)
      if (!k.ok) return k
      // The native promise resolves null; Result<void> promises undefined.
      return attempt('set', accountFor(id.value), [k.value], async (entry, signal) => {
        await entry.setPassword(k.value, signal)
      })
    },
    async delete(profileId) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      return attempt('delete', accountFor(id.value), [], async (entry, signal) => {
        await entry.deleteCredential(signal)
      })
    },
    // A lookup, never a write: writing a marker at start would raise an unlock prompt (or fail) before the
    // user has asked for anything, and leave an entry behind if the app died in between.
    async probe() {
      return attempt('probe', PROBE_ACCOUNT, [], async (entry, signal) => {
        await entry.getPassword(signal)
      })
    },
  }
}
