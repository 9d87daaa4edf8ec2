// The raw JSON an update keeps (an account update's data, a control message, market metadata, an unread value)
// within shared/json-limits.ts's limits, so that whatever a frame decodes to can be shown, kept and sent to a window
// without failing to serialise later. Books, trades and tickers keep no raw JSON and are left as they are.
import { limitJson, type JsonLimits } from '../json-limits'
import type { Update } from '../model'

/** The update itself when its raw JSON is within the limits, else a copy holding the trimmed JSON. */
export function limitUpdate(u: Update, limits?: Partial<JsonLimits>): Update {
  switch (u.kind) {
    case 'user':
    case 'control':
    case 'info': {
      const limited = limitJson(u.data, limits)
      return limited.trimmed.length === 0 ? u : { ...u, data: limited.value }
    }
    case 'unknown': {
      const limited = limitJson(u.raw, limits)
      return limited.trimmed.length === 0 ? u : { kind: 'unknown', raw: limited.value }
    }
    default:
      return u
  }
}

/** Every update of the list within the limits, in place; returns the list. */
export function limitUpdates(updates: Update[], limits?: Partial<JsonLimits>): Update[] {
  for (let i = 0; i < updates.length; i++) updates[i] = limitUpdate(updates[i] as Update, limits)
  return updates
}
