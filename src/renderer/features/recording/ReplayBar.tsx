// The replay banner (docs/recording.md): shown in every window while the engine replays a recording, so nobody
// mistakes replayed data for the market. Play/pause, speed, a seek bar (the engine re-derives the books at the
// new position) and "Stop replay", which reconnects the live profile.
import { memo, useEffect, useRef, useState } from 'react'
import type { ReplayControl } from '../../../shared/ipc'
import type { ReplayStatus } from '../../../shared/model'
import { refreshStatus, useApi } from '../../hooks/context'
import { formatDuration } from '../../lib/format'
import { useMonitor } from '../../store/monitor'

export const REPLAY_SPEEDS = [1, 2, 5, 10, 25, 50] as const
/** A dragged seek bar asks the engine once it rests this long (a seek back replays from the start). */
const SEEK_SETTLE_MS = 150

/** mm:ss (or h:mm:ss) of a position in a recording. */
export function formatPosition(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const s = String(total % 60).padStart(2, '0')
  const m = Math.floor(total / 60)
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${s}` : `${m}:${s}`
}

export interface ReplayBarProps {
  className?: string
}

/** Renders nothing unless a replay is running. */
/** The speeds offered, plus the current one when it is not among them (a speed set through the API). */
export function SpeedOptions({ current }: { current?: number }) {
  return (
    <>
      {current === undefined || (REPLAY_SPEEDS as readonly number[]).includes(current) ? null : (
        <option value={String(current)}>{current}×</option>
      )}
      {REPLAY_SPEEDS.map((s) => (
        <option key={s} value={String(s)}>
          {s}×
        </option>
      ))}
    </>
  )
}

export function ReplayBar({ className }: ReplayBarProps) {
  const replay = useMonitor((s) => s.status?.replay)
  if (!replay) return null
  return <ReplayBanner replay={replay} className={className} />
}

const ReplayBanner = memo(function ReplayBanner({
  replay,
  className,
}: {
  replay: ReplayStatus
  className: string | undefined
}) {
  const api = useApi()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [draft, setDraft] = useState<number | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current)
    },
    [],
  )

  const control = async (change: ReplayControl): Promise<void> => {
    const r = await api.controlReplay(change)
    setError(r.ok ? null : r.error.message)
    await refreshStatus(api)
  }
  const seekSoon = (ms: number): void => {
    setDraft(ms)
    if (timer.current !== null) clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      timer.current = null
      void control({ seekMs: ms }).finally(() => setDraft(null))
    }, SEEK_SETTLE_MS)
  }
  const stop = async (): Promise<void> => {
    setBusy(true)
    const r = await api.stopReplay()
    setBusy(false)
    setError(r.ok ? null : r.error.message)
    await refreshStatus(api)
  }

  const playing = replay.state === 'playing'
  const position = draft ?? replay.positionMs
  return (
    <div
      className={`alert warn replay-bar${className ? ` ${className}` : ''}`}
      role="status"
      data-testid="replay-banner"
      data-state={replay.state}
      data-seeking={replay.seeking ? 'true' : undefined}
    >
      <strong className="replay-title">
        Replay — {replay.file} — read-only
        <span className="muted small"> (recorded from {replay.profileName}; not live data)</span>
      </strong>
      <div className="replay-controls">
        <button
          className="btn small-btn"
          data-testid="replay-play"
          aria-pressed={playing}
          onClick={() => void control({ paused: playing })}
        >
          {playing ? 'Pause' : replay.state === 'ended' ? 'Play again' : 'Play'}
        </button>
        <label className="replay-speed">
          <span className="sr-only">Speed</span>
          <select
            className="small-select"
            data-testid="replay-speed"
            value={String(replay.speed)}
            onChange={(e) => void control({ speed: Number(e.target.value) })}
          >
            <SpeedOptions current={replay.speed} />
          </select>
        </label>
        <input
          type="range"
          className="replay-seek"
          data-testid="replay-seek"
          aria-label="Replay position"
          min={0}
          max={Math.max(1, replay.durationMs)}
          step={100}
          value={Math.min(position, replay.durationMs)}
          onChange={(e) => seekSoon(Number(e.target.value))}
        />
        <span className="num replay-time" data-testid="replay-position" title={formatDuration(position)}>
          {formatPosition(position)} / {formatPosition(replay.durationMs)}
        </span>
        {replay.seeking ? (
          <span className="muted small" data-testid="replay-seeking">
            Seeking…
          </span>
        ) : null}
        <button className="btn" data-testid="replay-stop" disabled={busy} onClick={() => void stop()}>
          Stop replay
        </button>
      </div>
      {error ? (
        <p className="error-text small" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
})
