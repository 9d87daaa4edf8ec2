// Why the venue could not be reached, in words: a socket or request error's system code (and VoxFi's 4001 close,
// docs.voxfi.com.br/en/websockets/errors) becomes one stable kind (shared/model LinkFailure) and a plain sentence
// for the status bar, so "connection refused" or "host not found" is read there, not dug out of a tooltip or the
// log. REST and the stream share the codes; the stream's sentences are here, REST's in rest.ts (they name the
// base URL instead).
import type { ApiError, LinkFailure } from '../../../shared/model'
import { CONNECT_TIMEOUT, type StreamCloseInfo } from './stream'
import { venueCloseOf } from './venue-close'

/** What a system error code means, for messages that name the cause. */
export const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing is listening at that address',
  ENOTFOUND: 'the host name could not be resolved (DNS)',
  EAI_AGAIN: 'the host name could not be resolved right now (DNS)',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the server closed the connection',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
}

/** The kind of a system error code (Node's net, dns, tls; undici's); null when it is none of these. */
export function linkFailureOf(code: string | undefined): Exclude<LinkFailure, 'unauthorized'> | null {
  if (code === undefined) return null
  if (code === 'ECONNREFUSED') return 'refused'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'dns'
  if (code === CONNECT_TIMEOUT || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout'
  // OpenSSL's and Node's names for a certificate that is not trusted or a handshake that failed.
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|EPROTO/.test(code)) return 'tls'
  return null
}

/** The host name a getaddrinfo error names ("getaddrinfo ENOTFOUND host"), when it does. */
function hostIn(error: string | null): string | null {
  const m = error === null ? null : /(?:ENOTFOUND|EAI_AGAIN|EAI_NONAME)\s+(\S+)/.exec(error)
  return m?.[1] ?? null
}

/**
 * The sentence for a stream that could not connect, by kind: the cause in words, then what to check. It leads
 * with the particulars, as the status bar already names the kind before it.
 */
function sentence(kind: Exclude<LinkFailure, 'unauthorized'>, info: StreamCloseInfo): string {
  const said = info.error ? ` (${info.error.slice(0, 160)})` : ''
  switch (kind) {
    case 'refused':
      return `Nothing accepts connections at the stream's address${said}: the connection was refused. Check the WebSocket URL and port, and that the venue is running.`
    case 'dns':
      return `The host name ${hostIn(info.error) ?? 'of the stream'} does not resolve (DNS): host not found. Check the host name in the WebSocket URL.`
    case 'tls':
      return `The secure connection failed (TLS)${said}: the venue's certificate is not trusted (self-signed, expired or for another name), or that port does not speak TLS.`
    case 'timeout':
      return `The venue did not answer the connection in time${said}: timed out. A firewall, a wrong port or the network may be at fault.`
  }
}

/**
 * The status line for a stream that closed or could not open (`said`: connection.ts's describeClose), with its
 * kind where one is known.
 */
export function streamError(info: StreamCloseInfo, said: string): ApiError {
  if (info.cause === 'remote' && venueCloseOf(info.code) === 'unauthorized')
    return { code: 'network', message: said, link: 'unauthorized' }
  const kind = info.cause === 'error' ? linkFailureOf(info.errorCode) : null
  if (kind === null) return { code: 'network', message: said }
  return { code: 'network', message: sentence(kind, info), link: kind }
}
