// The VoxFi face of the simulator's catalog: the same markets (same books, same fair values) as the reference
// dialect, presented as VoxFi event objects (docs.voxfi.com.br/en/api/events, /en/api/markets) with Brazilian
// Portuguese titles, categories, tags, rules and dates.
//
// Grouping: a catalog event of mutually exclusive outcomes is one multi-market VoxFi event whose markets are
// described by their outcome; a catalog event of independent yes/no questions becomes one single-market VoxFi event
// per question (`is_single_market: true`, market `description: ""`, as in the docs' example). Only the text is
// drawn here, from its own random stream, so the catalog and every book stay exactly as in the reference dialect.
import type { Catalog, EventInfo } from '../catalog'
import { distinct, questions, ranges, rateMoves, type RangeWords, type RateWords } from '../outcome-lists'
import { deriveSeed, mulberry32, pick, randInt, type Rng } from '../rng'
import { uuidFor } from './ids'

export interface VoxOption {
  id: string
  option_type: 1 | 2
  description: 'Yes' | 'No'
  metadata: Record<string, never>
}

/** A market inside an event's `markets[]` (docs.voxfi.com.br/en/api/markets "Market Example"). */
export interface VoxMarket {
  id: string
  description: string
  metadata: Record<string, never>
  thumbnail_url: null
  options: [VoxOption, VoxOption]
  volume: number
  /** RFC 3339 once the market is closed for trading (the closeMarket fault). */
  closed_at: string | null
  resolved_at: null
  settled_at: null
  liquidity: number
  winner_option_type: null
}

/** One event object (docs.voxfi.com.br/en/api/events "Example Event Response"). */
export interface VoxEvent {
  id: string
  status_id: number
  type_id: number
  category_id: number
  tags_ids: number[]
  status: string
  type: string
  category: string
  description: string
  tags: string[]
  slug: string
  rules: string
  thumbnail_url: string
  documentation_url: string
  metadata: Record<string, never>
  created_at: string
  starts_at: string
  resolves_at: string
  finished_at: null
  qty_markets: number
  is_single_market: boolean
  markets: VoxMarket[]
}

/** The body of GET /v1/data/events: a bare JSON array of event objects (the envelope is undocumented). */
export type VoxfiListing = VoxEvent[]

export interface VoxMarketInfo {
  uuid: string
  /** The simulator's own market id (the book and the demo account know this one). */
  internalId: string
  eventUuid: string
  description: string
  optionIds: [string, string]
  /** Position in the whole catalog (seeds per-market streams). */
  index: number
}

export interface VoxEventInfo {
  uuid: string
  category: string
  categoryId: number
  tags: string[]
  tagsIds: number[]
  description: string
  slug: string
  rules: string
  createdAt: string
  startsAt: string
  resolvesAt: string
  markets: VoxMarketInfo[]
}

export interface VoxCatalog {
  events: VoxEventInfo[]
  markets: VoxMarketInfo[]
  marketByUuid: Map<string, VoxMarketInfo>
  marketByInternal: Map<string, VoxMarketInfo>
  eventByUuid: Map<string, VoxEventInfo>
}

