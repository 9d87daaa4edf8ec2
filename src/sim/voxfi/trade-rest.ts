// VoxFi's trade paths over HTTP (docs.voxfi.com.br/playground/trade/place-order; cancel and merge are named without
// paths, so theirs are docs/voxfi.md §8's choices): POST /v1/trade/order, DELETE /v1/trade/order/{id}, POST
// /v1/trade/merge. The same key rules as every path, a per-key rate limit of their own, a JSON body of at most
// 16 KiB, the permission each needs, the order faults tests inject, and a log of every request received.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Permission } from '../config'
import type { OrderFault, OrderLogEntry } from '../faults'
import type { KeyStore } from '../keys'
import { admit, RateLimiter, requestUrl, sendJson, type RestHandler } from '../rest'
import { INVALID_BODY, poRefusal, type Refusal } from './order-request'
import type { Trading, TradeResult } from './trading'

const MAX_BODY_BYTES = 16 * 1024
const MAX_LOG = 10_000

export const isTradePath = (path: string): boolean => path === '/v1/trade' || path.startsWith('/v1/trade/')

interface TradeRoute {
  method: 'POST' | 'DELETE'
  permission: Permission
  run(body: unknown, ts: number): TradeResult
}

export interface TradeHandlerOptions {
  keys: KeyStore
  rateLimit: { requests: number; windowMs: number }
  /** The 429 body, as the data paths word it. */
  limitedBody: (retryAfterSeconds: number) => unknown
  trading: Trading
  log: (line: string) => void
}

export interface TradeHandler extends RestHandler {
  orderFault(fault: OrderFault, count: number): void
  orderLog(): OrderLogEntry[]
  /** Drop the answers still held back by a delay fault. */
  close(): void
}

type Body = { json: boolean; value: unknown } | null

/** The body as JSON (null when it is too large, unreadable or not JSON), and whether it was sent as JSON. */
function readBody(req: IncomingMessage): Promise<Body> {
  const json = /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (b: Body): void => {
      if (done) return
      done = true
      resolve(b)
    }
    req.on('data', (c: Buffer) => {
      size += c.length
      // Too large: answered at once; the rest is read and thrown away.
      if (size > MAX_BODY_BYTES) finish(null)
      else if (!done) chunks.push(c)
    })
    req.on('end', () => {
      try {
        finish({ json, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown })
      } catch {
        finish(null)
      }
    })
    req.on('close', () => finish(null))
    req.on('error', () => finish(null))
  })
}

export function createTradeHandler(o: TradeHandlerOptions): TradeHandler {
  const limiter = new RateLimiter(o.rateLimit)
  const faults: Array<{ fault: OrderFault; left: number }> = []
  const entries: OrderLogEntry[] = []
  const held = new Set<NodeJS.Timeout>()

  const route = (path: string): TradeRoute | undefined => {
    const t = o.trading
    if (path === '/v1/trade/order')
      return { method: 'POST', permission: 'create_orders', run: (b, ts) => t.place(b, ts) }
    if (path === '/v1/trade/merge')
      return { method: 'POST', permission: 'create_orders', run: (b, ts) => t.merge(b, ts) }
    const cancel = /^\/v1\/trade\/order\/([^/]+)$/.exec(path)
    if (cancel === null) return undefined
    let id: string
    try {
      id = decodeURIComponent(cancel[1] as string)
    } catch {
      id = cancel[1] as string
    }
    return { method: 'DELETE', permission: 'cancel_orders', run: (_b, ts) => t.cancel(id, ts) }
  }

  const nextFault = (): OrderFault | null => {
    const head = faults[0]
    if (head === undefined) return null
    if (--head.left === 0) faults.shift()
    return head.fault
  }

  const reply = (
    e: OrderLogEntry,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string | number> = {},
  ): void => {
    e.status = status
    e.answer = body
    sendJson(res, status, body, headers)
  }

  const serve = async (req: IncomingMessage, res: ServerResponse, e: OrderLogEntry): Promise<void> => {
    const r = route(e.path)
    if (r === undefined) return reply(e, res, 404, { error: 'not found' })
    const admitted = admit(req, {
      keys: o.keys,
      limiter,
      rateLimit: o.rateLimit,
      limitedBody: o.limitedBody,
      methods: [r.method],
    })
    if (!admitted.ok) {
      req.resume()
      return reply(e, res, admitted.status, admitted.body, admitted.headers)
    }
    let body: Body = { json: true, value: null }
    if (r.method === 'POST') body = await readBody(req)
    else req.resume()
    e.body = body?.value ?? null
    const fault = nextFault()
    e.fault = fault?.kind ?? null
    if (fault?.kind === 'error') return reply(e, res, fault.status, fault.body, admitted.headers)
    if (fault?.kind === 'drop' && !fault.execute) {
      req.socket.destroy()
      return
    }
    let refused: Refusal | null = null
    if (!admitted.key.permissions.includes(r.permission)) refused = poRefusal('PO7')
    else if (body === null || !body.json) refused = INVALID_BODY
    const result: TradeResult =
      refused === null ? r.run(body?.value ?? null, Date.now()) : { ...refused, executed: false }
    e.executed = result.executed
    if (fault?.kind === 'drop') {
      req.socket.destroy()
      return
    }
    if (fault?.kind === 'delay') {
      const t = setTimeout(() => {
        held.delete(t)
        reply(e, res, result.status, result.body, admitted.headers)
      }, fault.ms)
      held.add(t)
      return
    }
    reply(e, res, result.status, result.body, admitted.headers)
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const e: OrderLogEntry = {
      at: Date.now(),
      method: req.method ?? '',
      path: requestUrl(req).path,
      body: null,
      status: null,
      answer: null,
      executed: false,
      fault: null,
    }
    entries.push(e)
    if (entries.length > MAX_LOG) entries.splice(0, entries.length - MAX_LOG)
    serve(req, res, e).catch((err: unknown) => {
      o.log(`sim: internal error serving ${e.method} ${e.path}: ${String(err)}`)
      if (res.headersSent) res.destroy()
      else {
        const r = poRefusal('-1')
        reply(e, res, r.status, r.body)
      }
    })
  }

  return {
    handle,
    resetLimits: () => limiter.reset(),
    orderFault: (fault, count) => {
      faults.push({ fault, left: count })
    },
    orderLog: () => entries.map((x) => ({ ...x })),
    close: () => {
      for (const t of held) clearTimeout(t)
      held.clear()
    },
  }
}
