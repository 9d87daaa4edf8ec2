// The engine's ApiError helpers: generic errors for windows and scrubbing a secret out of an error's message.
import type { ApiError } from '../../../shared/model'

export function internal(
  message = 'Internal error in the monitor engine; see the log for details.',
): ApiError {
  return { code: 'internal', message }
}

/** The text of anything thrown, for a log line or a message. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A refused input; `field` names the input's field at fault (its path, e.g. `condition.value`) for a form. */
export function invalid(message: string, field?: string): ApiError {
  return field === undefined
    ? { code: 'invalid_argument', message }
    : { code: 'invalid_argument', message, field }
}

/** Replace every occurrence of the secret in a text (defensive: messages should never contain it anyway). */
export function scrub(text: string, secret: string | null): string {
  if (!secret || secret.length < 4) return text
  return text.split(secret).join('[redacted]')
}

export function scrubError(error: ApiError, secret: string | null): ApiError {
  return { ...error, message: scrub(error.message, secret) }
}
