// Every freshness, liveness, reconnect and resync threshold of the engine, in one place (issue: self-healing).
// docs/liveness.md explains each default; tests and the soak override them through createMonitor's options.

export interface SilenceLimits {
  /** Silence is suspicious after `multiple` × the source's usual gap ... */
  multiple: number
  /** ... but never before `minMs` ... */
  minMs: number
  /** ... and always after `maxMs`, which is also the only limit until `warmupSamples` gaps were seen ... */
  maxMs: number
  warmupSamples: number
  /** ... unless this tighter bound is given for that warm-up (a market that stalls after its first update). */
  warmupMaxMs?: number
}

export interface LivenessConfig {
  /** Per market: a live book silent past this is shown `quiet` (still applied to, but not vouched for). */
  marketQuiet: SilenceLimits
  /** Per market: silent past this, the book is `stale` (reason `silent`) and resynced. */
  marketStale: SilenceLimits
  /** How often market silence is checked (ms). */
  marketCheckMs: number
  /** The connection: no frame at all past this while subscriptions exist, the socket is rebuilt. */
  connectionSilence: SilenceLimits
  /** WebSocket ping interval while any subscription is active, and while none is (ms). */
  pingActiveMs: number
  pingIdleMs: number
  /** A ping without a pong in this long ends the socket (ms). */
  pongTimeoutMs: number
}

export interface ResyncConfig {
  /** First retry of a book still without a snapshot (ms); doubles per attempt up to capMs, with jitter. */
  baseMs: number
  capMs: number
  /** After this many unanswered resubscribes on a connection that delivers other data, reconnect. */
  attemptsBeforeReconnect: number
  /**
   * After this many requests, none answered, for a market the venue has never sent a word of (no book, ticker,
   * trade or delta) while other data flows, and that the listing does not name: the market is marked unknown
   * and no longer asked for (docs/liveness.md).
   */
  attemptsBeforeUnknown: number
  /** How often books waiting for a snapshot are checked (ms). */
  checkMs: number
}

export interface ReconnectConfig {
  /** Backoff after failed attempts (refused, timed out, handshake or auth failure): full jitter. */
  baseMs: number
  capMs: number
  /** After a connection that opened and delivered data: retry within this jitter, at once in effect (ms). */
  quickRetryMs: number
  /** A 503/429 Retry-After is honoured up to this long (ms). */
  retryAfterCapMs: number
  /**
   * TCP + TLS + upgrade must finish within this (ms). A handshake sent into a half-open link hangs until then,
   * so it bounds how long a reconnect made during a network dropout waits after the network is back.
   */
  connectTimeoutMs: number
}

export const LIVENESS_DEFAULTS: LivenessConfig = {
  // A market with no rhythm of its own yet is quiet after 15 s, or as soon as the whole venue is quiet by the
  // venue's rhythm: it never shows live for 120 s after a stall that follows its first update.
  marketQuiet: { multiple: 4, minMs: 1_500, maxMs: 120_000, warmupSamples: 3, warmupMaxMs: 15_000 },
  marketStale: { multiple: 10, minMs: 4_000, maxMs: 600_000, warmupSamples: 3 },
  marketCheckMs: 250,
  connectionSilence: { multiple: 10, minMs: 3_000, maxMs: 120_000, warmupSamples: 3 },
  pingActiveMs: 2_000,
  pingIdleMs: 15_000,
  pongTimeoutMs: 2_500,
}

export const RESYNC_DEFAULTS: ResyncConfig = {
  baseMs: 750,
  capMs: 8_000,
  attemptsBeforeReconnect: 4,
  // Twelve requests take about a minute at the pacing above (0.75, 1.5, 3 and 6 s, then every 8 s), with the
  // one reconnect of attemptsBeforeReconnect on the way: long past any venue's slow answer, short enough that a
  // wrong id does not cost a request every 8 s all day.
  attemptsBeforeUnknown: 12,
  checkMs: 250,
}

export const RECONNECT_DEFAULTS: ReconnectConfig = {
  baseMs: 500,
  capMs: 30_000,
  quickRetryMs: 150,
  retryAfterCapMs: 60_000,
  connectTimeoutMs: 6_000,
}
