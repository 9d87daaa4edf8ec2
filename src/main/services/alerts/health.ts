// Feed-health rules (disconnected, book not live, key refused, key expiring), checked on the engine's tick:
// tracks since when the connection and each watched book have been down, and fires a rule on the edge of its
// condition, saying what is wrong and since when.
import { marketWord, words } from '../../../shared/alert-text'
import type { ApiError, ConnectionState } from '../../../shared/model'
import type { BookStore } from '../market/books'
import {
  bookProblem,
  clock,
  fmtNum,
  forgetKeys,
  observeCondition,
  type Firing,
  type RuleRuntime,
} from './rules'

export interface HealthDeps {
  books: Pick<BookStore, 'get'>
  connectionState(): ConnectionState
  authError(): ApiError | null
  keyExpiresAt(): string | null
  wantedBooks(): Iterable<string>
  marketTitle(market: string): string | null
}

interface Down {
  since: number
  /** The tick that last saw it down; older entries are markets nobody watches any more. */
  seen: number
}

const DAY_MS = 86_400_000

/** An expiry date as ms since epoch: YYYY-MM-DD is UTC midnight; any other ISO text as Date.parse reads it. */
export function parseExpiry(text: string | null): number | null {
  if (text === null) return null
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim())
  const t = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Date.parse(text)
  return Number.isFinite(t) ? t : null
}

export class HealthWatch {
  private disconnectedSince: number | null = null
  private readonly down = new Map<string, Down>()
  private keyDate: string | null = null
  private tickNo = 0
  private reconnected = false

  constructor(private readonly d: HealthDeps) {}

  reset(): void {
    this.disconnectedSince = null
    this.down.clear()
    this.keyDate = null
    this.reconnected = false
  }

  /** The stream (re)connected: an outage after this is a new one, even if no tick saw the link live between. */
  connected(): void {
    this.disconnectedSince = null
    this.reconnected = true
  }

  check(
    rules: readonly RuleRuntime[],
    now: number,
    paused: boolean,
    fire: (rt: RuleRuntime, firing: Firing) => void,
  ): void {
    if (rules.length === 0) {
      // Nothing watches: keep no history, so a rule made later measures from when it could see.
      this.reset()
      return
    }
    const tick = ++this.tickNo
    const reconnected = this.reconnected
    this.reconnected = false
    const state = this.d.connectionState()
    if (state === 'live') this.disconnectedSince = null
    else if (this.disconnectedSince === null) this.disconnectedSince = now
    const keyDate = this.d.keyExpiresAt()
    const keyChanged = keyDate !== this.keyDate
    this.keyDate = keyDate
    let anyBook = false
    for (const rt of rules) {
      const c = rt.rule.condition
      if (c.kind === 'book-stale') {
        if (c.market === null) anyBook = true
        else this.observeBook(c.market, now, tick)
      }
    }
    // "Any book" means the books windows watch now, not markets only a specific rule names.
    const wantedDown: string[] = []
    if (anyBook) {
      for (const market of this.d.wantedBooks())
        if (this.observeBook(market, now, tick)) wantedDown.push(market)
    }
    for (const [market, down] of this.down) if (down.seen !== tick) this.down.delete(market)

    for (const rt of rules) {
      const c = rt.rule.condition
      switch (c.kind) {
        case 'disconnected': {
          if (reconnected) forgetKeys(rt, () => false)
          const since = this.disconnectedSince
          const holds = since !== null && now - since >= c.seconds * 1000
          if (observeCondition(rt, '', holds, since === null, now, paused) && since !== null) {
            fire(rt, {
              title: [`Disconnected for ${Math.round((now - since) / 1000)} s`],
              detail: [`the connection is ${state} since ${clock(since)}`],
              market: null,
              value: Math.round((now - since) / 1000),
            })
          }
          break
        }
        case 'book-stale': {
          if (c.market !== null) {
            forgetKeys(rt, (market) => this.down.has(market))
            this.checkBook(rt, c.market, c.seconds, now, paused, fire)
          } else {
            forgetKeys(rt, (market) => wantedDown.includes(market))
            for (const market of wantedDown) this.checkBook(rt, market, c.seconds, now, paused, fire)
          }
          break
        }
        case 'auth-error': {
          const error = this.d.authError()
          if (observeCondition(rt, '', error !== null, error === null, now, paused) && error !== null) {
            fire(rt, {
              title: ['The API key is refused'],
              detail: [error.message],
              market: null,
              value: null,
            })
          }
          break
        }
        case 'key-expiring': {
          // A new date is a new key (or a corrected one): the rule watches it afresh.
          if (keyChanged) forgetKeys(rt, () => false)
          const expiry = parseExpiry(keyDate)
          const holds = expiry !== null && expiry - now <= c.days * DAY_MS
          if (observeCondition(rt, '', holds, !holds, now, paused) && expiry !== null) {
            const days = Math.max(0, Math.ceil((expiry - now) / DAY_MS))
            fire(rt, {
              title: [
                expiry <= now
                  ? 'The API key has expired'
                  : `The API key expires in ${days} day${days === 1 ? '' : 's'}`,
              ],
              detail: [`expiry date ${keyDate ?? ''}`],
              market: null,
              value: days,
            })
          }
          break
        }
        default:
          break
      }
    }
  }

  /** True when the market's book is down (not live) now. */
  private observeBook(market: string, now: number, tick: number): boolean {
    const book = this.d.books.get(market)
    // No book entry is nothing to watch; quiet is a market resting in sequence, not a broken book.
    if (book === undefined || book.state === 'live' || book.state === 'quiet') return false
    const down = this.down.get(market)
    if (down === undefined) this.down.set(market, { since: now, seen: tick })
    else down.seen = tick
    return true
  }

  private checkBook(
    rt: RuleRuntime,
    market: string,
    seconds: number,
    now: number,
    paused: boolean,
    fire: (rt: RuleRuntime, firing: Firing) => void,
  ): void {
    const down = this.down.get(market)
    const holds = down !== undefined && now - down.since >= seconds * 1000
    if (!observeCondition(rt, market, holds, down === undefined, now, paused) || down === undefined) return
    const book = this.d.books.get(market)
    const problem =
      book !== undefined
        ? bookProblem(book.state, book.staleReason, book.bestBid, book.bestAsk)
        : ['the book is gone']
    fire(rt, {
      title: words`${marketWord(market, this.d.marketTitle(market))} — book not live for ${fmtNum(seconds)} s`,
      detail: [...problem, ` since ${clock(down.since)} (${market})`],
      market,
      value: Math.round((now - down.since) / 1000),
    })
  }
}