const DAY = 86_400_000
const MONTHS = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
]
const CITIES = [
  'São Paulo',
  'Rio de Janeiro',
  'Belo Horizonte',
  'Recife',
  'Porto Alegre',
  'Salvador',
  'Curitiba',
  'Fortaleza',
]
const STATES = ['São Paulo', 'Minas Gerais', 'Bahia', 'Paraná', 'Pernambuco', 'Rio Grande do Sul', 'Goiás']
const TEAMS = [
  'Flamengo',
  'Palmeiras',
  'Corinthians',
  'São Paulo',
  'Grêmio',
  'Internacional',
  'Atlético-MG',
  'Fluminense',
  'Botafogo',
  'Cruzeiro',
]
const COMPANIES: Array<{ name: string; art: 'a' | 'o' }> = [
  { name: 'Petrobras', art: 'a' },
  { name: 'Vale', art: 'a' },
  { name: 'Itaú Unibanco', art: 'o' },
  { name: 'Magazine Luiza', art: 'a' },
  { name: 'Ambev', art: 'a' },
  { name: 'WEG', art: 'a' },
]
const COINS = ['Bitcoin', 'Ethereum', 'Solana']
const FIRST_NAMES = [
  'Ana',
  'Marcos',
  'Juliana',
  'Ricardo',
  'Fernanda',
  'Paulo',
  'Camila',
  'Rafael',
  'Beatriz',
  'Tiago',
]
const LAST_NAMES = [
  'Duarte',
  'Oliveira',
  'Moreira',
  'Carvalho',
  'Nogueira',
  'Barbosa',
  'Cardoso',
  'Teixeira',
  'Rocha',
]
const PARTY_KINDS = ['Frente', 'Aliança', 'União']
const PARTY_WORDS = [
  'Progressista',
  'Liberal',
  'Democrática',
  'Trabalhista',
  'Verde',
  'Popular',
  'Renovadora',
]
const FILM_NOUNS = ['Farol', 'Pomar', 'Inverno', 'Rio', 'Reino', 'Sertão', 'Quintal', 'Porto']
const FILM_ADJS = ['Esquecido', 'Silencioso', 'Último', 'Escondido', 'Dourado', 'Distante', 'Quieto', 'Longo']
const RUNNER_FIRST = [
  'Daniel',
  'Joyce',
  'Marílson',
  'Ruth',
  'Vanderlei',
  'Brigid',
  'Justino',
  'Adriana',
  'Geoffrey',
]
const RUNNER_LAST = [
  'Kipruto',
  'Nascimento',
  'Jepkosgei',
  'Ferreira',
  'Kiplagat',
  'Santos',
  'Gomes',
  'Chebet',
]

const CATEGORY_IDS: Record<string, number> = {
  Política: 1,
  Economia: 2,
  Esportes: 3,
  Cripto: 4,
  Clima: 5,
  Cultura: 7,
  Ciência: 8,
  Tecnologia: 11,
}

const RATE_WORDS: RateWords = {
  any: 'Qualquer decisão',
  hold: 'Manutenção',
  holdOrHike: 'Manutenção ou alta',
  move: (bps, open) => `${bps < 0 ? 'Corte' : 'Alta'} de ${Math.abs(bps)}${open ? '+' : ''} pb`,
}

const RANGE_WORDS: RangeWords = {
  any: 'Qualquer valor',
  below: (e) => `Abaixo de ${e}`,
  between: (lo, hi) => `De ${lo} a ${hi}`,
  orMore: (e) => `${e} ou mais`,
}

const pct = (x: number): string => `${x.toFixed(1).replace('.', ',')}%`
const signedPct = (x: number): string => (x > 0 ? `+${x}%` : `${x}%`)

/** What the text of an event depends on: the month and year it resolves in. */
interface When {
  month: string
  year: number
  day: number
}

interface Drawn {
  /** Multi-market: the event's description. Single-market groups: a name used for nothing but tags. */
  title: string
  /** One per market: the outcome (multi-market) or the whole question (single-market). */
  items: string[]
  /** The event's rules; single-market groups: each question's own event's. */
  rules: string
  tags: string[]
}

interface Template {
  category: string
  kind: 'outcomes' | 'questions'
  ordered?: true
  /** Days from now until resolution, and the UTC hour it resolves at. */
  resolveDays: [number, number]
  hourUtc: number
  draw: (r: Rng, n: number, w: When) => Drawn
}

interface Asked {
  title: string
  list: string[]
  /** What makes a question "Sim", and where that is read. */
  condition: string
  source: string
  tags: string[]
}

/** Independent yes/no questions, one single-market event each: the first n of `list`, under the same rules. */
function asked(
  category: string,
  resolveDays: [number, number],
  hourUtc: number,
  draw: (r: Rng, w: When) => Asked,
): Template {
  return {
    category,
    kind: 'questions',
    resolveDays,
    hourUtc,
    draw: (r, n, w) => {
      const a = draw(r, w)
      return {
        title: a.title,
        items: questions(a.list, n, 'Pergunta'),
        rules: `Para o resultado ser "Sim", ${a.condition}. Caso contrário, o mercado resolve em "Não". Fonte de resolução: ${a.source}.`,
        tags: a.tags,
      }
    },
  }
}

