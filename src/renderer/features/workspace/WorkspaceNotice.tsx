// Why the window is not showing the workspace it was asked for (a saved layout that could not be restored, a
// workspace deleted elsewhere), until the trader dismisses it.
import { setWorkspaceNotice, useWindowWorkspace } from './window-state'

export function WorkspaceNotice() {
  const notice = useWindowWorkspace((s) => s.notice)
  if (notice === null) return null
  return (
    <div className="alert warn banner" role="status" data-testid="workspace-notice">
      {notice}
      <button className="icon-btn" onClick={() => setWorkspaceNotice(null)} aria-label="Dismiss">
        ×
      </button>
    </div>
  )
}
