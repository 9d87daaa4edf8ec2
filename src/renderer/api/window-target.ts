// Which view a window shows is carried in its URL query, the same for the Electron shell and the browser host:
//   ?view=main | ?view=market&market=ID | ?view=event&event=ID   (the browser host adds &token=...)
import { validateArgs } from '../../shared/ipc-validate'
import type { WindowTarget } from '../../shared/model'

/** Reads the target from a query string ('?view=...' or 'view=...'); anything invalid means the main view. */
export function readWindowTarget(search: string): WindowTarget {
  const params = new URLSearchParams(search)
  const view = params.get('view')
  let candidate: WindowTarget
  if (view === 'market') candidate = { kind: 'market', market: params.get('market') ?? '' }
  else if (view === 'event') candidate = { kind: 'event', event: params.get('event') ?? '' }
  else return { kind: 'main' }
  // The same schema that guards openWindow() calls, so both directions agree on what an ID may be.
  return validateArgs('openWindow', [candidate]).ok ? candidate : { kind: 'main' }
}

/** The query (without '?') that opens `target`; the token comes first when given. */
export function windowTargetQuery(target: WindowTarget, token?: string): string {
  const params = new URLSearchParams()
  if (token) params.set('token', token)
  params.set('view', target.kind)
  if (target.kind === 'market') params.set('market', target.market)
  if (target.kind === 'event') params.set('event', target.event)
  return params.toString()
}
