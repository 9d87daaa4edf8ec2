// Test helpers for the simulator: a WebSocket client that buffers frames and waits for matching ones, and a
// raw HTTP request (GET by default) that can choose its source address (to test IP allow-lists from 127.0.0.2).
import { request } from 'node:http'
import WebSocket from 'ws'

export type Msg = Record<string, unknown>
export type Pred = (m: Msg) => boolean

interface Waiter {
  pred: Pred
  /** Next message index to look at; matches so far are kept, so each message is tested once. */
  from: number
  found: Msg[]
  count: number
  resolve: (msgs: Msg[]) => void
  reject: (e: Error) => void
  timer: NodeJS.Timeout
}

export class WsClient {
  /** Every parsed JSON frame, in arrival order. */
  readonly messages: Msg[] = []
  /** Every text frame as received, including ones that are not JSON. */
  readonly raw: string[] = []
  private readonly waiters = new Set<Waiter>()
  readonly closed: Promise<{ code: number; reason: string }>

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString()
      this.raw.push(text)
      try {
        const v: unknown = JSON.parse(text)
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) this.messages.push(v as Msg)
      } catch {
        // kept in raw only
      }
      this.check()
    })
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        for (const w of this.waiters) {
          clearTimeout(w.timer)
          w.reject(new Error(`connection closed (${code}) while waiting`))
        }
        this.waiters.clear()
        resolve({ code, reason: reason.toString() })
      })
    })
  }

  static connect(url: string, opts: { localAddress?: string; maxPayload?: number } = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { localAddress: opts.localAddress, maxPayload: opts.maxPayload })
      const client = new WsClient(ws)
      ws.once('open', () => resolve(client))
      ws.once('error', reject)
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`unexpected response ${res.statusCode}`)),
      )
    })
  }

  /** Index of the next message to arrive: pass as `from` to ignore what came before. */
  mark(): number {
    return this.messages.length
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  private check(): void {
    for (const w of [...this.waiters]) {
      while (w.from < this.messages.length && w.found.length < w.count) {
        const m = this.messages[w.from++] as Msg
        if (w.pred(m)) w.found.push(m)
      }
      if (w.found.length >= w.count) {
        clearTimeout(w.timer)
        this.waiters.delete(w)
        w.resolve(w.found)
      }
    }
  }

  /** Wait until `count` messages at index >= from match `pred`. */
  collect(pred: Pred, count: number, opts: { from?: number; timeoutMs?: number } = {}): Promise<Msg[]> {
    const { from = 0, timeoutMs = 8000 } = opts
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        pred,
        from,
        found: [],
        count,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(w)
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${count} matching message(s)`))
        }, timeoutMs),
      }
      this.waiters.add(w)
      this.check()
    })
  }

  async waitFor(pred: Pred, opts: { from?: number; timeoutMs?: number } = {}): Promise<Msg> {
    const [m] = await this.collect(pred, 1, opts)
    return m as Msg
  }

  /** Send a message and wait for the first reply matching `pred` that arrives after it. */
  async request(message: unknown, pred: Pred, timeoutMs = 8000): Promise<Msg> {
    const from = this.mark()
    this.send(message)
    return this.waitFor(pred, { from, timeoutMs })
  }

  /** Messages at index >= from matching pred, right now. */
  since(from: number, pred: Pred = () => true): Msg[] {
    return this.messages.slice(from).filter(pred)
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return
    this.ws.close()
    const t = setTimeout(() => this.ws.terminate(), 2000)
    await this.closed
    clearTimeout(t)
  }
}

export const isAck =
  (type: 'subscribed' | 'unsubscribed', channel: string): Pred =>
  (m) =>
    m.type === type && m.channel === channel
export const isError =
  (code?: string): Pred =>
  (m) =>
    m.type === 'error' && (code === undefined || m.error === code)
export const isBook =
  (channel: string, market?: string, snapshot?: boolean): Pred =>
  (m) =>
    m.channel === channel &&
    m.type === 'orderbook' &&
    (market === undefined || m.market === market) &&
    (snapshot === undefined || m.snapshot === snapshot)
export const isTrade =
  (channel: string, market?: string): Pred =>
  (m) =>
    m.channel === channel && m.type === 'trade' && (market === undefined || m.market === market)

export interface HttpResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: unknown
}

export function httpGet(
  url: string,
  opts: {
    headers?: Record<string, string>
    localAddress?: string
    method?: string
    /** Sent as the request body (POST/DELETE). */
    body?: string | Buffer
  } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    // A body is always framed by its length: Node sends a GET's or DELETE's unframed otherwise.
    const headers =
      opts.body === undefined
        ? opts.headers
        : { ...opts.headers, 'Content-Length': String(Buffer.byteLength(opts.body)) }
    const req = request(
      url,
      { method: opts.method ?? 'GET', headers, localAddress: opts.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = null
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
        })
      },
    )
    req.setTimeout(8000, () => req.destroy(new Error('request timed out')))
    req.on('error', reject)
    req.end(opts.body)
  })
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

export type BookLevels = { bids: Map<number, number>; asks: Map<number, number> }

export function applyBook(book: BookLevels, m: Msg): void {
  if (m.snapshot === true) {
    book.bids.clear()
    book.asks.clear()
  }
  for (const [side, key] of [
    [book.bids, 'bids'],
    [book.asks, 'asks'],
  ] as const) {
    for (const [p, s] of m[key] as Array<[number, number]>) {
      if (s === 0) side.delete(p)
      else side.set(p, s)
    }
  }
}

export function bestBid(b: BookLevels): number {
  return Math.max(...b.bids.keys())
}
export function bestAsk(b: BookLevels): number {
  return Math.min(...b.asks.keys())
}
