// A loopback HTTP proxy in front of the simulator's REST port, in the bench's own process: the engine's profile
// points its REST base URL here (its WebSocket goes straight to the simulator). Each request is stamped with
// performance.now() when its last byte arrives, then forwarded; the answer is passed back as it came. When the
// simulator drops a connection without answering (an order fault), the engine's connection is dropped too. So the
// stamp is the moment a request is whole at the venue's front door, on the same clock the bench starts its timers.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TappedRequest {
  method: string
  /** The path below the host, query included. */
  path: string
  /** performance.now() when the whole request (headers and body) had arrived. */
  arrivedAt: number
  body: string
  /** The venue's answer status; null while pending, or when the venue dropped the connection. */
  status: number | null
  /** performance.now() when the answer went back to the engine; null without one. */
  answeredAt: number | null
}

export interface Tap {
  /** http://127.0.0.1:PORT/v1: the REST base URL the engine's profile uses. */
  baseUrl: string
  /** Every request so far, oldest first. */
  requests: TappedRequest[]
  /** Called with each request the moment it is whole (before it is forwarded). */
  onArrival: ((r: TappedRequest) => void) | null
  close(): Promise<void>
}

export const isTradeRequest = (r: TappedRequest): boolean => r.path.startsWith('/v1/trade/')

export async function startTap(target: { port: number }): Promise<Tap> {
  const upstream = new Agent({ keepAlive: true, maxSockets: 64 })
  const requests: TappedRequest[] = []
  const tap: Tap = { baseUrl: '', requests, onArrival: null, close: async () => {} }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r: TappedRequest = {
        method: req.method ?? '',
        path: req.url ?? '/',
        arrivedAt: performance.now(),
        body: Buffer.concat(chunks).toString('utf8'),
        status: null,
        answeredAt: null,
      }
      requests.push(r)
      tap.onArrival?.(r)
      const out = httpRequest(
        {
          host: '127.0.0.1',
          port: target.port,
          method: r.method,
          path: r.path,
          headers: req.headers,
          agent: upstream,
        },
        (answer: IncomingMessage) => {
          r.status = answer.statusCode ?? null
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
          answer.on('end', () => {
            r.answeredAt = performance.now()
          })
        },
      )
      // The simulator dropped the connection (an order fault): so does the venue's front door.
      out.on('error', () => req.socket.destroy())
      out.end(chunks.length > 0 ? Buffer.concat(chunks) : undefined)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  tap.baseUrl = `http://127.0.0.1:${port}/v1`
  tap.close = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    upstream.destroy()
  }
  return tap
}
