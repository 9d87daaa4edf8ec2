// Adapter patterns cannot freeze the engine: a pattern runs on JavaScript's engine only when a static check
// proves it cannot backtrack badly. The four patterns that stalled the engine are found risky, with the reason;
// without a linear-time engine they are refused naming the field; every shipped adapter passes the check.
import { describe, expect, it } from 'vitest'
import {
  backtrackingRisk,
  builtinSpecs,
  compileAdapter,
  compilePatterns,
  parseAdapter,
  type AdapterSpec,
} from '../../src/shared/adapters'
import { hostileAdapter } from './hostile-adapter'

/** The patterns of issue 28, each of which stopped the event loop for seconds on one frame. */
const HOSTILE = ['^(a+)+$', '^(\\w+\\s?)*$', '^((?:[A-Z0-9]+-?)*)$', '^(a|a)*b'] as const

function spec(extra: Record<string, unknown>): AdapterSpec {
  const r = parseAdapter(hostileAdapter(extra))
  if (!r.ok) throw new Error(r.errors.join('; '))
  return r.adapter
}

describe('the static check of adapter patterns', () => {
  it('finds each hostile pattern risky and says why', () => {
    for (const p of HOSTILE) {
      expect(backtrackingRisk(p), p).toMatch(
        /repeated group holds a repeat, an optional part or an alternation/,
      )
    }
    expect(backtrackingRisk('^\\w*\\w*\\w*$')).toMatch(/3 repeats one after another/)
    expect(backtrackingRisk('(a|a)'.repeat(30))).toMatch(/millions of ways through/)
    expect(backtrackingRisk('^(a)\\1$')).toMatch(/back-reference/)
    expect(backtrackingRisk('^(?=\\w+x)a')).toMatch(/lookaround holds a repeat/)
  })

  it('passes ordinary patterns', () => {
    for (const p of [
      '^book-[0-9]+$',
      '^[a-z]+:(.+)$',
      '^0+(\\.0+)?$',
      'Match|Fill',
      '^/market/ticker:(?!all$)([^,]+)$',
    ]) {
      expect(backtrackingRisk(p), p).toBeNull()
    }
  })

  it('without a linear-time engine, refuses a hostile pattern naming its field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          detect: {
            any: [
              { path: 's', matches: HOSTILE[0] },
              { path: 'venue', equals: 'x' },
            ],
          },
        },
        'detect.any.0.matches',
      ],
      [
        {
          rules: [
            { name: 'r', when: [{ path: 's', matches: HOSTILE[1] }], emit: [{ kind: 'info', topic: 'x' }] },
          ],
        },
        'rules.0.when.0.matches',
      ],
      [
        {
          rules: [
            {
              name: 'r',
              when: [],
              emit: [{ kind: 'ticker', market: { path: 's', pattern: HOSTILE[2] }, last: 'p' }],
            },
          ],
        },
        'rules.0.emit.0.market.pattern',
      ],
      [{ textPrefix: HOSTILE[3] }, 'textPrefix'],
    ]
    for (const [extra, field] of cases) {
      const s = spec(extra)
      const r = compilePatterns(s)
      expect(r.ok).toBe(false)
      const errors = r.ok ? [] : r.errors
      expect(errors[0]).toMatch(
        new RegExp(`^${field.replace(/\./g, '\\.')}: ".+" is refused: a repeated group holds`),
      )
      expect(errors[0]).toMatch(/no linear-time engine is available/)
      expect(() => compileAdapter(s)).toThrow(field)
    }
  })

  it('every shipped adapter passes the check: none needs a linear-time engine', () => {
    const specs = builtinSpecs()
    expect(specs).toHaveLength(22)
    for (const s of specs) {
      const r = compilePatterns(s, null)
      expect(r.ok ? [] : r.errors, s.name).toEqual([])
    }
  })
})
