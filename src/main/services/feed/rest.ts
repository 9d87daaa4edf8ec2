// REST client for the exchange (trading-api.md §4.1): GET {base_url}/data/events with X-Api-Key.
// Every failure becomes a typed ApiError with a message a user can act on; the key never appears in an
// error or a log line. A 429 blocks further requests until Retry-After has elapsed: no request is sent while
// blocked and nothing is retried automatically.
import { keyFormatMessage, keyFormatProblem } from '../../../shared/api-key'
import { decodeEventsListing } from '../../../shared/decode'
import { checkEndpoint } from '../../../shared/endpoints'
import { jsonLimitProblem, type JsonLimits } from '../../../shared/json-limits'
import type { ApiError, EventSummary, RateLimitInfo, Result } from '../../../shared/model'
import { blockDelayMs, parseRateLimitHeaders } from './rate-limit'
import { linkFailureOf, NETWORK_REASONS } from './link-errors'
import type { Logger } from '../base/types'
import { errorMessage } from '../base/errors'
import { scrubKey } from '../base/key-scrub'
import { createReadTransport } from './rest-reads'

export interface RestClientOptions {
  /** {base_url} of the spec, including `/v1`: refused as the profile form refuses it (shared/endpoints.ts). */
  baseUrl: string
  /** Whole request, headers and body. Default 10 000 ms. */
  timeoutMs?: number
  /**
   * Every request's transport (tests). By default reads (GET) go through rest-reads.ts's keep-alive client and
   * trading requests through fetch.
   */
  fetchImpl?: typeof fetch
  now?: () => number
  logger?: Logger
  /**
   * Scrubs every other key the engine knows (feed/redact.ts) out of an error text, beside the request's own:
   * a venue may quote any key it was ever sent.
   */
  scrub?: (text: string) => string
}

export interface RestClient {
  listEvents(apiKey: string): Promise<Result<EventSummary[]>>
  /**
   * GET `path` below the base URL (`/data/markets/m1/orderbook`) with the key: the parsed JSON body. A 404 is
   * `not_found`; the other failures are typed as for the listing, and a 429 holds back every request.
   */
  get(path: string, apiKey: string): Promise<Result<unknown>>
  /**
   * One trading request (POST or DELETE below the base URL) with the key, sent once and never retried: the venue's
   * answer whatever its status, for the caller to read (VoxFi's PO codes live in the body). A failure says whether
   * the request may have reached the venue (`sent: 'maybe'`: a timeout or a dropped connection, so the order's
   * fate is unknown) or certainly did not (held back by a 429, the host refused the connection). Trading has its
   * own rate-limit hold, apart from the data reads'.
   */
  send(request: TradeRequest, apiKey: string): Promise<TradeResult>
  /** One listing request: ok when the exchange accepts the key and answers with a listing. */
  verifyKey(apiKey: string): Promise<Result<void>>
  /** The latest rate-limit state: headers seen and any 429 block; null when nothing is known. */
  rateLimit(): RateLimitInfo | null
}

export interface TradeRequest {
  method: 'POST' | 'DELETE'
  /** Below the base URL, e.g. `/trade/order`. */
  path: string
  /** Sent as JSON (POST). */
  body?: unknown
  /** A shorter bound than the reads' (an order's answer is wanted within seconds, else it is reconciled). */
  timeoutMs?: number
}

export interface TradeAnswer {
  status: number
  /** The parsed JSON body, or null when it was not JSON (or empty). */
  body: unknown
  /** For a 429: how long to wait (Retry-After, else the body's retry_after). */
  retryAfterMs?: number
}

export type TradeResult =
  { ok: true; value: TradeAnswer } | { ok: false; error: ApiError; sent: 'no' | 'maybe' }

export const DEFAULT_TIMEOUT_MS = 10_000
/**
 * A REST body may be far larger than a frame (a whole listing, an account's activity) but no deeper: 32 levels is
 * several times what any venue nests, and far below where serialising it would overflow the stack.
 */
