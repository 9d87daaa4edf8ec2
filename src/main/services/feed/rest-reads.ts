// The transport of the REST client's reads (GETs): node's own http(s) client on a keep-alive agent of the client's,
// where fetch was. A read through fetch cost about three times the CPU (its web streams, Headers and resource
// timing entry; bench/README.md, stop 39 day3: VoxFi's account rounds, a round every few seconds at the demo load),
// and the reads of an account round now share a connection. Trading requests never come here: they keep fetch
// (rest.ts), so no order rides a socket a read opened (docs/voxfi.md §8 item 50).
import http from 'node:http'
import https from 'node:https'

export type ReadTransport = (
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<Response>

/**
 * An idle connection is closed after this long, or a second before the venue's announced keep-alive timeout if
 * that is sooner (node's agent reads the `Keep-Alive` hint), so a read is not sent on a socket the venue is closing.
 */
export const READ_IDLE_MS = 4_000

/** Statuses whose Response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304])

export interface ReadTransportOptions {
  /** A body larger than this is refused rather than buffered: the request fails with `tooLarge()`. */
  maxBodyBytes: number
  tooLarge: () => Error
}

/**
 * A fetch-shaped GET: the answer whatever its status (a redirect is not followed, as `redirect: 'manual'`), its
 * whole body read within the limit; the signal aborts it with its reason.
 */
export function createReadTransport(options: ReadTransportOptions): ReadTransport {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: READ_IDLE_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: READ_IDLE_MS }),
  }
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url)
      const secure = target.protocol === 'https:'
      if (!secure && target.protocol !== 'http:') {
        reject(new TypeError(`unsupported protocol ${target.protocol}`))
        return
      }
      const { signal } = init
      if (signal.aborted) {
        reject(signal.reason)
        return
      }
      const request = (secure ? https : http).request(target, {
        method: 'GET',
        // fetch's user agent, so the venue sees the same client it saw before reads left fetch.
        headers: { 'User-Agent': 'node', ...init.headers },
        agent: agents[secure ? 'https:' : 'http:'],
      })
      const fail = (e: unknown): void => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      }
      // The signal's reason (the client's TimeoutError) is the failure, whatever the destroyed socket says after.
      const onAbort = (): void => {
        const reason = signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason))
        fail(reason)
        request.destroy(reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      request.on('error', fail)
      request.on('response', (res) => {
        const chunks: Buffer[] = []
        // A declared length past the limit is refused before any of the body is read.
        if (Number(res.headers['content-length']) > options.maxBodyBytes) {
          fail(options.tooLarge())
          request.destroy()
          return
        }
        let total = 0
        res.on('data', (chunk: Buffer) => {
          total += chunk.byteLength
          if (total > options.maxBodyBytes) {
            // Refused first: destroying the request makes the response fail too, with a reason of its own.
            fail(options.tooLarge())
            request.destroy()
            return
          }
          chunks.push(chunk)
        })
        res.on('error', fail)
        res.on('close', () => {
          if (!res.complete) fail(new Error('the connection closed before the whole answer came'))
        })
        res.on('end', () => {
          signal.removeEventListener('abort', onAbort)
          if (total > options.maxBodyBytes) return
          const status = res.statusCode ?? 0
          try {
            const headers = new Headers()
            const raw = res.rawHeaders
            for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
            resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers }))
          } catch (e) {
            // A status outside 200-599, or a header fetch would not accept either.
            reject(e)
          }
        })
      })
      request.end()
    })
}
