// Each profile's trading settings (docs/trading.md): its mode, one-click and limits, kept in the settings file.
// A profile starts `off`, except the built-in demo, which starts `live` (its venue is the simulator). Switching to
// `live` needs the window's word that the user confirmed: a stray call can never arm real orders.
import { fail, ok } from '../../../shared/ipc'
import { DEMO_PROFILE_ID, type Result } from '../../../shared/model'
import {
  DEFAULT_LIMITS,
  type TradingLimits,
  type TradingSettings,
  type TradingSettingsInput,
} from '../../../shared/trading'
import { invalid } from '../base/errors'
import type { TradingEntry } from './schema'
import { UNCHANGED, type SettingsStore } from './store'

/** `paperOnly`: a replay's read-only profile, where paper is the only trading there is, and its default. */
export function defaultTrading(profileId: string, paperOnly = false): TradingSettings {
  const mode = paperOnly ? 'paper' : profileId === DEMO_PROFILE_ID ? 'live' : 'off'
  return { mode, oneClick: false, limits: { ...DEFAULT_LIMITS } }
}

function sameLimits(a: TradingLimits, b: TradingLimits): boolean {
  return (
    a.maxContracts === b.maxContracts &&
    a.maxOrderValue === b.maxOrderValue &&
    a.maxOpenOrders === b.maxOpenOrders &&
    a.farTicks === b.farTicks
  )
}

export class TradingSettingsStore {
  constructor(
    private readonly d: {
      settings: Pick<SettingsStore, 'get' | 'update'>
      /** The profile's settings changed: windows hear of it. */
      changed(profileId: string): void
      /** A profile that can only paper-trade (a replay): live is refused there. */
      paperOnly(profileId: string): boolean
    },
  ) {}

  get(profileId: string): TradingSettings {
    const entry = this.d.settings.get().trading.find((t) => t.profileId === profileId)
    if (entry === undefined) return defaultTrading(profileId, this.d.paperOnly(profileId))
    const { profileId: _, ...settings } = entry
    return settings
  }

  async set(profileId: string, input: TradingSettingsInput): Promise<Result<TradingSettings>> {
    const current = this.get(profileId)
    if (input.mode === 'live' && this.d.paperOnly(profileId)) {
      return fail(
        invalid('A replay can only be traded on paper: nothing reaches a venue during a replay.', 'mode'),
      )
    }
    if (input.mode === 'live' && current.mode !== 'live' && input.confirmLive !== true) {
      return fail(
        invalid('Switching to live trading needs your confirmation: live orders are real money.', 'mode'),
      )
    }
    const next: TradingSettings = {
      mode: input.mode ?? current.mode,
      oneClick: input.oneClick ?? current.oneClick,
      limits: { ...current.limits, ...input.limits },
    }
    if (
      next.mode === current.mode &&
      next.oneClick === current.oneClick &&
      sameLimits(next.limits, current.limits)
    ) {
      return ok(current)
    }
    const entry: TradingEntry = { profileId, ...next }
    const r = await this.d.settings.update((s) => {
      const others = s.trading.filter((t) => t.profileId !== profileId)
      const before = s.trading.find((t) => t.profileId === profileId)
      if (before !== undefined && JSON.stringify(before) === JSON.stringify(entry)) return UNCHANGED
      return { ...s, trading: [...others, entry] }
    })
    if (!r.ok) return r
    this.d.changed(profileId)
    return ok(next)
  }
}
