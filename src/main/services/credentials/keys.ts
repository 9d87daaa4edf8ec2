// The API key of each profile: looked up for the user channel and the listing, verified before it is stored,
// rotated without a restart, cleared, or the demo key used. Changes are serialised, one at a time. The key lives
// only in the credential store and, for the length of one call, in a local variable: never in a batch, a log
// line, an error message or the settings file.
//
// The key scrub (feed/redact.ts) knows a key only once the venue accepted it: verified, or loaded from the
// keychain (it was verified when it was stored). It leaves when it is replaced or cleared, or when the exchange
// answers a new verification of it with 401 (the key itself is invalid, expired or disabled); then it is not taken
// up again from the keychain until a key is entered. A mistyped key never joins, so it never scrubs anything.
// A 4001 close or an `unauthorized` error on the user channel does not remove the stored key: VoxFi sends 4001
// for a key used from an IP off its allow-list too (the key is still good and still used for REST), and a venue
// that refuses a key may go on to quote it; the scrub matches whole tokens only, so keeping it costs nothing.
import { fail, MIN_KEY_LENGTH, ok, type KeyInfo } from '../../../shared/ipc'
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
  /** Per profile, the key the scrub knows for it. */
  private readonly accepted = new Map<string, string>()
  /** Per profile, its stored key that a verification refused (401): not scrubbed, not taken up again when read. */
  private readonly refused = new Map<string, string>()

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
    if (r.value === null) this.forget(profile.id)
    else if (this.refused.get(profile.id) !== r.value) this.accept(profile.id, r.value)
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
    // A shorter string is a word or a fragment, not a key: refused before it is sent anywhere.
    if (key.length < MIN_KEY_LENGTH)
      return fail(
        invalid(
          `The key is too short: API keys have at least ${MIN_KEY_LENGTH} characters. Paste the whole key as the ` +
            'exchange showed it.',
          'key',
        ),
      )
    return this.serial(async () => {
      const { profile, rest, unavailable } = this.d.current()
      if (request.label && request.label.includes(key))
        return fail(invalid('The label contains the key itself. Use a name that describes the key instead.'))
      if (!rest) return fail(unavailable ?? { code: 'network', message: 'No connection profile is active.' })
      // Verify first: a key the exchange refuses never replaces one that works, and never joins the scrub (the
      // refusal's own text is scrubbed of it here and in rest.ts).
      const verified = await rest.verifyKey(key)
      if (!verified.ok) {
        this.d.log.warn('monitor: new API key rejected by the exchange', {
          code: verified.error.code,
          profile: profile.id,
        })
        if (this.accepted.get(profile.id) === key && isRefusal(verified.error)) this.refuse(profile.id)
        return fail(scrubError(verified.error, key))
      }
      const stored = await this.d.storeFor(profile).set(profile.id, key)
      this.d.status.noteKeychain(stored)
      if (!stored.ok) return fail(scrubError(stored.error, key))
      this.accept(profile.id, key)
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
      this.forget(profile.id)
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
      this.accept(profile.id, sim.demoKey)
      const updated = await this.d.updateProfile(profile.id, { keyLabel: 'Demo key', keyExpiresAt: null })
      return this.changed(profile, updated, true)
    })
  }

  /** `key` is the one the venue accepts for the profile: scrubbed from now on, in place of the one before. */
  private accept(profileId: string, key: string): void {
    this.refused.delete(profileId)
    const before = this.accepted.get(profileId)
    if (before === key) {
      this.d.secrets.add(key)
      return
    }
    this.forget(profileId)
    this.accepted.set(profileId, key)
    this.d.secrets.add(key)
  }

  private refuse(profileId: string): void {
    const key = this.accepted.get(profileId)
    if (key === undefined) return
    this.forget(profileId)
    this.refused.set(profileId, key)
  }

  /** The profile's key leaves the scrub, unless another profile still uses it (or it is the demo key). */
  private forget(profileId: string): void {
    this.refused.delete(profileId)
    const key = this.accepted.get(profileId)
    if (key === undefined) return
    this.accepted.delete(profileId)
    for (const other of this.accepted.values()) if (other === key) return
    if (key === this.d.demo.current()?.demoKey) return
    this.d.secrets.remove(key)
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

/** The venue said no to the key itself (not a network failure, a timeout or a rate limit). */
function isRefusal(error: ApiError): boolean {
  return error.code === 'unauthorized'
}
