// Connection profiles in settings: which one is active, and adding, editing, selecting and deleting them. The
// demo profile always exists and cannot be edited; editing the active profile's endpoints reconnects.
import { randomUUID } from 'node:crypto'
import { fail, ok, type ProfileInput } from '../../../shared/ipc'
import { DEMO_PROFILE_ID, type Profile, type Result } from '../../../shared/model'
import type { ConnectionManager } from '../feed/connection'
import type { CredentialStore } from '../credentials/store'
import { internal, invalid } from '../base/errors'
import { isBuiltInProfile, voxfiProfiles, type SettingsStore } from './store'
import { validateEndpoints } from '../../../shared/endpoints'
import type { Logger } from '../base/types'

export function activeProfileOf(settings: SettingsStore): Profile {
  const s = settings.get()
  const found = s.profiles.find((p) => p.id === s.activeProfileId) ?? s.profiles.find((p) => p.demo)
  if (!found) throw new Error('settings have no usable profile')
  return found
}

export class ProfileService {
  constructor(
    private readonly settings: SettingsStore,
    private readonly connection: ConnectionManager,
    /** The keychain store of real profiles (a deleted profile's key is removed from it). */
    private readonly credentials: CredentialStore,
    private readonly log: Logger,
  ) {}

  active(): Profile {
    return activeProfileOf(this.settings)
  }

  list(): { profiles: Profile[]; activeId: string } {
    return {
      profiles: this.all().map((p) => this.connection.withRuntimeUrls(p)),
      activeId: this.connection.profile.id,
    }
  }

  /** The settings file's profiles, then the built-in VoxFi ones it does not hold yet. */
  private all(): Profile[] {
    const stored = this.settings.get().profiles
    return [...stored, ...voxfiProfiles().filter((v) => !stored.some((p) => p.id === v.id))]
  }

  async update(id: string, patch: Partial<Profile>): Promise<Result<Profile>> {
    const r = await this.settings.update((s) => ({
      ...s,
      profiles: s.profiles.map((p) => (p.id === id ? { ...p, ...patch } : p)),
    }))
    if (!r.ok) return r
    const updated = r.value.profiles.find((p) => p.id === id)
    if (!updated) return fail(internal('The profile disappeared while it was being updated.'))
    if (this.connection.profile.id === id) this.connection.profile = updated
    return ok(updated)
  }

  async save(input: ProfileInput): Promise<Result<Profile>> {
    if (input.id === DEMO_PROFILE_ID) return fail(invalid('The demo profile cannot be edited.'))
    if (input.id !== undefined && isBuiltInProfile(input.id))
      return fail(invalid('A built-in VoxFi profile cannot be edited: add a profile of your own instead.'))
    const endpoints = validateEndpoints(input.baseUrl, input.wsUrl)
    if (!endpoints.ok) return fail(endpoints.error)
    const current = this.settings.get().profiles
    const existing = input.id !== undefined ? current.find((p) => p.id === input.id) : undefined
    if (input.id !== undefined && !existing) return fail(invalid(`There is no profile "${input.id}".`))
    const profile: Profile = {
      id: existing?.id ?? `p-${randomUUID().slice(0, 8)}`,
      name: input.name.trim(),
      baseUrl: endpoints.value.baseUrl,
      wsUrl: endpoints.value.wsUrl,
      demo: false,
      keyLabel: existing?.keyLabel ?? null,
      keyExpiresAt: existing?.keyExpiresAt ?? null,
    }
    const adapter = input.adapter ?? existing?.adapter
    if (adapter !== undefined && adapter !== 'auto') profile.adapter = adapter
    const r = await this.settings.update((s) => ({
      ...s,
      profiles: existing
        ? s.profiles.map((p) => (p.id === profile.id ? profile : p))
        : [...s.profiles, profile],
    }))
    if (!r.ok) return fail(r.error)
    const saved = r.value.profiles.find((p) => p.id === profile.id) ?? profile
    if (existing && this.connection.profile.id === saved.id) {
      // A new adapter reads from the next connection on, so a change of adapter reconnects too.
      const moved =
        existing.baseUrl !== saved.baseUrl ||
        existing.wsUrl !== saved.wsUrl ||
        (existing.adapter ?? 'auto') !== (saved.adapter ?? 'auto')
      this.connection.profile = saved
      if (moved) await this.connection.connect(saved)
    }
    return ok(saved)
  }

  async select(id: string): Promise<Result<void>> {
    const profile = this.all().find((p) => p.id === id)
    if (!profile) return fail(invalid(`There is no profile "${id}".`))
    const r = await this.settings.update((s) => ({
      ...s,
      profiles: s.profiles.some((p) => p.id === id) ? s.profiles : [...s.profiles, profile],
      activeProfileId: id,
    }))
    if (!r.ok) return fail(r.error)
    if (this.connection.profile.id !== id || !this.connection.hasStream())
      await this.connection.connect(profile)
    this.log.info('monitor: profile selected', { profile: id })
    return ok(undefined)
  }

  async delete(id: string): Promise<Result<void>> {
    const profile = this.all().find((p) => p.id === id)
    if (!profile) return fail(invalid(`There is no profile "${id}".`))
    if (profile.demo) return fail(invalid('The demo profile cannot be deleted.'))
    if (isBuiltInProfile(id)) return fail(invalid('A built-in VoxFi profile cannot be deleted.'))
    const wasActive = this.connection.profile.id === id
    const r = await this.settings.update((s) => ({
      ...s,
      profiles: s.profiles.filter((p) => p.id !== id),
      activeProfileId: s.activeProfileId === id ? DEMO_PROFILE_ID : s.activeProfileId,
    }))
    if (!r.ok) return fail(r.error)
    const removed = await this.credentials.delete(id)
    if (!removed.ok)
      this.log.warn('monitor: could not delete the key of a deleted profile', { code: removed.error.code })
    if (wasActive) await this.connection.connect(this.active())
    return ok(undefined)
  }
}