// Same order and kinds as catalog.ts TEMPLATES, so that template i here describes catalog event i's markets.
const TEMPLATES: Template[] = [
  {
    category: 'Economia',
    kind: 'outcomes',
    ordered: true,
    resolveDays: [5, 45],
    hourUtc: 21,
    draw: (_r, n, w) => ({
      title: `Copom de ${w.month} de ${w.year}: qual será a decisão sobre a Selic?`,
      items: rateMoves(n, RATE_WORDS),
      rules: `Este mercado resolve em "Sim" para a opção que corresponder à decisão sobre a taxa Selic anunciada pelo Comitê de Política Monetária (Copom) do Banco Central ao fim da reunião de ${w.month} de ${w.year}, e em "Não" para todas as demais. Fonte: comunicado oficial do Banco Central do Brasil.`,
      tags: ['Copom', 'Selic', 'Banco Central', 'Juros'],
    }),
  },
  asked('Economia', [3, 30], 23, (r) => {
    const c = pick(r, COMPANIES)
    const A = c.art === 'a' ? 'A' : 'O'
    const list = [
      `${A} ${c.name} vai reportar receita acima do consenso no próximo balanço trimestral?`,
      `O lucro por ação d${c.art} ${c.name} vai superar as estimativas no próximo balanço?`,
      `${A} ${c.name} vai elevar as projeções para o ano no próximo balanço?`,
      `${A} ${c.name} vai anunciar um programa de recompra de ações junto com o balanço?`,
      `As ações d${c.art} ${c.name} vão subir mais de 5% no pregão seguinte ao balanço?`,
      `${A} ${c.name} vai anunciar troca de CEO junto com o balanço?`,
    ]
    return {
      title: `Resultado trimestral: ${c.name}`,
      list,
      condition: `o fato descrito na pergunta precisa constar no release de resultados ou em fato relevante publicado pel${c.art} ${c.name} até a data de resolução`,
      source: 'CVM e relações com investidores da companhia',
      tags: ['Empresas', 'Balanços', 'B3', c.name],
    }
  }),
  {
    category: 'Política',
    kind: 'outcomes',
    resolveDays: [20, 60],
    hourUtc: 23,
    draw: (r, n, w) => {
      const city = pick(r, CITIES)
      return {
        title: `Quem vence a eleição para prefeito de ${city} em ${w.year}?`,
        items: distinct(r, n, FIRST_NAMES, LAST_NAMES, 'Candidato'),
        rules: `Resolve em "Sim" para a candidatura declarada eleita para a prefeitura de ${city} pelo Tribunal Superior Eleitoral (TSE) na eleição de ${w.year}, considerando o segundo turno quando houver. Todas as demais opções resolvem em "Não".`,
        tags: ['Eleições', 'Eleições Municipais', city],
      }
    },
  },
  asked('Esportes', [1, 10], 1, (r) => {
    const home = pick(r, TEAMS)
    const away = pick(
      r,
      TEAMS.filter((t) => t !== home),
    )
    const game = `${home} x ${away}, final da Copa do Brasil`
    const list = [
      `${game}: o ${home} vai vencer no tempo normal?`,
      `${game}: o jogo vai para a prorrogação?`,
      `${game}: haverá mais de 2,5 gols?`,
      `${game}: algum time vai terminar sem sofrer gols?`,
      `${game}: haverá cartão vermelho?`,
      `${game}: o público vai bater o recorde do estádio?`,
    ]
    return {
      title: game,
      list,
      condition:
        'o fato descrito precisa ocorrer na partida, conforme a súmula oficial; a prorrogação conta, a disputa de pênaltis não conta',
      source: 'súmula oficial da CBF',
      tags: ['Futebol', 'Copa do Brasil', home, away],
    }
  }),
  {
    category: 'Cripto',
    kind: 'outcomes',
    ordered: true,
    resolveDays: [2, 30],
    hourUtc: 0,
    draw: (r, n, w) => {
      const coin = pick(r, COINS)
      return {
        title: `${coin}: variação no mês até ${w.day} de ${w.month}, qual faixa?`,
        items: ranges(n, 0, 5, signedPct, RANGE_WORDS),
        rules: `Resolve em "Sim" para a faixa que contiver a variação percentual do ${coin} em dólares entre o fechamento do último dia do mês anterior e ${w.day} de ${w.month} de ${w.year} às 00:00 UTC, segundo a cotação de referência da CoinGecko. As demais faixas resolvem em "Não".`,
        tags: ['Cripto', coin],
      }
    },
  },
  asked('Clima', [3, 30], 23, (r, w) => {
    const city = pick(r, CITIES)
    const list = [
      `${city} vai registrar máxima acima de 35 °C em ${w.month}?`,
      `A chuva em ${city} vai ficar acima da média histórica de ${w.month}?`,
      `O Inmet vai emitir alerta vermelho de tempestade para ${city} em ${w.month}?`,
      `${city} vai registrar a menor temperatura do ano em ${w.month}?`,
      `A Defesa Civil vai decretar situação de emergência por seca em ${city} em ${w.month}?`,
      `${city} vai registrar queda de granizo em ${w.month}?`,
    ]
    return {
      title: `Clima em ${city} em ${w.month}`,
      list,
      condition: `a medição ou o alerta descrito precisa constar nos registros oficiais da estação de referência de ${city} até o último dia de ${w.month} de ${w.year}`,
      source: 'Inmet (Instituto Nacional de Meteorologia)',
      tags: ['Clima', 'Inmet', city],
    }
  }),
  {
    category: 'Economia',
    kind: 'outcomes',
    ordered: true,
    resolveDays: [5, 35],
    hourUtc: 12,
    draw: (_r, n, w) => ({
      title: `IPCA acumulado em 12 meses (divulgação de ${w.month} de ${w.year}): qual faixa?`,
      items: ranges(n, 4.5, 0.5, pct, RANGE_WORDS),
      rules: `Resolve em "Sim" para a faixa que contiver o IPCA acumulado em 12 meses divulgado pelo IBGE em ${w.month} de ${w.year}. O limite inferior de cada faixa é inclusivo. Revisões posteriores à divulgação não são consideradas.`,
      tags: ['Inflação', 'IPCA', 'IBGE'],
    }),
  },
  asked('Tecnologia', [7, 45], 23, (_r, w) => {
    const list = [
      `A Anatel vai homologar um novo celular dobrável até o fim de ${w.month}?`,
      `Algum celular topo de linha vai ser lançado no Brasil por mais de R$ 12.000 até o fim de ${w.month}?`,
      `O Pix vai bater recorde de transações em um único dia em ${w.month}?`,
      `Algum lançamento de celular previsto para ${w.month} vai ser adiado?`,
      `Uma big tech vai anunciar um novo data center no Brasil em ${w.month}?`,
      `O Drex vai abrir uma nova fase de testes até o fim de ${w.month}?`,
    ]
    return {
      title: `Tecnologia em ${w.month} de ${w.year}`,
      list,
      condition: `o fato descrito precisa ser confirmado por anúncio oficial ou registro público até 23:59 (horário de Brasília) do último dia de ${w.month} de ${w.year}`,
      source: 'comunicados oficiais das empresas e órgãos envolvidos',
      tags: ['Tecnologia', 'Celulares', 'Brasil'],
    }
  }),
  {
    category: 'Cultura',
    kind: 'outcomes',
    resolveDays: [10, 60],
    hourUtc: 2,
    draw: (r, n, w) => ({
      title: `Grande Prêmio do Cinema Brasileiro ${w.year}: qual filme vence como melhor longa?`,
      items: distinct(r, n, FILM_NOUNS, FILM_ADJS, 'Filme').map((f) =>
        f.startsWith('Filme ') ? f : `O ${f}`,
      ),
      rules: `Resolve em "Sim" para o filme anunciado como vencedor da categoria Melhor Longa-Metragem de Ficção no Grande Prêmio do Cinema Brasileiro ${w.year}. Se a cerimônia for adiada por mais de 30 dias, o mercado é anulado.`,
      tags: ['Cinema', 'Cultura', 'Premiações'],
    }),
  },
  asked('Ciência', [15, 60], 23, (_r, w) => {
    const list = [
      `A próxima missão tripulada ao redor da Lua vai decolar até ${w.month} de ${w.year}?`,
      `Uma missão tripulada vai pousar na Lua até ${w.month} de ${w.year}?`,
      `O lançamento da próxima missão lunar vai ser adiado antes de ${w.month}?`,
      `A próxima missão lunar vai levar um astronauta de fora dos EUA?`,
      `Alguma caminhada lunar vai durar mais de 6 horas em ${w.year}?`,
      `Amostras do solo lunar vão chegar à Terra até ${w.month} de ${w.year}?`,
    ]
    return {
      title: `Exploração lunar em ${w.year}`,
      list,
      condition: `o fato descrito precisa ser confirmado pela agência responsável pela missão até a data de resolução`,
      source: 'Nasa e agências espaciais parceiras',
      tags: ['Ciência', 'Espaço', 'Lua'],
    }
  }),
  {
    category: 'Política',
    kind: 'outcomes',
    resolveDays: [20, 60],
    hourUtc: 23,
    draw: (r, n, w) => {
      const state = pick(r, STATES)
      return {
        title: `Eleição para governador de ${state} em ${w.year}: qual partido vence?`,
        items: distinct(r, n, PARTY_KINDS, PARTY_WORDS, 'Partido'),
        rules: `Resolve em "Sim" para o partido ou federação da candidatura eleita para o governo de ${state} em ${w.year}, segundo o resultado oficial do TSE. As demais opções resolvem em "Não".`,
        tags: ['Eleições', 'Governo Estadual', state],
      }
    },
  },
  {
    category: 'Esportes',
    kind: 'outcomes',
    resolveDays: [2, 21],
    hourUtc: 15,
    draw: (r, n, w) => {
      const city = pick(r, CITIES)
      return {
        title: `Quem vence a Maratona de ${city} ${w.year}?`,
        items: distinct(r, n, RUNNER_FIRST, RUNNER_LAST, 'Atleta'),
        rules: `Resolve em "Sim" para quem cruzar a linha de chegada em primeiro lugar na categoria elite da Maratona de ${city} ${w.year}, segundo o resultado oficial da organização. Desclassificações anunciadas até 72 horas após a prova são consideradas.`,
        tags: ['Atletismo', 'Corrida de Rua', city],
      }
    },
  },
]

