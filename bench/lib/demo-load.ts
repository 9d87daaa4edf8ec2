// The demo load's market pick, shared by bench:day (bench/day/run.ts) and bench:voxfi (bench/voxfi-faults.ts).

/** Picks `n` markets across the events: the first market of every event, then the second, and so on. */
export function pickMarkets(listing: { id: string; event: string }[], n: number): string[] {
  const byEvent = new Map<string, string[]>()
  for (const m of listing) {
    const list = byEvent.get(m.event)
    if (list) list.push(m.id)
    else byEvent.set(m.event, [m.id])
  }
  const out: string[] = []
  for (let k = 0; out.length < n; k++) {
    let added = false
    for (const list of byEvent.values()) {
      const id = list[k]
      if (id === undefined || out.length >= n) continue
      out.push(id)
      added = true
    }
    if (!added) break
  }
  return out
}
