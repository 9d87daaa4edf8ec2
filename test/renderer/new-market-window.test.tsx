// @vitest-environment happy-dom
// The application menu's New Market Window…: main pushes 'new-market-window' to a window, which opens its
// palette in new-window mode; Enter opens the chosen market in its own window, Escape cancels.
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { useEvents } from '../../src/renderer/store/events'
import { useMonitor } from '../../src/renderer/store/monitor'
import { EventWindow } from '../../src/renderer/views/EventWindow'
import { MainView } from '../../src/renderer/views/MainView'
import { fail } from '../../src/shared/ipc'
import { createFakeApi, type FakeApi } from './fake-api'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let container: HTMLDivElement
let root: Root

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
  // Let the events listing load.
  await act(async () => new Promise<void>((r) => setTimeout(r, 0)))
}

const q = (sel: string) => Array.from(container.querySelectorAll<HTMLElement>(sel))
const byTestId = (id: string) => q(`[data-testid="${id}"]`)
const palette = () => byTestId('quick-open')[0]
const paletteInput = () => byTestId('quick-open-input')[0] as HTMLInputElement | undefined

async function menu(api: FakeApi) {
  await act(async () => api.menu('new-market-window'))
}

async function type(text: string) {
  const input = paletteInput()
  if (!input) throw new Error('no palette input')
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
  await act(async () => {
    setValue?.call(input, text)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

async function press(key: string, init: KeyboardEventInit = {}) {
  const input = paletteInput()
  if (!input) throw new Error('no palette input')
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }))
  })
}

beforeEach(() => {
  useMonitor.getState().reset()
  useEvents.setState({ phase: 'idle', events: [], error: null, loadedAt: null })
  container = document.createElement('div')
  document.body.append(container)
  root = createRoot(container)
})

afterEach(async () => {
  await act(async () => root.unmount())
  container.remove()
})

describe('main window', () => {
  it('opens the palette in new-window mode; Enter opens the typed market in its own window', async () => {
    const api = createFakeApi()
    await render(api, <MainView />)
    expect(palette()).toBeUndefined()

    await menu(api)
    expect(palette()?.dataset.mode).toBe('new-window')
    expect(byTestId('quick-open-mode')[0]?.textContent).toContain('Open in a new window')
    expect(document.activeElement).toBe(paletteInput())
    // Markets only: the event itself is not offered, its markets are.
    await type('fed')
    expect(byTestId('quick-open-item').map((i) => `${i.dataset.kind}:${i.dataset.id}`)).toEqual([
      'market:m1',
      'market:m2',
    ])
    await type('cut')
    expect(byTestId('quick-open-item').map((i) => i.dataset.id)).toEqual(['m2'])

    await press('Enter')
    expect(api.callsOf('openWindow')).toEqual([[{ kind: 'market', market: 'm2' }]])
    expect(palette()).toBeUndefined()
    // The market did not open in the main window's own pane.
    expect(byTestId('market-pane-empty')).toHaveLength(1)
  })

  it('Escape cancels without opening anything; the `/` palette still opens here', async () => {
    const api = createFakeApi()
    await render(api, <MainView />)
    await menu(api)
    await type('under')
    await press('Escape')
    expect(palette()).toBeUndefined()
    expect(api.callsOf('openWindow')).toEqual([])

    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true, cancelable: true }))
    })
    expect(palette()?.dataset.mode).toBe('here')
    expect(byTestId('quick-open-mode')).toEqual([])
    // Events are offered again in this mode.
    await type('fed')
    expect(byTestId('quick-open-item').map((i) => i.dataset.kind)).toContain('event')
    await press('Escape')
    expect(palette()).toBeUndefined()
    expect(api.callsOf('openWindow')).toEqual([])
  })

  it('the command turns an open `/` palette into new-window mode, and unsubscribes on unmount', async () => {
    const api = createFakeApi()
    await render(api, <MainView />)
    expect(api.menuListeners()).toBe(1)
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }))
    })
    await type('no change')
    expect(palette()?.dataset.mode).toBe('here')
    await menu(api)
    expect(palette()?.dataset.mode).toBe('new-window')
    // Plain Enter (no Shift) now opens a window.
    await press('Enter')
    expect(api.callsOf('openWindow')).toEqual([[{ kind: 'market', market: 'm1' }]])
    await act(async () => root.unmount())
    expect(api.menuListeners()).toBe(0)
    root = createRoot(container)
  })
})

describe('event window', () => {
  it('renders the same palette on the command and opens the pick in a new window', async () => {
    const api = createFakeApi()
    await render(api, <EventWindow event="e1" />)
    await menu(api)
    expect(palette()?.dataset.mode).toBe('new-window')
    await type('marathon')
    await press('Enter')
    expect(api.callsOf('openWindow')).toEqual([[{ kind: 'market', market: 'm3' }]])
    expect(palette()).toBeUndefined()
  })

  it('shows why a window could not be opened', async () => {
    const api = createFakeApi({
      openWindow: async () => fail({ code: 'internal', message: 'no more windows today' }),
    })
    await render(api, <EventWindow event="e1" />)
    await menu(api)
    await press('Enter')
    await act(async () => new Promise<void>((r) => setTimeout(r, 0)))
    expect(byTestId('open-window-error')[0]?.textContent).toContain('no more windows today')
  })
})

describe('main window and the network', () => {
  it('reconnects at once when the OS says the network is back', async () => {
    const api = createFakeApi()
    await render(api, <MainView />)
    expect(api.callsOf('reconnectNow')).toHaveLength(0)
    await act(async () => {
      window.dispatchEvent(new Event('online'))
    })
    expect(api.callsOf('reconnectNow')).toHaveLength(1)
  })
})
