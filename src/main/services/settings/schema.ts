// What a valid settings document is: the zod schema of the file, its defaults, and endpoint validation.
// The schema strips unknown fields (a newer version's extras, and above all any stray API key) and refuses
// anything that would make the engine misbehave; the file's version number guards real format changes.
// Updates are checked strictly (parseSettings); a file on disk is read section by section
// (repairSettings) so one bad entry costs only that entry.
import { z } from 'zod'
import {
  alertRuleSchema,
  keepRunningSchema,
  MAX_ALERT_RULES,
  type AlertRule,
  type KeepRunning,
} from '../../../shared/alerts'
import { listSection, readSections, strictShape, valueSection } from './sections'
import { adapterChoice } from '../../../shared/adapters/name'
import { ENDPOINT_URL_MAX, validateEndpoints } from '../../../shared/endpoints'
import {
  bigTradeEntrySchema,
  idSchema,
  MAX_BIG_TRADE_RULES,
  MAX_WATCHLISTS,
  MAX_WINDOW_WORKSPACES,
  MAX_WORKSPACES,
  priceUnitSchema,
  watchlistSchema,
  windowMarketSchema,
  windowWorkspaceSchema,
  workspaceSchema,
  type BigTradeEntry,
  type Watchlist,
  type WindowMarket,
  type WindowWorkspace,
  type Workspace,
} from '../../../shared/workspace'
import { fail, ok } from '../../../shared/ipc'
import { tradingSettingsSchema, type TradingSettings } from '../../../shared/trading'
import { DEMO_PROFILE_ID } from '../../../shared/model'
import type { Profile, Result, WindowLayout } from '../../../shared/model'
import type { PriceUnit } from '../../../shared/price-format'

export type Theme = 'system' | 'dark' | 'light'

/** Deliberately has no field for an API key: keys live in the OS keychain only (DESIGN §4). */
export interface Settings {
  version: 1
  profiles: Profile[]
  activeProfileId: string
  windows: WindowLayout[]
  ui?: { theme?: Theme; priceUnit?: PriceUnit }
  /** Alert rules (each versioned by its own `v`); a bad rule is set aside on load, the others kept. */
  alertRules: AlertRule[]
  /** What happens when every window is closed (DESIGN: the tray keeps watching while alerts are armed). */
  keepRunning: KeepRunning
  /** Named docked layouts; a bad one is set aside on load, the others kept (docs/workspaces.md). */
  workspaces: Workspace[]
  watchlists: Watchlist[]
  /** The workspace each window showed last, restored on relaunch. */
  windowWorkspaces: WindowWorkspace[]
  /** The market each window had selected last, restored on reload and relaunch. */
  windowMarkets: WindowMarket[]
  /** Per-market big-trade highlighting of the tape. */
  bigTrades: BigTradeEntry[]
  /** Each profile's trading mode, one-click and limits (docs/trading.md); a profile without one has the defaults. */
  trading: TradingEntry[]
}

/** One profile's trading settings. */
export interface TradingEntry extends TradingSettings {
  profileId: string
}

export const SETTINGS_VERSION = 1
const MAX_PROFILES = 100
const MAX_WINDOWS = 64

export function demoProfile(): Profile {
  // URLs stay empty: the engine fills in the embedded simulator's at runtime (its port is ephemeral).
  return {
    id: DEMO_PROFILE_ID,
    name: 'Demo (simulator)',
    baseUrl: '',
    wsUrl: '',
    demo: true,
    keyLabel: null,
    keyExpiresAt: null,
  }
}

/**
 * VoxFi's production and dev venues (docs/voxfi.md, "Base URLs"), built in beside the demo so that a trader only
 * enters a key. They are listed whether or not the settings file has them, and written to it when first selected
 * (its active profile must be one of its own). Their endpoints are the venue's and cannot be edited or deleted;
 * a profile of one's own can point anywhere.
 */
export function voxfiProfiles(): Profile[] {
  const venue = (id: string, name: string, api: string, ws: string): Profile => ({
    id,
    name,
    baseUrl: `https://${api}/v1`,
    wsUrl: `wss://${ws}`,
    demo: false,
    keyLabel: null,
    keyExpiresAt: null,
    adapter: 'voxfi',
  })
  return [
    venue('voxfi', 'VoxFi', 'data-api.voxfi.com.br', 'data-ws.voxfi.com.br'),
    venue('voxfi-dev', 'VoxFi (dev)', 'data-api-dev.voxfi.com.br', 'data-ws-dev.voxfi.com.br'),
  ]
}