export const REST_BODY_LIMITS: Partial<JsonLimits> = {
  maxDepth: 32,
  maxItems: 1_000_000,
  maxNodes: 10_000_000,
  maxString: 1_000_000,
}
/** A listing larger than this is refused rather than buffered. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024
const EVENTS_PATH = '/data/events'

const silentLogger: Logger = { info() {}, warn() {}, error() {} }

/**
 * Whether the key can be sent: none is `no_key`, and characters a header cannot carry unchanged (or that no key
 * has: shared/api-key.ts) are refused without sending anything. A key shorter than the input minimum is sent: it
 * can only be one stored before that rule, and it may still work.
 */
function keyProblem(apiKey: unknown): ApiError | null {
  const problem = typeof apiKey === 'string' ? keyFormatProblem(apiKey) : 'empty'
  if (problem === 'empty') return { code: 'no_key', message: keyFormatMessage(problem) }
  if (problem === 'characters') return { code: 'invalid_argument', message: keyFormatMessage(problem) }
  return null
}

function errorCodeOf(e: unknown): string | undefined {
  const cause = (e as { cause?: unknown } | null)?.cause
  for (const src of [cause, e]) {
    const code = (src as { code?: unknown } | null | undefined)?.code
    if (typeof code === 'string') return code
  }
  return undefined
}

function isTimeout(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name
  if (name === 'TimeoutError' || name === 'AbortError') return true
  const code = errorCodeOf(e)
  return (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  )
}

class BodyTooLarge extends Error {}

async function readBody(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw new BodyTooLarge()
  if (res.body === null) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined)
      throw new BodyTooLarge()
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

/** VoxFi's error bodies carry `error_code` (PO1 … PO8, -1) beside the words. */
export function bodyErrorCode(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null
  const c = (body as Record<string, unknown>)['error_code']
  if (typeof c === 'string' && c.length > 0 && c.length <= 16) return c
  return typeof c === 'number' && Number.isInteger(c) ? String(c) : null
}

/**
 * A failure before any byte of the request could have reached the venue: the connection itself could not be
 * made (refused, no such host, no route, a TLS handshake that failed, a connect timeout). Everything else (a
 * timeout waiting for the answer, a connection dropped mid-way) may have reached it.
 */
function neverSent(e: unknown): boolean {
  const code = errorCodeOf(e)
  if (code === undefined) return false
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return true
  const link = linkFailureOf(code)
  return link === 'refused' || link === 'dns' || link === 'tls'
}

export function bodyErrorWord(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null
  const e = (body as Record<string, unknown>)['error']
  return typeof e === 'string' ? e.trim().toLowerCase().replace(/[_-]/g, ' ') : null
}

/** VoxFi's 429 body says how long to wait as `retry_after` (seconds), beside the Retry-After header. */
function retryAfterField(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null
  const v = (body as Record<string, unknown>)['retry_after']
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN
  return Number.isFinite(n) && n >= 0 ? n : null
}

