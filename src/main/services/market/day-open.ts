// Each market's first traded price of the local day, as this engine saw it: what a watchlist's "change since
// open" is measured from. Kept apart from the books, which are dropped when nobody watches a market and on every
// reconnect, so a row scrolled out of view and back keeps its open. Bounded: the least recently traded go first.
export interface DayOpen {
  price: number
  /** ms since epoch of the trade that opened the day. */
  at: number
}

interface Entry {
  /** Made once per market and day, so reading it costs no allocation. */
  open: Readonly<DayOpen>
  /** The next local midnight after the open: a trade from then on opens a new day. */
  until: number
}

export const MAX_DAY_OPENS = 5000

function nextMidnight(at: number): number {
  const d = new Date(at)
  d.setHours(24, 0, 0, 0)
  return d.getTime()
}

export class DayOpens {
  private readonly opens = new Map<string, Entry>()

  constructor(private readonly max = MAX_DAY_OPENS) {}

  /** A trade at `price`, received at `at`. One map read on the hot path unless a day begins. */
  note(market: string, price: number, at: number): void {
    const entry = this.opens.get(market)
    if (entry !== undefined && at < entry.until) return
    if (entry !== undefined) this.opens.delete(market)
    else if (this.opens.size >= this.max) {
      const oldest = this.opens.keys().next()
      if (!oldest.done) this.opens.delete(oldest.value)
    }
    this.opens.set(market, { open: { price, at }, until: nextMidnight(at) })
  }

  /** Today's open, or null when the market has not traded today (as far as this engine saw). No copy: view-time. */
  get(market: string, now: number): Readonly<DayOpen> | null {
    const entry = this.opens.get(market)
    return entry === undefined || now >= entry.until ? null : entry.open
  }
}
