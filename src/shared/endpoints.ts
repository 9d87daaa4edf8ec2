// The one rule for a profile's endpoints, used by the engine (settings file, IPC, browser bridge) and by the UI for
// its field messages: REST over http(s), the stream over ws(s), plain http/ws only to this machine, and no
// credentials, query or fragment in a URL (the key belongs in the keychain; a URL ends up in logs).
import type { ApiError, Result } from './model'

export const ENDPOINT_URL_MAX = 2000

export type EndpointField = 'baseUrl' | 'wsUrl'

const LABEL: Record<EndpointField, string> = { baseUrl: 'REST base URL', wsUrl: 'WebSocket URL' }
const PROTOCOLS: Record<EndpointField, readonly string[]> = {
  baseUrl: ['http:', 'https:'],
  wsUrl: ['ws:', 'wss:'],
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts an unencrypted endpoint may name. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

function refuse(field: EndpointField, message: string): Result<never> {
  const error: ApiError = { code: 'invalid_argument', message, field }
  return { ok: false, error }
}

/** One endpoint checked and normalised (trimmed, lower-case host, no trailing slash). */
export function checkEndpoint(field: EndpointField, input: unknown): Result<string> {
  const label = LABEL[field]
  if (typeof input !== 'string') return refuse(field, `The ${label} is missing.`)
  const text = input.trim()
  if (text.length === 0) return refuse(field, `The ${label} is empty.`)
  if (text.length > ENDPOINT_URL_MAX) {
    return refuse(field, `The ${label} is longer than ${ENDPOINT_URL_MAX} characters.`)
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return refuse(field, `The ${label} is not a valid URL.`)
  }
  const protocols = PROTOCOLS[field]
  if (!protocols.includes(url.protocol)) {
    const allowed = protocols.map((p) => p.slice(0, -1)).join(' or ')
    return refuse(field, `The ${label} must start with ${allowed}:// (got "${url.protocol.slice(0, -1)}").`)
  }
  if (url.hostname.length === 0) return refuse(field, `The ${label} has no host.`)
  if (url.username || url.password) {
    return refuse(
      field,
      `The ${label} must not contain a user name or password; enter the API key separately.`,
    )
  }
  if (url.search || text.includes('?')) {
    return refuse(field, `The ${label} must not contain a query string (?…); enter the API key separately.`)
  }
  if (url.hash || text.includes('#')) return refuse(field, `The ${label} must not contain a fragment (#…).`)
  const plain = url.protocol === 'http:' || url.protocol === 'ws:'
  if (plain && !isLoopbackHost(url.hostname)) {
    const secure = url.protocol === 'http:' ? 'https' : 'wss'
    return refuse(
      field,
      `The ${label} must use ${secure}://: unencrypted ${url.protocol.slice(0, -1)}:// is only allowed to this machine (localhost, 127.0.0.1, ::1).`,
    )
  }
  return { ok: true, value: `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}` }
}

/** A profile's two endpoints, normalised, or the first refusal (its `field` names which). */
export function validateEndpoints(
  baseUrl: unknown,
  wsUrl: unknown,
): Result<{ baseUrl: string; wsUrl: string }> {
  const base = checkEndpoint('baseUrl', baseUrl)
  if (!base.ok) return base
  const ws = checkEndpoint('wsUrl', wsUrl)
  if (!ws.ok) return ws
  return { ok: true, value: { baseUrl: base.value, wsUrl: ws.value } }
}

/** Every endpoint's refusal by field, for a form that marks each field at once. */
export function endpointErrors(baseUrl: string, wsUrl: string): Partial<Record<EndpointField, string>> {
  const errors: Partial<Record<EndpointField, string>> = {}
  const base = checkEndpoint('baseUrl', baseUrl)
  const ws = checkEndpoint('wsUrl', wsUrl)
  if (!base.ok) errors.baseUrl = base.error.message
  if (!ws.ok) errors.wsUrl = ws.error.message
  return errors
}
