// What may name an adapter: small enough for the IPC and settings validators to share without the format itself.
import { z } from 'zod'

export const ADAPTER_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/

/**
 * A profile's adapter: a name, `auto`, or `tolerant` (no adapter: DESIGN §3.2's tolerant reader alone, for a
 * venue no adapter knows).
 */
export const adapterChoice = z
  .string()
  .refine(
    (s) => s === 'auto' || s === 'tolerant' || ADAPTER_NAME.test(s),
    'an adapter name (lower-case letters, digits, dashes), auto or tolerant',
  )
