// Hardening applied to every web contents the app ever creates (windows, and anything a page might try to
// spawn): no popups, no navigation away from our pages, no <webview>, no permissions.
import type { App, Session, WebContents } from 'electron'
import type { Logger } from './services'
import { isAppUrl } from './app-origin'
import { openExternalLink } from './links'

export interface HardeningOptions {
  devOrigin: string | null
  logger: Logger
  /** Injected for tests; defaults to the vetted opener in links.ts. */
  openLink?: (url: string) => Promise<boolean>
}

const hardenedSessions = new WeakSet<Session>()

/** Every permission request and check is refused: the monitor needs no camera, location, notifications... */
export function denyAllPermissions(session: Session, logger: Logger): void {
  if (hardenedSessions.has(session)) return
  hardenedSessions.add(session)
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    logger.warn('permission request denied', { permission })
    callback(false)
  })
  session.setPermissionCheckHandler(() => false)
}

export function hardenWebContents(contents: WebContents, options: HardeningOptions): void {
  const { devOrigin, logger } = options
  const openLink = options.openLink ?? openExternalLink
  const openOutside = (url: string, why: string): void => {
    void openLink(url).then((opened) => {
      if (!opened) logger.warn('external link refused', { why, url: url.slice(0, 200) })
    })
  }

  // Popups never become Electron windows; a vetted https link goes to the user's browser instead.
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url, 'window.open')
    return { action: 'deny' }
  })

  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url, devOrigin)) return
    event.preventDefault()
    openOutside(event.url, 'navigation')
  })

  contents.on('will-redirect', (event) => {
    if (isAppUrl(event.url, devOrigin)) return
    event.preventDefault()
    logger.warn('redirect blocked', { url: event.url.slice(0, 200) })
  })

  contents.on('will-attach-webview', (event) => {
    event.preventDefault()
    logger.warn('webview attachment blocked')
  })

  denyAllPermissions(contents.session, logger)
}

/** Call once, before the first window exists. */
export function installHardening(app: App, options: HardeningOptions): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, options))
}
