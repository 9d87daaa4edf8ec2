// A market's one-line name from its event's title and its own: the engine's alert texts and every window's
// panes say it the same way.

/** "Event · Market", or one of the two alone when the other is empty or says the same. */
export function marketLabelOf(event: string, market: string): string {
  const e = event.trim()
  const m = market.trim()
  if (e === '' || e === m) return m
  if (m === '') return e
  return `${e} · ${m}`
}
