// What a venue's own close codes mean, and what the engine does about each (docs/voxfi.md, "Close codes").
// VoxFi reports errors by closing the socket, not with error frames: 4001 (the user channel's key was refused),
// 4002 (invalid connection params), 4003 (server error: try again) and 4004 (a message of ours was invalid).
// A plain reconnect is right only for 4003 and the abnormal closes: resending a refused key or an invalid
// message would only be closed again, and a 4001 takes every market's data down with it.
import type { ApiError, InspectorFrame } from '../../../shared/model'
import type { ClientMessage } from '../../../shared/protocol'
import { REDACTED } from '../base/key-scrub'
import type { IdChannel } from './registry'
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
  /** Sets subscriptions aside so a reconnect does not resend them. */
  refuse(channel: IdChannel, ids: readonly string[]): void
  /** An incident for the status bar's log. */
  incident(kind: 'bad_frame', detail: string): void
  /** The refused message, for the inspector. */
  refused(frame: InspectorFrame): void
  recordRefused(sent: string, at: number, detail: string): InspectorFrame
  /** Scrubs every key from a message's text before it is kept anywhere. */
  scrub(text: string): string
  now(): number
}

/** A message as it was sent, kept only as long as it can still be the one a close answers. */
interface Sent {
  message: ClientMessage
  at: number
}

/** How long after sending a message a 4004 is taken to answer it. */
const ANSWER_WINDOW_MS = 10_000

export class VenueCloses {
  private last: Sent | null = null

  constructor(private readonly d: VenueCloseDeps) {}

  /** Every message the registry sends passes here (after it was sent). */
  sent(message: ClientMessage): void {
    this.last = { message, at: this.d.now() }
  }

  /** A new socket: nothing on it has been answered yet. */
  opened(): void {
    this.last = null
  }

  /** The socket closed; returns what the close meant, or null for an ordinary one. */
  closed(info: StreamCloseInfo): VenueClose | null {
    const kind = info.wasOpen ? venueCloseOf(info.code) : null
    const last = this.last
    this.last = null
    if (kind === 'unauthorized') {
      // Setting the key error also logs the auth incident (the registry's onAuthChange).
      this.d.setAuthError(unauthorizedClose(info.reason))
    } else if (kind === 'invalid-message') {
      this.invalidMessage(info.reason, last)
    }
    return kind
  }

  /** 4004 is our own bug: say exactly what was refused, and set that subscription aside. */
  private invalidMessage(reason: string, last: Sent | null): void {
    const at = this.d.now()
    const why = `closed by the exchange with 4004 (invalid message${reason ? `: ${reason.slice(0, 120)}` : ''})`
    if (last === null || at - last.at > ANSWER_WINDOW_MS) {
      this.d.incident('bad_frame', `The exchange ${why}; no message of ours was outstanding.`)
      return
    }
    // The user channel's subscribe carries the key itself: it never leaves here, whatever the redactor knows.
    const shown = last.message.channel === 'user' ? { ...last.message, auth: REDACTED } : last.message
    const text = this.d.scrub(JSON.stringify(shown))
    this.d.refused(this.d.recordRefused(text, at, why))
    const m = last.message
    if (m.type === 'subscribe' && m.channel !== 'user') {
      const ids = m.channel === 'market' ? m.markets : m.events
      this.d.refuse(m.channel, ids)
      this.d.incident(
        'bad_frame',
        `The exchange ${why} for ${text.slice(0, 300)}; those ${m.channel}s are not asked for again ` +
          'until they are opened anew.',
      )
      return
    }
    this.d.incident('bad_frame', `The exchange ${why} for ${text.slice(0, 300)}.`)
  }
}
