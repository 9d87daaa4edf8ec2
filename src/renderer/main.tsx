// Renderer entry: find the engine (preload or browser bridge) and the window's target, then render.
import './zod-jitless' // first: before any schema is built (see the module)
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { getMonitorApi, readWindowTarget } from './api'
import { startVisibility } from './api/visibility'
import { App } from './App'
import { startTimelineResets } from './store/timeline-resets'
import { startEngineLink } from './store/engine-link'
import { selectMarket } from './features/workspace/window-state'
import './styles.css'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')

try {
  const api = getMonitorApi()
  startVisibility(api)
  startEngineLink(api)
  startTimelineResets()
  const target = readWindowTarget(window.location.search)
  // A market window's panes follow its market from their first render.
  if (target.kind === 'market') selectMarket(target.market)
  createRoot(root).render(
    <StrictMode>
      <App api={api} target={target} />
    </StrictMode>,
  )
} catch (e) {
  // No engine (e.g. the page opened without the host): say so instead of a blank window.
  root.textContent = ''
  const box = document.createElement('div')
  box.className = 'fatal'
  box.textContent = `Trading Monitor could not reach its engine: ${e instanceof Error ? e.message : String(e)}`
  root.append(box)
}
