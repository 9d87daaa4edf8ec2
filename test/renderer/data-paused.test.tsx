// @vitest-environment happy-dom
// The status bar while the venue is connected but sends nothing for the watched markets: "Data paused" with a
// tooltip that says so, not "Live" and not "Offline"; a status without the flag is "Live" again.
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

const connection = () => dom.container.querySelector<HTMLElement>('[data-testid="connection-status"]')

describe('status bar: data paused', () => {
  it('says "Data paused" while connected with every watched market quiet, and "Live" once data flows', async () => {
    const api = createFakeApi()
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <StatusBar />
        </ServicesProvider>,
      )
    })
    await push(api, { state: 'live' })
    expect(connection()?.textContent).toContain('Live')
    expect(connection()?.dataset.paused).toBeUndefined()

    await push(api, { state: 'live', dataPaused: true })
    expect(connection()?.textContent).toContain('Data paused')
    expect(connection()?.textContent).not.toContain('Live')
    expect(connection()?.textContent).not.toContain('Offline')
    expect(connection()?.dataset.paused).toBe('true')
    expect(connection()?.title).toMatch(/connected .* sends nothing for the watched markets/)
    // Connected: nothing to reconnect.
    expect(dom.container.textContent).not.toContain('Reconnect now')

    await push(api, { state: 'live' })
    expect(connection()?.textContent).toContain('Live')
    expect(connection()?.textContent).not.toContain('Data paused')
  })

  it('a connection that is down says so, whatever was paused before', async () => {
    const api = createFakeApi()
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <StatusBar />
        </ServicesProvider>,
      )
    })
    await push(api, { state: 'reconnecting', dataPaused: true })
    expect(connection()?.textContent).toContain('Reconnecting')
    expect(connection()?.textContent).not.toContain('Data paused')
  })
})
