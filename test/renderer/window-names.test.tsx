// @vitest-environment happy-dom
// A market window is called by its market's name, in the OS (document.title) and in the ladder's header; until
// the listing names it, by a neutral word, never by its id (a UUID no one reads).
import { act } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import { ok } from '../../src/shared/ipc'
import type { EventSummary, Result, WindowTarget } from '../../src/shared/model'
import { MarketPane } from '../../src/renderer/features/market/MarketPane'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { forgetEvents, useEvents } from '../../src/renderer/store/events'
import { useWindowTitle, windowTitle } from '../../src/renderer/views/window-title'
import { withDom } from './dom'
import { createFakeApi, EVENTS } from './fake-api'

const dom = withDom()
const ID = '7b0c6a52-55b1-4f55-9a4e-2d5f3c1e9a10'
const LISTING: EventSummary[] = [
  { id: 'e1', title: 'Copom de dezembro', markets: [{ id: ID, title: 'Corte de 50 pb' }] },
  ...EVENTS,
]

function Window({ target }: { target: WindowTarget }) {
  useWindowTitle(target)
  return target.kind === 'market' ? <MarketPane market={target.market} owner="test" inWindow /> : null
}

beforeEach(() => {
  forgetEvents()
  document.title = ''
})

describe("a market window's name", () => {
  it('is neutral until the listing arrives, then the listing’s name, in the title bar and the ladder', async () => {
    let answer: (r: Result<EventSummary[]>) => void = () => {}
    const api = createFakeApi({
      listEvents: () => new Promise<Result<EventSummary[]>>((done) => (answer = done)),
    })
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <Window target={{ kind: 'market', market: ID }} />
        </ServicesProvider>,
      )
    })
    const heading = () => dom.container.querySelector('.market-title h2') as HTMLElement
    const loading = useEvents.getState().load(api)
    await act(async () => {})
    expect(document.title).toBe('Market · Trading Monitor')
    expect(heading().textContent).toBe('Market')
    expect(`${document.title} ${heading().textContent} ${heading().title}`).not.toContain(ID)

    await act(async () => {
      answer(ok(LISTING))
      await loading
    })
    expect(document.title).toBe('Copom de dezembro · Corte de 50 pb · Trading Monitor')
    expect(heading().textContent).toBe('Corte de 50 pb')
    expect(dom.byTestId('market-title')[0]?.textContent).toContain('Copom de dezembro')
    expect(dom.byTestId('market-title')[0]?.textContent).not.toContain(ID)
  })

  it('calls a window the listing does not name by its kind alone', () => {
    expect(windowTitle({ kind: 'market', market: 'gone' }, LISTING)).toBe('Market · Trading Monitor')
    expect(windowTitle({ kind: 'event', event: 'e1' }, LISTING)).toBe('Copom de dezembro · Trading Monitor')
    expect(windowTitle({ kind: 'event', event: 'gone' }, LISTING)).toBe('Event · Trading Monitor')
    expect(windowTitle({ kind: 'main' }, LISTING)).toBe('Trading Monitor')
  })

  it('shows the id in the ladder once the listing has answered without the market', async () => {
    const api = createFakeApi()
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <Window target={{ kind: 'market', market: 'gone' }} />
        </ServicesProvider>,
      )
      await useEvents.getState().load(api)
    })
    expect((dom.container.querySelector('.market-title h2') as HTMLElement).textContent).toBe('gone')
    expect(dom.byTestId('market-title')[0]?.textContent).toContain('Not in the events listing')
    expect(document.title).toBe('Market · Trading Monitor')
  })
})
