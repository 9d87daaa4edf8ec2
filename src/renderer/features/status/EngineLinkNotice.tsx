// The status bar's word for a lost engine link (store/engine-link.ts): it stands in for the connection's state,
// which is the engine's last word and says nothing once the engine is gone.
import { useEngineLink } from '../../store/engine-link'

/** Whether the window has lost its engine (the status bar then hides the connection's last known state). */
export function useEngineLost(): boolean {
  return useEngineLink((s) => s.link === 'lost')
}

export function EngineLinkNotice() {
  const { link, reconnecting } = useEngineLink()
  if (link !== 'lost') return null
  return (
    <span
      className="status-item warn-text"
      data-testid="engine-link"
      data-state="lost"
      title="No word from the app's engine: nothing on screen is live until it answers again."
    >
      <span className="dot dot-offline" />
      <b>{reconnecting ? 'Engine lost — reconnecting' : 'Engine lost — waiting for it'}</b>
    </span>
  )
}
