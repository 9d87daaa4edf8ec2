// The venue adapter format (DESIGN §3.5, docs/adapters.md): a venue's knowledge as data. An adapter file is
// untrusted input (a user may drop one in the settings folder), so this schema is the whole contract: anything
// it accepts compiles, and anything it refuses is named by its field.
import { z } from 'zod'
import { ADAPTER_NAME } from './name'

export const ADAPTER_FORMAT = 'trading-monitor-adapter'

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()])

/**
 * A JSON path: dot-separated keys and array positions ("data.0.px", "-1" for the last element). "$." starts
 * at the frame, "^." at the item one level out; a bare path starts at the current item. "" is the item itself.
 */
const Path = z
  .string()
  .max(200)
  .refine(validPath, 'a path is dot-separated keys or positions, e.g. "data.0.px", "$.arg.instId", "^.id"')

/** `""`, `"$"`, `"^"`, or those followed by non-empty dot-separated segments. */
export function validPath(p: string): boolean {
  const m = /^(\$|\^+)?(.*)$/.exec(p)
  const rest = m?.[2] ?? p
  if (rest === '') return true
  const body = m?.[1] !== undefined ? (rest.startsWith('.') ? rest.slice(1) : null) : rest
  return body !== null && body.split('.').every((s) => s.length > 0)
}

/** A check on one value. Every condition given must hold; `not` turns the result over. */
export interface TestSpec {
  path?: string
  /** Read the value at `path` as a channel id learned from an ack, and test what was learned for it. */
  lookup?: 'channel' | 'market'
  equals?: string | number | boolean | null
  in?: (string | number | boolean | null)[]
  prefix?: string
  suffix?: string
  contains?: string
  matches?: string
  exists?: boolean
  type?: 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null'
  length?: number
  minLength?: number
  maxLength?: number
  not?: boolean
  any?: TestSpec[]
  all?: TestSpec[]
}

const TestType = z.enum(['string', 'number', 'boolean', 'array', 'object', 'null'])

export const Test: z.ZodType<TestSpec> = z.lazy(() =>
  z
    .strictObject({
      path: Path.optional(),
      lookup: z.enum(['channel', 'market']).optional(),
      equals: Scalar.optional(),
      in: z.array(Scalar).max(200).optional(),
      prefix: z.string().max(200).optional(),
      suffix: z.string().max(200).optional(),
      contains: z.string().max(200).optional(),
      matches: z.string().max(200).refine(validRegex, 'not a valid regular expression').optional(),
      exists: z.boolean().optional(),
      type: TestType.optional(),
      length: z.number().int().min(0).optional(),
      minLength: z.number().int().min(0).optional(),
      maxLength: z.number().int().min(0).optional(),
      not: z.boolean().optional(),
      any: z.array(Test).min(1).max(50).optional(),
      all: z.array(Test).min(1).max(50).optional(),
    })
    .refine(
      (t) =>
        t.any !== undefined ||
        t.all !== undefined ||
        (t.path !== undefined &&
          [
            t.equals,
            t.in,
            t.prefix,
            t.suffix,
            t.contains,
            t.matches,
            t.exists,
            t.type,
            t.length,
            t.minLength,
            t.maxLength,
          ].some((c) => c !== undefined)),
      'a test needs a path and a condition (equals, in, prefix, exists, type, ...), or any/all',
    ),
)

function validRegex(s: string): boolean {
  try {
    new RegExp(s)
    return true
  } catch {
    return false
  }
}

/** Where a number lives and how to turn it into ours. */
const NumObject = z.strictObject({
  path: Path.optional(),
  /** A constant instead of a path. */
  value: z.number().optional(),
  /** Multiply: 0.01 for cents, 1e-8 for fixed-point with 8 decimals. */
  scale: z.number().finite().positive().optional(),
  /** 1 - x after scaling: a NO price as the YES price. */
  complement: z.boolean().optional(),
  /** 1 / x after scaling: decimal odds as a probability. */
  invert: z.boolean().optional(),
  /** |x|: a signed size whose sign means the side. */
  abs: z.boolean().optional(),
  /** Added last: Binance's delta starts after `U - 1`. */
  offset: z.number().finite().optional(),
})
export type NumSpecObject = z.infer<typeof NumObject>
/**
 * A path, an object, or a list of up to `max` of either: the first one present is used (`price_dollars`, else
 * `price`).
 */
function pathOr<T extends z.ZodType>(object: T, max: number) {
  return z.union([
    Path,
    object,
    z
      .array(z.union([Path, object]))
      .min(1)
      .max(max),
  ])
}

export const Num = pathOr(NumObject, 8)
export type NumSpec = z.infer<typeof Num>