/** Fallbacks when a catalog event's kind does not match the template at its position (catalog.ts changed). */
const GENERIC: Record<'ordered' | 'outcomes' | 'questions', Template> = {
  ordered: TEMPLATES[0] as Template,
  outcomes: TEMPLATES[2] as Template,
  questions: TEMPLATES[1] as Template,
}

function templateFor(e: EventInfo, i: number): Template {
  const t = TEMPLATES[i % TEMPLATES.length] as Template
  const kind = e.mutuallyExclusive ? 'outcomes' : 'questions'
  if (t.kind === kind && (t.ordered === true) === e.ordered) return t
  return e.mutuallyExclusive ? (e.ordered ? GENERIC.ordered : GENERIC.outcomes) : GENERIC.questions
}

export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 96)
    .replace(/-+$/, '')
}

/** RFC 3339 without fractional seconds, as the docs show `starts_at` and `resolves_at`. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** RFC 3339 with microseconds, as the docs show `created_at`. */
function isoMicros(ms: number, micros: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${String(micros).padStart(6, '0')}Z`)
}

/** UTC midnight of the day `now` falls in: the default origin of the listing's dates. */
export function startOfUtcDay(now: number): number {
  return Math.floor(now / DAY) * DAY
}

export function buildVoxCatalog(catalog: Catalog, seed: number, epochMs: number): VoxCatalog {
  const r = mulberry32(deriveSeed(seed, 0x70742d31))
  const tagIds = new Map<string, number>()
  const tagId = (t: string): number => {
    let id = tagIds.get(t)
    if (id === undefined) {
      id = tagIds.size + 1
      tagIds.set(t, id)
    }
    return id
  }
  const events: VoxEventInfo[] = []
  const markets: VoxMarketInfo[] = []
  let eventNo = 0
  catalog.events.forEach((e, i) => {
    const t = templateFor(e, i)
    const resolvesAt = epochMs + randInt(r, t.resolveDays[0], t.resolveDays[1]) * DAY + t.hourUtc * 3_600_000
    const d = new Date(resolvesAt)
    const when: When = {
      month: MONTHS[d.getUTCMonth()] as string,
      year: d.getUTCFullYear(),
      day: d.getUTCDate(),
    }
    const drawn = t.draw(r, e.markets.length, when)
    const startsAt =
      epochMs - randInt(r, 1, 21) * DAY + randInt(r, 8, 20) * 3_600_000 + pick(r, [0, 15, 30, 45]) * 60_000
    const newEvent = (description: string, rules: string, ms: typeof e.markets): void => {
      const uuid = uuidFor(seed, 0x0e7e, eventNo++)
      const createdMs = startsAt - randInt(r, 60, 10_800) * 1000
      const ev: VoxEventInfo = {
        uuid,
        category: t.category,
        categoryId: CATEGORY_IDS[t.category] ?? 99,
        tags: drawn.tags,
        tagsIds: drawn.tags.map(tagId),
        description,
        slug: slugify(description),
        rules,
        createdAt: isoMicros(createdMs, randInt(r, 0, 999_999)),
        startsAt: isoSeconds(startsAt),
        resolvesAt: isoSeconds(resolvesAt),
        markets: [],
      }
      for (const m of ms) {
        const j = e.markets.indexOf(m)
        const info: VoxMarketInfo = {
          uuid: uuidFor(seed, 0x3a3a, m.index),
          internalId: m.id,
          eventUuid: uuid,
          description: ms.length === 1 ? '' : (drawn.items[j] ?? `Opção ${j + 1}`),
          optionIds: [uuidFor(seed, 0x0917, 2 * m.index), uuidFor(seed, 0x0917, 2 * m.index + 1)],
          index: m.index,
        }
        ev.markets.push(info)
        markets.push(info)
      }
      events.push(ev)
    }
    if (t.kind === 'questions') {
      e.markets.forEach((m, j) => {
        const q = drawn.items[j] ?? `Pergunta ${j + 1}`
        newEvent(q, drawn.rules, [m])
      })
    } else newEvent(drawn.title, drawn.rules, e.markets)
  })
  return {
    events,
    markets,
    marketByUuid: new Map(markets.map((m) => [m.uuid, m])),
    marketByInternal: new Map(markets.map((m) => [m.internalId, m])),
    eventByUuid: new Map(events.map((e) => [e.uuid, e])),
  }
}

export interface MarketFigures {
  volume: number
  liquidity: number
  /** ms since epoch, null while open. */
  closedAt: number | null
}

/** The body of GET /v1/data/events: every event with its markets and their live volume and liquidity. */
export function voxListingBody(vc: VoxCatalog, figures: (marketUuid: string) => MarketFigures): VoxfiListing {
  return vc.events.map((e) => ({
    id: e.uuid,
    status_id: 2,
    type_id: 1,
    category_id: e.categoryId,
    tags_ids: [...e.tagsIds],
    status: 'Active',
    type: 'future',
    category: e.category,
    description: e.description,
    tags: [...e.tags],
    slug: e.slug,
    rules: e.rules,
    thumbnail_url: '',
    documentation_url: '',
    metadata: {},
    created_at: e.createdAt,
    starts_at: e.startsAt,
    resolves_at: e.resolvesAt,
    finished_at: null,
    qty_markets: e.markets.length,
    is_single_market: e.markets.length === 1,
    markets: e.markets.map((m) => {
      const f = figures(m.uuid)
      return {
        id: m.uuid,
        description: m.description,
        metadata: {},
        thumbnail_url: null,
        options: [
          { id: m.optionIds[0], option_type: 1, description: 'Yes', metadata: {} },
          { id: m.optionIds[1], option_type: 2, description: 'No', metadata: {} },
        ],
        volume: f.volume,
        closed_at: f.closedAt === null ? null : isoSeconds(f.closedAt),
        resolved_at: null,
        settled_at: null,
        liquidity: f.liquidity,
        winner_option_type: null,
      }
    }),
  }))
}
