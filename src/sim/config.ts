// The simulator's configuration file (DESIGN §3.1): schema, defaults and a loader with one-line errors.
import { readFileSync } from 'node:fs'
import { z } from 'zod'

export const PERMISSIONS = [
  'read_orders',
  'create_orders',
  'cancel_orders',
  'read_positions',
  'read_wallet',
] as const
export type Permission = (typeof PERMISSIONS)[number]

const keySchema = z
  .object({
    value: z.string().min(1, 'key "value" must be a non-empty string'),
    name: z.string().optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
    enabled: z.boolean().optional(),
    revoked: z.boolean().optional(),
    allowedIps: z.array(z.string().min(1)).optional(),
    permissions: z.array(z.enum(PERMISSIONS)).optional(),
  })
  .strict()

const rateLimitSchema = z
  .object({
    requests: z.number().int().min(1),
    windowMs: z.number().int().min(1),
  })
  .strict()

export const simConfigSchema = z
  .object({
    keys: z.array(keySchema).optional(),
    events: z.number().int().min(1).max(500).optional(),
    marketsPerEvent: z.number().int().min(1).max(20).optional(),
    rateLimit: rateLimitSchema.optional(),
    /** VoxFi: the trade paths' own per-key bucket. */
    tradeRateLimit: rateLimitSchema.optional(),
    /** VoxFi: which documented answer Place Order gives, (a) the trades or (b) the dev page's order status. */
    orderAnswer: z.enum(['a', 'b']).optional(),
  })
  .strict()

export type SimKeyConfig = z.infer<typeof keySchema>
export type SimConfig = z.infer<typeof simConfigSchema>

export interface ResolvedConfig {
  keys: SimKeyConfig[]
  events: number
  marketsPerEvent: number
  rateLimit: { requests: number; windowMs: number }
  tradeRateLimit: { requests: number; windowMs: number }
  orderAnswer: 'a' | 'b'
}

export const DEFAULTS = {
  events: 12,
  marketsPerEvent: 4,
  rateLimit: { requests: 120, windowMs: 60_000 },
  tradeRateLimit: { requests: 40, windowMs: 1000 },
  orderAnswer: 'a',
} as const

export class ConfigError extends Error {
  override name = 'ConfigError'
}

function describe(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ')
}

/** Validate a config value; throws ConfigError with a one-line reason. */
export function parseConfig(value: unknown): SimConfig {
  const r = simConfigSchema.safeParse(value)
  if (!r.success) throw new ConfigError(`invalid simulator config: ${describe(r.error)}`)
  const seen = new Set<string>()
  for (const k of r.data.keys ?? []) {
    if (seen.has(k.value)) throw new ConfigError('invalid simulator config: keys: duplicate key value')
    seen.add(k.value)
  }
  return r.data
}

export function resolveConfig(config: SimConfig | undefined): ResolvedConfig {
  const c = config === undefined ? {} : parseConfig(config)
  return {
    keys: c.keys ?? [],
    events: c.events ?? DEFAULTS.events,
    marketsPerEvent: c.marketsPerEvent ?? DEFAULTS.marketsPerEvent,
    rateLimit: c.rateLimit ?? { ...DEFAULTS.rateLimit },
    tradeRateLimit: c.tradeRateLimit ?? { ...DEFAULTS.tradeRateLimit },
    orderAnswer: c.orderAnswer ?? DEFAULTS.orderAnswer,
  }
}

/** Read and validate a config file; throws ConfigError with a one-line reason. */
export function loadConfigFile(path: string): SimConfig {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new ConfigError(
      `cannot read config file ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(e as Error).message}`)
  }
  try {
    return parseConfig(value)
  } catch (e) {
    throw new ConfigError(`config file ${path}: ${(e as Error).message}`)
  }
}
