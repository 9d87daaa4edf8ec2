// A user adapter file for the hostile-pattern tests (issue 28 §1): a small valid adapter named `hostile`, with
// what a test puts in it (its patterns) over the defaults.
export function hostileAdapter(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'trading-monitor-adapter',
    version: 1,
    name: 'hostile',
    title: 'Hostile',
    docs: [],
    detect: { path: 'venue', equals: 'hostile' },
    rules: [{ name: 'tick', when: [], emit: [{ kind: 'ticker', market: 'm', last: 'p' }] }],
    ...extra,
  }
}
