// The docs' examples (test/fixtures/voxfi, see index.json there) and the check that a body has their shape.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'

export const FIXTURES = join(__dirname, '..', 'fixtures', 'voxfi')

/** The `example` of a fixture file: the body or frame as the docs show it. */
export function fixture(name: string): unknown {
  return (JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as { example: unknown }).example
}

/** Same keys at every level as the docs' example (arrays: their first elements; null matches any type). */
export function expectShape(actual: unknown, expected: unknown, path = '$'): void {
  if (expected === null || actual === null) return
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true)
    const a = actual as unknown[]
    if (expected.length > 0 && a.length > 0) expectShape(a[0], expected[0], `${path}[0]`)
    return
  }
  if (typeof expected === 'object') {
    expect(typeof actual, path).toBe('object')
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort())
    for (const [k, v] of Object.entries(expected))
      expectShape((actual as Record<string, unknown>)[k], v, `${path}.${k}`)
    return
  }
  expect(typeof actual, path).toBe(typeof expected)
}

/** VoxFi's 429 (rest-error-429-rate-limit.json): its body's retry_after, within the window, also in Retry-After. */
export function expectRateLimited(
  r: { status: number; json: unknown; headers: Record<string, string | string[] | undefined> },
  windowSeconds: number,
): void {
  expect(r.status).toBe(429)
  expectShape(r.json, fixture('rest-error-429-rate-limit.json'))
  const body = r.json as { error: string; retry_after: number }
  expect(Object.keys(body)).toEqual(['error', 'retry_after'])
  expect(body.error).toBe('rate limit exceeded')
  expect(body.retry_after).toBeGreaterThanOrEqual(1)
  expect(body.retry_after).toBeLessThanOrEqual(windowSeconds)
  expect(r.headers['retry-after']).toBe(String(body.retry_after))
}
