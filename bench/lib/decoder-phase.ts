// The decoder phase (issue 16 item 6): the engine's throughput when its frames are read by the simulator's
// adapter (compiled from resources/adapters/sim.json) against the same engine reading them with the built-in
// tolerant decoder that was the only one before adapters (profile adapter `tolerant`). Same engine, same
// simulator, same run: the profile's adapter is switched between windows, which reconnects, so every window
// starts with a fresh connection and 100 snapshots on both sides (ABBA order). The figure includes everything the
// engine does per message (decode, books, tapes, fan-out to 4 clients), not the decoder alone.
import type { EngineHarness } from './engine-harness'
import { fmt, range, windowJson } from './report'
import { measureSaturation, type SaturationResult } from './saturate'
import type { SimChild } from './sim-control'
import { median, spread } from './spread'
import { ENGINE_TRICKLE_RATE, MARKETS, WINDOW_WARMUP_MS } from './workload'

/** Issue 16: the simulator's adapter keeps at least 0.95x the built-in decoder's engine throughput. */
const TARGET = 0.95
type Side = 'sim' | 'tolerant'

export interface DecoderPair {
  sim: SaturationResult | null
  tolerant: SaturationResult | null
}

export interface DecoderPhase {
  pairs: DecoderPair[]
  /** Which adapter the engine reported reading with, per side (checks the switch took effect). */
  reported: Record<Side, string[]>
}

async function useAdapter(h: EngineHarness, adapter: Side): Promise<string> {
  const client = h.clients[0]
  if (client === undefined) throw new Error('no client')
  const before = await h.frames()
  const r = await client.saveProfile({ ...h.profile, adapter })
  if (!r.ok) throw new Error(`decoder: saveProfile: ${r.error.message}`)
  // Live again with every market's snapshot read, as at the start of the run.
  const deadline = Date.now() + 20_000
  for (;;) {
    const s = await client.getStatus()
    if (!s.ok) throw new Error(`decoder: getStatus: ${s.error.message}`)
    const a = s.value.adapter
    if (s.value.state === 'live' && s.value.counters.frames >= before + MARKETS && a !== undefined) {
      return a.picked ?? a.selected
    }
    if (Date.now() > deadline) throw new Error(`decoder: the engine did not go live with adapter ${adapter}`)
    await new Promise((res) => setTimeout(res, 50))
  }
}

export async function decoderPhase(
  sim: SimChild,
  h: EngineHarness,
  pairCount: number,
  seconds: number,
  log: (s: string) => void,
): Promise<DecoderPhase> {
  log(
    `decoder: ${pairCount} pairs of ${seconds} s windows, the simulator's adapter / the built-in tolerant decoder ...`,
  )
  const pairs: DecoderPair[] = []
  const reported: Record<Side, string[]> = { sim: [], tolerant: [] }
  for (let i = 0; i < pairCount; i++) {
    const pair: DecoderPair = { sim: null, tolerant: null }
    const order: Side[] = i % 2 === 0 ? ['sim', 'tolerant'] : ['tolerant', 'sim']
    for (const side of order) {
      await sim.firehose(ENGINE_TRICKLE_RATE, MARKETS)
      reported[side].push(await useAdapter(h, side))
      pair[side] = await measureSaturation({
        sim,
        markets: MARKETS,
        count: () => h.frames(),
        warmupMs: WINDOW_WARMUP_MS,
        measureMs: seconds * 1000,
      })
    }
    pairs.push(pair)
    const r = ratio(pair)
    log(
      `  pair ${i + 1}: sim adapter ${fmt(pair.sim?.msgsPerCpuSec ?? null)} msgs/CPU-s, tolerant ${fmt(pair.tolerant?.msgsPerCpuSec ?? null)}` +
        (r !== null ? `, ratio ${r.toFixed(3)}` : ''),
    )
  }
  await sim.firehose(ENGINE_TRICKLE_RATE, MARKETS)
  await useAdapter(h, 'sim')
  return { pairs, reported }
}

function ratio(p: DecoderPair): number | null {
  const a = p.tolerant?.msgsPerCpuSec ?? null
  const b = p.sim?.msgsPerCpuSec ?? null
  return a !== null && b !== null && a > 0 ? b / a : null
}

function checks(d: DecoderPhase): string[] {
  const problems: string[] = []
  if (d.reported.sim.some((a) => a !== 'sim'))
    problems.push(`sim windows read with ${d.reported.sim.join(',')}`)
  if (d.reported.tolerant.some((a) => a !== 'tolerant'))
    problems.push(`tolerant windows read with ${d.reported.tolerant.join(',')}`)
  return problems
}

export function decoderText(d: DecoderPhase): string[] {
  const ratios = d.pairs.map(ratio)
  const m = median(ratios)
  const sims = d.pairs.map((p) => p.sim?.msgsPerCpuSec ?? null)
  const tols = d.pairs.map((p) => p.tolerant?.msgsPerCpuSec ?? null)
  const problems = checks(d)
  return [
    `decoder (the engine reading with the simulator's adapter vs the built-in tolerant decoder; whole engine per message):`,
    `  sim adapter ${fmt(median(sims))} msgs/CPU-s ${range(spread(sims))}, tolerant ${fmt(median(tols))} ${range(spread(tols))}`,
    `  ratio (pair by pair) ${m !== null ? m.toFixed(3) : '-'} ${range(spread(ratios), 3)}; target >= ${TARGET}` +
      (m !== null ? (m >= TARGET ? ' (met)' : ' (NOT met)') : ''),
    ...(problems.length > 0 ? [`  LOAD CHECK FAILED: ${problems.join('; ')}`] : []),
  ]
}

export function decoderJson(d: DecoderPhase): Record<string, unknown> {
  return {
    ratio: median(d.pairs.map(ratio)),
    ratioSpread: spread(d.pairs.map(ratio)),
    target: TARGET,
    problems: checks(d),
    pairs: d.pairs.map((p) => ({
      sim: windowJson(p.sim),
      tolerant: windowJson(p.tolerant),
      ratio: ratio(p),
    })),
  }
}
