// VoxFi-style identifiers: every id the venue shows is a version-4-shaped UUID (docs.voxfi.com.br/en/api/events),
// here drawn from the seed so that the same seed always names the same things.
import { deriveSeed, hexId, mulberry32, type Rng } from '../rng'

/** A lower-case UUID with the version (4) and variant (8–b) nibbles set, from `rng`. */
export function uuidFrom(rng: Rng): string {
  const h = hexId(rng, 32).split('')
  h[12] = '4'
  h[16] = '89ab'[parseInt(h[16] ?? '0', 16) & 3] as string
  const s = h.join('')
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`
}

/** The UUID for entity number `n` of a kind (`salt`), independent of every other draw. */
export function uuidFor(seed: number, salt: number, n: number): string {
  return uuidFrom(mulberry32(deriveSeed(deriveSeed(seed, salt), n)))
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** A cheap, stable 32-bit mix of small integers (level order counts, maker splits, user picks). */
export function mix(...xs: number[]): number {
  let h = 0x811c9dc5
  for (const x of xs) {
    h = Math.imul(h ^ (x | 0), 0x01000193) >>> 0
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0
  }
  return (h ^ (h >>> 13)) >>> 0
}
