// A loopback WebSocket proxy between the engine and the simulator that writes down every message the engine sent
// and on which socket: tests count what the venue received (subscribe attempts, probes, replays) rather than
// infer it from what the venue kept. Closes are passed on with their code and reason, so 4001 and 4004 reach the
// engine as the venue sent them.
import type { AddressInfo } from 'node:net'
import WebSocket, { WebSocketServer } from 'ws'

export interface TappedMessage {
  /** 1 for the engine's first socket, 2 for its first reconnect, … */
  socket: number
  text: string
  /** The message as JSON, or null when it is not JSON. */
  json: Record<string, unknown> | null
}

export interface WsTap {
  /** Where the engine should connect instead of `target`. */
  url: string
  /** Every message the engine sent, in order. */
  readonly sent: readonly TappedMessage[]
  /** How many sockets the engine has opened through the tap. */
  sockets(): number
  /** The sockets on which the venue received a subscribe on `channel` naming `id` (any, without one), per message. */
  subscribes(channel: 'market' | 'event' | 'user', id?: string): number[]
  close(): Promise<void>
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** A close code the ws library lets an endpoint send (1005 and 1006 are only ever observed). */
function sendable(code: number): boolean {
  return code === 1000 || (code >= 1001 && code <= 1014 && code !== 1005 && code !== 1006) || code >= 3000
}

export async function createWsTap(target: string): Promise<WsTap> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const sent: TappedMessage[] = []
  const pairs = new Set<{ down: WebSocket; up: WebSocket }>()
  let count = 0
  server.on('connection', (down) => {
    const socket = ++count
    const up = new WebSocket(target)
    const pair = { down, up }
    pairs.add(pair)
    const early: string[] = []
    up.on('open', () => {
      for (const text of early.splice(0)) up.send(text)
    })
    up.on('message', (data, isBinary) => {
      if (down.readyState === WebSocket.OPEN) down.send(data, { binary: isBinary })
    })
    down.on('message', (data, isBinary) => {
      const text = String(data)
      sent.push({ socket, text, json: parse(text) })
      if (up.readyState === WebSocket.OPEN) up.send(data, { binary: isBinary })
      else early.push(text)
    })
    // One side's close ends the other the same way: a venue's 4004 reaches the engine as a 4004.
    const end = (to: WebSocket, code: number, reason: Buffer): void => {
      pairs.delete(pair)
      if (to.readyState !== WebSocket.OPEN && to.readyState !== WebSocket.CONNECTING) return
      if (sendable(code) && to.readyState === WebSocket.OPEN) to.close(code, reason.toString())
      else to.terminate()
    }
    up.on('close', (code, reason) => end(down, code, reason))
    down.on('close', (code, reason) => end(up, code, reason))
    up.on('error', () => down.terminate())
    down.on('error', () => up.terminate())
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `ws://127.0.0.1:${port}`,
    sent,
    sockets: () => count,
    subscribes: (channel, id) =>
      sent
        .filter(({ json }) => {
          if (json?.type !== 'subscribe' || json.channel !== channel) return false
          const list = channel === 'market' ? json.markets : channel === 'event' ? json.events : undefined
          return id === undefined || (Array.isArray(list) && list.includes(id))
        })
        .map((m) => m.socket),
    close: async () => {
      for (const { down, up } of pairs) {
        down.terminate()
        up.terminate()
      }
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
