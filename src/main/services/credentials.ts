// Where API keys live: the OS keychain (Secret Service on Linux, pinned; never a plain-text or kernel-keyring
// fallback), or memory for demo mode and tests. The only module that touches @napi-rs/keyring (DESIGN §2, §4).
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring'
import { fail, ok } from '../../shared/ipc'
import type { ApiError, Result } from '../../shared/model'
import { keyringError, redact } from './credentials-errors'
import type { Logger } from './types'

export interface CredentialStore {
  readonly kind: 'keyring' | 'memory'
  /** For the engine only: the key never crosses to a window. Resolves null when no key is stored. */
  get(profileId: string): Promise<Result<string | null>>
  set(profileId: string, key: string): Promise<Result<void>>
  /** Succeeds when there was nothing to delete. */
  delete(profileId: string): Promise<Result<void>>
  /** Whether the store can be written right now (a locked or missing keychain fails here, not at first use). */
  probe(): Promise<Result<void>>
}

export interface KeyringStoreOptions {
  /** Secret Service "service" attribute; tests use their own so they never touch the real entries. */
  service?: string
  logger?: Logger
}

export const DEFAULT_KEYRING_SERVICE = 'trading-monitor'
const KEY_MAX = 4096
const PROFILE_ID_MAX = 200
/** Accounts are namespaced so that the probe entry can never collide with a profile's key. */
const PROBE_ACCOUNT = 'probe'
const accountFor = (profileId: string): string => `profile:${profileId}`

// Pinning the store turns "no Secret Service" into an error instead of keyring-rs' silent fallback to the
// kernel keyring (keyutils), which does not survive a reboot and is readable by any process of the user.
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } }

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

export function createKeyringStore(options: KeyringStoreOptions = {}): CredentialStore {
  const service = options.service ?? DEFAULT_KEYRING_SERVICE
  const logger = options.logger

  // Every failure funnels through here so that the key is redacted from both the result and the log line.
  async function attempt<T>(
    op: string,
    account: string,
    secrets: readonly string[],
    run: (entry: AsyncEntry) => Promise<T>,
  ): Promise<Result<T>> {
    try {
      // The constructor already talks to D-Bus and throws when there is no session bus or no service.
      const entry = new AsyncEntry(service, account, ENTRY_OPTIONS)
      return ok(await run(entry))
    } catch (err) {
      const error: ApiError = keyringError(err, secrets)
      logger?.warn('keyring operation failed', {
        op,
        service,
        account: redact(account, secrets),
        code: error.code,
        detail: error.message,
      })
      return fail(error)
    }
  }

  return {
    kind: 'keyring',
    async get(profileId) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      return attempt('get', accountFor(id.value), [], (entry) => entry.getPassword())
    },
    async set(profileId, key) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      const k = checkKey(key)
      if (!k.ok) return k
      // The native promise resolves null; Result<void> promises undefined.
      return attempt('set', accountFor(id.value), [k.value], async (entry) => {
        await entry.setPassword(k.value)
      })
    },
    async delete(profileId) {
      const id = checkProfileId(profileId)
      if (!id.ok) return id
      return attempt('delete', accountFor(id.value), [], async (entry) => {
        await entry.deleteCredential()
      })
    },
    // A read is not enough: looking up an absent entry in a locked collection succeeds with null. Writing
    // and removing a marker entry exercises exactly what saving a key will need.
    async probe() {
      const marker = `probe-${Date.now()}`
      return attempt('probe', PROBE_ACCOUNT, [], async (entry) => {
        await entry.setPassword(marker)
        await entry.deleteCredential()
      })
    },
  }
}
