// The Content-Security-Policy of every page we load. The renderer never talks to the network itself (main
// owns every socket), so it needs nothing beyond its own bundle.
import type { Session } from 'electron'

/**
 * Production policy. style-src allows inline styles because the charting and virtual-list libraries set
 * element styles; scripts are strictly our own files.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-src 'none'; frame-ancestors 'none'; worker-src 'none'; manifest-src 'none'; media-src 'none'"

/**
 * The policy for a page. Under `electron-vite dev` the dev server needs its HMR socket and the React refresh
 * preamble (an inline module script); that relaxation never applies to a packaged app.
 */
export function contentSecurityPolicy(devOrigin: string | null): string {
  if (devOrigin === null) return CONTENT_SECURITY_POLICY
  const ws = devOrigin.replace(/^http/, 'ws')
  return CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'",
    `script-src 'self' 'unsafe-inline' ${devOrigin}`,
  ).replace("connect-src 'none'", `connect-src ${devOrigin} ${ws}`)
}

/** Adds the policy to every response of the session (dev server pages; app:// sets it in its handler). */
export function installCsp(session: Session, devOrigin: string | null): void {
  const policy = contentSecurityPolicy(devOrigin)
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } })
  })
}
