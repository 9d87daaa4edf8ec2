// Validation of every MonitorApi call that crosses a trust boundary (Electron IPC, browser bridge).
// A window is untrusted input to main: each argument list is checked before the engine sees it.
import { z } from 'zod'
import { alertRuleInputSchema, issueField, keepRunningSchema, MAX_SNOOZE_MINUTES } from './alerts'
import { adapterChoice } from './adapters/name'
import type { MethodArgs, MonitorMethod } from './ipc'
import { JSON_LIMITS, jsonLimitProblem } from './json-limits'
import { orderRequestSchema, tradingSettingsInputSchema } from './trading'
import {
  bigTradeRuleSchema,
  idSchema,
  watchlistInputSchema,
  priceUnitSchema,
  windowKeySchema,
  workspaceInputSchema,
} from './workspace'

const id = z.string().min(1).max(200)
const filter = z.enum(['all', 'orderbook', 'trades'])
const interest = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('market'), id, filter }).strict(),
  z.object({ channel: z.literal('event'), id, filter }).strict(),
  z.object({ channel: z.literal('user') }).strict(),
])
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/, 'expected a date as YYYY-MM-DD')
  .nullable()
const url = z.string().min(1).max(2000)
const windowTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('main') }).strict(),
  z.object({ kind: z.literal('market'), market: id }).strict(),
  z.object({ kind: z.literal('event'), event: id }).strict(),
])

// ---- record and replay: a recording is named by its file name inside the recordings folder, never a path.
export const MAX_REPLAY_SPEED = 50
const recordingName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._-]+$/, 'a recording name has letters, digits, ".", "_" and "-" only (no path)')
  .refine((name) => !name.includes('..') && !name.startsWith('.'), 'a recording name cannot contain ".."')
const replaySpeed = z
  .number()
  .min(1, 'speed must be at least 1')
  .max(MAX_REPLAY_SPEED, `speed must be at most ${MAX_REPLAY_SPEED}`)

const argSchemas: { [M in MonitorMethod]: z.ZodType<MethodArgs<M>> } = {
  listEvents: z.tuple([z.object({ refresh: z.boolean().optional() }).strict().optional()]) as never,
  setInterests: z.tuple([z.array(interest).max(5000)]),
  setBookDepth: z.tuple([z.number().int().min(1).max(500)]),
  getMarketSnapshot: z.tuple([id]),
  getUserHistory: z.tuple([]),
  resync: z.tuple([id]),
  reconnectNow: z.tuple([]),
  getStatus: z.tuple([]),
  setInspector: z.tuple([z.boolean()]),
  setVisibility: z.tuple([z.boolean()]),
  getKeyInfo: z.tuple([]),
  setApiKey: z.tuple([
    z
      .object({
        key: z.string().trim().min(1, 'the key is empty').max(4096),
        label: z.string().max(200).nullable().optional(),
        expiresAt: isoDate.optional(),
      })
      .strict(),
  ]) as never,
  clearApiKey: z.tuple([]),
  useDemoKey: z.tuple([]),
  listProfiles: z.tuple([]),
  saveProfile: z.tuple([
    z
      .object({
        id: id.optional(),
        name: z.string().trim().min(1).max(100),
        baseUrl: url,
        wsUrl: url,
        adapter: adapterChoice.optional(),
      })
      .strict(),
  ]) as never,
  selectProfile: z.tuple([id]),
  deleteProfile: z.tuple([id]),
  getAlerts: z.tuple([]),
  saveAlert: z.tuple([alertRuleInputSchema]) as never,
  deleteAlert: z.tuple([id]),
  setAlertEnabled: z.tuple([id, z.boolean()]),
  snoozeAlert: z.tuple([
    id,
    z
      .number()
      .int('minutes must be a whole number')
      .min(1, 'minutes must be at least 1')
      .max(MAX_SNOOZE_MINUTES, `minutes must be at most ${MAX_SNOOZE_MINUTES}`)
      .nullable(),
  ]),
  acknowledgeAlerts: z.tuple([z.union([z.literal('all'), z.array(z.number().int().min(0)).max(1000)])]),
  pauseAlerts: z.tuple([z.boolean()]),
  setKeepRunning: z.tuple([keepRunningSchema]),
  openWindow: z.tuple([windowTarget]),
  installUpdate: z.tuple([]),
  getWorkspaces: z.tuple([]),
  saveWorkspace: z.tuple([workspaceInputSchema]) as never,
  deleteWorkspace: z.tuple([id]),
  setWindowWorkspace: z.tuple([windowKeySchema, id]),
  setWindowMarket: z.tuple([windowKeySchema, idSchema.nullable()]),
  saveWatchlist: z.tuple([watchlistInputSchema]) as never,
  deleteWatchlist: z.tuple([id]),
  setBigTrade: z.tuple([id, bigTradeRuleSchema.nullable()]),
  setPriceUnit: z.tuple([priceUnitSchema]),
  // ---- record and replay
  startRecording: z.tuple([]),
  stopRecording: z.tuple([]),
  listRecordings: z.tuple([]),
  startReplay: z.tuple([z.object({ file: recordingName, speed: replaySpeed.optional() }).strict()]) as never,
  controlReplay: z.tuple([
    z
      .object({
        speed: replaySpeed.optional(),
        paused: z.boolean().optional(),
        seekMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      })
      .strict(),
  ]) as never,
  stopReplay: z.tuple([]),
  // ---- trading
  getAccount: z.tuple([]),
  setTrading: z.tuple([tradingSettingsInputSchema]) as never,
  placeOrder: z.tuple([orderRequestSchema]) as never,
  cancelOrder: z.tuple([id]),
  cancelAllOrders: z.tuple([]),
  mergePositions: z.tuple([
    z.object({ market: id, quantity: z.number().int().min(1, 'at least 1 pair').max(10_000_000) }).strict(),
  ]),
  getJournal: z.tuple([]),
}

