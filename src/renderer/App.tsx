// Chooses the view for this window from its URL (?view=main|market|event).
import { useEffect } from 'react'
import { WINDOW_BOOK_DEPTH, type MonitorApi } from '../shared/ipc'
import type { WindowTarget } from '../shared/model'
import { ServicesProvider, useApi } from './hooks/context'
import { useProfiles } from './store/profiles'
import { EventWindow } from './views/EventWindow'
import { MainView } from './views/MainView'
import { MarketWindow } from './views/MarketWindow'
import { useWindowTitle } from './views/window-title'

function WindowBody({ target }: { target: WindowTarget }) {
  const api = useApi()
  useWindowTitle(target)
  useEffect(() => {
    void api.setBookDepth(WINDOW_BOOK_DEPTH)
    void useProfiles.getState().load(api)
  }, [api])
  switch (target.kind) {
    case 'market':
      return <MarketWindow market={target.market} />
    case 'event':
      return <EventWindow event={target.event} />
    default:
      return <MainView />
  }
}

export function App({ api, target }: { api: MonitorApi; target: WindowTarget }) {
  return (
    <ServicesProvider api={api}>
      <WindowBody target={target} />
    </ServicesProvider>
  )
}
