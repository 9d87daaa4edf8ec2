// The API key of each profile: looked up for the user channel and the listing, verified before it is stored,
// rotated without a restart, cleared, or the demo key used. Changes are serialised, one at a time. The key lives
// only in the credential store and, for the length of one call, in a local variable: never in a batch, a log
// line, an error message or the settings file.
//
// Every well-formed key (shared/api-key.ts) joins the key scrub (feed/redact.ts) the moment it is handed over:
// entered (before it is verified, so whatever the venue answers), loaded from the keychain, or the demo key. It
// never leaves for the rest of the run: a key refused for its IP (403 `ip not allowed`, a 4001 close) is still
// a real key, a key refused as unknown (401) may be a real one mistyped, and a replaced or cleared key may still
// work at the exchange. A key in use stays scrubbed while it is; the others are kept among the most recent few.
// A 4001 close or an `unauthorized` error on the user channel does not remove the stored key: VoxFi sends 4001
// for a key used from an IP off its allow-list too (the key is still good and still used for REST).
import { keyFormatMessage, keyFormatProblem } from '../../../shared/api-key'
import { fail, ok, type KeyInfo } from '../../../shared/ipc'
import type { ApiError, Profile, Result } from '../../../shared/model'
import type { CredentialStore } from './store'
import type { DemoHost } from '../feed/demo-host'
import { invalid, scrubError } from '../base/errors'
import type { SecretRedactor } from '../feed/redact'
import type { RestClient } from '../feed/rest'
import type { StatusTracker } from '../health/status'
import type { Logger } from '../base/types'

export interface KeyManagerDeps {
  log: Logger
  secrets: SecretRedactor
  status: StatusTracker
  demo: DemoHost
  storeFor(profile: Profile): CredentialStore
  /** The active profile and its REST client, read afresh at every step. */
  current(): { profile: Profile; rest: RestClient | null; unavailable: ApiError | null }
  updateProfile(id: string, patch: Partial<Profile>): Promise<Result<Profile>>
  /** After the stored key changed: forget listings made with the old one, re-authenticate the user channel. */
  keyChanged(): void
}

export class KeyManager {
  private queue: Promise<unknown> = Promise.resolve()
  /** Per profile, the key it uses: in use for the scrub. */
  private readonly inUse = new Map<string, string>()

  constructor(private readonly d: KeyManagerDeps) {}

  /** The stored key, or null; a keychain failure throws (and is shown as the status' lastError). */
  async stored(profile: Profile): Promise<string | null> {
    const r = await this.d.storeFor(profile).get(profile.id)
    // "Not found" proves nothing (a locked keyring says it too); a failure or a key found does.
    if (!r.ok || r.value !== null) this.d.status.noteKeychain(r)
    if (!r.ok) {
      this.d.status.setError(r.error)
      throw new Error(`credential store: ${r.error.code}`)
    }
    if (r.value === null) this.release(profile.id)
    else this.use(profile.id, r.value)
    return r.value
  }

  /** The key for the events listing: the stored one, or for the demo profile the simulator's demo key. */
  async forListing(profile: Profile): Promise<string | null> {
    const stored = await this.stored(profile).catch(() => null)
    if (stored) return stored
    const sim = this.d.demo.current()
    if (profile.demo && sim) {
      this.d.secrets.add(sim.demoKey)
      return sim.demoKey
    }
    return null
  }

  async isStored(profile: Profile, key: string): Promise<boolean> {
    const r = await this.d.storeFor(profile).get(profile.id)
    return r.ok && r.value === key
  }

  async refreshHasKey(options: { probe?: boolean } = {}): Promise<void> {
    const { profile } = this.d.current()
    const store = this.d.storeFor(profile)
    const r = await store.get(profile.id)
    if (profile.id !== this.d.current().profile.id) return
    if (!r.ok) this.d.status.setError(r.error)
    // When a profile is opened and no key is found, the keychain is probed (a lookup, never a write: see
    // CredentialStore.probe), so that a missing or refused keychain is shown as such before a key is entered.
    if (options.probe && r.ok && r.value === null && store.kind === 'keyring') {
      const probe = await store.probe()
      if (profile.id === this.d.current().profile.id) this.d.status.noteKeychain(probe)
    } else if (!r.ok || r.value !== null) this.d.status.noteKeychain(r)
    this.d.status.setHasKey(r.ok && r.value !== null)
  }

  info(profile: Profile): KeyInfo {
    return {
      profileId: profile.id,
      hasKey: this.d.status.hasKey,
      label: profile.keyLabel,
      expiresAt: profile.keyExpiresAt,
    }
  }

