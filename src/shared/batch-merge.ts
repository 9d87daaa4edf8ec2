// What two view batches folded into one keep, shared by the browser host (a backed-up page socket) and the
// renderer (batches landing within one frame): state keeps the newest value per market, lists are appended in
// order. Each caller caps the lists by its own rule.

/** The newest item per market, older ones replaced. */
export function newestByMarket<T extends { market: string }>(older?: T[], newer?: T[]): T[] | undefined {
  if (!older || older.length === 0) return newer
  if (!newer || newer.length === 0) return older
  const byMarket = new Map<string, T>()
  for (const item of older) byMarket.set(item.market, item)
  for (const item of newer) byMarket.set(item.market, item)
  return [...byMarket.values()]
}

/** Both lists in order, without copying when one is absent. */
export function appended<T>(older: T[] | undefined, newer: T[] | undefined): T[] | undefined {
  if (!older || older.length === 0) return newer
  if (!newer || newer.length === 0) return older
  return older.concat(newer)
}
