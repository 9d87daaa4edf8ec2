// The load every phase is measured under, in one place: the raw/engine pairs, the latency phase and the alerts
// phase must drive the same markets, clients and rates for their figures to be compared with each other.

/** Firehose markets (fh-0001...), every client interested in all of them. */
export const MARKETS = 100
/** Clients attached to the engine (counting sinks), each with an interest in every market. */
export const CLIENTS = 4
/** The load, msgs/s: the latency phase's open-loop firehose and the alerts phase's offered window. */
export const OFFERED_RATE = 50_000
/**
 * While the raw client is measured, the engine's simulator sends this trickle (4 msgs/s per market): the engine
 * would otherwise see seconds of silence, mark its books stale and rebuild the connection (LIVENESS_DEFAULTS:
 * connection silence 3 s, market stale 4 s). About 0.3% of a core, in the engine's process, not the raw client's.
 */
export const ENGINE_TRICKLE_RATE = 400
/** Saturation before each window is counted (after the priming hold), so the backlog is in steady state. */
export const WINDOW_WARMUP_MS = 300
