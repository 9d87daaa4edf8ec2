// The renderer runs zod jitless, so zod never calls `new Function` (which the strict CSP, without
// 'unsafe-eval', would refuse and report in the console): the setup module is the entry's first import, and
// after it, building and using the renderer's schemas never constructs a Function.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')

/** Replaces the global Function with a proxy counting constructions, for the length of `run`. */
async function countFunctionConstructions(run: () => Promise<void>): Promise<number> {
  const original = globalThis.Function
  let count = 0
  globalThis.Function = new Proxy(original, {
    construct(target, args: unknown[]) {
      count++
      return Reflect.construct(target, args) as object
    },
  })
  try {
    await run()
  } finally {
    globalThis.Function = original
  }
  return count
}

describe('zod in the renderer', () => {
  it('the entry imports the jitless setup before anything else', () => {
    const entry = readFileSync(join(root, 'src/renderer/main.tsx'), 'utf8')
    const imports = [...entry.matchAll(/^import\s+(?:[^'"]*from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1])
    expect(imports[0]).toBe('./zod-jitless')
    expect(readFileSync(join(root, 'src/renderer/zod-jitless.ts'), 'utf8')).toMatch(
      /config\(\{ jitless: true \}\)/,
    )
  })

  it('after the setup, zod is jitless and building and parsing schemas never constructs a Function', async () => {
    const constructed = await countFunctionConstructions(async () => {
      await import('../../src/renderer/zod-jitless')
      // The renderer's schema modules, and a parse through an object schema (where zod would JIT).
      const { z } = await import('zod')
      await import('../../src/shared/ipc-validate')
      await import('../../src/shared/alerts')
      await import('../../src/shared/adapters/schema')
      const schema = z.object({ a: z.number(), b: z.object({ c: z.string() }) })
      expect(schema.parse({ a: 1, b: { c: 'x' } })).toEqual({ a: 1, b: { c: 'x' } })
    })
    const { z } = await import('zod')
    expect(z.config().jitless).toBe(true)
    expect(constructed).toBe(0)
  })

  it('the check above can fail: with JIT on, zod probes with new Function', async () => {
    const { z } = await import('zod')
    try {
      const constructed = await countFunctionConstructions(async () => {
        z.config({ jitless: false })
        z.object({ a: z.number() }).parse({ a: 1 })
      })
      expect(constructed).toBeGreaterThan(0)
    } finally {
      z.config({ jitless: true })
    }
  })
})
