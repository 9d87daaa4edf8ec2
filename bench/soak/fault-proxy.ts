// A TCP proxy between the engine and the simulator that misbehaves on demand, the way real networks do:
// connections reset, links that stay open but carry nothing (half-open), and links that are merely slow.
// Plain node:net, loopback only. It knows nothing of HTTP or WebSocket, so REST and the stream suffer alike.
import { createServer, connect, type Server, type Socket } from 'node:net'

export interface FaultProxyStats {
  accepted: number
  /** Bytes dropped while blackholed (both directions). */
  droppedBytes: number
  /** Connections destroyed by cut(). */
  cut: number
}

export interface FaultProxy {
  readonly port: number
  /** Reset every current connection, both sides, at once (RST, not FIN). New connections work normally. */
  cut(): void
  /**
   * Half-open for `ms`: sockets stay open but bytes in both directions are dropped (never delivered later).
   * Connections opened meanwhile are accepted and connected upstream, but carry nothing either.
   */
  blackhole(ms: number): void
  /** For `ms`, every chunk in both directions is delivered `delayMs` late; order is always kept. */
  slow(ms: number, delayMs: number): void
  /** End any blackhole or slow period now (chunks already delayed are still delivered, in order). */
  clear(): void
  connections(): number
  stats(): FaultProxyStats
  close(): Promise<void>
}

/** How long a half-closed peer may take to finish before it is destroyed. */
const PEER_LINGER_MS = 10_000

/** A marker for "the source ended" travelling through the delay queue, so FIN follows the data before it. */
const END = null

interface Queued {
  due: number
  chunk: Buffer | typeof END
}

/** One direction of one proxied connection: src -> dst, with an order-keeping delay queue. */
class Pipe {
  private readonly queue: Queued[] = []
  private timer: NodeJS.Timeout | null = null
  private waitingDrain = false
  /** The source sent FIN: the destination is being ended cleanly, after the data queued before it. */
  sawEnd = false

  constructor(
    private readonly src: Socket,
    private readonly dst: Socket,
    private readonly mode: Mode,
  ) {}

  data(chunk: Buffer): void {
    if (this.mode.blackholed()) {
      this.mode.dropped += chunk.length
      return
    }
    this.push(chunk)
  }

  end(): void {
    this.sawEnd = true
    this.push(END)
  }

  private push(chunk: Buffer | typeof END): void {
    const now = Date.now()
    const delay = this.mode.delayMs()
    if (this.queue.length === 0 && delay === 0) {
      this.write(chunk)
      return
    }
    // A chunk never overtakes one queued before it, even when the slow period has ended meanwhile.
    const last = this.queue[this.queue.length - 1]
    this.queue.push({ due: Math.max(now + delay, last?.due ?? 0), chunk })
    this.arm()
  }

  private arm(): void {
    if (this.timer !== null) return
    const head = this.queue[0]
    if (head === undefined) return
    this.timer = setTimeout(() => this.flush(), Math.max(0, head.due - Date.now()))
  }

  private flush(): void {
    this.timer = null
    const now = Date.now()
    // Bounded by the queue, which only holds what arrived during one slow period.
    while (this.queue.length > 0 && (this.queue[0] as Queued).due <= now) {
      const item = this.queue.shift() as Queued
      if (item.chunk !== END && this.mode.blackholed()) {
        this.mode.dropped += item.chunk.length
        continue
      }
      this.write(item.chunk)
    }
    this.arm()
  }

  private write(chunk: Buffer | typeof END): void {
    if (this.dst.destroyed) return
    if (chunk === END) {
      this.dst.end()
      return
    }
    // Backpressure on the direct path only; the delay queue is bounded by the length of a slow period.
    if (!this.dst.write(chunk) && this.queue.length === 0 && !this.waitingDrain) {
      this.waitingDrain = true
      this.src.pause()
      this.dst.once('drain', () => {
        this.waitingDrain = false
        this.src.resume()
      })
    }
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.queue.length = 0
  }
}

class Mode {
  blackholeUntil = 0
  slowUntil = 0
  slowDelayMs = 0
  dropped = 0

  blackholed(): boolean {
    return Date.now() < this.blackholeUntil
  }

  delayMs(): number {
    return Date.now() < this.slowUntil ? this.slowDelayMs : 0
  }
}

interface Pair {
  client: Socket
  upstream: Socket
  pipes: Pipe[]
}

function resetSocket(s: Socket): void {
  // resetAndDestroy sends RST, like a dropped NAT entry; before the socket is connected it can throw.
  try {
    s.resetAndDestroy()
  } catch {
    s.destroy()
  }
}

export async function createFaultProxy(opts: {
  targetPort: number
  targetHost?: string
}): Promise<FaultProxy> {
  const targetHost = opts.targetHost ?? '127.0.0.1'
  const mode = new Mode()
  const pairs = new Set<Pair>()
  const timers = new Set<NodeJS.Timeout>()
  let accepted = 0
  let cutCount = 0

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }

  const server: Server = createServer((client) => {
    accepted++
    const upstream = connect({ port: opts.targetPort, host: targetHost })
    client.setNoDelay(true)
    upstream.setNoDelay(true)
    const up = new Pipe(client, upstream, mode)
    const down = new Pipe(upstream, client, mode)
    const pair: Pair = { client, upstream, pipes: [up, down] }
    pairs.add(pair)
    client.on('data', (c: Buffer) => up.data(c))
    upstream.on('data', (c: Buffer) => down.data(c))
    client.on('end', () => up.end())
    upstream.on('end', () => down.end())
    const teardown = (): void => {
      if (!pairs.delete(pair)) return
      for (const p of pair.pipes) p.stop()
      client.destroy()
      upstream.destroy()
    }
    // An error on either side is abrupt for both; a clean FIN travels through the pipe (end above) instead.
    client.on('error', teardown)
    upstream.on('error', teardown)
    // A side that closed after a clean FIN leaves its peer to finish what is queued for it (a response before
    // "Connection: close"); one that closed without FIN was reset, and so is its peer.
    const closed = (inbound: Pipe, peer: Socket): void => {
      if (!inbound.sawEnd || peer.destroyed) teardown()
      else later(PEER_LINGER_MS, teardown)
    }
    client.on('close', () => closed(up, upstream))
    upstream.on('close', () => closed(down, client))
  })
  server.on('error', () => {
    // Listening errors surface through the listen promise; later ones have nowhere better to go.
  })

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      const addr = server.address()
      if (addr === null || typeof addr === 'string') reject(new Error('proxy: no port'))
      else resolve(addr.port)
    })
  })

  return {
    port,
    cut() {
      for (const pair of [...pairs]) {
        pairs.delete(pair)
        for (const p of pair.pipes) p.stop()
        resetSocket(pair.client)
        resetSocket(pair.upstream)
        cutCount++
      }
    },
    blackhole(ms) {
      mode.blackholeUntil = Date.now() + ms
    },
    slow(ms, delayMs) {
      mode.slowUntil = Date.now() + ms
      mode.slowDelayMs = delayMs
    },
    clear() {
      mode.blackholeUntil = 0
      mode.slowUntil = 0
      mode.slowDelayMs = 0
    },
    connections: () => pairs.size,
    stats: () => ({ accepted, droppedBytes: mode.dropped, cut: cutCount }),
    close: async () => {
      for (const t of timers) clearTimeout(t)
      timers.clear()
      for (const pair of [...pairs]) {
        pairs.delete(pair)
        for (const p of pair.pipes) p.stop()
        pair.client.destroy()
        pair.upstream.destroy()
      }
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
