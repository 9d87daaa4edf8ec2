// Which adapter reads a frame. A profile names one adapter, or `auto`: then each frame is offered to every
// adapter in order until one recognises it, and the first that reads market or account data is kept for the
// rest of the connection (a single frame is enough, which the decode CLI relies on). Frames no adapter
// recognises go to the tolerant reader of DESIGN §3.2 in `auto` mode only, never for account data: what no
// one can vouch for is shown raw with its reason, not guessed at.
import { limitUpdates, decodeValue as tolerant } from '../decode'
import type { Update } from '../model'
import { AdapterState, type CompiledAdapter } from './compile'

export const AUTO = 'auto'
/** The name decoded frames carry when the tolerant reader, not an adapter, read them. */
export const TOLERANT = 'tolerant'

export interface Decoded {
  ok: true
  /** Some update is `unknown`. */
  unknown: boolean
  updates: Update[]
  /** The adapter that read the frame (or `tolerant`); null when nothing did. */
  adapter: string | null
  /** Why items came out `unknown`, one line each. */
  reasons: readonly string[]
}

export type TextDecoded = Decoded | { ok: false; error: string }

export interface DecoderOptions {
  adapters: readonly CompiledAdapter[]
  /** An adapter's name, or `auto`. */
  selection: string
  /** Told once per connection which adapter `auto` settled on. */
  onPick?: (adapter: CompiledAdapter) => void
  /**
   * false: `auto` offers every frame to every adapter and never settles (the corpus report, whose folders mix
   * connections and protocols). Default true.
   */
  lock?: boolean
  /**
   * A clock in ms (performance.now): each adapter's share of a frame's decoding is then measured, and
   * `slowest` names the adapter that took longest on the last frame decodeText read.
   */
  clock?: () => number
}

const DATA_KINDS = new Set<Update['kind']>(['book', 'trade', 'ticker', 'user'])
const NO_REASONS: readonly string[] = Object.freeze([])

export class FrameDecoder {
  private readonly adapters: readonly CompiledAdapter[]
  private readonly fixed: CompiledAdapter | null
  /** The profile chose no adapter: every frame goes to the tolerant reader. */
  private readonly tolerantOnly: boolean
  private readonly states = new Map<string, AdapterState>()
  private locked: CompiledAdapter | null = null
  private readonly scratch: string[] = []
  /** The adapter read last and its state: almost every frame is read by the same one. */
  private lastAdapter: CompiledAdapter | null = null
  private lastState: AdapterState = new AdapterState()
  /** Set when the profile names an adapter that does not exist; decoding falls back to `auto`. */
  readonly problem: string | null
  private readonly clock: (() => number) | null
  /** With a clock: the adapter that took longest on the last frame decodeText read, and how long (ms). Kept as two
   * fields, not an object, because they are written for every frame. */
  private slowAdapter: CompiledAdapter | null = null
  private slowMs = 0

  constructor(private readonly opts: DecoderOptions) {
    this.adapters = opts.adapters
    this.clock = opts.clock ?? null
    this.tolerantOnly = opts.selection === TOLERANT
    if (opts.selection === AUTO || this.tolerantOnly) {
      this.fixed = null
      this.problem = null
    } else {
      this.fixed = opts.adapters.find((a) => a.name === opts.selection) ?? null
      this.problem =
        this.fixed === null
          ? `no adapter named ${JSON.stringify(opts.selection)}; reading frames with auto`
          : null
    }
  }

  /** The adapter frames are read with: the profile's, or what `auto` picked (null until it has). */
  get picked(): CompiledAdapter | null {
    return this.fixed ?? this.locked
  }

  /** A new connection: forget what the old one taught (channel ids, level ids) and what auto picked. */
  reset(): void {
    this.locked = null
    for (const s of this.states.values()) s.clear()
  }

