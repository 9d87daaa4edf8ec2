// Header parsing on its own: the forms servers actually send.
import { describe, expect, it } from 'vitest'
import {
  blockDelayMs,
  DEFAULT_RETRY_AFTER_MS,
  MAX_RETRY_AFTER_MS,
  parseRateLimitHeaders,
  parseRetryAfter,
} from '../../../src/main/services/feed/rate-limit'

const now = 1_800_000_000_000
const headers = (h: Record<string, string>) => new Headers(h)

describe('rate-limit headers', () => {
  it('returns null when no header is present', () => {
    expect(parseRateLimitHeaders(headers({ 'content-type': 'x' }), now)).toBeNull()
  })

  it('reads draft IETF values with parameters and the combined RateLimit header', () => {
    expect(parseRateLimitHeaders(headers({ 'RateLimit-Limit': '100, 100;w=60' }), now)).toMatchObject({
      limit: 100,
    })
    expect(
      parseRateLimitHeaders(headers({ RateLimit: 'limit=100, remaining=50, reset=5' }), now),
    ).toMatchObject({
      limit: 100,
      remaining: 50,
      resetAt: now + 5000,
    })
    expect(parseRateLimitHeaders(headers({ RateLimit: '"default";r=3;t=30' }), now)).toMatchObject({
      remaining: 3,
      resetAt: now + 30_000,
    })
  })

  it('treats reset >= 1e9 as epoch seconds and ms-looking values as ms', () => {
    expect(parseRateLimitHeaders(headers({ 'X-RateLimit-Reset': '1800000060' }), now)?.resetAt).toBe(
      now + 60_000,
    )
    expect(parseRateLimitHeaders(headers({ 'X-RateLimit-Reset': '1800000060000' }), now)?.resetAt).toBe(
      now + 60_000,
    )
  })

  it('Retry-After: seconds, HTTP date, garbage, past dates and absurd values', () => {
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter(new Date(now + 10_000).toUTCString(), now)).toBe(10_000)
    expect(parseRetryAfter('soon', now)).toBeNull()
    expect(parseRetryAfter(null, now)).toBeNull()
    expect(parseRetryAfter(new Date(now - 10_000).toUTCString(), now)).toBe(0)
    expect(parseRetryAfter('99999999', now)).toBe(MAX_RETRY_AFTER_MS)
  })

  it('block delay: Retry-After, else the announced reset, else the default', () => {
    expect(blockDelayMs(headers({ 'Retry-After': '2' }), null, now)).toBe(2000)
    const info = parseRateLimitHeaders(headers({ 'X-RateLimit-Reset': '9' }), now)
    expect(blockDelayMs(headers({}), info, now)).toBe(9000)
    expect(blockDelayMs(headers({}), null, now)).toBe(DEFAULT_RETRY_AFTER_MS)
  })
})
