// @vitest-environment happy-dom
// The status bar's part of the app's own updates: nothing until there is something to say, "Updating n%" while
// a release downloads, "Restart to update" (with the version) once it is ready, and a click that asks the engine.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StatusBar } from '../../src/renderer/features/status/StatusBar'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useMonitor } from '../../src/renderer/store/monitor'
import { fail, ok } from '../../src/shared/ipc'
import type { UpdateStatus } from '../../src/shared/model'
import { createFakeApi, status, type FakeApi } from './fake-api'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLDivElement
let root: Root

beforeEach(() => {
  useMonitor.getState().reset()
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
})

const byTestId = (id: string) => Array.from(container.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`))

async function renderBar(api: FakeApi): Promise<void> {
  await act(async () => {
    root.render(
      <ServicesProvider api={api}>
        <StatusBar />
      </ServicesProvider>,
    )
  })
}

async function pushUpdate(api: FakeApi, update: UpdateStatus | undefined): Promise<void> {
  await act(async () => api.push({ status: status(update ? { update } : {}) }))
  // Batches are applied on the next animation frame.
  await act(async () => new Promise<void>((r) => setTimeout(r, 30)))
}

describe('status bar: updates', () => {
  it('shows nothing while updates are off, idle, checking, found or failed', async () => {
    const api = createFakeApi()
    await renderBar(api)
    for (const update of [
      undefined,
      { state: 'idle' },
      { state: 'checking' },
      { state: 'available', version: '1.2.0' },
      { state: 'error', message: 'net::ERR_INTERNET_DISCONNECTED' },
    ] satisfies Array<UpdateStatus | undefined>) {
      await pushUpdate(api, update)
      expect(byTestId('connection-status')).toHaveLength(1)
      expect(byTestId('update-restart')).toEqual([])
      expect(byTestId('update-progress')).toEqual([])
      expect(container.textContent).not.toContain('ERR_INTERNET')
    }
  })

  it('a quiet "Updating n%" while downloading', async () => {
    const api = createFakeApi()
    await renderBar(api)
    await pushUpdate(api, { state: 'downloading', version: '1.2.0', percent: 42 })
    const progress = byTestId('update-progress')[0]
    expect(progress?.textContent).toBe('Updating 42%')
    expect(progress?.title).toContain('1.2.0')
    expect(byTestId('update-restart')).toEqual([])
  })

  it('"Restart to update" once ready, with the version in its title; a click asks the engine', async () => {
    const api = createFakeApi()
    await renderBar(api)
    await pushUpdate(api, { state: 'ready', version: '1.2.0' })
    const button = byTestId('update-restart')[0] as HTMLButtonElement | undefined
    expect(button?.textContent).toBe('Restart to update')
    expect(button?.title).toContain('1.2.0')
    expect(button?.dataset.version).toBe('1.2.0')
    expect(byTestId('update-progress')).toEqual([])
    expect(api.callsOf('installUpdate')).toEqual([])
    await act(async () => button?.click())
    expect(api.callsOf('installUpdate')).toEqual([[]])
    // The app is quitting: the button cannot be pressed twice.
    const after = byTestId('update-restart')[0] as HTMLButtonElement | undefined
    expect(after?.disabled).toBe(true)
    expect(after?.textContent).toBe('Restarting…')
  })

  it('a refused install is said on the button, which can be pressed again', async () => {
    const api = createFakeApi({
      installUpdate: async () => fail({ code: 'unavailable', message: 'Updates are not available here.' }),
    })
    await renderBar(api)
    await pushUpdate(api, { state: 'ready', version: '1.2.0' })
    await act(async () => byTestId('update-restart')[0]?.click())
    const button = byTestId('update-restart')[0] as HTMLButtonElement | undefined
    expect(button?.disabled).toBe(false)
    expect(button?.title).toContain('Updates are not available here.')
    expect(button?.className).toContain('warn-text')
  })

  it('the button goes when the state leaves ready', async () => {
    const api = createFakeApi({ installUpdate: async () => ok(undefined) })
    await renderBar(api)
    await pushUpdate(api, { state: 'ready', version: '1.2.0' })
    expect(byTestId('update-restart')).toHaveLength(1)
    await pushUpdate(api, { state: 'error', message: 'install failed' })
    expect(byTestId('update-restart')).toEqual([])
  })
})
