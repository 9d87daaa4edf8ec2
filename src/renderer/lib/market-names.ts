// A market's name as the trader reads it: its event's title and its own, from the events listing. Every surface
// that names a market (account, alerts, toasts, history, CSV, inspector) takes its words from here, and shows the
// id only as secondary text, or alone when the listing does not hold the market.
import { marketLabelOf } from '../../shared/market-label'
import type { EventSummary } from '../../shared/model'

export interface MarketName {
  /** The event's title. */
  event: string
  /** The market's own title. */
  market: string
  /** One line for a cell, a toast or a CSV column: "Event · Market", or the market's title alone when the two
   *  say the same. */
  label: string
}

export type MarketNames = ReadonlyMap<string, MarketName>

/** Market id -> its name, for every market the listing holds. */
export function marketNamesOf(events: readonly EventSummary[]): MarketNames {
  let names = built.get(events)
  if (names === undefined) {
    const map = new Map<string, MarketName>()
    for (const e of events) {
      for (const m of e.markets)
        map.set(m.id, { event: e.title, market: m.title, label: marketLabelOf(e.title, m.title) })
    }
    names = map
    built.set(events, names)
  }
  return names
}

/**
 * One map per listing, shared by every caller: a listing is replaced, never changed in place, so its map holds
 * until the next one (and goes with it). Rows that each ask for names (history, toasts) build nothing.
 */
const built = new WeakMap<readonly EventSummary[], MarketNames>()

/** The name of a row's market, which may be none or one the listing does not hold. */
export function nameOf(names: MarketNames, market: string | null): MarketName | undefined {
  return market === null ? undefined : names.get(market)
}

/** The words for a market id: its label when known, else the id itself (never an empty string). */
export function marketLabel(names: MarketNames, id: string): string {
  return names.get(id)?.label ?? id
}

/**
 * A heading's words for a market the listing does not name: a neutral word while the listing is on its way (an
 * id is a UUID no one reads), the id once the listing has answered without it (then it is the only name there is).
 */
export function unnamedMarket(id: string, listingAnswered: boolean): string {
  return listingAnswered ? id : 'Market'
}

/** A tooltip naming a market: its label with the id after it, or the id and why no name is shown. */
export function marketHint(name: MarketName | undefined, id: string): string {
  return name ? `${name.label} (id ${id})` : `${id} (not in the events listing)`
}

/** A row's tooltip: the hint of the market it is about on a line above `text`, or `text` alone for none. */
export function hintAbove(names: MarketNames, market: string | null, text: string): string {
  return market === null ? text : `${marketHint(names.get(market), market)}\n${text}`
}
