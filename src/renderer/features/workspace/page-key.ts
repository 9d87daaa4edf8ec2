// This page's own window key (docs/workspaces.md): several pages of the main view can be open at once (browser
// tabs of the host, main windows of the shell), and each restores its own market and workspace on reload. The
// key's id is kept in sessionStorage, which a reload keeps and a new tab or a relaunch does not: a new page
// starts from the shared `main` key, the last choice any main page made.
import { PAGE_WINDOW_PREFIX } from '../../../shared/workspace'
import { webStorage } from '../../lib/storage'

const STORAGE_KEY = 'tm.page'
export const SHARED_MAIN_KEY = 'main'

function newPageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** `main:<id>`, the same across this page's reloads; `main` where the page cannot keep one. */
export function pageWindowKey(): string {
  const store = webStorage('sessionStorage')
  if (!store) return SHARED_MAIN_KEY
  try {
    let id = store.getItem(STORAGE_KEY)
    if (id === null || !/^[0-9a-f]{16}$/.test(id)) {
      id = newPageId()
      store.setItem(STORAGE_KEY, id)
    }
    return `${PAGE_WINDOW_PREFIX}${id}`
  } catch {
    return SHARED_MAIN_KEY
  }
}
