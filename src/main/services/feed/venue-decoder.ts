// The engine's frame decoder for the active profile: the profile's adapter (or `auto`) over the shipped adapters
// and the user's own files, rebuilt for every connection so a new connection learns channel ids afresh and
// picks up edited adapter files. Refused files and the adapter auto-detection settled on are told to the user.
// Each frame's decoding by a user's adapter has a time budget: a frame over it is not read (the inspector says
// why), and an adapter that overruns it again and again is suspended, with a notice, so frames are read without
// it. The patterns' check (adapter-files.ts) makes a stall impossible; the budget is the second line, for what
// slips past it. Shipped adapters pass the same check and are not charged.
import {
  AUTO,
  builtinAdapters,
  FrameDecoder,
  type CompiledAdapter,
  type TextDecoded,
} from '../../../shared/adapters'
import type { AdapterChoice } from '../../../shared/ipc'
import type { AdapterFiles } from './adapter-files'
import type { Logger } from '../base/types'

export interface VenueDecoderDeps {
  files: AdapterFiles
  log: Logger
  /** The active profile's adapter choice. */
  selection: () => string
  /** A message the user must see (a refused adapter file, an unknown adapter name). */
  notice: (text: string) => void
  changed: () => void
  /** The clock the budget is measured with, in ms (tests pass their own). Default performance.now. */
  now?: () => number
}

/** A frame whose decoding by a user's adapter takes longer is not read. */
export const DECODE_BUDGET_MS = 50
/** The shipped adapters (compiled once per process, so known by identity). */
const SHIPPED: ReadonlySet<CompiledAdapter> = new Set(builtinAdapters())
/** An adapter over the budget this many times within OVERRUN_WINDOW_MS is suspended. */
const OVERRUNS = 3
const OVERRUN_WINDOW_MS = 60_000

export class VenueDecoder {
  private decoder: FrameDecoder
  private adapters: readonly CompiledAdapter[]
  private selected = AUTO
  private readonly told = new Set<string>()
  private readonly now: () => number
  /** Whether a user adapter is among those read with: only then is a frame's decoding timed. */
  private timed = false
  /** When each adapter last overran the budget, within the window. */
  private readonly overruns = new Map<CompiledAdapter, number[]>()
  /**
   * User adapters suspended for overrunning, by the compiled object: an edited file compiles to a new one and
   * is tried again.
   */
  private readonly suspended = new Set<CompiledAdapter>()

  constructor(private readonly d: VenueDecoderDeps) {
    this.now = d.now ?? (() => performance.now())
    // The profile is not known, and the user's files are not read, until the first connection: the engine is
    // still being composed here.
    this.adapters = builtinAdapters()
    this.decoder = new FrameDecoder({ adapters: this.adapters, selection: AUTO })
  }

  /** A connection opened: a fresh decoder, with the adapter files read again. */
  connected(): void {
    this.selected = this.d.selection()
    this.decoder = this.build()
    this.d.changed()
  }

  decodeText(text: string): TextDecoded {
    // Without a user adapter nothing can be charged, so the usual frame reads no clock at all.
    if (!this.timed) return this.decoder.decodeText(text)
    const t0 = this.now()
    const decoded = this.decoder.decodeText(text)
    const ms = this.now() - t0
    if (ms <= DECODE_BUDGET_MS) return decoded
    // Only a user's adapter is to blame for a slow frame. The shipped ones passed the pattern check in the build,
    // so their overrun is the machine's (a GC pause, a busy core, a huge frame's JSON.parse): the frame is read,
    // since its time is spent anyway and dropping it would only force a resync.
    const slow = this.decoder.slowest
    const by = slow !== null && slow.ms > DECODE_BUDGET_MS && !SHIPPED.has(slow.adapter) ? slow.adapter : null
    return by === null ? decoded : this.overrun(text, ms, by)
  }

  /** A frame a user's adapter took too long over: not read, with the reason; the adapter is suspended after repeated overruns. */
  private overrun(text: string, ms: number, by: CompiledAdapter): TextDecoded {
    const reason = `decoding took ${Math.round(ms)} ms, over the ${DECODE_BUDGET_MS} ms budget (the ${by.name} adapter); the frame is not read`
    this.charge(by, ms)
    return {
      ok: true,
      unknown: true,
      updates: [{ kind: 'unknown', raw: text }],
      adapter: null,
      reasons: [reason],
    }
  }

  private charge(adapter: CompiledAdapter, ms: number): void {
    const at = this.now()
    const times = (this.overruns.get(adapter) ?? []).filter((t) => at - t < OVERRUN_WINDOW_MS)
    times.push(at)
    this.overruns.set(adapter, times)
    if (times.length < OVERRUNS) return
    this.overruns.delete(adapter)
    this.suspended.add(adapter)
    const text = `the ${adapter.name} adapter is suspended: ${OVERRUNS} frames took over ${DECODE_BUDGET_MS} ms to decode within a minute (the last ${Math.round(ms)} ms); frames are read without it until its file changes or the engine restarts`
    this.d.log.warn(text)
    this.d.notice(text)
    this.decoder = this.build(false)
    this.d.changed()
  }

  /** The adapters a profile can name: as of the last connection, the user's files first. */
  choices(): AdapterChoice[] {
    return this.adapters.map((a) => ({ name: a.name, title: a.title }))
  }

  /**
   * Whether the frames may be read by the adapter `name`: the profile chose it, or chose `auto` and auto has not
   * settled on another. Asked for every frame (the duplicate filter): no allocation.
   */
  mayRead(name: string): boolean {
    const chosen = this.d.selection()
    if (chosen !== AUTO && chosen !== name) return false
    const picked = this.decoder.picked
    return picked === null || picked.name === name
  }

  view(): { selected: string; picked: string | null } {
    return { selected: this.selected, picked: this.decoder.picked?.name ?? null }
  }

  private build(reload = true): FrameDecoder {
    if (reload) {
      const set = this.d.files.load()
      this.adapters = set.adapters
      for (const e of set.errors) this.tell(e)
    }
    const adapters = this.adapters.filter((a) => !this.suspended.has(a))
    this.timed = adapters.some((a) => !SHIPPED.has(a))
    // A profile whose adapter is suspended reads with the others (`auto`).
    const suspended =
      !adapters.some((a) => a.name === this.selected) && this.adapters.some((a) => a.name === this.selected)
    const selection = suspended ? AUTO : this.selected
    const decoder = new FrameDecoder({
      adapters,
      selection,
      ...(this.timed ? { clock: this.now } : {}),
      onPick: (a) => {
        this.d.log.info('venue adapter detected', { adapter: a.name })
        this.d.changed()
      },
    })
    if (decoder.problem !== null) this.tell(decoder.problem)
    return decoder
  }

  /** Each distinct message once per run: a bad file is reported when found, not at every reconnect. */
  private tell(text: string): void {
    if (this.told.has(text)) return
    this.told.add(text)
    this.d.log.warn(text)
    this.d.notice(text)
  }
}

export { AUTO }
