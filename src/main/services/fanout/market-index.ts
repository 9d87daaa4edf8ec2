// Which visible windows watch each market, so that a change touches only its watchers, and which watched markets
// changed since the last pass: a change costs one set insert however many windows watch the market, and is handed
// to the watchers at flush time (`distribute`). A hidden window is not in the index at all.
import type { FanoutClient as Client } from './client'

/** The visible clients watching one market, and how many of them are idle (a change then goes out at once). */
export interface Watchers {
  readonly clients: Set<Client>
  idle: number
}

export class MarketIndex {
  private readonly byMarket = new Map<string, Watchers>()
  /** Watched markets whose book (or only ticker) changed since the last pass, engine-wide. */
  private readonly changedBooks = new Set<string>()
  private readonly changedTickers = new Set<string>()

  watchers(market: string): Watchers | undefined {
    return this.byMarket.get(market)
  }

  /** Records a book change of a watched market; returns its watchers (undefined: nobody watches it). */
  bookChanged(market: string): Watchers | undefined {
    const watchers = this.byMarket.get(market)
    if (watchers !== undefined) this.changedBooks.add(market)
    return watchers
  }

  /** Records a ticker-only change of a watched market; returns its watchers (undefined: nobody watches it). */
  tickerChanged(market: string): Watchers | undefined {
    const watchers = this.byMarket.get(market)
    if (watchers !== undefined) this.changedTickers.add(market)
    return watchers
  }

  add(client: Client, market: string): void {
    let watchers = this.byMarket.get(market)
    if (watchers === undefined) {
      watchers = { clients: new Set(), idle: 0 }
      this.byMarket.set(market, watchers)
    }
    if (watchers.clients.has(client)) return
    watchers.clients.add(client)
    if (client.idle) watchers.idle++
  }

  remove(client: Client, market: string): void {
    const watchers = this.byMarket.get(market)
    if (watchers === undefined || !watchers.clients.delete(client)) return
    if (client.idle) watchers.idle--
    if (watchers.clients.size === 0) this.byMarket.delete(market)
  }

  /** Sets the client's idle flag and keeps each market's count of idle watchers, which the hot path reads. */
  setIdle(client: Client, idle: boolean): void {
    if (client.idle === idle) return
    client.idle = idle
    if (!client.visible) return
    const delta = idle ? 1 : -1
    for (const market of client.markets) {
      const watchers = this.byMarket.get(market)
      if (watchers !== undefined) watchers.idle += delta
    }
  }

  /** Marks the engine-wide changes on the clients watching them now (one that stopped watching gets none). */
  distribute(pending: Set<Client>): void {
    this.hand(this.changedBooks, pending, (client, market) => void client.dirtyBooks.add(market))
    this.hand(this.changedTickers, pending, (client, market) => void client.dirtyTickers.add(market))
  }

  clear(): void {
    this.byMarket.clear()
    this.changedBooks.clear()
    this.changedTickers.clear()
  }

  private hand(
    changed: Set<string>,
    pending: Set<Client>,
    mark: (client: Client, market: string) => void,
  ): void {
    if (changed.size === 0) return
    for (const market of changed) {
      const watchers = this.byMarket.get(market)
      if (watchers === undefined) continue
      for (const client of watchers.clients) {
        mark(client, market)
        pending.add(client)
      }
    }
    changed.clear()
  }
}
