// The fault schedule: which faults, in which order, with which parameters, all from the seed. Kinds are dealt
// from a shuffled deck (every kind once per round) so that even a short run meets several different ones.
import type { Dialect } from '../../src/sim/index'
import { deriveSeed, mulberry32, pick, randInt, type Rng } from '../../src/sim/rng'

/** The reference dialect's kinds, in the order its deck is dealt from (a seed's schedule depends on it). */
export const REFERENCE_FAULT_KINDS = [
  'proxy-cut',
  'proxy-blackhole',
  'proxy-slow',
  'sim-dropAll',
  'sim-stall',
  'sim-malformed',
  'sim-oversized',
  'sim-refuse',
  'sim-restart',
  'sim-gap',
  'sim-crossed',
] as const

/**
 * VoxFi's: the same, where `sim-gap` is one book frame not sent (no seq: nothing to skip) and `sim-crossed` a whole
 * crossed book, plus `sim-serverError` (every socket closed with VoxFi's 4003 "server error").
 */
export const VOXFI_FAULT_KINDS = [...REFERENCE_FAULT_KINDS, 'sim-serverError'] as const

/** Every kind either dialect knows. */
export const FAULT_KINDS = VOXFI_FAULT_KINDS

export type FaultKind = (typeof FAULT_KINDS)[number]

export function isFaultKind(s: string): s is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(s)
}

export function faultKinds(dialect: Dialect): readonly FaultKind[] {
  return dialect === 'voxfi' ? VOXFI_FAULT_KINDS : REFERENCE_FAULT_KINDS
}

// Fault parameters (ms unless named otherwise).
export const BLACKHOLE_MS: readonly [number, number] = [3000, 8000]
export const SLOW_MS = 5000
export const SLOW_DELAY_MS = 200
export const STALL_MS: readonly [number, number] = [3000, 25_000]
/** Runs shorter than SHORT_RUN_MS cap stalls here, so that a stall cannot eat a CI run. */
export const SHORT_STALL_CAP_MS = 8000
export const SHORT_RUN_MS = 3 * 60_000
export const REFUSE_MS: readonly [number, number] = [2000, 5000]
export const MALFORMED_BURST: readonly [number, number] = [5, 25]
/** Quiet time between one fault settling (healed, or past its deadline) and the next. */
export const CALM_MS: readonly [number, number] = [6000, 12_000]

export interface FaultPlan {
  kind: FaultKind
  /** How long the fault lasts once injected (0: instantaneous). */
  durationMs: number
  /** gap / crossed: the watched market it hits. */
  market?: string
  /** malformed: frames in the burst. */
  count?: number
  /** Calm period after this fault settles. */
  calmMs: number
}

/** Connection-dropping faults: the engine's socket is necessarily closed, so healing needs a reconnect. */
export const DROPS_CONNECTION: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'proxy-cut',
  'sim-dropAll',
  'sim-refuse',
  'sim-restart',
  'sim-serverError',
])

export class FaultSchedule {
  private readonly rng: Rng
  private deck: FaultKind[] = []

  constructor(
    seed: number,
    private readonly kinds: readonly FaultKind[],
    private readonly markets: readonly string[],
    private readonly shortRun: boolean,
  ) {
    if (kinds.length === 0) throw new Error('no fault kinds')
    this.rng = mulberry32(deriveSeed(seed, 0x50a4))
  }

  next(): FaultPlan {
    if (this.deck.length === 0) this.deck = this.shuffled()
    const kind = this.deck.pop() as FaultKind
    const r = this.rng
    const calmMs = randInt(r, CALM_MS[0], CALM_MS[1])
    switch (kind) {
      case 'proxy-blackhole':
        return { kind, durationMs: randInt(r, BLACKHOLE_MS[0], BLACKHOLE_MS[1]), calmMs }
      case 'proxy-slow':
        return { kind, durationMs: SLOW_MS, calmMs }
      case 'sim-stall': {
        const hi = this.shortRun ? Math.min(STALL_MS[1], SHORT_STALL_CAP_MS) : STALL_MS[1]
        return { kind, durationMs: randInt(r, STALL_MS[0], hi), calmMs }
      }
      case 'sim-refuse':
        return { kind, durationMs: randInt(r, REFUSE_MS[0], REFUSE_MS[1]), calmMs }
      case 'sim-malformed':
        return { kind, durationMs: 0, count: randInt(r, MALFORMED_BURST[0], MALFORMED_BURST[1]), calmMs }
      case 'sim-gap':
      case 'sim-crossed':
        return { kind, durationMs: 0, market: pick(r, this.markets), calmMs }
      default:
        return { kind, durationMs: 0, calmMs }
    }
  }

  private shuffled(): FaultKind[] {
    const deck = [...this.kinds]
    for (let i = deck.length - 1; i > 0; i--) {
      const j = randInt(this.rng, 0, i)
      const t = deck[i] as FaultKind
      deck[i] = deck[j] as FaultKind
      deck[j] = t
    }
    return deck
  }
}
