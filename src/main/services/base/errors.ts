// The engine's ApiError helpers: generic errors for windows and scrubbing a key out of an error's message.
import type { ApiError } from '../../../shared/model'
import { scrubKey } from './key-scrub'

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

/** The error with `key` scrubbed out of its message (key-scrub.ts): a venue may quote the key it refused. */
export function scrubError(error: ApiError, key: string | null): ApiError {
  return { ...error, message: scrubKey(error.message, key) }
}
