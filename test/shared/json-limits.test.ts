// shared/json-limits.ts: hostile shapes (100,000 levels, wide objects, long strings, many values, cycles) are
// measured and trimmed without recursion, reading only what they keep, into values that serialise.
import { describe, expect, it } from 'vitest'
import {
  JSON_LIMITS,
  jsonLimitProblem,
  limitJson,
  TRIMMED_DEEP,
  TRIMMED_KEY,
  TRIMMED_UNREADABLE,
  TRIMMED_VALUES,
} from '../../src/shared/json-limits'

const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
const nestedObjects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

/** The depth of a value, walked iteratively (the test's own measure, independent of the code under test). */
function depthOf(value: unknown): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number]
    if (typeof v !== 'object' || v === null) continue
    deepest = Math.max(deepest, d + 1)
    for (const child of Object.values(v)) stack.push([child, d + 1])
  }
  return deepest
}

/**
 * `target` behind a proxy that counts the values read from it: the work limitJson does is counted in reads, not
 * timed (a timing bound fails on a loaded machine and proves nothing on a fast one).
 */
function counted<T extends object>(target: T, reads: { n: number }): T {
  return new Proxy(target, {
    get(t, key, receiver) {
      if (typeof key === 'string') reads.n++
      return Reflect.get(t, key, receiver) as unknown
    },
  })
}

describe('what breaks without limits', () => {
  it('JSON.parse reads 100,000 levels, but JSON.stringify and structuredClone overflow the stack', () => {
    const deep = JSON.parse(nestedArrays(100_000)) as unknown
    expect(() => JSON.stringify(deep)).toThrow(RangeError)
    expect(() => structuredClone(deep)).toThrow(RangeError)
  })
})

