// validateArgs refuses an argument past shared/json-limits.ts's limits before any schema reads it, naming the
// argument and the limit; the largest legitimate calls still pass.
import { describe, expect, it } from 'vitest'
import { validateArgs } from '../../src/shared/ipc-validate'

function deepArray(depth: number): unknown {
  return JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown
}

describe('validateArgs depth and size limits', () => {
  it('refuses a 10,000-deep argument, naming it and the limit', () => {
    const r = validateArgs('setInterests', [deepArray(10_000)])
    expect(r.ok).toBe(false)
    expect(!r.ok && r.message).toMatch(
      /^setInterests: argument 1 refused: nested deeper than 32 levels at 0\.0/,
    )
  })

  it('names the second argument when it is the deep one', () => {
    const deep = JSON.parse('{"minSize":'.repeat(10_000) + '1' + '}'.repeat(10_000)) as unknown
    const r = validateArgs('setBigTrade', ['m1', deep])
    expect(!r.ok && r.message).toMatch(/^setBigTrade: argument 2 refused: nested deeper than 32 levels/)
  })

  it('refuses a very long string and a very wide list by their limits', () => {
    const long = validateArgs('getMarketSnapshot', ['x'.repeat(1_000_000)])
    expect(!long.ok && long.message).toBe(
      'getMarketSnapshot: argument 1 refused: a string longer than 16384 characters',
    )
    const wide = validateArgs('acknowledgeAlerts', [new Array<number>(200_000).fill(1)])
    expect(!wide.ok && wide.message).toBe(
      'acknowledgeAlerts: argument 1 refused: a list or object with more than 10000 entries',
    )
    const many = validateArgs('getStatus', new Array<number>(100_000).fill(1))
    expect(!many.ok && many.message).toBe('getStatus: more than 8 arguments')
  })

  it('still accepts the largest legitimate calls', () => {
    const interests = Array.from({ length: 5000 }, (_, i) => ({
      channel: 'market' as const,
      id: `m${i}`,
      filter: 'all' as const,
    }))
    expect(validateArgs('setInterests', [interests]).ok).toBe(true)
    expect(validateArgs('getUserHistory', []).ok).toBe(true)
    expect(validateArgs('setApiKey', [{ key: 'k'.repeat(4096), label: 'long key' }]).ok).toBe(true)
  })
})
