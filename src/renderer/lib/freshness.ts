// The one rule for what a view may say about its freshness (docs/liveness.md, "The badge rule"). The engine
// decides a book's state; whether the window may repeat it depends on more: a window that lost its engine, a
// connection that is down, a replay, or a venue that has gone quiet. Every badge, overlay and row mark asks here.
import type { BookState, BookView, ConnectionState, TickerView } from '../../shared/model'
import { formatAge, formatDuration } from './format'

/** Without a learnt usual gap, a live market's age is shown once it is older than this. */
export const AGE_AFTER_MS = 15_000
/** Even for a market that updates many times a second, the age is not shown below this (it would flicker). */
export const MIN_AGE_AFTER_MS = 1_000

/** Whether batches from the engine reach this window (store/engine-link.ts). */
export type EngineLink = 'up' | 'lost'

/** What a view's own data says. */
export interface ViewFreshness {
  state: BookState | null
  /** ms since epoch of the last update, or null before any. */
  updatedAt: number | null
  /** The market's learnt usual gap between updates (ms). */
  usualGapMs?: number | undefined
  /** While resyncing: the attempt number of this episode. */
  resyncAttempt?: number | undefined
  /** Why the data is stale, when known ('gap', 'crossed', …). */
  staleReason?: string | null | undefined
}

/** What the window knows of the feed as a whole. */
export interface FeedContext {
  link: EngineLink
  /** The connection's state; null before the first status. */
  connection: ConnectionState | null
  /** Set while a recording is replayed. */
  replay: { speed: number; paused: boolean; ended: boolean } | null
  /** Connected, but every watched market has gone quiet. */
  dataPaused: boolean
}

/**
 * What the view shows. `state` is the data-state and the CSS class (`badge-<state>`): the book's own state, or
 * `lost` (no engine), `offline` (the connection is down), `replay`. Only `live` may be shown as live.
 */
export type FreshState = BookState | 'lost' | 'offline' | 'replay'

export interface Freshness {
  state: FreshState
  label: string
  title: string
  /** Whether the data under it must be covered as possibly out of date (the ladder's and depth chart's overlay). */
  cover: boolean
}

/**
 * How much a row's prices are subdued: `stale` (greyed out: known to be behind, or nothing vouches for them) or
 * `quiet` (only subdued: still applied); null when shown as they are.
 */
export function dimOf(state: FreshState): 'stale' | 'quiet' | null {
  if (state === 'stale' || state === 'resyncing' || state === 'lost' || state === 'offline') return 'stale'
  return state === 'quiet' ? 'quiet' : null
}

/** A book's or ticker's freshness fields; all unknown without one. */
export function viewFreshness(view: BookView | TickerView | undefined | null): ViewFreshness {
  if (!view) return { state: null, updatedAt: null }
  return {
    state: view.state,
    updatedAt: view.updatedAt,
    usualGapMs: view.usualGapMs,
    ...('staleReason' in view ? { resyncAttempt: view.resyncAttempt, staleReason: view.staleReason } : {}),
  }
}

export const LIVE_FEED: FeedContext = { link: 'up', connection: 'live', replay: null, dataPaused: false }

/**
 * When the age starts being shown (ms since epoch), or null if it never is in this state: then nothing need tick
 * for it. A lost engine and a replay (over a live or quiet view) say so with no age.
 */
export function ageShownFrom(view: ViewFreshness, feed: FeedContext): number | null {
  const { state, updatedAt, usualGapMs } = view
  if (updatedAt === null || feed.link === 'lost') return null
  if (feed.replay !== null && (state === 'live' || state === 'quiet')) return null
  if (state === 'live') {
    const after =
      usualGapMs !== undefined && usualGapMs > 0 ? Math.max(usualGapMs, MIN_AGE_AFTER_MS) : AGE_AFTER_MS
    return updatedAt + after
  }
  if (state === 'quiet' || state === 'stale') return updatedAt
  return null
}

/**
 * The connection states without a socket that carries market data, with the word a badge shows for them. Short:
 * a badge sits in narrow columns (the event matrix); the warn colour and the title say "not live". `auth-error`
 * is not among them: the socket is open and the market data flows, only the key was refused.
 */
const CONNECTION_WORD: Partial<Record<ConnectionState, string>> = {
  connecting: 'Connecting',
  reconnecting: 'Reconnecting',
  offline: 'Offline',
}

/** The freshness a view shows at `now` (the age, once shown, counts from its last update). */
export function freshness(view: ViewFreshness, feed: FeedContext, now: number): Freshness {
  const { state, updatedAt } = view
  const from = ageShownFrom(view, feed)
  const age = from !== null && updatedAt !== null && now >= from ? formatAge(now - updatedAt) : null
  const aged = (label: string): string => (age !== null ? `${label} · ${age}` : label)
  if (feed.link === 'lost') {
    return {
      state: 'lost',
      label: 'Engine lost',
      title:
        "The app's engine has stopped answering this window: nothing shown is live until it answers again.",
      cover: true,
    }
  }
  if (state === null || state === 'empty') {
    return { state: 'empty', label: 'Waiting for data', title: 'No data for this market yet.', cover: false }
  }
  if (state === 'stale' || state === 'resyncing') return engineMark(view, aged)
  // From here the engine calls the data live or quiet; the feed may still say otherwise.
  if (feed.replay !== null) {
    const { speed, paused, ended } = feed.replay
    return {
      state: 'replay',
      label: ended ? 'Replay ended' : paused ? 'Replay paused' : `Replay ${speed}×`,
      title: `Replayed from a recording${ended || paused ? '' : ` at ${speed}× real time`}: not live data.`,
      cover: false,
    }
  }
  const down = feed.connection === null ? undefined : CONNECTION_WORD[feed.connection]
  if (down !== undefined) {
    return {
      state: 'offline',
      label: aged(down),
      title: 'The connection to the venue is down: this is the last data received, and it may be behind.',
      cover: true,
    }
  }
  if (state === 'live' && !feed.dataPaused) {
    const usual = view.usualGapMs !== undefined ? formatDuration(view.usualGapMs) : null
    return {
      state: 'live',
      label: aged('Live'),
      title: usual ? `Receiving updates, usually every ${usual}.` : 'Receiving updates.',
      cover: false,
    }
  }
  return engineMark({ ...view, state: 'quiet' }, aged)
}

/** The engine's own not-live marks: quiet, stale with its reason, resyncing with its attempt. */
function engineMark(view: ViewFreshness, aged: (label: string) => string): Freshness {
  const usual = view.usualGapMs !== undefined ? formatDuration(view.usualGapMs) : null
  const reason = view.staleReason ? ` (${view.staleReason})` : ''
  switch (view.state) {
    case 'quiet':
      return {
        state: 'quiet',
        label: aged('Quiet?'),
        title: `No update for longer than this market usually goes without one${usual ? ` (about ${usual})` : ''}: it may be behind. The next update makes it live again.`,
        cover: false,
      }
    case 'stale':
      return {
        state: 'stale',
        label: aged(`Stale${reason}`),
        title: `Known to be out of date${reason} until a fresh snapshot arrives.`,
        cover: true,
      }
    default: {
      const attempt = view.resyncAttempt
      return {
        state: 'resyncing',
        label: attempt !== undefined ? `Resyncing #${attempt}…` : 'Resyncing…',
        title: `Out of date; a fresh snapshot has been asked for${attempt !== undefined ? ` (attempt ${attempt})` : ''} and is chased until it arrives.`,
        cover: true,
      }
    }
  }
}
