// The alerts phase's rule set (issue 11 item 5: 1,000 armed rules over 100 markets) and how the bench puts it on
// the engine and takes it off again, through a client as a window would (saveAlert / getAlerts / deleteAlert).
//
// The firehose's books have fixed ticks (firehose.ts): bid 0.49, ask 0.51, so mid 0.50 and spread 0.02 never
// move; only `last` (0.49 or 0.51, by the side of a trade) and trade sizes (1..50) vary. Moreover, in any one run
// of the firehose only 25 of the 100 markets trade, each on one side only (its generator's low random bits repeat
// with a period that divides the market count), and which 25 changes every time the firehose starts. So the
// levels below are placed on both sides of those prices, spread over the book's range (0.40..0.60) and beyond,
// and stay armed; only two kinds of rule can fire, in 10 markets each:
//   - `last crosses-above 0.5` (re-arm, hysteresis 0.005, cooldown 30 s): fires when a market that last traded
//     on the sell side trades on the buy side (after a restart of the firehose), at most once per set of rules;
//   - a big trade of 50 or more (re-arm, cooldown 2 s): about 2% of a trading market's trades, so in the markets
//     among the trading 25 about once per rule every 2 s: a few firings fall inside every measured window.
import type { AlertRuleInput, AlertsView } from '../../src/shared/alerts'
import type { MonitorClient } from '../../src/main/services'

/** Rules of the set that can fire at all on the firehose (see above). */
export const FIRING_RULES_PER_10_MARKETS = 2

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }

function must<T>(what: string, r: Result<T>): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.code}: ${r.error.message}`)
  return r.value
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000

/**
 * Ten rules for market number `m` of the firehose: eight price rules over every subject and op, levels on both
 * sides of the book and offset per market (0.01..0.09) so no two markets have the same set, one `last` rule and
 * one big-trade rule. Labels start with "bench" so a leftover rule is easy to recognise.
 */
export function rulesForMarket(market: string, m: number): AlertRuleInput[] {
  const off = 0.01 * (1 + ((m * 7) % 9))
  const price = (
    subject: 'bid' | 'ask' | 'mid' | 'last' | 'spread',
    op: 'crosses-above' | 'crosses-below' | 'above' | 'below',
    value: number,
    extra: Partial<AlertRuleInput> = {},
  ): AlertRuleInput => ({
    label: `bench ${subject} ${op}`,
    condition: { kind: 'price', market, subject, op, value: round4(value) },
    mode: 'rearm',
    hysteresis: 0.01,
    cooldownSec: 30,
    ...extra,
  })
  const fires = m % 10 === 0
  const bigFires = m % 10 === 5
  return [
    price('bid', 'crosses-above', 0.52 + off), // bid 0.49: waits below
    price('bid', 'crosses-below', 0.48 - off), // waits above
    price('ask', 'crosses-above', 0.52 + off), // ask 0.51
    price('ask', 'crosses-below', 0.5 - off),
    price('mid', 'above', 0.55 + off), // mid 0.50: level ops, not yet true
    price('mid', 'below', 0.45 - off),
    price('spread', 'above', 0.05 + off), // spread 0.02
    price('ask', 'above', 0.65 + off),
    fires
      ? price('last', 'crosses-above', 0.5, { hysteresis: 0.005, cooldownSec: 30 })
      : m % 2 === 1
        ? price('last', 'crosses-above', 0.6 + off)
        : price('last', 'crosses-below', 0.4 - off),
    {
      label: 'bench big trade',
      condition: { kind: 'big-trade', scope: 'market', id: market, minSize: bigFires ? 50 : 200 + m },
      mode: 'rearm',
      cooldownSec: bigFires ? 2 : 30,
    },
  ]
}

export function benchRules(markets: readonly string[]): AlertRuleInput[] {
  return markets.flatMap((id, m) => rulesForMarket(id, m))
}

export interface RuleCheck {
  rules: number
  armed: number
  /** State counts (armed, fired, disabled, snoozed). */
  states: Record<string, number>
  /** Firings in the history since `since` (ms epoch), of this set's rules. */
  firedSince: number
  heldSince: number
  /** firedSince by what fired: the price subject ("last", "bid", ...) or the condition kind ("big-trade"). */
  firedBy: Record<string, number>
}

/** What getAlerts says about the set `ids` (every rule when null). */
export function checkRules(view: AlertsView, ids: ReadonlySet<string> | null, since: number): RuleCheck {
  const states: Record<string, number> = {}
  const what = new Map<string, string>()
  let rules = 0
  for (const r of view.rules) {
    if (ids !== null && !ids.has(r.id)) continue
    rules++
    states[r.state] = (states[r.state] ?? 0) + 1
    what.set(r.id, r.condition.kind === 'price' ? r.condition.subject : r.condition.kind)
  }
  let firedSince = 0
  let heldSince = 0
  const firedBy: Record<string, number> = {}
  for (const e of view.history) {
    if (e.at < since || (ids !== null && !ids.has(e.ruleId))) continue
    if (e.kind === 'fired') {
      firedSince++
      const w = what.get(e.ruleId) ?? 'other'
      firedBy[w] = (firedBy[w] ?? 0) + 1
    } else heldSince++
  }
  return { rules, armed: states.armed ?? 0, states, firedSince, heldSince, firedBy }
}

export async function getAlerts(client: MonitorClient): Promise<AlertsView> {
  return must('getAlerts', await client.getAlerts())
}

/** Saves every rule, one call each (as windows would); returns their ids and how long it took. */
export async function armRules(
  client: MonitorClient,
  rules: readonly AlertRuleInput[],
): Promise<{ ids: string[]; ms: number }> {
  const t0 = performance.now()
  const ids: string[] = []
  for (const rule of rules)
    ids.push(must(`saveAlert ${JSON.stringify(rule.condition)}`, await client.saveAlert(rule)).id)
  return { ids, ms: performance.now() - t0 }
}

export async function deleteRules(client: MonitorClient, ids: readonly string[]): Promise<number> {
  const t0 = performance.now()
  for (const id of ids) must(`deleteAlert ${id}`, await client.deleteAlert(id))
  return performance.now() - t0
}