const MarketObject = z.strictObject({
  path: Path.optional(),
  /** The value at `path` is a channel id: the market learned for it from the subscription ack. */
  lookup: z.boolean().optional(),
  /** Split the text at `path` on `split` and take part `part` (negative counts from the end). */
  split: z.string().min(1).max(10).optional(),
  part: z.number().int().optional(),
  /** A regular expression whose first group is the market. */
  pattern: z.string().max(200).refine(validRegex, 'not a valid regular expression').optional(),
  /** Several paths joined with `sep` (Betfair market and runner). */
  join: z.array(Path).min(1).max(4).optional(),
  sep: z.string().max(5).optional(),
  /** A fixed market id. */
  value: z.string().min(1).max(200).optional(),
  /** Binance names a stream's market in lower case and the payload's in upper case: one spelling for both. */
  case: z.enum(['upper', 'lower']).optional(),
})
export type MarketSpecObject = z.infer<typeof MarketObject>
export const Market = pathOr(MarketObject, 8)
export type MarketSpec = z.infer<typeof Market>

const SideValue = z.enum(['buy', 'sell'])
const SideObject = z.strictObject({
  path: Path.optional(),
  /** The value's text (true/false and numbers as written in JSON) to our side; anything else gives no side. */
  map: z.record(z.string(), z.union([SideValue, z.null()])).optional(),
  /** The side is the sign of the number at this path: positive buys (a bid), negative sells (an ask). */
  sign: Path.optional(),
  value: SideValue.optional(),
})
export const Side = z.union([SideObject, z.array(SideObject).min(1).max(4)])
export type SideSpec = z.infer<typeof Side>

const TsObject = z.strictObject({
  path: Path,
  /** auto reads seconds, ms, µs or ns by magnitude, and ISO dates. */
  unit: z.enum(['auto', 's', 'ms', 'us', 'ns', 'iso']).optional(),
})
export const Ts = pathOr(TsObject, 6)
export type TsSpec = z.infer<typeof Ts>

/** A list of price levels. */
export const Levels = z.strictObject({
  /** Several paths are read one after the other (Kraken v1 puts bids in a second object). */
  path: z.union([Path, z.array(Path).min(1).max(4)]),
  /** The value at `path` is one level, not a list of them (Bitfinex updates). */
  one: z.boolean().optional(),
  /**
   * pairs: each level an array, fields by position ([p, s], [p, count, amount], ...);
   * objects: each level an object ({price, size}); dict: an object whose keys are prices and values sizes.
   */
  shape: z.enum(['pairs', 'objects', 'dict']),
  /** Default "0" for pairs, "price" for objects; for dict the key (transforms apply). */
  price: Num.optional(),
  /** Default "1" for pairs, "size" for objects, the value itself ("") for dict. */
  size: Num.optional(),
  /** For one mixed list: each level's side (a `sign` reads the size's sign). */
  side: Side.optional(),
  /** The level is removed (size 0) when this holds: a count of 0, an action of "delete". */
  remove: Test.optional(),
  /** The level is ignored when this holds (KuCoin's price-0 changes carry only a sequence number). */
  skip: Test.optional(),
  /** Levels keyed by an id (BitMEX L2): the price seen with an id is remembered for updates that omit it. */
  id: Path.optional(),
})
export type LevelsSpec = z.infer<typeof Levels>

const Common = {
  /**
   * The emit's own items inside the rule's item (a path; ending in `*` takes an object's values). Without it
   * the emit builds one update from the rule's item.
   */
  each: Path.optional(),
  /** Tests on each item the emit reads: the emit applies to an item only when all hold. */
  where: z.array(Test).max(20).optional(),
  market: Market.optional(),
}

/** Which contract of a binary market a trade is in: a mapped value (VoxFi's `YES`/`NO`), or a constant. */
const OutcomeValue = z.enum(['yes', 'no'])
const OutcomeObject = z.strictObject({
  path: Path.optional(),
  /** The value's text to our outcome; anything else gives none. */
  map: z.record(z.string(), z.union([OutcomeValue, z.null()])).optional(),
  value: OutcomeValue.optional(),
})
export const Outcome = z.union([OutcomeObject, z.array(OutcomeObject).min(1).max(4)])
export type OutcomeSpec = z.infer<typeof Outcome>

/** Text at a path (strings as sent, numbers as JSON writes them), optionally mapped to other words. */
const TextObject = z.strictObject({
  text: Path,
  /** The value's text to ours; a value the map does not name gives nothing. */
  map: z.record(z.string(), z.union([z.string().max(200), z.null()])).optional(),
})

/**
 * One field of a `user` emit's normalised record: a number (`num`), text (`text`, optionally mapped), a side
 * (`side`), or a constant (`value`). Exactly one of them.
 */
export const UserField = z.union([
  z.strictObject({ num: Num }),
  TextObject,
  z.strictObject({ side: Side }),
  z.strictObject({ value: z.union([z.string().max(200), z.number(), z.boolean(), z.null()]) }),
])
export type UserFieldSpec = z.infer<typeof UserField>