export function createRestClient(options: RestClientOptions): RestClient {
  const checked = checkEndpoint('baseUrl', options.baseUrl)
  if (!checked.ok) throw new TypeError(checked.error.message)
  const base = new URL(checked.value)
  const origin = base.origin
  const basePath = base.pathname.replace(/\/+$/, '')
  const host = base.host
  const timeoutMs =
    options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs) && options.timeoutMs > 0
      ? options.timeoutMs
      : DEFAULT_TIMEOUT_MS
  const fetchImpl = options.fetchImpl ?? fetch
  const reads =
    options.fetchImpl === undefined
      ? createReadTransport({ maxBodyBytes: MAX_BODY_BYTES, tooLarge: () => new BodyTooLarge() })
      : null
  const now = options.now ?? Date.now
  const log = options.logger ?? silentLogger
  const scrubOthers = options.scrub ?? ((text: string) => text)
  const scrub = (text: string, apiKey: string): string => scrubOthers(scrubKey(text, apiKey))

  let info: RateLimitInfo | null = null
  let blockedUntil: number | null = null
  /** A 429 on a trading request holds back trading requests only (VoxFi's limits are not documented). */
  let tradeBlockedUntil: number | null = null

  const errors = {
    unauthorized: (status?: number): ApiError => ({
      code: 'unauthorized',
      message:
        'The exchange rejected the API key (unauthorized): the key is wrong, expired, disabled or revoked. ' +
        "Check it in your profile's security settings on the exchange, or create a new key and enter it here.",
      ...(status !== undefined ? { status } : {}),
    }),
    ipNotAllowed: (status?: number): ApiError => ({
      code: 'ip_not_allowed',
      message:
        "This machine's IP address is not in the API key's allowed IPs. Allowed IPs can't be edited on an " +
        'existing key: create a new key whose allowed IPs include this machine (or leave them empty), ' +
        'enter it here, then revoke the old one.',
      ...(status !== undefined ? { status } : {}),
    }),
    permission: (status?: number): ApiError => ({
      code: 'permission',
      message:
        'The API key lacks the permission this needs (the exchange said "permission denied"). Keys carry ' +
        'permissions (read orders, create orders, cancel orders, read positions, read wallet): create a key ' +
        'with the ones you need on the exchange under Profile → Security, and enter it here.',
      ...(status !== undefined ? { status } : {}),
    }),
    forbidden: (word: string | null, status?: number): ApiError => ({
      code: 'forbidden',
      message:
        `The exchange refused this request (HTTP 403${word ? `: "${word.slice(0, 80)}"` : ''}). It is neither an ` +
        'IP block nor a missing permission; check the key on the exchange, or contact its support.',
      ...(status !== undefined ? { status } : {}),
    }),
    rateLimited: (retryAfterMs: number, status?: number): ApiError => ({
      code: 'rate_limited',
      message:
        `The exchange's rate limit was reached. Requests are paused for ${Math.ceil(retryAfterMs / 1000)} s ` +
        `(until ${new Date(now() + retryAfterMs).toLocaleTimeString()}); try again after that.`,
      retryAfterMs,
      ...(status !== undefined ? { status } : {}),
    }),
    badResponse: (why: string, status?: number): ApiError => ({
      code: 'bad_response',
      message: `The answer from ${host} ${why}. Check that the profile's base URL points at the exchange API (it ends with /v1).`,
      ...(status !== undefined ? { status } : {}),
    }),
  }

  function currentInfo(): RateLimitInfo | null {
    const t = now()
    const blocked = blockedUntil !== null && blockedUntil > t ? blockedUntil : null
    if (blocked === null) blockedUntil = null
    if (info === null && blocked === null) return null
    const base = info ?? { limit: null, remaining: null, resetAt: null, blockedUntil: null, observedAt: t }
    return { ...base, blockedUntil: blocked }
  }

  function transportError(e: unknown, apiKey: string): ApiError {
    if (isTimeout(e)) {
      return {
        code: 'timeout',
        message: `No answer from ${host} within ${Math.round(timeoutMs / 100) / 10} s. The exchange may be slow or unreachable; try again.`,
        link: 'timeout',
      }
    }
    if (e instanceof BodyTooLarge) {
      return errors.badResponse(`was larger than ${MAX_BODY_BYTES / 1024 / 1024} MB`)
    }
    const code = errorCodeOf(e)
    const link = linkFailureOf(code)
    const reason =
      link === 'tls'
        ? `its TLS certificate was not accepted (${code})`
        : code !== undefined && NETWORK_REASONS[code] !== undefined
          ? NETWORK_REASONS[code]
          : scrub(errorMessage(e), apiKey).slice(0, 200)
    return {
      code: 'network',
      message: `Could not reach ${host}: ${reason}. Check the profile's base URL and your network connection.`,
      ...(link !== null ? { link } : {}),
    }
  }

  interface Exchange {
    status: number
    headers: Headers
    text: string
    body: unknown
    json: boolean
  }

  /**
   * One request to the venue, sent once: its answer whatever the status, or why none came. Every request of the
   * client goes through here; `trade` requests keep their own 429 hold, apart from the reads'.
   */
  async function exchange(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    apiKey: string,
    options: { body?: unknown; timeoutMs?: number; trade?: boolean } = {},
  ): Promise<{ ok: true; value: Exchange } | { ok: false; error: ApiError; sent: 'no' | 'maybe' }> {
    const problem = keyProblem(apiKey)
    if (problem) return { ok: false, error: problem, sent: 'no' }
    const started = now()
    const held = options.trade === true ? tradeBlockedUntil : blockedUntil
    if (held !== null && held > started) {
      const error = errors.rateLimited(held - started)
      log.warn('rest: request held back by rate limit', { path, retryAfterMs: error.retryAfterMs })
      return { ok: false, error, sent: 'no' }
    }
    let res: Response
    let text: string
    const headers: Record<string, string> = { 'X-Api-Key': apiKey, Accept: 'application/json' }
    if (options.body !== undefined) headers['Content-Type'] = 'application/json'
    // A timer of our own, cleared with the answer: AbortSignal.timeout's fires after every request, answered or not,
    // and builds an exception each time (bench:day: every account round on VoxFi).
    const abort = new AbortController()
    const timer = setTimeout(
      () => abort.abort(new DOMException('the request timed out', 'TimeoutError')),
      options.timeoutMs ?? timeoutMs,
    )
    try {
      const url = new URL(`${basePath}${path}`, origin).toString()
      res =
        method === 'GET' && reads !== null
          ? await reads(url, { headers, signal: abort.signal })
          : await fetchImpl(url, {
              method,
              headers,
              ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
              // A redirect would carry X-Api-Key to wherever it points; make the user fix the URL instead.
              redirect: 'manual',
              signal: abort.signal,
            })
      info = parseRateLimitHeaders(res.headers, now())
      text = await readBody(res)
    } catch (e) {
      return { ok: false, error: transportError(e, apiKey), sent: neverSent(e) ? 'no' : 'maybe' }
    } finally {
      clearTimeout(timer)
    }
    let body: unknown = null
    let json = true
    try {
      body = JSON.parse(text)
    } catch {
      json = false
    }
    // Measured before anything walks it: a body nested past the limit would make every later serialisation (the
    // account's change check, a window's batch) overflow the stack. Refused whole, so the other reads go on.
    const tooBig = json ? jsonLimitProblem(body, REST_BODY_LIMITS, false) : null
    if (tooBig !== null) {
      return {
        ok: false,
        error: errors.badResponse(`was ${tooBig.message}, past what the app reads`, res.status),
        sent: 'maybe',
      }
    }
    if (res.status === 429) {
      const t = now()
      const delay = blockDelayMs(res.headers, info, t, json ? retryAfterField(body) : null)
      if (options.trade === true) tradeBlockedUntil = t + delay
      else blockedUntil = t + delay
    }
    return { ok: true, value: { status: res.status, headers: res.headers, text, body, json } }
  }

  function logFailure(path: string, error: ApiError, started: number): void {
    log.warn('rest: request failed', {
      path,
      code: error.code,
      status: error.status ?? null,
      ms: now() - started,
      message: error.message,
    })
  }

  /**
   * One GET of `path` (below the base URL) with the key: the parsed JSON body, or a typed error. A 429 from any
   * endpoint holds back all reads until it has passed.
   */
  async function getJson(path: string, apiKey: string): Promise<Result<unknown>> {
    const started = now()
    const fail = (error: ApiError): Result<unknown> => {
      const safe = { ...error, message: scrub(error.message, apiKey) }
      logFailure(path, safe, started)
      return { ok: false, error: safe }
    }
    const r = await exchange('GET', path, apiKey)
    if (!r.ok) {
      // A request held back was logged where it was held.
      if (r.error.code === 'rate_limited' && r.sent === 'no') return { ok: false, error: r.error }
      return fail(r.error)
    }
    const { status, headers, body, json } = r.value
    const word = json ? bodyErrorWord(body) : null
    if (word === 'unauthorized' || status === 401) return fail(errors.unauthorized(status))
    // Three different 403s, each its own state: an IP block, a missing permission (VoxFi's "permission denied",
    // PO7), and anything else.
    if (word === 'ip not allowed') return fail(errors.ipNotAllowed(status))
    if (word === 'permission denied' || (json && bodyErrorCode(body) === 'PO7'))
      return fail(errors.permission(status))
    if (status === 403) return fail(errors.forbidden(word, status))
    if (status === 429) {
      const held = blockedUntil ?? now()
      return fail(errors.rateLimited(Math.max(0, held - now()), status))
    }
    if (status >= 500) {
      return fail({
        code: 'server',
        status,
        message: `The exchange had a server error (HTTP ${status}). This is on the exchange's side; try again later.`,
      })
    }
    if (status >= 300 && status < 400) {
      const location = headers.get('location')
      return fail(
        errors.badResponse(
          `was a redirect (HTTP ${status}${location ? ` to ${scrub(location, apiKey).slice(0, 200)}` : ''}); redirects are not followed so the key is not sent elsewhere`,
          status,
        ),
      )
    }
    if (status === 404) {
      return fail({ code: 'not_found', status, message: `The exchange has no ${path} (HTTP 404).` })
    }
    if (status < 200 || status >= 300) {
      return fail(errors.badResponse(`was HTTP ${status} for ${path}`, status))
    }
    if (!json) {
      const type = headers.get('content-type')
      return fail(
        errors.badResponse(`was not JSON${type ? ` (content type ${type.slice(0, 60)})` : ''}`, status),
      )
    }
    log.info('rest: answered', { path, status, ms: now() - started })
    return { ok: true, value: body }
  }

  async function send(request: TradeRequest, apiKey: string): Promise<TradeResult> {
    const started = now()
    const r = await exchange(request.method, request.path, apiKey, {
      body: request.body,
      trade: true,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    })
    if (!r.ok) {
      const error = { ...r.error, message: scrub(r.error.message, apiKey) }
      logFailure(request.path, error, started)
      return { ok: false, error, sent: r.sent }
    }
    const { status, body, json } = r.value
    log.info('rest: answered', { method: request.method, path: request.path, status, ms: now() - started })
    const answer: TradeAnswer = { status, body: json ? body : null }
    if (status === 429) answer.retryAfterMs = Math.max(0, (tradeBlockedUntil ?? now()) - now())
    return { ok: true, value: answer }
  }

  async function getEvents(apiKey: string): Promise<Result<EventSummary[]>> {
    const r = await getJson(EVENTS_PATH, apiKey)
    if (!r.ok) {
      // A venue without this path is not "missing": for the listing it is a wrong base URL.
      if (r.error.code !== 'not_found') return r
      return { ok: false, error: errors.badResponse(`was HTTP 404 for ${EVENTS_PATH}`, 404) }
    }
    const listing = decodeEventsListing(r.value)
    if (listing.events.length === 0 && listing.errors.length > 0) {
      return {
        ok: false,
        error: errors.badResponse(`was not an events listing: ${listing.errors[0]}`, 200),
      }
    }
    if (listing.errors.length > 0) {
      log.warn('rest: some listing items were skipped', {
        path: EVENTS_PATH,
        skipped: listing.errors.length,
        first: listing.errors[0]?.slice(0, 200),
      })
    }
    log.info('rest: events listed', { path: EVENTS_PATH, events: listing.events.length })
    return { ok: true, value: listing.events }
  }

  return {
    listEvents: getEvents,
    get: getJson,
    send,
    async verifyKey(apiKey) {
      const r = await getEvents(apiKey)
      return r.ok ? { ok: true, value: undefined } : r
    },
    rateLimit: currentInfo,
  }
}
