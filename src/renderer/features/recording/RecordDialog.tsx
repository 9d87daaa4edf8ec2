// The record-and-replay dialog of the main window: record the live feed, or pick a recording to replay.
import { Dialog } from '../../ui/Dialog'
import { RecordingControls } from './RecordingControls'
import { useMonitor } from '../../store/monitor'
import { RecordIcon } from '../../ui/icons'

export function RecordButton({ onClick }: { onClick(): void }) {
  const recording = useMonitor((s) => s.status?.recording !== undefined)
  return (
    <button
      className={`btn ghost ${recording ? 'recording' : ''}`}
      onClick={onClick}
      data-testid="recordings-button"
      title="Record the feed, or replay a recording"
    >
      {recording ? (
        <>
          <RecordIcon /> Rec
        </>
      ) : (
        'Record / replay'
      )}
    </button>
  )
}

export function RecordDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Record and replay" testId="record-dialog" className="record-dialog" onClose={onClose}>
      <RecordingControls onReplayStarted={onClose} />
    </Dialog>
  )
}