export function isBuiltInProfile(id: string): boolean {
  return id === DEMO_PROFILE_ID || voxfiProfiles().some((p) => p.id === id)
}

export function defaultSettings(): Settings {
  return {
    version: 1,
    profiles: [demoProfile()],
    activeProfileId: DEMO_PROFILE_ID,
    windows: [],
    alertRules: [],
    keepRunning: 'auto',
    workspaces: [],
    watchlists: [],
    windowWorkspaces: [],
    windowMarkets: [],
    bigTrades: [],
    trading: [],
  }
}

function invalid(message: string): Result<never> {
  return fail({ code: 'invalid_argument', message })
}

const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/, 'expected a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'not a real date')

const profileSchema = z
  .object({
    id: idSchema,
    name: z.string().trim().min(1).max(100),
    baseUrl: z.string().max(ENDPOINT_URL_MAX),
    wsUrl: z.string().max(ENDPOINT_URL_MAX),
    demo: z.boolean(),
    keyLabel: z.string().max(200).nullable(),
    keyExpiresAt: isoDateSchema.nullable(),
    adapter: adapterChoice.optional(),
  })
  .transform((p, ctx): Profile => {
    if (p.id === DEMO_PROFILE_ID) {
      if (!p.demo)
        ctx.addIssue({
          code: 'custom',
          message: `profile "${DEMO_PROFILE_ID}" is the demo profile`,
          params: { detail: 'it must be the demo profile' },
        })
      // Canonical URLs: the demo profile always targets the embedded simulator.
      return { ...p, demo: true, baseUrl: '', wsUrl: '' }
    }
    if (p.demo) {
      ctx.addIssue({
        code: 'custom',
        message: `only profile "${DEMO_PROFILE_ID}" may be the demo profile`,
        params: { detail: `only profile "${DEMO_PROFILE_ID}" may be the demo profile` },
      })
      return p
    }
    const endpoints = validateEndpoints(p.baseUrl, p.wsUrl)
    if (!endpoints.ok) {
      ctx.addIssue({
        code: 'custom',
        message: `profile "${p.id}": ${endpoints.error.message}`,
        params: { detail: endpoints.error.message },
      })
      return p
    }
    return { ...p, ...endpoints.value }
  })

const windowTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('main') }),
  z.object({ kind: z.literal('market'), market: idSchema }),
  z.object({ kind: z.literal('event'), event: idSchema }),
])

const coordinate = z.number().int().min(-100_000).max(100_000)
const extent = z.number().int().min(1).max(100_000)

const windowLayoutSchema = z.object({
  target: windowTargetSchema,
  bounds: z.object({ x: coordinate, y: coordinate, width: extent, height: extent }).nullable(),
  displayId: z.number().finite().nullable(),
  maximized: z.boolean(),
})

const uiSchema = z.object({
  theme: z.enum(['system', 'dark', 'light']).optional(),
  priceUnit: priceUnitSchema.optional(),
})

/**
 * Every section of the file. A new section is one line here plus its field in Settings (the compile-time
 * check below fails until both agree); cross-section rules go in settingsSchema's refinement and, for
 * loading, in repairSettings.
 */
