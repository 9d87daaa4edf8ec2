import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../../src/main/services/credentials/store'

describe('memory credential store', () => {
  it('is a memory store that always probes fine', async () => {
    const store = createMemoryStore()
    expect(store.kind).toBe('memory')
    expect(await store.probe()).toEqual({ ok: true, value: undefined })
  })

  it('set, get, overwrite, delete, delete again', async () => {
    const store = createMemoryStore()
    expect(await store.get('p1')).toEqual({ ok: true, value: null })
    expect(await store.set('p1', 'k-one')).toEqual({ ok: true, value: undefined })
    expect(await store.get('p1')).toEqual({ ok: true, value: 'k-one' })
    await store.set('p1', 'k-two')
    expect(await store.get('p1')).toEqual({ ok: true, value: 'k-two' })
    expect(await store.delete('p1')).toEqual({ ok: true, value: undefined })
    expect(await store.get('p1')).toEqual({ ok: true, value: null })
    expect(await store.delete('p1')).toEqual({ ok: true, value: undefined })
  })

  it('starts from the initial keys and keeps profiles apart', async () => {
    const initial = { demo: 'demo-key', desk: 'desk-key' }
    const store = createMemoryStore(initial)
    expect(await store.get('demo')).toEqual({ ok: true, value: 'demo-key' })
    expect(await store.get('desk')).toEqual({ ok: true, value: 'desk-key' })
    await store.delete('demo')
    expect(await store.get('demo')).toEqual({ ok: true, value: null })
    expect(await store.get('desk')).toEqual({ ok: true, value: 'desk-key' })
    // The caller's object is a seed, not shared state.
    expect(initial.demo).toBe('demo-key')
    const other = createMemoryStore(initial)
    expect(await other.get('demo')).toEqual({ ok: true, value: 'demo-key' })
  })

  it('does not treat inherited object properties as keys', async () => {
    const store = createMemoryStore({})
    expect(await store.get('toString')).toEqual({ ok: true, value: null })
    expect(await store.get('__proto__')).toEqual({ ok: true, value: null })
  })

  it('refuses bad input with invalid_argument and never quotes the key', async () => {
    const secret = 'sk-SECRET-value-123'
    const store = createMemoryStore()
    const cases: [string, string][] = [
      ['', secret],
      ['p'.repeat(201), secret],
      ['p\u0000', secret],
      ['p1', ''],
      ['p1', ' \t '],
      ['p1', `${secret}\r\n`],
      ['p1', 'x'.repeat(4097)],
    ]
    for (const [id, key] of cases) {
      const r = await store.set(id, key)
      expect(r.ok).toBe(false)
      expect(!r.ok && r.error.code).toBe('invalid_argument')
      expect(JSON.stringify(r)).not.toContain(secret)
    }
    expect(await store.get('p1')).toEqual({ ok: true, value: null })
    expect((await store.get(42 as unknown as string)).ok).toBe(false)
    expect((await store.set('p1', null as unknown as string)).ok).toBe(false)
  })
})
