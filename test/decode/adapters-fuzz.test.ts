// No adapter ever throws on a hostile frame: every shipped adapter gets its own venue's documented examples
// mutated thousands of ways (values replaced by NaN strings, huge numbers, wrong types, deep nesting), random
// JSON, and objects whose getters throw. Each result is a list of well-formed Updates.
import { describe, expect, it } from 'vitest'
import {
  AdapterState,
  builtinAdapters,
  builtinSpecs,
  compileAdapter,
  FrameDecoder,
} from '../../src/shared/adapters'
import type { Update } from '../../src/shared/model'
import { mulberry32 } from '../../src/sim/rng'
import { mutate, problem, randomValue } from './fuzz-lib'
import { venueCases } from './venue-cases'

const SEED = Number(process.env['FUZZ_SEED'] ?? 0)
const MUTATIONS_PER_CASE = 60

function wellFormed(updates: Update[], frame: unknown): void {
  expect(updates.length).toBeGreaterThan(0)
  for (const u of updates) {
    const p = problem(u)
    if (p !== null) throw new Error(`${p}: ${JSON.stringify(u)} from ${JSON.stringify(frame)}`)
  }
}

/** An object whose every property read throws: a hostile value no JSON can make, but a caller might. */
function throwing(): unknown {
  return new Proxy(
    {},
    {
      get: () => {
        throw new Error('hostile getter')
      },
      has: () => true,
      ownKeys: () => ['type', 'data'],
      getOwnPropertyDescriptor: () => ({ configurable: true, enumerable: true, value: 1 }),
    },
  )
}

describe('adapter fuzz (seeded)', () => {
  const cases = venueCases().filter((c) => !/^\s*(ping|pong)\s*$/i.test(c.text))
  const adapters = builtinAdapters()

  it('every adapter survives mutations of every documented example', () => {
    const rnd = mulberry32(0xadab7 + SEED)
    let read = 0
    let total = 0
    for (const c of cases) {
      let base: unknown
      try {
        base = JSON.parse(c.text)
      } catch {
        continue // Socket.IO packets and other text frames: the text fuzz below covers them.
      }
      const own = new FrameDecoder({ adapters, selection: c.adapter })
      const auto = new FrameDecoder({ adapters, selection: 'auto', lock: false })
      for (let i = 0; i < MUTATIONS_PER_CASE; i++) {
        const frame = mutate(base, rnd)
        const a = own.decodeValue(frame)
        wellFormed(a.updates, frame)
        wellFormed(auto.decodeValue(frame).updates, frame)
        total++
        if (a.adapter !== null) read++
      }
    }
    // The mutations stay close enough to the real shapes that most still reach the adapters' rules.
    expect(read / total).toBeGreaterThan(0.2)
  })

  it('every adapter survives random JSON and throwing getters', () => {
    const rnd = mulberry32(0x5eed + SEED)
    for (const a of adapters) {
      const d = new FrameDecoder({ adapters, selection: a.name })
      for (let i = 0; i < 300; i++) {
        const frame = randomValue(rnd, 0)
        wellFormed(d.decodeValue(frame).updates, frame)
      }
      const hostile = throwing()
      expect(() => d.decodeValue(hostile)).not.toThrow()
      expect(() => d.decodeValue([hostile, hostile])).not.toThrow()
      expect(() => d.decodeValue({ data: [hostile], arg: hostile, msg: hostile })).not.toThrow()
    }
  })

  it('text that is not JSON is refused or read, never thrown on', () => {
    const rnd = mulberry32(0x7e47 + SEED)
    const d = new FrameDecoder({ adapters, selection: 'auto' })
    const alphabet = '42/markets,["{}:0123456789.-eEtruefalsnl\\u'
    for (let i = 0; i < 2000; i++) {
      let s = ''
      const n = Math.floor(rnd() * 40)
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(rnd() * alphabet.length)]
      const r = d.decodeText(s)
      if (r.ok) wellFormed(r.updates, s)
      else expect(r.error).not.toContain('\n')
    }
  })

  it('the generated hot path reads exactly as the compiled closures do', () => {
    const rnd = mulberry32(0x9e4 + SEED)
    const specs = new Map(builtinSpecs().map((sp) => [sp.name, sp]))
    let compared = 0
    for (const c of cases) {
      const spec = specs.get(c.adapter)
      if (spec === undefined) continue
      let base: unknown
      try {
        base = JSON.parse(c.text)
      } catch {
        continue
      }
      const fast = compileAdapter(spec)
      const slow = compileAdapter(spec, { generate: false })
      const stFast = new AdapterState()
      const stSlow = new AdapterState()
      for (let i = 0; i < 40; i++) {
        const frame = i === 0 ? base : mutate(base, rnd)
        const a: Update[] = []
        const b: Update[] = []
        const ra: string[] = []
        const rb: string[] = []
        expect([fast.detect(frame), fast.decode(frame, stFast, a, ra)]).toEqual([
          slow.detect(frame),
          slow.decode(frame, stSlow, b, rb),
        ])
        expect(a).toEqual(b)
        expect(ra).toEqual(rb)
        compared++
      }
    }
    expect(compared).toBeGreaterThan(1000)
  })
})