  async set(request: {
    key: string
    label?: string | null
    expiresAt?: string | null
  }): Promise<Result<KeyInfo>> {
    const key = request.key.trim()
    // Not a key (a word, a fragment, a key in its quotes): refused before it is sent anywhere or scrubbed.
    const problem = keyFormatProblem(key)
    if (problem !== null) return fail(invalid(keyFormatMessage(problem), 'key'))
    // A real key from now on, whatever the venue answers, and whether or not it is ever stored.
    this.d.secrets.remember(key)
    return this.serial(async () => {
      const { profile, rest, unavailable } = this.d.current()
      if (request.label && request.label.includes(key))
        return fail(invalid('The label contains the key itself. Use a name that describes the key instead.'))
      if (!rest) return fail(unavailable ?? { code: 'network', message: 'No connection profile is active.' })
      // Verify first: a key the exchange refuses never replaces one that works.
      const verified = await rest.verifyKey(key)
      if (!verified.ok) {
        this.d.log.warn('monitor: new API key rejected by the exchange', {
          code: verified.error.code,
          profile: profile.id,
        })
        return fail(scrubError(verified.error, key))
      }
      const stored = await this.d.storeFor(profile).set(profile.id, key)
      this.d.status.noteKeychain(stored)
      if (!stored.ok) return fail(scrubError(stored.error, key))
      this.use(profile.id, key)
      const updated = await this.d.updateProfile(profile.id, {
        keyLabel: request.label ?? null,
        keyExpiresAt: request.expiresAt ?? null,
      })
      if (this.d.current().profile.id !== profile.id)
        return fail(invalid('The active profile changed while the key was set.'))
      return this.changed(profile, updated, true, 'monitor: API key stored')
    })
  }

  async clear(): Promise<Result<KeyInfo>> {
    return this.serial(async () => {
      const { profile } = this.d.current()
      const r = await this.d.storeFor(profile).delete(profile.id)
      this.d.status.noteKeychain(r)
      if (!r.ok) return fail(r.error)
      this.release(profile.id)
      const updated = await this.d.updateProfile(profile.id, { keyLabel: null, keyExpiresAt: null })
      return this.changed(profile, updated, false, 'monitor: API key cleared')
    })
  }

  async useDemo(): Promise<Result<KeyInfo>> {
    return this.serial(async () => {
      const { profile } = this.d.current()
      if (!profile.demo) return fail(invalid('The demo key can only be used with the demo profile.'))
      const sim = await this.d.demo.ensure()
      if (!sim) return fail({ code: 'network', message: 'The embedded simulator is not running.' })
      const r = await this.d.storeFor(profile).set(profile.id, sim.demoKey)
      if (!r.ok) return fail(r.error)
      this.use(profile.id, sim.demoKey)
      const updated = await this.d.updateProfile(profile.id, { keyLabel: 'Demo key', keyExpiresAt: null })
      return this.changed(profile, updated, true)
    })
  }

  /** `key` is the one the profile uses: in use for the scrub, in place of the one before. */
  private use(profileId: string, key: string): void {
    const before = this.inUse.get(profileId)
    this.inUse.set(profileId, key)
    this.d.secrets.add(key)
    if (before !== undefined && before !== key) this.releaseKey(before)
  }

  /** The profile uses no key now. */
  private release(profileId: string): void {
    const key = this.inUse.get(profileId)
    if (key === undefined) return
    this.inUse.delete(profileId)
    this.releaseKey(key)
  }

  /** A key no profile uses (nor the demo) is no longer in use for the scrub; it is still scrubbed. */
  private releaseKey(key: string): void {
    for (const other of this.inUse.values()) if (other === key) return
    if (key === this.d.demo.current()?.demoKey) return
    this.d.secrets.release(key)
  }

  /**
   * The keychain now holds `profile`'s new key (or none): the status and whoever reads the key hear of it, and
   * the caller gets the key's info from the updated profile (the old one if its update failed).
   */
  private changed(
    profile: Profile,
    updated: Result<Profile>,
    hasKey: boolean,
    logLine?: string,
  ): Result<KeyInfo> {
    this.d.status.setHasKey(hasKey)
    if (logLine !== undefined) this.d.log.info(logLine, { profile: profile.id })
    this.d.keyChanged()
    return ok(this.info(updated.ok ? updated.value : profile))
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task)
    this.queue = run.catch(() => undefined)
    return run
  }
}
