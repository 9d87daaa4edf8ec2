// Connection profiles and the active one; re-read after any change made in key settings.
import { create } from 'zustand'
import type { AdapterChoice, MonitorApi } from '../../shared/ipc'
import type { Profile } from '../../shared/model'

export interface ProfilesState {
  profiles: Profile[]
  activeId: string | null
  /** The venue adapters a profile can choose. */
  adapters: AdapterChoice[]
  error: string | null
  load(api: MonitorApi): Promise<void>
}

export const useProfiles = create<ProfilesState>()((set) => ({
  profiles: [],
  activeId: null,
  adapters: [],
  error: null,
  load: async (api) => {
    const r = await api.listProfiles()
    if (r.ok)
      set({
        profiles: r.value.profiles,
        activeId: r.value.activeId,
        adapters: r.value.adapters ?? [],
        error: null,
      })
    else set({ error: r.error.message })
  },
}))

export function activeProfile(s: Pick<ProfilesState, 'profiles' | 'activeId'>): Profile | null {
  return s.profiles.find((p) => p.id === s.activeId) ?? null
}
