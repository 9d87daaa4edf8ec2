// The ONE place that hands a URL to the operating system. Everything a page asks to open externally is vetted
// here first: only plain https links to hosts the app itself links to, spelled the way we publish them.
import { shell } from 'electron'

/** Hosts the app links to (project home, release notes, docs). Exact match: no subdomains, no look-alikes. */
export const VETTED_HOSTS: readonly string[] = ['github.com', 'docs.github.com']

export const MAX_EXTERNAL_URL_LENGTH = 2048

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
// The raw text must already look like what URL() will produce: lowercase ASCII host, no userinfo, no port,
// no percent-escapes in the host. Parsers disagree on everything else, so we refuse it instead of guessing.
const SHAPE = new RegExp(`^https://(${LABEL}(?:\\.${LABEL})+)(?=[/?#]|$)`)
// Whitespace, control characters, backslashes and any non-ASCII: none of them appear in a link we publish.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0020\u007f-\uffff\\]/

/** Returns the normalised URL when it may be opened externally, else null. Never throws. */
export function vetExternalUrl(raw: unknown, hosts: readonly string[] = VETTED_HOSTS): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_EXTERNAL_URL_LENGTH) return null
  if (FORBIDDEN.test(raw)) return null
  const shape = SHAPE.exec(raw)
  if (!shape) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.port !== '') return null
  if (url.hostname !== shape[1]) return null
  if (!hosts.includes(url.hostname)) return null
  return url.href
}

/** Opens a vetted link in the user's browser. Returns false (and opens nothing) for anything else. */
export async function openExternalLink(raw: unknown): Promise<boolean> {
  const vetted = vetExternalUrl(raw)
  if (vetted === null) return false
  try {
    await shell.openExternal(vetted) // eng-disable OPEN_EXTERNAL_JS_CHECK -- the argument was vetted just above
    return true
  } catch {
    return false
  }
}
