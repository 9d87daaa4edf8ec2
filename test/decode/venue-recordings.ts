// Where the venue recordings are (../shared/venue-recordings, or TM_VENUE_RECORDINGS), and what their absence
// means: outside CI a skip with the reason printed, under CI=true a failing test that names the folder, so a
// CI run can never pass without having checked them.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { it } from 'vitest'

export const RECORDINGS_DIR = resolve(
  process.env['TM_VENUE_RECORDINGS'] ?? resolve(import.meta.dirname, '../../../shared/venue-recordings'),
)
export const recordingsPresent = existsSync(RECORDINGS_DIR)
const IN_CI = process.env['CI'] === 'true'

/**
 * Called where the tests that read the recordings are declared: nothing when the folder is there; otherwise,
 * under CI=true, one test that fails saying which folder is missing, and elsewhere a printed SKIP line.
 */
export function recordingsOrReason(what: string): void {
  if (recordingsPresent) return
  const missing = `no venue recordings at ${RECORDINGS_DIR} (set TM_VENUE_RECORDINGS to the folder)`
  if (IN_CI) {
    it(`${what}: the venue recordings are present (CI=true requires them)`, () => {
      throw new Error(`${missing}; under CI=true a missing folder fails instead of skipping`)
    })
  } else console.log(`SKIP ${what}: ${missing}`)
}
