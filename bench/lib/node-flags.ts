// Node/V8 flags for the benchmark's consuming processes (the engine's and the raw client's), so both run under
// the same heap settings.
//
// --min-semi-space-size=16: V8 sizes the young generation by what survives. The engine keeps enough (trade
// tapes, books) that its semi-space sits at the 16 MB maximum after the warm-up (one scavenge per ~9.5k
// messages). The raw client keeps almost nothing, so its semi-space stayed at 1-3 MB, shrank again in the idle
// gaps between windows, and it paid 100-340 scavenges per 2 s window instead of ~30: its CPU per message moved
// by +-25% with that alone (bench/profile.md, "Why the figures moved"). Pinning the minimum at the engine's size
// measures both at the same young-generation size.
//
// BENCH_NODE_FLAGS (space-separated) adds flags to both, for experiments (e.g. --single-threaded-gc).
export const CONSUMER_FLAGS: readonly string[] = ['--min-semi-space-size=16']

export function consumerFlags(): string[] {
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter((f) => f.length > 0)
  return [...CONSUMER_FLAGS, ...extra]
}
