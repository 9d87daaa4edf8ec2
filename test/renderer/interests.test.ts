import { describe, expect, it } from 'vitest'
import { ok, type Interest } from '../../src/shared/ipc'
import { createInterestRegistry, unionOf } from '../../src/renderer/store/interests'

const tick = () => new Promise<void>((r) => setTimeout(r, 0))

describe('interest registry', () => {
  it('unites owners’ interests; differing filters become all', () => {
    const u = unionOf([
      [{ channel: 'market', id: 'm1', filter: 'trades' }, { channel: 'user' }],
      [
        { channel: 'market', id: 'm1', filter: 'orderbook' },
        { channel: 'event', id: 'e1', filter: 'all' },
        { channel: 'user' },
      ],
    ])
    expect(u).toEqual([
      { channel: 'event', id: 'e1', filter: 'all' },
      { channel: 'market', id: 'm1', filter: 'all' },
      { channel: 'user' },
    ])
  })

  it('sends the union once per tick and only when it changed', async () => {
    const sent: Interest[][] = []
    const reg = createInterestRegistry({ setInterests: async (i) => (sent.push(i), ok(undefined)) })
    reg.set('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    reg.set('b', [{ channel: 'user' }])
    await tick()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toHaveLength(2)
    reg.set('a', [{ channel: 'market', id: 'm1', filter: 'all' }])
    await tick()
    expect(sent).toHaveLength(1)
    reg.clear('a')
    await tick()
    expect(sent[1]).toEqual([{ channel: 'user' }])
  })

  it('reports a refused setInterests', async () => {
    const errors: string[] = []
    const reg = createInterestRegistry(
      { setInterests: async () => ({ ok: false, error: { code: 'invalid_argument', message: 'bad id' } }) },
      (m) => errors.push(m),
    )
    reg.set('a', [{ channel: 'user' }])
    await tick()
    await tick()
    expect(errors).toEqual(['bad id'])
  })
})
