// One rule for scrubbing a key (base/key-scrub.ts), used by every caller: the REST client scrubbing its own key
// out of its error texts, scrubError, the keychain store's errors, and the redactor of frames and log lines. The same inputs must come
// out the same through each; what is not a well-formed key (shared/api-key.ts) is never taken for one.
import { describe, expect, it } from 'vitest'
import { MIN_KEY_LENGTH } from '../../../src/shared/api-key'
import { scrubError } from '../../../src/main/services/base/errors'
import { findToken, REDACTED, scrubKey } from '../../../src/main/services/base/key-scrub'
import { keyringError } from '../../../src/main/services/credentials/errors'
import { SecretRedactor } from '../../../src/main/services/feed/redact'
import { createRestClient } from '../../../src/main/services/feed/rest'
import { captureLogger } from '../helpers'

const KEY = 'abcd1234efgh5678'
const SHORT = 'abcd1234efgh567'

/** [what, text, key, expected] */
const CASES: Array<[string, string, string, string]> = [
  ['an error quoting the key', `invalid key ${KEY}`, KEY, `invalid key ${REDACTED}`],
  ['the key as a JSON value', `{"key":"${KEY}"}`, KEY, `{"key":"${REDACTED}"}`],
  ['the key in a query', `auth=${KEY}&x=1`, KEY, `auth=${REDACTED}&x=1`],
  ['every occurrence', `${KEY}/${KEY}`, KEY, `${REDACTED}/${REDACTED}`],
  ['a longer token first, then the key', `x${KEY} ${KEY}`, KEY, `x${KEY} ${REDACTED}`],
  ['only longer identifiers', `${KEY}_2 pre-${KEY} ${KEY}${KEY}`, KEY, `${KEY}_2 pre-${KEY} ${KEY}${KEY}`],
  ['no key at all', 'nothing here', KEY, 'nothing here'],
  [
    `a string one short of ${MIN_KEY_LENGTH} characters`,
    `invalid key ${SHORT}`,
    SHORT,
    `invalid key ${SHORT}`,
  ],
  ['a common word', 'the market is closed', 'market', 'the market is closed'],
]

/** The text through the REST client's error path: a failure whose message is `text`, with `key` sent. */
async function throughRest(text: string, key: string): Promise<string> {
  const client = createRestClient({
    baseUrl: 'https://venue.example/v1',
    fetchImpl: () => Promise.reject(new Error(text)),
  })
  const r = await client.listEvents(key)
  if (r.ok) throw new Error('the request cannot succeed')
  const m = /^Could not reach venue\.example: (.*)\. Check the profile's base URL/.exec(r.error.message)
  if (!m) throw new Error(`unexpected message: ${r.error.message}`)
  return m[1] ?? ''
}

function throughLogger(text: string, key: string): string {
  const log = captureLogger()
  const redactor = new SecretRedactor()
  redactor.add(key)
  redactor.wrapLogger(log.logger).warn(text)
  return log.lines.join('\n')
}

describe('one key-scrub rule, every caller', () => {
  it.each(CASES)(
    '%s: the same through scrubKey, scrubError, the keychain, the redactor and REST',
    async (_w, text, key, expected) => {
      expect(scrubKey(text, key)).toBe(expected)
      expect(scrubError({ code: 'unauthorized', message: text }, key).message).toBe(expected)
      expect(keyringError(new Error(text), [key]).message).toContain(`(${expected})`)
      const inUse = new SecretRedactor()
      inUse.add(key)
      expect(inUse.redact(text)).toBe(expected)
      const refused = new SecretRedactor()
      refused.remember(key)
      expect(refused.redact(text)).toBe(expected)
      expect(throughLogger(text, key)).toContain(expected)
      expect(await throughRest(text, key)).toBe(expected)
    },
  )

  it('a string that is no key is never scrubbed by any caller, and the redactor does not take it', () => {
    const quoted = `"${KEY}"`
    for (const key of [SHORT, 'market', quoted, `${KEY} x`, '', null]) {
      const text = `said ${String(key)} and ${KEY}`
      expect(scrubKey(text, key)).toBe(text)
      expect(scrubError({ code: 'network', message: text }, key).message).toBe(text)
      // The keychain's detail folds white space.
      if (key !== null)
        expect(keyringError(new Error(text), [key]).message).toContain(`(${text.replace(/\s+/g, ' ')})`)
      const r = new SecretRedactor()
      r.add(key)
      r.remember(key)
      expect(r.active).toBe(false)
      expect(r.redact(text)).toBe(text)
    }
  })

  it('the REST client refuses a key with characters no key has instead of sending it', async () => {
    let sent = 0
    const client = createRestClient({
      baseUrl: 'https://venue.example/v1',
      fetchImpl: () => {
        sent++
        return Promise.reject(new Error('unreachable'))
      },
    })
    for (const key of [`"${KEY}"`, `${KEY}\\`, `${KEY}\r\nX-Evil: 1`]) {
      const r = await client.listEvents(key)
      expect(!r.ok && r.error.code).toBe('invalid_argument')
      expect(JSON.stringify(r)).not.toContain(KEY)
    }
    expect(sent).toBe(0)
  })
})

describe('findToken: whole tokens, in linear time', () => {
  it('skips a longer run of key characters to find a later token; an edge that is no key character needs no boundary', () => {
    expect(findToken(`${KEY}${KEY} ${KEY}`, KEY)).toBe(KEY.length * 2 + 1)
    expect(findToken(`x${KEY}`, KEY)).toBe(-1)
    expect(findToken(`${KEY}-x`, KEY)).toBe(-1)
    expect(scrubKey('x.sk.live.0123456789.y', '.sk.live.0123456789.')).toBe(`x${REDACTED}y`)
  })

  it('runs in linear time on hostile text', () => {
    const r = new SecretRedactor()
    r.add('a'.repeat(16))
    r.add('ab'.repeat(8))
    const hostile = (n: number): string[] => [
      'a'.repeat(2 * n),
      'ab'.repeat(n),
      `${'a'.repeat(n)} ${'a'.repeat(16)}`,
    ]
    expect(r.redact(hostile(1_000)[2]!).endsWith(` ${REDACTED}`)).toBe(true)
    // The fastest of three runs at n and at 4n: linear work takes about 4 times as long, quadratic 16 times. A ratio
    // holds on a loaded machine where a time limit would not.
    const fastest = (texts: string[]): number => {
      let best = Infinity
      for (let i = 0; i < 3; i++) {
        const started = performance.now()
        for (const t of texts) r.redact(t)
        best = Math.min(best, performance.now() - started)
      }
      return best
    }
    const small = fastest(hostile(250_000))
    const large = fastest(hostile(1_000_000))
    expect(large, `${small.toFixed(1)} ms at n, ${large.toFixed(1)} ms at 4n`).toBeLessThan(9 * small + 20)
  })
})