export const SETTINGS_SECTIONS = {
  profiles: listSection({
    entrySchema: profileSchema,
    maxEntries: MAX_PROFILES,
    idKey: 'id',
    required: () => [demoProfile()],
  }),
  activeProfileId: valueSection({ schema: idSchema, default: () => DEMO_PROFILE_ID }),
  windows: listSection({ entrySchema: windowLayoutSchema, maxEntries: MAX_WINDOWS }),
  ui: valueSection({ schema: uiSchema.optional(), default: () => undefined }),
  alertRules: listSection({ entrySchema: alertRuleSchema, maxEntries: MAX_ALERT_RULES, idKey: 'id' }),
  keepRunning: valueSection({ schema: keepRunningSchema, default: (): KeepRunning => 'auto' }),
  workspaces: listSection({ entrySchema: workspaceSchema, maxEntries: MAX_WORKSPACES, idKey: 'id' }),
  watchlists: listSection({ entrySchema: watchlistSchema, maxEntries: MAX_WATCHLISTS, idKey: 'id' }),
  windowWorkspaces: listSection({
    entrySchema: windowWorkspaceSchema,
    maxEntries: MAX_WINDOW_WORKSPACES,
    idKey: 'window',
  }),
  windowMarkets: listSection({
    entrySchema: windowMarketSchema,
    maxEntries: MAX_WINDOW_WORKSPACES,
    idKey: 'window',
  }),
  bigTrades: listSection({
    entrySchema: bigTradeEntrySchema,
    maxEntries: MAX_BIG_TRADE_RULES,
    idKey: 'market',
  }),
  trading: listSection({
    entrySchema: z.object({ profileId: idSchema, ...tradingSettingsSchema.shape }).strict(),
    maxEntries: MAX_PROFILES,
    idKey: 'profileId',
  }),
}

export const settingsSchema = z
  .object({ version: z.literal(SETTINGS_VERSION), ...strictShape(SETTINGS_SECTIONS) })
  .superRefine((s, ctx) => {
    const ids = new Set<string>()
    for (const p of s.profiles) {
      if (ids.has(p.id))
        ctx.addIssue({ code: 'custom', path: ['profiles'], message: `duplicate profile id "${p.id}"` })
      ids.add(p.id)
    }
    if (!ids.has(DEMO_PROFILE_ID)) {
      ctx.addIssue({
        code: 'custom',
        path: ['profiles'],
        message: `the demo profile "${DEMO_PROFILE_ID}" is missing`,
      })
    }
    if (!ids.has(s.activeProfileId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['activeProfileId'],
        message: `active profile "${s.activeProfileId}" does not exist`,
      })
    }
  })

// Compile-time check that what the schema produces is exactly the Settings the rest of the code sees.
type SchemaOutput = z.output<typeof settingsSchema>
const _schemaMatches: [SchemaOutput] extends [Settings]
  ? [Settings] extends [SchemaOutput]
    ? true
    : never
  : never = true
void _schemaMatches

/** Validates a whole settings document (an update) into a clean Settings, or says why not: all or nothing. */
export function parseSettings(input: unknown): Result<Settings> {
  const parsed = settingsSchema.safeParse(input)
  if (parsed.success) return ok(parsed.data)
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ')
  return invalid(`Invalid settings: ${issues}${parsed.error.issues.length > 5 ? '; …' : ''}`)
}

export interface SettingsRepair {
  settings: Settings
  /** One human-readable line per entry or section that was left out or replaced; empty when all was usable. */
  dropped: string[]
}

/**
 * Reads a settings document from disk leniently: keeps every valid entry of every section, drops the rest
 * and says what it dropped. Fails only when the document as a whole cannot be interpreted (not an object,
 * not format version 1): then nothing in it can be trusted to mean what this version thinks.
 */
export function repairSettings(input: unknown): Result<SettingsRepair> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const got = input === null ? 'null' : Array.isArray(input) ? 'a list' : typeof input
    return invalid(`Invalid settings: expected a JSON object, got ${got}`)
  }
  const doc: Readonly<Record<string, unknown>> = { ...input }
  if (doc.version !== SETTINGS_VERSION) {
    const got = typeof doc.version === 'number' ? String(doc.version) : typeof doc.version
    return invalid(`Invalid settings: version: expected ${SETTINGS_VERSION}, got ${got}`)
  }
  const dropped: string[] = []
  const settings: Settings = {
    version: SETTINGS_VERSION,
    ...readSections(SETTINGS_SECTIONS, doc, (item) => dropped.push(item)),
  }
  if (!settings.profiles.some((p) => p.id === settings.activeProfileId)) {
    dropped.push(
      `activeProfileId ${JSON.stringify(settings.activeProfileId)} (no such profile; the demo profile is active instead)`,
    )
    settings.activeProfileId = DEMO_PROFILE_ID
  }
  // The repaired settings must pass the strict check too, or the next unrelated update would be refused.
  const checked = parseSettings(settings)
  if (!checked.ok) return invalid(`${checked.error.message} (after repair)`)
  return ok({ settings: checked.value, dropped })
}