  decodeText(text: string): TextDecoded {
    this.slowAdapter = null
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      const wrapped = this.unwrapped(text)
      if (wrapped !== null) return wrapped
      // Polymarket and others answer keep-alives with bare PING/PONG text.
      const t = text.trim().toLowerCase()
      if (t === 'ping' || t === 'pong') {
        return {
          ok: true,
          unknown: false,
          updates: [{ kind: 'control', topic: 'heartbeat', data: text.trim() }],
          adapter: this.picked?.name ?? null,
          reasons: [],
        }
      }
      const reason = e instanceof Error ? e.message.replace(/\s+/g, ' ').slice(0, 200) : 'parse error'
      return { ok: false, error: `invalid JSON: ${reason}` }
    }
    return this.decodeValue(value)
  }

  decodeValue(value: unknown): Decoded {
    if (this.tolerantOnly) return this.tolerant(value, 'the tolerant reader cannot read this frame')
    const out: Update[] = []
    // Reasons are rare (an unreadable item): collected in a scratch list, copied only when there are some.
    const reasons = this.scratch
    if (reasons.length !== 0) reasons.length = 0
    const fixed = this.fixed
    if (fixed !== null) {
      if (this.read(fixed, value, out, reasons)) return this.result(out, fixed.name, reasons)
      return unread(value, `the ${fixed.name} adapter does not recognise this frame`)
    }
    const locked = this.locked
    if (locked !== null) {
      if (this.read(locked, value, out, reasons)) return this.result(out, locked.name, reasons)
      return this.tolerant(value, `the ${locked.name} adapter (auto-detected) does not recognise this frame`)
    }
    for (const a of this.adapters) {
      if (!this.read(a, value, out, reasons)) continue
      if (this.opts.lock !== false && out.some((u) => DATA_KINDS.has(u.kind))) {
        this.locked = a
        this.opts.onPick?.(a)
      }
      return this.result(out, a.name, reasons)
    }
    return this.tolerant(value, 'no adapter recognises this frame')
  }

  private result(updates: Update[], adapter: string, reasons: string[]): Decoded {
    return decoded(updates, adapter, reasons.length === 0 ? NO_REASONS : reasons.slice())
  }

  /** A frame that is not JSON, read by an adapter that knows its text prefix (and only by such an adapter). */
  private unwrapped(text: string): Decoded | null {
    const candidates = this.picked !== null ? [this.picked] : this.adapters
    for (const a of candidates) {
      const t0 = this.clock?.() ?? 0
      const inner = a.unwrap(text)
      if (this.clock !== null) this.charge(a, t0)
      if (inner === undefined) continue
      const out: Update[] = []
      const reasons: string[] = []
      if (this.read(a, inner, out, reasons)) {
        if (
          this.fixed === null &&
          this.locked === null &&
          this.opts.lock !== false &&
          out.some((u) => DATA_KINDS.has(u.kind))
        ) {
          this.locked = a
          this.opts.onPick?.(a)
        }
        return decoded(out, a.name, reasons)
      }
    }
    return null
  }

  private read(a: CompiledAdapter, value: unknown, out: Update[], reasons: string[]): boolean {
    if (this.clock === null) return this.readUntimed(a, value, out, reasons)
    const t0 = this.clock()
    try {
      return this.readUntimed(a, value, out, reasons)
    } finally {
      this.charge(a, t0)
    }
  }

  /** With a clock: the adapter that took longest on the last frame decodeText read, and how long (ms). */
  get slowest(): { adapter: CompiledAdapter; ms: number } | null {
    return this.slowAdapter === null ? null : { adapter: this.slowAdapter, ms: this.slowMs }
  }

  /** Adds the time since t0 to adapter a's share of the frame. */
  private charge(a: CompiledAdapter, t0: number): void {
    const ms = (this.clock as () => number)() - t0
    if (this.slowAdapter === a) this.slowMs += ms
    else if (this.slowAdapter === null || ms > this.slowMs) {
      this.slowAdapter = a
      this.slowMs = ms
    }
  }

  private readUntimed(a: CompiledAdapter, value: unknown, out: Update[], reasons: string[]): boolean {
    if (!a.detect(value)) return false
    let st: AdapterState | undefined
    if (a === this.lastAdapter) st = this.lastState
    else {
      st = this.states.get(a.name)
      if (st === undefined) {
        st = new AdapterState()
        this.states.set(a.name, st)
      }
      this.lastAdapter = a
      this.lastState = st
    }
    return a.decode(value, st, out, reasons) !== null
  }

  /** DESIGN §3.2's tolerant reader, for frames no adapter knows, minus anything it would guess about the account. */
  private tolerant(value: unknown, why: string): Decoded {
    const updates = tolerant(value)
    const reasons: string[] = []
    let read = false
    for (let i = 0; i < updates.length; i++) {
      const u = updates[i] as Update
      if (u.kind === 'user' && !onUserChannel(value)) {
        updates[i] = { kind: 'unknown', raw: u.data }
        reasons.push(`${why}; it looks like account data, which is only read from the user channel`)
      } else if (u.kind === 'unknown') reasons.push(why)
      else read = true
    }
    // The tolerant reader already held its updates within the limits.
    return decoded(updates, read ? TOLERANT : null, reasons, true)
  }
}

function unread(value: unknown, why: string): Decoded {
  return decoded([{ kind: 'unknown', raw: value }], null, [why])
}

function decoded(
  updates: Update[],
  adapter: string | null,
  reasons: readonly string[],
  limited = false,
): Decoded {
  // Whatever raw JSON an update keeps (an adapter's user data, an unread frame) is held within the limits here,
  // where it arrives, so no window's batch or inspector copy can fail to serialise later (shared/json-limits.ts).
  if (!limited) limitUpdates(updates)
  let unknown = false
  for (const u of updates) if (u.kind === 'unknown') unknown = true
  return { ok: true, unknown, updates, adapter, reasons }
}

/** The spec's user channel: the only place the tolerant reader may find the account's own data. */
function onUserChannel(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { channel?: unknown }).channel === 'user'
}
