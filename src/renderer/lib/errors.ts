// What an error means for the user and what to check, in place, where it happened (DESIGN §4: errors are
// states, not vanishing toasts).
import type { ApiError } from '../../shared/model'

export interface Explanation {
  title: string
  /** What to check, in order. */
  steps: string[]
}

export function explainError(error: ApiError): Explanation {
  switch (error.code) {
    case 'unauthorized':
      return {
        title: 'The key was refused (unauthorized)',
        steps: [
          'The key may be mistyped or incomplete: paste it again exactly as it was shown when created.',
          'The key may be expired, disabled or revoked: check it in your profile’s security settings on the exchange.',
          'A lost or expired key cannot be recovered: create a new key there, then store it here.',
        ],
      }
    case 'ip_not_allowed':
      return {
        title: 'This computer’s IP address is not allowed for this key',
        steps: [
          'The key has an allowed-IPs list that does not include the address this app connects from.',
          'Allowed IPs cannot be edited on an existing key: create a new key with the right IPs (or none, to allow all), store it here, then revoke the old key.',
        ],
      }
    case 'permission':
      return {
        title: 'The key lacks a permission this needs',
        steps: [
          'A VoxFi key carries permissions: read orders, create orders, cancel orders, read positions, read wallet.',
          'Create a key with the permissions you need on VoxFi under Profile → Security (none selected grants all five), store it here, then revoke the old one.',
        ],
      }
    case 'forbidden':
      return {
        title: 'The exchange refused this request (403)',
        steps: [
          'It is neither an IP block nor a missing permission: check the key on the exchange.',
          'If it goes on, contact the exchange’s support with the time it happened.',
        ],
      }
    case 'rate_limited':
      return {
        title: 'Too many requests (rate limited)',
        steps: [
          error.retryAfterMs !== undefined
            ? `The exchange asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s before retrying.`
            : 'Wait a moment and try again.',
        ],
      }
    case 'keyring_unavailable':
      return {
        title: 'The system keychain is not available',
        steps: [
          'The key is only ever stored in the OS keychain, never in a plain file.',
          'On Linux, install and start a Secret Service provider (GNOME Keyring or KWallet) and sign in to a desktop session.',
        ],
      }
    case 'keyring_locked':
      return {
        title: 'The system keychain is locked',
        steps: ['Unlock your login keychain (it usually unlocks when you sign in), then try again.'],
      }
    case 'keyring_denied':
      return {
        title: 'Access to the system keychain was denied',
        steps: [
          'Allow Trading Monitor to use the keychain when the system asks, or check the keychain’s access settings.',
        ],
      }
    case 'keyring_timeout':
      return {
        title: 'The system keychain did not answer',
        steps: [
          'An unlock prompt may be waiting on screen, possibly behind other windows: answer it, then try again.',
          error.message,
        ],
      }
    case 'keyring_cancelled':
      return {
        title: 'The keychain prompt was cancelled',
        steps: ['Try again and allow Trading Monitor to use the keychain when the system asks.'],
      }
    case 'unavailable':
      return { title: 'Not available here', steps: [error.message] }
    case 'no_key':
      return { title: 'No API key is stored for this profile', steps: ['Add a key in Key settings.'] }
    case 'network':
    case 'timeout':
      return {
        title: 'The exchange could not be reached',
        steps: ['Check the network connection and the profile’s base URL.', error.message],
      }
    case 'invalid_argument':
      return { title: 'Invalid input', steps: [error.message] }
    default:
      return { title: 'Something went wrong', steps: [error.message] }
  }
}

const DAY = 86_400_000

export type ExpiryState = 'none' | 'ok' | 'soon' | 'expired'

/** Reminder ahead of the key's expiry date (the user enters it; the exchange does not tell us). */
export function expiryState(
  expiresAt: string | null,
  now: number,
  warnDays = 7,
): { state: ExpiryState; days: number | null } {
  if (!expiresAt) return { state: 'none', days: null }
  const t = Date.parse(expiresAt.length === 10 ? `${expiresAt}T23:59:59` : expiresAt)
  if (!Number.isFinite(t)) return { state: 'none', days: null }
  const days = Math.floor((t - now) / DAY)
  if (t <= now) return { state: 'expired', days }
  return { state: days < warnDays ? 'soon' : 'ok', days }
}
