// The ceiling: a bare `ws` client that does nothing per frame but JSON.parse, subscribed like the engine would be.
import WebSocket from 'ws'

export interface RawClient {
  /** Frames received since connect (every frame is JSON.parsed). */
  readonly frames: number
  /** Frames that were not valid JSON (should stay 0). */
  readonly parseErrors: number
  subscribe(markets: string[]): Promise<void>
  /**
   * Reads in bursts: every `periodMs` the socket is paused for `pauseMs`. A bare client is faster than the
   * simulator, so left alone it wakes up for every TCP segment (one frame each) and the simulator, never having
   * data queued, writes one syscall per frame; both then run below what they can do. Bursty reading makes the
   * simulator queue and batch its writes and the client read large chunks, as the slower engine does anyway.
   * 0 turns it off.
   */
  burst(pauseMs: number, periodMs: number): void
  close(): Promise<void>
}

export function connectRawClient(wsUrl: string): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false, maxPayload: 8 * 1024 * 1024 })
    let frames = 0
    let parseErrors = 0
    let acked: (() => void) | null = null
    let burstTimer: NodeJS.Timeout | null = null
    // Keeps the parse from being optimised away.
    let sink = 0
    ws.on('message', (data) => {
      frames++
      let v: unknown
      try {
        v = JSON.parse((data as Buffer).toString('utf8'))
      } catch {
        parseErrors++
        return
      }
      if (
        acked !== null &&
        typeof v === 'object' &&
        v !== null &&
        (v as { type?: unknown }).type === 'subscribed'
      ) {
        const done = acked
        acked = null
        done()
      }
      sink ^= typeof v === 'object' ? 1 : 0
    })
    ws.once('error', reject)
    ws.once('open', () => {
      ws.off('error', reject)
      ws.on('error', () => {
        // 'close' follows; the benchmark notices the missing frames.
      })
      resolve({
        get frames() {
          return frames
        },
        get parseErrors() {
          return parseErrors + (sink & 0)
        },
        subscribe: (markets) =>
          new Promise<void>((res, rej) => {
            const t = setTimeout(() => rej(new Error('raw client: no subscribe ack')), 10_000)
            acked = () => {
              clearTimeout(t)
              res()
            }
            ws.send(JSON.stringify({ type: 'subscribe', channel: 'market', markets, filter: 'all' }))
          }),
        burst: (pauseMs, periodMs) => {
          if (burstTimer !== null) clearInterval(burstTimer)
          burstTimer = null
          ws.resume()
          if (pauseMs <= 0) return
          burstTimer = setInterval(() => {
            ws.pause()
            setTimeout(() => ws.resume(), pauseMs).unref()
          }, periodMs)
          burstTimer.unref()
        },
        close: () =>
          new Promise<void>((res) => {
            if (burstTimer !== null) clearInterval(burstTimer)
            if (ws.readyState === WebSocket.CLOSED) {
              res()
              return
            }
            ws.once('close', () => res())
            ws.terminate()
          }),
      })
    })
  })
}
