// @vitest-environment happy-dom
// The status bar while the venue is connected but sends nothing for the watched markets: "Venue silent" with a
// tooltip that says so, not "Live" and not "Offline"; a status without the flag is "Live" again. Through a silence
// episode (sockets rebuilt because the data stopped) one steady line, whether the socket is open or between two.
import { act } from 'react'
import { describe, expect, it } from 'vitest'
import { StatusBar } from '../../src/renderer/features/status/StatusBar'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import type { StreamStatus } from '../../src/shared/model'
import { createFakeApi, status, type FakeApi } from './fake-api'
import { withDom } from './dom'

const dom = withDom()

async function push(api: FakeApi, partial: Partial<StreamStatus>): Promise<void> {
  await act(async () => api.push({ status: status(partial) }))
  // Batches are applied on the next animation frame.
  await act(async () => new Promise<void>((r) => setTimeout(r, 30)))
}

async function mount(): Promise<FakeApi> {
  const api = createFakeApi()
  await act(async () => {
    dom.root.render(
      <ServicesProvider api={api}>
        <StatusBar />
      </ServicesProvider>,
    )
  })
  return api
}

const connection = () => dom.container.querySelector<HTMLElement>('[data-testid="connection-status"]')

describe('status bar: data paused', () => {
  it('says "Venue silent" while connected with every watched market quiet, and "Live" once data flows', async () => {
    const api = await mount()
    await push(api, { state: 'live' })
    expect(connection()?.textContent).toContain('Live')
    expect(connection()?.dataset.paused).toBeUndefined()

    await push(api, { state: 'live', dataPaused: true })
    expect(connection()?.textContent).toContain('Venue silent')
    expect(connection()?.textContent).not.toContain('Live')
    expect(connection()?.textContent).not.toContain('Offline')
    expect(connection()?.dataset.paused).toBe('true')
    expect(connection()?.title).toMatch(/connected .* sends nothing for the watched markets/)
    // Connected: nothing to reconnect.
    expect(dom.container.textContent).not.toContain('Reconnect now')

    await push(api, { state: 'live' })
    expect(connection()?.textContent).toContain('Live')
    expect(connection()?.textContent).not.toContain('Venue silent')
  })

  it('keeps one line through a silence episode, open or reconnecting, and the amber dot', async () => {
    const api = await mount()
    const venueSilent = { since: Date.now() - 10_000, rebuilds: 2 }
    const seen = new Set<string>()
    for (const state of ['live', 'reconnecting', 'live', 'connecting', 'live'] as const) {
      await push(api, { state, venueSilent, ...(state === 'live' ? { dataPaused: true } : {}) })
      seen.add(connection()?.textContent ?? '')
      expect(connection()?.querySelector('.dot')?.className).toBe('dot dot-paused')
      expect(dom.container.textContent).not.toContain('Reconnect now')
    }
    expect([...seen]).toEqual(['Venue silent · reconnect 2'])
    expect(connection()?.dataset.silent).toBe('2')
    expect(connection()?.title).toMatch(/rebuilt 2 times/)
    // A reconnect that fails for a reason of its own says that reason instead.
    await push(api, {
      state: 'reconnecting',
      venueSilent,
      lastError: { code: 'network', message: 'refused', link: 'refused' },
    })
    expect(connection()?.textContent).toContain('Reconnecting')
  })

  it('a connection that is down says so, whatever was paused before', async () => {
    const api = await mount()
    await push(api, { state: 'reconnecting', dataPaused: true })
    expect(connection()?.textContent).toContain('Reconnecting')
    expect(connection()?.textContent).not.toContain('Venue silent')
  })
})