export type ValidateResult<M extends MonitorMethod> =
  { ok: true; args: MethodArgs<M> } | { ok: false; message: string }

export function isMonitorMethod(name: unknown): name is MonitorMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(argSchemas, name)
}

/** No method takes more than two arguments; a long list is refused before any of it is read. */
const MAX_ARGUMENTS = 8

/**
 * Each argument within shared/json-limits.ts's depth and size limits, before any schema reads it: a 10,000-deep
 * argument is refused here, naming the argument and the limit, and never reaches the engine, whose replies and
 * batches must always serialise. Null when every argument is within them.
 */
function argumentLimits(method: string, args: readonly unknown[]): string | null {
  if (args.length > MAX_ARGUMENTS) return `${method}: more than ${MAX_ARGUMENTS} arguments`
  for (let i = 0; i < args.length; i++) {
    const problem = jsonLimitProblem(args[i], JSON_LIMITS)
    if (problem !== null) return `${method}: argument ${i + 1} refused: ${problem.message}`
  }
  return null
}

/** Check one call's arguments. Trailing undefined arguments (optional parameters) are allowed. */
export function validateArgs<M extends MonitorMethod>(method: M, args: unknown): ValidateResult<M> {
  if (!Array.isArray(args)) return { ok: false, message: `${method}: arguments must be an array` }
  const limited = argumentLimits(method, args)
  if (limited !== null) return { ok: false, message: limited }
  const trimmed = [...args]
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === undefined) trimmed.pop()
  const schema = argSchemas[method] as z.ZodType<MethodArgs<M>>
  // Optional single-argument methods accept zero arguments.
  const attempt = schema.safeParse(trimmed)
  if (attempt.success) return { ok: true, args: attempt.data }
  const issue = attempt.error.issues[0]
  if (method === 'saveAlert' && issue) {
    // The path starts with the argument index; the user knows the rule's fields, not the call's.
    return { ok: false, message: `Invalid alert: ${issueField(issue.path.slice(1))}: ${issue.message}` }
  }
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''
  return { ok: false, message: `${method}: invalid arguments${where}: ${issue?.message ?? 'rejected'}` }
}

// ---- book deltas: a window checks each before folding it into the view it holds (store/monitor.ts). They come
// from the engine, but through the browser host's socket and a merge; a malformed one must cost a whole view,
// never a wrong book. Hand-written: this runs for every changed book of every batch.

/** A view holds at most MAX_DEPTH (fanout/client.ts) levels a side; a delta names at most those entering and leaving. */
const MAX_BOOK_LEVELS = 1000

const isCount = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0

function depthProblem(depth: unknown): boolean {
  if (typeof depth !== 'object' || depth === null) return true
  const d = depth as Record<string, unknown>
  return !isCount(d.bids) || !isCount(d.asks)
}

/** Changes of one side: [finite price, finite size ≥ 0] pairs, each price once. */
function changesProblem(changes: unknown): boolean {
  if (changes === undefined) return false
  if (!Array.isArray(changes) || changes.length > 2 * MAX_BOOK_LEVELS) return true
  const prices = new Set<number>()
  for (const level of changes as unknown[]) {
    if (!Array.isArray(level) || level.length !== 2) return true
    const [price, size] = level as unknown[]
    if (typeof price !== 'number' || !Number.isFinite(price)) return true
    if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) return true
    if (prices.has(price)) return true
    prices.add(price)
  }
  return false
}

const optionalNumber = (x: unknown): boolean =>
  x === undefined || (typeof x === 'number' && Number.isFinite(x))
const nullableNumber = (x: unknown): boolean => x === null || (typeof x === 'number' && Number.isFinite(x))
const BOOK_STATES: ReadonlySet<unknown> = new Set(['empty', 'live', 'quiet', 'stale', 'resyncing'])

/** Why `value` is not a well-formed BookDelta (model.ts), or null when it is one. */
export function bookDeltaProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const d = value as Record<string, unknown>
  if (typeof d.market !== 'string' || d.market.length === 0) return 'no market'
  if (!Number.isSafeInteger(d.base) || !Number.isSafeInteger(d.version))
    return `${d.market}: no base or version`
  if (!BOOK_STATES.has(d.state)) return `${d.market}: unknown state`
  if (d.staleReason !== null && typeof d.staleReason !== 'string') return `${d.market}: bad staleReason`
  if (depthProblem(d.depth)) return `${d.market}: bad depth`
  if (!nullableNumber(d.seq) || !nullableNumber(d.updatedAt)) return `${d.market}: bad seq or updatedAt`
  if (!optionalNumber(d.usualGapMs) || !optionalNumber(d.resyncAttempt)) return `${d.market}: bad number`
  if (d.source !== undefined && d.source !== 'rest' && d.source !== 'stream') return `${d.market}: bad source`
  if (changesProblem(d.bids) || changesProblem(d.asks)) return `${d.market}: bad level changes`
  if (d.no !== undefined) {
    if (typeof d.no !== 'object' || d.no === null) return `${d.market}: bad NO book`
    const no = d.no as Record<string, unknown>
    if (depthProblem(no.depth) || changesProblem(no.bids) || changesProblem(no.asks))
      return `${d.market}: bad NO book`
  }
  return null
}
