// The documented example payloads in test/decode/venues/<venue>/*.json (format: test/decode/venues/README.md).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

export interface VenueCase {
  venue: string
  file: string
  adapter: string
  source: string
  text: string
  expect: Record<string, unknown>[]
}

export const VENUES_DIR = resolve(import.meta.dirname, 'venues')

export function venueCases(): VenueCase[] {
  const out: VenueCase[] = []
  for (const venue of readdirSync(VENUES_DIR).sort()) {
    const dir = join(VENUES_DIR, venue)
    if (!statSync(dir).isDirectory()) continue
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const c = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
        source?: unknown
        adapter?: unknown
        frame?: unknown
        frameText?: unknown
        expect?: unknown
      }
      out.push({
        venue,
        file,
        adapter: typeof c.adapter === 'string' ? c.adapter : venue,
        source: typeof c.source === 'string' ? c.source : '',
        text: typeof c.frameText === 'string' ? c.frameText : JSON.stringify(c.frame),
        expect: Array.isArray(c.expect) ? (c.expect as Record<string, unknown>[]) : [],
      })
    }
  }
  return out
}
