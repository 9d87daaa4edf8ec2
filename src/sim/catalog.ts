// The deterministic event/market catalog: readable titles and the REST listing body.
import { deriveSeed, hexId, mulberry32, pick, randInt, type Rng } from './rng'

export interface MarketInfo {
  id: string
  eventId: string
  title: string
  question: string
  /** Position in the whole catalog; seeds the market's own random stream. */
  index: number
}

export interface EventInfo {
  id: string
  title: string
  category: string
  closesAt: string
  markets: MarketInfo[]
}

interface Template {
  category: string
  title: (rng: Rng) => string
  outcomes: (rng: Rng) => string[]
}

const YEARS = ['2027', '2028']
const MONTHS = ['January', 'March', 'May', 'June', 'September', 'November', 'December']
const CITIES = ['Lisbon', 'Toronto', 'Osaka', 'Denver', 'Lyon', 'Melbourne', 'Austin', 'Gdansk']
const TEAMS = ['Falcons', 'Mariners', 'Rovers', 'Comets', 'Harriers', 'Titans', 'Wolves', 'Pilots']
const COINS = ['Bitcoin', 'Ether', 'Solana']
const COUNTRIES = ['Norway', 'Chile', 'Kenya', 'Vietnam', 'Portugal', 'Canada']

const TEMPLATES: Template[] = [
  {
    category: 'Economics',
    title: (r) => `Fed decision in ${pick(r, MONTHS)} ${pick(r, YEARS)}`,
    outcomes: () => ['No change', '25 bps cut', '50+ bps cut', '25+ bps hike', 'Emergency meeting held'],
  },
  {
    category: 'Politics',
    title: (r) => `${pick(r, CITIES)} mayoral election ${pick(r, YEARS)}`,
    outcomes: () => [
      'Incumbent wins',
      'Challenger wins',
      'Runoff required',
      'Turnout above 50%',
      'Result contested',
    ],
  },
  {
    category: 'Sports',
    title: (r) => `${pick(r, TEAMS)} vs ${pick(r, TEAMS.slice().reverse())}: championship final`,
    outcomes: () => ['Home side wins', 'Away side wins', 'Goes to overtime', 'Over 4.5 goals', 'Clean sheet'],
  },
  {
    category: 'Crypto',
    title: (r) => `${pick(r, COINS)} price on ${pick(r, MONTHS)} 30`,
    outcomes: () => ['Up more than 10%', 'Up 0-10%', 'Down 0-10%', 'Down more than 10%', 'New all-time high'],
  },
  {
    category: 'Climate',
    title: (r) => `${pick(r, CITIES)} weather in ${pick(r, MONTHS)}`,
    outcomes: () => [
      'Hottest day above 35°C',
      'Rainfall above average',
      'Snow recorded',
      'Storm warning issued',
    ],
  },
  {
    category: 'Economics',
    title: (r) => `${pick(r, COUNTRIES)} inflation, ${pick(r, MONTHS)} print`,
    outcomes: () => ['Above 3%', 'Between 2% and 3%', 'Below 2%', 'Revised upward', 'Central bank comments'],
  },
  {
    category: 'Technology',
    title: (r) => `Flagship phone launch before ${pick(r, MONTHS)} ${pick(r, YEARS)}`,
    outcomes: () => ['Launch announced', 'Price above $1,000', 'Foldable model shown', 'Launch delayed'],
  },
  {
    category: 'Science',
    title: (r) => `Crewed lunar mission by ${pick(r, YEARS)}`,
    outcomes: () => ['Launch on schedule', 'Landing succeeds', 'Mission delayed', 'Private crew aboard'],
  },
  {
    category: 'Culture',
    title: (r) => `Film awards ${pick(r, YEARS)}: best picture`,
    outcomes: () => ['Drama wins', 'Comedy wins', 'Animated film nominated', 'Debut director wins'],
  },
  {
    category: 'Politics',
    title: (r) => `${pick(r, COUNTRIES)} general election ${pick(r, YEARS)}`,
    outcomes: () => [
      'Ruling party keeps power',
      'Coalition government',
      'Snap election called',
      'Turnout record',
    ],
  },
  {
    category: 'Sports',
    title: (r) => `${pick(r, CITIES)} marathon ${pick(r, YEARS)}`,
    outcomes: () => ['Course record broken', 'Winner under 2:05', 'Home runner on podium', 'Race postponed'],
  },
  {
    category: 'Business',
    title: (r) => `Quarterly earnings: ${pick(r, ['Acme Robotics', 'Northwind', 'Globex', 'Initech'])}`,
    outcomes: () => ['Beats estimates', 'Misses estimates', 'Raises guidance', 'Announces buyback'],
  },
]

export interface Catalog {
  events: EventInfo[]
  markets: MarketInfo[]
  marketById: Map<string, MarketInfo>
  eventById: Map<string, EventInfo>
}

export function buildCatalog(seed: number, eventCount: number, marketsPerEvent: number): Catalog {
  const rng = mulberry32(deriveSeed(seed, 0xca7a106))
  const events: EventInfo[] = []
  const markets: MarketInfo[] = []
  // A fixed base date (not the wall clock) keeps the listing identical for a seed.
  const base = Date.UTC(2027, 0, 1)
  for (let i = 0; i < eventCount; i++) {
    const t = TEMPLATES[i % TEMPLATES.length] as Template
    const title = t.title(rng)
    const id = `ev-${hexId(rng, 4)}${i.toString(36)}`
    const outcomes = t.outcomes(rng)
    const ms: MarketInfo[] = []
    for (let j = 0; j < marketsPerEvent; j++) {
      const outcome = outcomes[j] ?? `Outcome ${j + 1}`
      const m: MarketInfo = {
        id: `${id}-m${j + 1}`,
        eventId: id,
        title: outcome,
        question: `${title}: ${outcome}?`,
        index: markets.length,
      }
      ms.push(m)
      markets.push(m)
    }
    const closesAt = new Date(base + randInt(rng, 10, 600) * 86_400_000).toISOString()
    events.push({ id, title, category: t.category, closesAt, markets: ms })
  }
  return {
    events,
    markets,
    marketById: new Map(markets.map((m) => [m.id, m])),
    eventById: new Map(events.map((e) => [e.id, e])),
  }
}

export interface ListingMarket {
  id: string
  title: string
  question: string
  status: 'open'
  outcomes: ['Yes', 'No']
  tickSize: number
  lastPrice: number | null
  bestBid: number | null
  bestAsk: number | null
}

export interface ListingEvent {
  id: string
  title: string
  category: string
  status: 'open'
  closesAt: string
  markets: ListingMarket[]
}

export interface EventsListing {
  events: ListingEvent[]
}

export interface Quote {
  lastPrice: number | null
  bestBid: number | null
  bestAsk: number | null
}

/** The body of GET /v1/data/events: the catalog plus live quotes. */
export function listingBody(catalog: Catalog, quote: (marketId: string) => Quote): EventsListing {
  return {
    events: catalog.events.map((e) => ({
      id: e.id,
      title: e.title,
      category: e.category,
      status: 'open',
      closesAt: e.closesAt,
      markets: e.markets.map((m) => ({
        id: m.id,
        title: m.title,
        question: m.question,
        status: 'open',
        outcomes: ['Yes', 'No'],
        tickSize: 0.01,
        ...quote(m.id),
      })),
    })),
  }
}
