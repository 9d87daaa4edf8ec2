// Who may talk to the browser host: the page that holds the token, loaded from this host's own origin.
// Loopback alone is not a boundary (any local process or web page can reach 127.0.0.1), so every bridge
// connection needs the token and a matching Origin, and every request a matching Host (DNS rebinding).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 128 random bits, URL-safe. */
export function createToken(): string {
  return randomBytes(16).toString('hex')
}

/** Constant-time comparison; hashing first makes the comparison independent of the candidate's length too. */
export function tokenMatches(expected: string, candidate: string | null | undefined): boolean {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 1024) return false
  const a = createHash('sha256').update(expected, 'utf8').digest()
  const b = createHash('sha256').update(candidate, 'utf8').digest()
  return timingSafeEqual(a, b)
}

/** The origins the page can have: the host is reachable as 127.0.0.1 and as localhost on the same port. */
export function allowedOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`]
}

export function originAllowed(origin: string | undefined, port: number): boolean {
  return typeof origin === 'string' && allowedOrigins(port).includes(origin.toLowerCase())
}

/** The Host header must name this host; a rebinding attacker's page would send its own host name. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return typeof host === 'string' && [`127.0.0.1:${port}`, `localhost:${port}`].includes(host.toLowerCase())
}
