// The JSON values in test/fixtures (every file, parsed), for tests that read whatever the project holds.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

/** `text` parsed, or undefined when it is not JSON. */
export function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function jsonFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path))
    else if (name.endsWith('.json')) out.push(path)
  }
  return out
}

export function fixtureValues(): unknown[] {
  return jsonFiles(resolve(import.meta.dirname, '../fixtures')).map((f) => parsed(readFileSync(f, 'utf8')))
}
