// What a venue's own close codes mean, and what the engine does about each (docs/voxfi.md, "Close codes").
// VoxFi reports errors by closing the socket, not with error frames: 4001 (the user channel's key was refused),
// 4002 (invalid connection params), 4003 (server error: try again) and 4004 (a message of ours was invalid).
// A plain reconnect is right only for 4003 and the abnormal closes: resending a refused key or an invalid
// message would only be closed again, and a 4001 takes every market's data down with it. A 4004 names no
// message: the registry works out which subscription it refused (refusal-search.ts), and this says what it found.
import type { ApiError, InspectorFrame } from '../../../shared/model'
import { REDACTED } from '../base/key-scrub'
import { MAX_REFUSALS, SEARCH_LIMIT_MS, type Refusal, type Unit } from './refusal-search'
import type { StreamCloseInfo } from './stream'

export type VenueClose = 'unauthorized' | 'invalid-params' | 'server-error' | 'invalid-message'

export const VENUE_CLOSE_CODES: Readonly<Record<number, VenueClose>> = {
  4001: 'unauthorized',
  4002: 'invalid-params',
  4003: 'server-error',
  4004: 'invalid-message',
}

export function venueCloseOf(code: number): VenueClose | null {
  return VENUE_CLOSE_CODES[code] ?? null
}

/** The sticky key state a 4001 leaves: what the venue's docs say to check, in the order they say it. */
export function unauthorizedClose(reason: string): ApiError {
  const said = reason.trim() === '' ? '' : ` ("${reason.trim().slice(0, 80)}")`
  return {
    code: 'unauthorized',
    message:
      `The exchange closed the connection with 4001 (unauthorized)${said} when the account's updates were ` +
      'asked for: the API key was refused. Check that it is the right key, that it has not expired or been ' +
      "disabled (Profile → Security on the exchange), and that this machine's IP is in the key's allowed IPs. " +
      'Market data goes on without the account; the key is not tried again until you enter one.',
  }
}

export interface VenueCloseDeps {
  /** The sticky user-channel key error: no user subscribe is sent while it is set. */
  setAuthError(error: ApiError): void
  /** What the registry makes of a 4004 on the socket that just closed; it sets aside what was found refused. */
  refusal(): Refusal
  /** An incident for the status bar's log. */
  incident(kind: 'bad_frame', detail: string): void
  /** The refused message, for the inspector. */
  refused(frame: InspectorFrame): void
  recordRefused(sent: string, at: number, detail: string): InspectorFrame
  /** Scrubs every key from a message's text before it is kept anywhere. */
  scrub(text: string): string
  now(): number
}

/** Subscriptions named in the incident log, at most this many. */
const NAMED = 5

function nameOf(u: Unit): string {
  return u.channel === 'user' ? "the account's channel" : `${u.channel} "${u.id.slice(0, 80)}"`
}

function namesOf(units: readonly Unit[]): string {
  const named = units.slice(0, NAMED).map(nameOf).join(', ')
  return units.length > NAMED ? `${named} and ${units.length - NAMED} more` : named
}

export class VenueCloses {
  constructor(private readonly d: VenueCloseDeps) {}

  /** The socket closed; returns what the close meant, or null for an ordinary one. */
  closed(info: StreamCloseInfo): VenueClose | null {
    const kind = info.wasOpen ? venueCloseOf(info.code) : null
    if (kind === 'unauthorized') {
      // Setting the key error also logs the auth incident (the registry's onAuthChange).
      this.d.setAuthError(unauthorizedClose(info.reason))
    } else if (kind === 'invalid-message') {
      this.invalidMessage(info.reason)
    }
    return kind
  }

  /** 4004 is our own bug: say what the venue refused, once the registry has told it apart from the rest. */
  private invalidMessage(reason: string): void {
    const r = this.d.refusal()
    const said = reason.trim() === '' ? '' : `, "${reason.trim().slice(0, 120)}"`
    const closedWith = `The exchange closed the connection with 4004 (invalid message${said})`
    const log = (detail: string) => this.d.incident('bad_frame', this.d.scrub(detail))
    switch (r.kind) {
      case 'none':
        log(`${closedWith}; every message of ours had been answered, so nothing is set aside.`)
        return
      case 'checking':
        log(
          `${closedWith} while ${r.open.length} subscriptions were unanswered (${namesOf(r.open)}); the venue ` +
            'does not say which it refused, ' +
            (r.held === 0
              ? 'and none of them is held back: nothing is set aside.'
              : 'so they are asked for again one at a time, and every subscription it accepted streams meanwhile.'),
        )
        return
      case 'gave-up': {
        const bound = `the search for the refused subscription reached its bound (${MAX_REFUSALS} closes or ${SEARCH_LIMIT_MS / 1000} s)`
        const aside =
          r.units.length === 0
            ? 'none of those unanswered is still asked for: nothing is set aside'
            : `${namesOf(r.units)} ${r.units.length === 1 ? 'is' : 'are'} set aside without being told apart, until opened anew`
        log(`${closedWith} again: ${bound}, so ${aside}.`)
        return
      }
      case 'isolated': {
        const m = r.message
        // The user channel's subscribe carries the key itself: it never leaves here, whatever the redactor knows.
        const shown = this.d.scrub(
          JSON.stringify(m.channel === 'user' && m.type === 'subscribe' ? { ...m, auth: REDACTED } : m),
        )
        this.d.refused(this.d.recordRefused(shown, this.d.now(), `refused by the venue (4004)${said}`))
        const then =
          r.unit.channel === 'user'
            ? 'it is sent again with the next connection'
            : r.wanted
              ? `${nameOf(r.unit)} is set aside until it is opened anew; every other subscription goes on`
              : `${nameOf(r.unit)} is no longer asked for`
        log(`${shown.slice(0, 300)} was refused by the venue (4004)${said}: ${then}.`)
        return
      }
    }
  }
}
