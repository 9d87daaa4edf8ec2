// The deterministic event/market catalog: readable titles and the REST listing body. An event is either a set
// of mutually exclusive outcomes (exactly one market resolves Yes) or a set of independent yes/no questions.
import { distinct, questions, ranges, rateMoves, type RangeWords, type RateWords } from './outcome-lists'
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
  /**
   * True when the markets are the event's mutually exclusive, exhaustive outcomes (exactly one resolves Yes,
   * so fair values sum to 1); false when they are independent yes/no questions about the same topic.
   */
  mutuallyExclusive: boolean
  /** Exclusive outcomes that are adjacent ranges of one quantity ("25 bps cut", "No change", ...), in order. */
  ordered: boolean
  markets: MarketInfo[]
}

interface Drawn {
  title: string
  outcomes: string[]
  question: (outcome: string) => string
}

interface Template {
  category: string
  /** Outcomes: the n market titles always cover every case, one each. Questions: n independent yes/no's. */
  kind: 'outcomes' | 'questions'
  /** Outcomes are adjacent ranges of one quantity, listed in order. */
  ordered?: true
  draw: (rng: Rng, n: number) => Drawn
}

const YEARS = ['2027', '2028']
const MONTHS = ['January', 'March', 'May', 'June', 'September', 'November', 'December']
const CITIES = ['Lisbon', 'Toronto', 'Osaka', 'Denver', 'Lyon', 'Melbourne', 'Austin', 'Gdansk']
const TEAMS = ['Falcons', 'Mariners', 'Rovers', 'Comets', 'Harriers', 'Titans', 'Wolves', 'Pilots']
const COINS = ['Bitcoin', 'Ether', 'Solana']
const COUNTRIES = ['Norway', 'Chile', 'Kenya', 'Vietnam', 'Portugal', 'Canada']
const FIRST_NAMES = ['Ana', 'Marek', 'Yuki', 'Grace', 'Tomas', 'Amara', 'Luis', 'Ingrid', 'Kofi', 'Mei']
const LAST_NAMES = [
  'Duarte',
  'Novak',
  'Tanaka',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Kowalski',
  'Reyes',
  'Walsh',
]
const PARTY_WORDS = [
  'Liberal',
  'Green',
  'Social Democratic',
  'National',
  'Progressive',
  'Conservative',
  'Labour',
]
const PARTY_KINDS = ['Party', 'Alliance', 'Union', 'Movement']
const FILM_WORDS = ['Silent', 'Last', 'Northern', 'Paper', 'Hidden', 'Golden', 'Quiet', 'Long']
const FILM_NOUNS = ['Harbour', 'Orchard', 'Winter', 'Lantern', 'River', 'Kingdom', 'Letters', 'Season']

const RATE_WORDS: RateWords = {
  any: 'Any decision',
  hold: 'No change',
  holdOrHike: 'No change or hike',
  move: (bps, open) => `${Math.abs(bps)}${open ? '+' : ''} bps ${bps < 0 ? 'cut' : 'hike'}`,
}

const RANGE_WORDS: RangeWords = {
  any: 'Any value',
  below: (e) => `Below ${e}`,
  between: (lo, hi) => `${lo} to ${hi}`,
  orMore: (e) => `${e} or more`,
}

const pct = (x: number): string => `${x.toFixed(1)}%`
const signedPct = (x: number): string => (x > 0 ? `+${x}%` : `${x}%`)

/** A topic's independent yes/no questions, the first n of `list`, each asked as "<about>: <question>?". */
function topic(
  category: string,
  draw: (r: Rng) => { title: string; list: string[]; about?: string },
): Template {
  return {
    category,
    kind: 'questions',
    draw: (r, n) => {
      const { title, list, about = title } = draw(r)
      return { title, outcomes: questions(list, n, 'Question'), question: (o) => `${about}: ${o}?` }
    },
  }
}