/** A field name of a normalised record: an identifier, never `raw` (the item as sent) nor an inherited key. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/
const RESERVED_FIELDS = new Set(['raw', ...Object.getOwnPropertyNames(Object.prototype)])
const FieldName = z
  .string()
  .regex(FIELD_NAME, 'a field name is letters, digits and _, at most 40')
  .refine((n) => !RESERVED_FIELDS.has(n), 'raw and the names every object inherits are reserved')

const BookEmit = z.strictObject({
  kind: z.literal('book'),
  ...Common,
  /** The NO contract's own book, where a binary venue keeps it apart (VoxFi), in the NO contract's prices. */
  outcome: z.literal('no').optional(),
  bids: Levels.optional(),
  asks: Levels.optional(),
  /** One list holding both sides; its `side` says which. */
  levels: Levels.optional(),
  /** true, false, or a test that holds for snapshots. */
  snapshot: z.union([z.boolean(), Test]),
  /** Deltas are signed changes, not new sizes. */
  relative: z.boolean().optional(),
  seq: Num.optional(),
  /** The sequence the book must be at before this delta. */
  prevSeq: Num.optional(),
})

const TradeEmit = z.strictObject({
  kind: z.literal('trade'),
  ...Common,
  price: Num,
  size: Num,
  /** The taker's side. */
  side: Side.optional(),
  ts: Ts.optional(),
  id: Path.optional(),
  /** Which contract of a binary market traded (VoxFi's `contract_type`). */
  outcome: Outcome.optional(),
})

const TickerEmit = z.strictObject({
  kind: z.literal('ticker'),
  ...Common,
  bid: Num.optional(),
  ask: Num.optional(),
  last: Num.optional(),
  /** The venue's implied probability of YES, 0–1 after scaling. */
  chance: Num.optional(),
  /** Traded volume and resting liquidity, as the venue counts them. */
  volume: Num.optional(),
  liquidity: Num.optional(),
})

const UserEmit = z.strictObject({
  kind: z.literal('user'),
  ...Common,
  topic: z.enum(['order', 'fill', 'position', 'balance', 'other']),
  /**
   * The record in our units (`price` 0–1, `size`, `side`, ...), which the account pane reads. With it the update's
   * `data` is these fields plus `raw` (the item as sent); without it `data` is the item as sent.
   */
  fields: z
    .record(FieldName, UserField)
    .refine((f) => Object.keys(f).length <= 32, 'at most 32 fields')
    .optional(),
})

const ControlEmit = z.strictObject({
  kind: z.literal('control'),
  ...Common,
  topic: z.enum(['subscribed', 'unsubscribed', 'error', 'heartbeat', 'other']),
  /** Where the error's code or message is (errors only). */
  error: z.union([Path, z.array(Path).min(1).max(6)]).optional(),
  /** Remember what a subscription ack says about a channel id (Bitfinex chanId, Kraken channelID). */
  learn: z
    .strictObject({
      id: Path,
      channel: Path.optional(),
      market: Market.optional(),
    })
    .optional(),
})

const InfoEmit = z.strictObject({
  kind: z.literal('info'),
  ...Common,
  topic: z.string().min(1).max(40),
})

export const Emit = z.discriminatedUnion('kind', [
  BookEmit,
  TradeEmit,
  TickerEmit,
  UserEmit,
  ControlEmit,
  InfoEmit,
])
export type EmitSpec = z.infer<typeof Emit>

const RuleObject = z.strictObject({
  name: z.string().min(1).max(80),
  /** Tests on the frame: the first rule whose tests all hold decodes it. */
  when: z.array(Test).max(20),
  /** The items to decode: a list (or one object) at this path; a list of paths walks nested lists. */
  each: z.union([Path, z.array(Path).min(1).max(4)]).optional(),
  /** Defaults for the emits. */
  market: Market.optional(),
  emit: z.array(Emit).min(1).max(12),
})
export type RuleSpec = z.infer<typeof RuleObject>

export const Rule = RuleObject

export const AdapterFile = z.strictObject({
  format: z.literal(ADAPTER_FORMAT),
  version: z.literal(1),
  name: z
    .string()
    .regex(ADAPTER_NAME, 'lower-case letters, digits and dashes, at most 40')
    .refine((n) => n !== 'auto' && n !== 'tolerant', 'auto and tolerant are reserved'),
  title: z.string().min(1).max(80),
  /** The documentation the adapter was written from. */
  docs: z.array(z.string().url()).max(20),
  /**
   * Frames that are not JSON as sent: a text prefix (a regular expression anchored at the start) to take off
   * before parsing the rest (Socket.IO's `42/markets,[...]`).
   */
  textPrefix: z
    .string()
    .max(200)
    .refine((s) => s.startsWith('^') && validRegex(s), 'a regular expression starting with ^')
    .optional(),
  /** Whether a frame is this venue's at all; auto-detection asks this first. */
  detect: Test,
  rules: z.array(Rule).min(1).max(200),
})
export type AdapterSpec = z.infer<typeof AdapterFile>

/** Zod's issues as one line each, naming the field: `rules.3.emit.0.price: Invalid input`. */
export function adapterIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 10).map((i) => {
    const where = i.path.map(String).join('.')
    return where ? `${where}: ${i.message}` : i.message
  })
}

/** Validates an adapter file's parsed JSON. */
export function parseAdapter(
  value: unknown,
): { ok: true; adapter: AdapterSpec } | { ok: false; errors: string[] } {
  const r = AdapterFile.safeParse(value)
  return r.success ? { ok: true, adapter: r.data } : { ok: false, errors: adapterIssues(r.error) }
}
