// VoxFi's REST API under /v1 (docs.voxfi.com.br/en/authentication, /en/api/*, /playground/data/*): X-Api-Key on
// every request, the same key rules and per-key fixed-window rate limit as the reference dialect (keys.ts,
// RateLimiter), and VoxFi's error bodies (/en/api/errors): 401 {"error":"unauthorized"}, 403 {"error":"ip not
// allowed"}, 429 {"error":"rate limit exceeded","retry_after":N} with Retry-After: N.
// The docs name the account reads ("Get User Balance and Totals", "Get Portfolio", "List User Orders", "Get User
// Activity", "Get User P&L") without their paths; these are the ones the app reads (src/main/services/
// account-rest.ts ACCOUNT_PATHS): /data/wallet/balance, /data/wallet/portfolio, /data/orders, /data/activity,
// and /data/pnl. The trade paths under /v1/trade/ are trade-rest.ts's, with a rate limit of their own.
import type { Permission } from '../config'
import type { KeyStore } from '../keys'
import { createGatedHandler, requestUrl, type RestHandler } from '../rest'
import { isTradePath } from './trade-rest'

export interface VoxRestData {
  listing(): unknown
  /** undefined for an unknown market id. */
  orderbook(marketId: string): unknown
  hasMarket(marketId: string): boolean
  hasEvent(eventId: string): boolean
  balance(): unknown
  portfolio(eventId: string | null): unknown
  openOrders(eventId: string | null): unknown
  activity(marketId: string | null, page: number, pageSize: number): unknown
  pnl(marketId: string | null, eventId: string | null): unknown
}

export interface VoxRestOptions {
  keys: KeyStore
  rateLimit: { requests: number; windowMs: number }
  data: VoxRestData
  /** What serves /v1/trade/ (else those paths are 404, as any unknown path). */
  trade?: RestHandler
  log: (line: string) => void
}

/** VoxFi's 429 body (/en/api/errors), on every path. */
export const limitedBody = (retryAfter: number): unknown => ({
  error: 'rate limit exceeded',
  retry_after: retryAfter,
})

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.error))
  }
}

const DEFAULT_PAGE_SIZE = 20
const MAX_PAGE_SIZE = 100

/** A positive integer query parameter, or `fallback` when absent; 400 otherwise. */
function intParam(q: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = q.get(name)
  if (raw === null) return fallback
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new HttpError(400, { error: `invalid ${name}: expected an integer from 1 to ${max}` })
  }
  return Number(raw)
}

function idParam(q: URLSearchParams, name: string): string | null {
  const raw = q.get(name)
  if (raw === null) return null
  if (raw.trim() === '') throw new HttpError(400, { error: `invalid ${name}: must not be empty` })
  return raw
}

interface Route {
  permission: Permission | null
  run: (q: URLSearchParams) => unknown
}

export function createVoxRestHandler(opts: VoxRestOptions): RestHandler {
  const d = opts.data
  const checkMarket = (id: string | null): void => {
    if (id !== null && !d.hasMarket(id)) throw new HttpError(404, { error: 'market not found' })
  }
  const checkEvent = (id: string | null): void => {
    if (id !== null && !d.hasEvent(id)) throw new HttpError(404, { error: 'event not found' })
  }
  /** An account read that may be narrowed to one event (`?eventId=`). */
  const ofEvent = (permission: Permission, read: (eventId: string | null) => unknown): Route => ({
    permission,
    run: (q) => {
      const eventId = idParam(q, 'eventId')
      checkEvent(eventId)
      return read(eventId)
    },
  })
  const route = (path: string): Route | undefined => {
    if (path === '/v1/data/events') return { permission: null, run: () => d.listing() }
    const ob = /^\/v1\/data\/markets\/([^/]+)\/orderbook$/.exec(path)
    if (ob !== null) {
      let id: string
      try {
        id = decodeURIComponent(ob[1] as string)
      } catch {
        id = ob[1] as string
      }
      return {
        permission: null,
        run: () => {
          const body = d.orderbook(id)
          if (body === undefined) throw new HttpError(404, { error: 'market not found' })
          return body
        },
      }
    }
    switch (path) {
      case '/v1/data/wallet/balance':
        return { permission: 'read_wallet', run: () => d.balance() }
      case '/v1/data/wallet/portfolio':
        return ofEvent('read_positions', (eventId) => d.portfolio(eventId))
      case '/v1/data/orders':
        return ofEvent('read_orders', (eventId) => d.openOrders(eventId))
      case '/v1/data/activity':
        return {
          permission: 'read_orders',
          run: (q) => {
            const marketId = idParam(q, 'marketId')
            const page = intParam(q, 'page', 1, 1_000_000)
            const pageSize = intParam(q, 'pageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
            checkMarket(marketId)
            return d.activity(marketId, page, pageSize)
          },
        }
      case '/v1/data/pnl':
        return {
          permission: 'read_positions',
          run: (q) => {
            const marketId = idParam(q, 'marketId')
            const eventId = idParam(q, 'eventId')
            if (marketId !== null && eventId !== null) {
              throw new HttpError(400, { error: 'invalid params: give marketId or eventId, not both' })
            }
            checkMarket(marketId)
            checkEvent(eventId)
            return d.pnl(marketId, eventId)
          },
        }
      default:
        return undefined
    }
  }

  const data = createGatedHandler({
    keys: opts.keys,
    rateLimit: opts.rateLimit,
    limitedBody,
    internalBody: { error: 'internal server error', error_code: '-1' },
    log: opts.log,
    route: (path) => {
      const r = route(path)
      if (r === undefined) return undefined
      return (key, query) => {
        if (r.permission !== null && !key.permissions.includes(r.permission)) {
          return { status: 403, body: { error: 'permission denied' } }
        }
        try {
          return { status: 200, body: r.run(query) }
        } catch (e) {
          if (!(e instanceof HttpError)) throw e
          return { status: e.status, body: e.body }
        }
      }
    },
  })
  const trade = opts.trade
  if (trade === undefined) return data
  return {
    handle: (req, res) => (isTradePath(requestUrl(req).path) ? trade : data).handle(req, res),
    resetLimits: () => {
      data.resetLimits()
      trade.resetLimits()
    },
  }
}
