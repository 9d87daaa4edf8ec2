// Keys, profiles and workspaces: what the user keeps between runs, and what changes when a key does.
import { KeyManager } from '../credentials/keys'
import { ProfileService } from '../settings/profiles'
import { WorkspaceService } from '../settings/workspaces'
import type { Engine, Wiring } from './engine'

export function wireSettings(w: Wiring): Pick<Engine, 'keys' | 'profiles' | 'workspaces'> {
  const { log, settings, parts: p } = w
  const keys = new KeyManager({
    log,
    secrets: w.secrets,
    status: p.status,
    demo: w.demo,
    storeFor: w.storeFor,
    current: () => ({
      profile: p.connection.profile,
      rest: p.connection.rest,
      unavailable: p.connection.unavailable,
    }),
    updateProfile: (id, patch) => p.profiles.update(id, patch),
    keyChanged: () => {
      p.restBooks.reset()
      p.accountRest.reset()
      p.accountRest.refresh()
      p.catalog.invalidate()
      p.registry.keyChanged()
      p.orders.keyChanged()
      p.status.setError(null)
    },
  })
  return {
    keys,
    profiles: new ProfileService(settings, p.connection, w.credentials, log),
    workspaces: new WorkspaceService({
      settings,
      now: w.now,
      changed: () => p.fanout.workspaceChanged(),
      priceUnitChanged: () => p.alerts.priceUnitChanged(),
    }),
  }
}
