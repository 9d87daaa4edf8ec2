// Recording the live feed and choosing a recording to replay (docs/recording.md): a record toggle that shows the
// recording's size as it grows, and the recordings folder with a Replay button per file; a file that cannot be
// replayed shows why instead.
import { useCallback, useEffect, useState } from 'react'
import type { RecordingInfo, Result } from '../../../shared/model'
import { refreshStatus, useApi } from '../../hooks/context'
import { formatDateTime, formatDuration } from '../../lib/format'
import { useMonitor } from '../../store/monitor'
import { SpeedOptions } from './ReplayBar'
import { RecordIcon, StopIcon } from '../../ui/icons'

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

export interface RecordingControlsProps {
  className?: string
  /** Called after a replay started from this list (e.g. to close the popover holding it). */
  onReplayStarted?: () => void
}

export function RecordingControls({ className, onReplayStarted }: RecordingControlsProps) {
  const api = useApi()
  const recording = useMonitor((s) => s.status?.recording)
  const replaying = useMonitor((s) => s.status?.replay !== undefined)
  const [list, setList] = useState<RecordingInfo[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [speed, setSpeed] = useState(1)

  const show = useCallback((r: Result<RecordingInfo[]>) => {
    if (r.ok) setList(r.value)
    else setError(r.error.message)
  }, [])
  const reload = useCallback(async () => show(await api.listRecordings()), [api, show])
  // On open, and when a recording starts or ends (by the user or at its size limit), the list is read again.
  const recordingFile = recording?.file ?? null
  useEffect(() => {
    let cancelled = false
    void api.listRecordings().then((r) => {
      if (!cancelled) show(r)
    })
    return () => {
      cancelled = true
    }
  }, [api, show, recordingFile])

  const toggle = async (): Promise<void> => {
    setBusy(true)
    const r = recording ? await api.stopRecording() : await api.startRecording()
    setBusy(false)
    setError(r.ok ? null : r.error.message)
    await refreshStatus(api)
    await reload()
  }
  const replay = async (file: string): Promise<void> => {
    setBusy(true)
    const r = await api.startReplay({ file, speed })
    setBusy(false)
    setError(r.ok ? null : r.error.message)
    await refreshStatus(api)
    if (r.ok) onReplayStarted?.()
  }

  return (
    <div className={`recording-controls${className ? ` ${className}` : ''}`} data-testid="recording-controls">
      <div className="pane-toolbar">
        <button
          className={`btn${recording ? ' danger' : ''}`}
          data-testid="record-toggle"
          data-state={recording ? 'recording' : 'idle'}
          aria-pressed={recording !== undefined}
          disabled={busy || (replaying && !recording)}
          title={replaying ? 'Stop the replay to record the live feed' : undefined}
          onClick={() => void toggle()}
        >
          {recording ? (
            <>
              <StopIcon /> Stop recording ({formatBytes(recording.bytes)})
            </>
          ) : (
            <>
              <RecordIcon /> Record feed
            </>
          )}
        </button>
        {recording ? (
          <span className="muted small" data-testid="recording-file">
            {recording.file} · {recording.frames} frames · limit {formatBytes(recording.limitBytes)}
          </span>
        ) : null}
        <span className="spacer" />
        <label className="small">
          Replay speed{' '}
          <select
            className="small-select"
            data-testid="replay-start-speed"
            value={String(speed)}
            onChange={(e) => setSpeed(Number(e.target.value))}
          >
            <SpeedOptions />
          </select>
        </label>
        <button className="btn ghost" onClick={() => void reload()}>
          Refresh
        </button>
      </div>
      {error ? (
        <p className="error-text small" role="alert" data-testid="recording-error">
          {error}
        </p>
      ) : null}
      {list === null ? null : list.length === 0 ? (
        <div className="empty-note">No recordings yet.</div>
      ) : (
        <table className="grid-table recording-list">
          <tbody>
            {list.map((r) => (
              <tr
                key={r.name}
                data-testid="recording-row"
                data-file={r.name}
                data-error={r.error ? 'true' : 'false'}
              >
                <td className="mono ellipsis" title={r.name}>
                  {r.name}
                </td>
                <td className="muted">{r.profileName ?? ''}</td>
                <td
                  className="num"
                  title={
                    r.durationMs === null && r.startedAt !== null
                      ? 'Started at; the length is read on replay'
                      : undefined
                  }
                >
                  {r.durationMs !== null ? formatDuration(r.durationMs) : formatDateTime(r.startedAt)}
                </td>
                <td className="num">{formatBytes(r.bytes)}</td>
                <td>
                  {r.error ? (
                    <span className="error-text small">{r.error}</span>
                  ) : (
                    <button
                      className="btn small-btn"
                      data-testid="replay-start"
                      disabled={busy}
                      onClick={() => void replay(r.name)}
                    >
                      Replay
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
