// A key the exchange refuses may still be a real key: refused for its IP (403 `ip not allowed`, a 4001 close)
// it is one, and refused as unknown (401) it may be one mistyped. When it is well-formed (shared/api-key.ts) it
// is scrubbed from then on out of every copy that leaves the engine: log lines, inspector frames, recordings,
// windows and REST error texts, while frames are still decoded as received. What is no key is refused at input
// and never scrubbed: issue 28 §2's `"type":"orderbook"`, in every book frame, would blank part of every copy.
import { readFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { REDACTED } from '../../../src/main/services/base/key-scrub'
import type { StreamCounters } from '../../../src/shared/model'
import { MIN_KEY_LENGTH } from '../../../src/shared/api-key'
import { tempDir } from '../recording/helpers'
import { pickTargets, startHarness, startSim, type Harness } from '../harness'
import { waitFor } from '../helpers'

/** Accepted: the listing runs on it. */
const KEY = 'sk_live_RRRRrrrr5555SECRETaccept'
/** Known to the venue, refused for this machine's IP. */
const FAR = 'sk_live_FFFFffff3333SECRETfar0000'
/** Unknown to the venue: refused as unauthorized. */
const WRONG = 'sk_live_WWWWwwww9999SECRETwrong00'
/** Long enough for the input minimum, a substring of every book frame the sim sends, and no key. */
const NOT_A_KEY = '"type":"orderbook"'

let h: Harness | null = null
const closers: Array<() => Promise<void>> = []
const tmp = tempDir('tm-refused-key-')
afterEach(async () => {
  await h?.close()
  h = null
  for (const close of closers.splice(0)) await close()
})
afterAll(() => tmp.remove())

/**
 * The simulator's REST behind a proxy that, while `quote` is set, answers the listing with a redirect whose
 * Location quotes it: a venue's gateway echoing keys it saw earlier.
 */
async function quotingProxy(target: number) {
  const state = { quote: null as string | null }
  const server = createServer((req, res) => {
    if (state.quote !== null && (req.url ?? '').startsWith('/v1/data/events')) {
      res.writeHead(302, { location: `https://venue.example/login?seen=${state.quote}` })
      res.end()
      return
    }
    const upstream = request(
      { host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers)
        reply.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(
    () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  )
  return { state, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }
}

describe('a refused key (engine + simulator)', () => {
  it.each([
    ['refused for its IP (403 ip not allowed)', FAR, 'ip_not_allowed'],
    ['refused as unknown (401)', WRONG, 'unauthorized'],
  ])(
    'a well-formed key %s is scrubbed from then on: REST error texts, log lines, inspector frames, the recording',
    async (_what, refused, code) => {
      const sim = await startSim({ keys: [{ value: KEY }, { value: FAR, allowedIps: ['10.9.9.9'] }] })
      closers.push(() => sim.close())
      const proxy = await quotingProxy(sim.port)
      h = await startHarness({
        sim,
        settingsPath: join(tmp.dir, `settings-${code}.json`),
        endpoint: { baseUrl: proxy.baseUrl, wsUrl: sim.wsUrl },
      })
      const { client, rec } = h.attach('window', true)
      await client.setInspector(true)
      expect((await client.setApiKey({ key: KEY })).ok).toBe(true)
      const { market } = pickTargets(sim)
      await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
      await waitFor(() => rec.bookState(market, 'live'), 'a live book')

      const answer = await client.setApiKey({ key: refused })
      expect(!answer.ok && answer.error.code).toBe(code)
      expect(JSON.stringify(answer)).not.toContain(refused)

      // A REST error text quoting it: the listing, made with the accepted key, redirected by the venue.
      proxy.state.quote = refused
      const listing = await client.listEvents({ refresh: true })
      proxy.state.quote = null
      expect(!listing.ok && listing.error.code).toBe('bad_response')
      expect(!listing.ok && listing.error.message).toContain(`?seen=${REDACTED}`)

      const started = await client.startRecording()
      if (!started.ok) throw new Error(started.error.message)
      const mark = rec.mark()
      // The venue quotes it on the stream: a notice (the inspector, the recording) and an error (a log line).
      sim.faults.sendRaw(JSON.stringify({ type: 'notice', message: `your key ${refused} is fine` }))
      sim.faults.sendRaw(
        JSON.stringify({ type: 'error', error: 'invalid_request', message: `bad key ${refused}` }),
      )
      await waitFor(
        () =>
          rec.batches
            .slice(mark)
            .flatMap((b) => b.inspector ?? [])
            .some((f) => f.raw.includes(`your key ${REDACTED}`)) &&
          h!.log.lines.some((l) => l.includes(`bad key ${REDACTED}`)) &&
          rec.marketData(market, mark),
        'the quoting frames were read, and the book read on',
      )
      const stopped = await client.stopRecording()
      if (!stopped.ok) throw new Error(stopped.error.message)

      const text = gunzipSync(readFileSync(join(tmp.dir, 'recordings', stopped.value.name))).toString('utf8')
      expect(text).toContain(`your key ${REDACTED} is fine`)
      for (const t of [text, ...rec.serialised, ...h.log.lines]) expect(t.includes(refused), t).toBe(false)
      // Frames are decoded as received: the book stayed live through it.
      expect(rec.latestBook(market)?.state).toBe('live')
    },
    30_000,
  )

  it('a stored key refused for its IP on the stream (the user channel) stays scrubbed', async () => {
    h = await startHarness({ config: { keys: [{ value: KEY }] } })
    const { client, rec } = h.attach('window', true)
    await client.setInspector(true)
    expect((await client.setApiKey({ key: KEY })).ok).toBe(true)
    await client.setInterests([{ channel: 'user' }])
    await waitFor(() => rec.userData(0), 'user data')
    h.sim.setKeyState(KEY, { allowedIps: ['10.1.2.3'] })
    await waitFor(() => rec.status()?.state === 'auth-error', 'the key refused on the stream')
    const mark = rec.mark()
    h.sim.faults.sendRaw(JSON.stringify({ type: 'notice', message: `your key ${KEY} is blocked` }))
    await waitFor(
      () =>
        rec.batches
          .slice(mark)
          .flatMap((b) => b.inspector ?? [])
          .some((f) => f.raw.includes(`your key ${REDACTED}`)),
      'the quoting frame was read',
    )
    for (const t of [...rec.serialised, ...h.log.lines]) expect(t.includes(KEY)).toBe(false)
  })

  it('what is no key is refused at input and never scrubbed: every later book frame and recording intact', async () => {
    expect(NOT_A_KEY.length).toBeGreaterThanOrEqual(MIN_KEY_LENGTH)
    h = await startHarness({ settingsPath: join(tmp.dir, 'settings-nokey.json'), config: { keys: [] } })
    const { client, rec } = h.attach('window', true)
    await client.setInspector(true)
    const { market } = pickTargets(h.sim)
    await client.setInterests([{ channel: 'market', id: market, filter: 'all' }])
    await waitFor(() => rec.bookState(market, 'live'), 'a live book')

    const refused = await client.setApiKey({ key: NOT_A_KEY })
    expect(!refused.ok && refused.error).toMatchObject({ code: 'invalid_argument', field: 'key' })
    const counters = async (): Promise<StreamCounters> => {
      const s = await client.getStatus()
      if (!s.ok) throw new Error(s.error.message)
      return s.value.counters
    }
    const before = await counters()
    const mark = rec.mark()
    const started = await client.startRecording()
    if (!started.ok) throw new Error(started.error.message)
    await waitFor(
      async () =>
        (await counters()).updates - before.updates > 10 &&
        rec.batches
          .slice(mark)
          .flatMap((b) => b.inspector ?? [])
          .filter((f) => f.raw.includes(NOT_A_KEY)).length > 5,
      'the feed read on after the refusal',
      20_000,
      100,
    )
    const stopped = await client.stopRecording()
    if (!stopped.ok) throw new Error(stopped.error.message)
    expect((await counters()).malformed - before.malformed).toBe(0)
    expect(rec.latestBook(market)?.state).toBe('live')
    const inspected = rec.batches.slice(mark).flatMap((b) => b.inspector ?? [])
    expect(inspected.some((f) => f.raw.includes(REDACTED))).toBe(false)
    const text = gunzipSync(readFileSync(join(tmp.dir, 'recordings', stopped.value.name))).toString('utf8')
    const recorded = text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => (JSON.parse(l) as { f: string }).f)
    expect(recorded.filter((f) => f.includes(NOT_A_KEY)).length).toBeGreaterThan(5)
    for (const f of recorded) expect(() => JSON.parse(f) as unknown).not.toThrow()
  }, 30_000)

  it('refuses a key shorter than the minimum at input, naming it, before anything is sent', async () => {
    h = await startHarness({ config: { keys: [] } })
    const { client } = h.attach('short')
    const r = await client.setApiKey({ key: 'market' })
    expect(!r.ok && r.error.code).toBe('invalid_argument')
    expect(!r.ok && r.error.message).toContain(`${MIN_KEY_LENGTH} characters`)
    expect(!r.ok && r.error.message.includes('market')).toBe(false)
    const stored = await h.credentials.get(h.profileId)
    expect(stored.ok && stored.value).toBeNull()
  })
})