// Outcome events read as one question with one answer ("Who wins…?", "Which…?"); question events name a topic
// whose markets each ask their own yes/no question. Alternating keeps both kinds near the top of the list.
const TEMPLATES: Template[] = [
  {
    category: 'Economics',
    kind: 'outcomes',
    ordered: true,
    draw: (r, n) => {
      const when = `${pick(r, MONTHS)} ${pick(r, YEARS)}`
      return {
        title: `Fed decision in ${when}: which move?`,
        outcomes: rateMoves(n, RATE_WORDS),
        question: (o) => `Fed decision in ${when}: ${o}?`,
      }
    },
  },
  topic('Business', (r) => {
    const company = pick(r, ['Acme Robotics', 'Northwind', 'Globex', 'Initech'])
    const title = `Quarterly earnings: ${company}`
    const list = [
      'Revenue beats estimates',
      'EPS beats estimates',
      'Raises full-year guidance',
      'Announces buyback',
      'Shares up 5% next day',
      'CEO change announced',
    ]
    return { title, list, about: `${company} earnings` }
  }),
  {
    category: 'Politics',
    kind: 'outcomes',
    draw: (r, n) => {
      const race = `${pick(r, CITIES)} mayoral election ${pick(r, YEARS)}`
      return {
        title: `Who wins the ${race}?`,
        outcomes: distinct(r, n, FIRST_NAMES, LAST_NAMES, 'Candidate'),
        question: (o) => `Will ${o} win the ${race}?`,
      }
    },
  },
  topic('Sports', (r) => {
    const home = pick(r, TEAMS)
    const away = pick(
      r,
      TEAMS.filter((t) => t !== home),
    )
    const title = `${home} vs ${away} championship final`
    const list = [
      `${home} win`,
      'Goes to overtime',
      'Over 4.5 goals',
      'A clean sheet',
      'Red card shown',
      'Attendance record',
    ]
    return { title, list }
  }),
  {
    category: 'Crypto',
    kind: 'outcomes',
    ordered: true,
    draw: (r, n) => {
      const coin = pick(r, COINS)
      const day = `${pick(r, MONTHS)} 30`
      return {
        title: `${coin} monthly change to ${day}: which range?`,
        outcomes: ranges(n, 0, 5, signedPct, RANGE_WORDS),
        question: (o) => `${coin} monthly change to ${day}: ${o}?`,
      }
    },
  },
  topic('Climate', (r) => {
    const title = `${pick(r, CITIES)} weather in ${pick(r, MONTHS)}`
    const list = [
      'Hottest day above 35°C',
      'Rainfall above average',
      'Snow recorded',
      'Storm warning issued',
      'Record low temperature',
      'Drought declared',
    ]
    return { title, list }
  }),
  {
    category: 'Economics',
    kind: 'outcomes',
    ordered: true,
    draw: (r, n) => {
      const print = `${pick(r, COUNTRIES)} inflation, ${pick(r, MONTHS)} print`
      return {
        title: `${print}: which range?`,
        outcomes: ranges(n, 2.5, 0.5, pct, RANGE_WORDS),
        question: (o) => `${print}: ${o}?`,
      }
    },
  },
  topic('Technology', (r) => {
    const title = `Flagship phone launch before ${pick(r, MONTHS)} ${pick(r, YEARS)}`
    const list = [
      'Launch announced',
      'Price above $1,000',
      'Foldable model shown',
      'Launch delayed',
      'New chip unveiled',
      'Satellite messaging included',
    ]
    return { title, list }
  }),
  {
    category: 'Culture',
    kind: 'outcomes',
    draw: (r, n) => {
      const year = pick(r, YEARS)
      return {
        title: `Film awards ${year}: which film wins best picture?`,
        outcomes: distinct(r, n, FILM_WORDS, FILM_NOUNS, 'Candidate').map((f) => `The ${f}`),
        question: (o) => `Will ${o} win best picture at the ${year} film awards?`,
      }
    },
  },
  topic('Science', (r) => {
    const title = `Crewed lunar mission by ${pick(r, YEARS)}`
    const list = [
      'Launch on schedule',
      'Landing succeeds',
      'Mission delayed',
      'Private crew aboard',
      'Moonwalk over 6 hours',
      'Samples returned',
    ]
    return { title, list }
  }),
  {
    category: 'Politics',
    kind: 'outcomes',
    draw: (r, n) => {
      const vote = `${pick(r, COUNTRIES)} general election ${pick(r, YEARS)}`
      return {
        title: `${vote}: which party wins the most seats?`,
        outcomes: distinct(r, n, PARTY_WORDS, PARTY_KINDS, 'Candidate'),
        question: (o) => `${vote}: will the ${o} win the most seats?`,
      }
    },
  },
  {
    category: 'Sports',
    kind: 'outcomes',
    draw: (r, n) => {
      const race = `${pick(r, CITIES)} marathon ${pick(r, YEARS)}`
      return {
        title: `Who wins the ${race}?`,
        outcomes: distinct(r, n, FIRST_NAMES, LAST_NAMES, 'Candidate'),
        question: (o) => `Will ${o} win the ${race}?`,
      }
    },
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
    const { title, outcomes, question } = t.draw(rng, marketsPerEvent)
    const id = `ev-${hexId(rng, 4)}${i.toString(36)}`
    const ms: MarketInfo[] = []
    for (let j = 0; j < marketsPerEvent; j++) {
      const outcome = outcomes[j] ?? `Outcome ${j + 1}`
      const m: MarketInfo = {
        id: `${id}-m${j + 1}`,
        eventId: id,
        title: outcome,
        question: question(outcome),
        index: markets.length,
      }
      ms.push(m)
      markets.push(m)
    }
    const closesAt = new Date(base + randInt(rng, 10, 600) * 86_400_000).toISOString()
    events.push({
      id,
      title,
      category: t.category,
      closesAt,
      mutuallyExclusive: t.kind === 'outcomes',
      ordered: t.ordered === true,
      markets: ms,
    })
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
  /** Extra field (the spec allows extras): the markets are one event's exclusive outcomes, summing to 1. */
  mutuallyExclusive: boolean
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
      mutuallyExclusive: e.mutuallyExclusive,
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