describe('limitJson', () => {
  it('returns a value within the limits itself, uncopied', () => {
    const v = { type: 'fill', data: { id: 'o1', price: 0.4, tags: ['a', 'b'], nested: { x: [[1, 2]] } } }
    const out = limitJson(v)
    expect(out.value).toBe(v)
    expect(out.trimmed).toEqual([])
    expect(jsonLimitProblem(v)).toBeNull()
    for (const scalar of [null, 1, true, 'short']) expect(limitJson(scalar).value).toBe(scalar)
  })

  it('trims 100,000 nested arrays to the depth limit, without overflowing, in bounded time', () => {
    const reads = { n: 0 }
    // 100,000 levels, each behind a counting proxy, built from the innermost out.
    let deep: unknown[] = []
    for (let i = 0; i < 100_000; i++) deep = counted([deep], reads)
    const result = limitJson(deep)
    expect(result.trimmed).toEqual(['too deep'])
    expect(depthOf(result.value)).toBe(JSON_LIMITS.maxDepth)
    const text = JSON.stringify(result.value)
    expect(text).toContain(JSON.stringify(TRIMMED_DEEP))
    // Only the levels it keeps are read (each one's length and item), not the 100,000.
    expect(reads.n).toBeLessThan(10 * JSON_LIMITS.maxDepth)
  })

  it('trims 100,000 nested objects and names where the limit was passed', () => {
    const deep = JSON.parse(nestedObjects(100_000)) as unknown
    const problem = jsonLimitProblem(deep)
    expect(problem?.reason).toBe('too deep')
    expect(problem?.path).toHaveLength(JSON_LIMITS.maxDepth)
    expect(problem?.message).toMatch(/^nested deeper than 32 levels at a\.a\.a\.….a\.a$/)
    const out = limitJson(deep)
    expect(() => JSON.stringify(out.value)).not.toThrow()
    let v = out.value as Record<string, unknown>
    for (let i = 1; i < JSON_LIMITS.maxDepth; i++) v = v.a as Record<string, unknown>
    expect(v.a).toBe(TRIMMED_DEEP)
  })

  it('keeps the first entries of a wide object or array and says how many were left out', () => {
    const wide: Record<string, number> = {}
    for (let i = 0; i < 200_000; i++) wide[`k${i}`] = i
    const reads = { n: 0 }
    const result = limitJson({
      wide: counted(wide, reads),
      list: counted(new Array<number>(1_000_000).fill(7), reads),
    })
    // The entries it keeps are read, not the 1.2 million.
    expect(reads.n).toBeLessThan(3 * JSON_LIMITS.maxItems)
    expect(result.trimmed).toContain('too many items')
    const value = result.value as { wide: Record<string, unknown>; list: unknown[] }
    expect(Object.keys(value.wide)).toHaveLength(JSON_LIMITS.maxItems + 1)
    expect(value.wide.k0).toBe(0)
    expect(value.wide[TRIMMED_KEY]).toBe(`[trimmed: ${200_000 - JSON_LIMITS.maxItems} more keys]`)
    expect(value.list).toHaveLength(JSON_LIMITS.maxItems + 1)
    expect(value.list.at(-1)).toBe(`[trimmed: ${1_000_000 - JSON_LIMITS.maxItems} more items]`)
    expect(jsonLimitProblem({ wide })?.message).toBe('a list or object with more than 10000 entries at wide')
  })

  it('cuts long strings, values and keys, with a marker at the end', () => {
    const long = 'x'.repeat(10_000_000)
    const result = limitJson({ note: long, [long]: 1, list: [long] })
    expect(result.trimmed).toEqual(['string too long'])
    const value = result.value as Record<string, unknown>
    const note = value.note as string
    expect(note.length).toBeLessThanOrEqual(JSON_LIMITS.maxString)
    expect(note.endsWith('[trimmed: string too long]')).toBe(true)
    expect(Object.keys(value).every((k) => k.length <= JSON_LIMITS.maxString)).toBe(true)
    expect(limitJson(long).value).toBe(note)
  })

  it('stops at the limit on values in all, however they are spread', () => {
    const reads = { n: 0 }
    const many = Array.from({ length: 50 }, () =>
      counted(
        Array.from({ length: 5000 }, (_, i) => ({ i })),
        reads,
      ),
    )
    const result = limitJson(many)
    // The values within the budget are read, not the 250,000.
    expect(reads.n).toBeLessThanOrEqual(JSON_LIMITS.maxNodes + 100)
    expect(result.trimmed).toContain('too many values')
    let values = 0
    const stack: unknown[] = [result.value]
    while (stack.length > 0) {
      const v = stack.pop()
      values++
      if (typeof v === 'object' && v !== null) stack.push(...Object.values(v))
    }
    // The budget, plus at most one marker in each container the budget left unvisited (each counted in it).
    expect(values).toBeGreaterThanOrEqual(JSON_LIMITS.maxNodes)
    expect(values).toBeLessThanOrEqual(2 * JSON_LIMITS.maxNodes)
    expect(JSON.stringify(result.value)).toContain(TRIMMED_VALUES)
  })

  it('ends on a cycle (a structured-clone argument can have one) and the copy serialises', () => {
    const loop: Record<string, unknown> = { name: 'loop' }
    loop.self = loop
    const out = limitJson(loop)
    expect(out.trimmed).toEqual(['too deep'])
    expect(() => JSON.stringify(out.value)).not.toThrow()
  })

  it('copies a __proto__ key as data, never as a prototype', () => {
    const parsed = JSON.parse(`{"__proto__":{"polluted":true},"deep":${nestedArrays(100)}}`) as object
    const out = limitJson(parsed).value as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(JSON.stringify(out)).toContain('"__proto__":{"polluted":true}')
  })

  it('replaces a value that throws when read', () => {
    const hostile = {
      get type(): string {
        throw new Error('boom')
      },
    }
    expect(limitJson(hostile)).toEqual({ value: TRIMMED_UNREADABLE, trimmed: ['unreadable'] })
    expect(jsonLimitProblem(hostile)?.reason).toBe('unreadable')
  })

  it('takes tighter limits from the caller', () => {
    expect(jsonLimitProblem([[[1]]], { maxDepth: 2 })?.message).toBe('nested deeper than 2 levels at 0.0')
    expect(limitJson([[[1]]], { maxDepth: 2 }).value).toEqual([[TRIMMED_DEEP]])
  })
})
