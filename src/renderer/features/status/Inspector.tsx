// Raw frames and how each decoded, with the stream's counters: the place to look when a venue sends
// something the decoder does not understand.
import { memo, useEffect, useState } from 'react'
import type { FrameClass, InspectorFrame } from '../../../shared/model'
import { useApi } from '../../hooks/context'
import { formatClockMs } from '../../lib/format'
import { hintAbove, nameOf, type MarketNames } from '../../lib/market-names'
import { useMarketNames } from '../../store/events'
import { useMonitor } from '../../store/monitor'

const SHOWN = 200

function summary(frame: InspectorFrame): string {
  if (frame.decoded.length === 0) return frame.error ?? 'no updates'
  const counts = new Map<string, number>()
  for (const u of frame.decoded) {
    const label =
      u.kind === 'user' || u.kind === 'control' || u.kind === 'info' ? `${u.kind}/${u.topic}` : u.kind
    counts.set(label, (counts.get(label) ?? 0) + 1)
  }
  return [...counts].map(([k, n]) => (n > 1 ? `${k}×${n}` : k)).join(' ')
}

/** The stream's counters, in the toolbar; the ones that mean trouble are coloured when not zero. */
const COUNTERS: ReadonlyArray<{
  key: 'frames' | 'updates' | 'unknown' | 'malformed' | 'oversized'
  tone?: 'warn-text' | 'error-text'
  testId?: string
}> = [
  { key: 'frames' },
  { key: 'updates' },
  { key: 'unknown', tone: 'warn-text', testId: 'counter-unknown' },
  { key: 'malformed', tone: 'error-text', testId: 'counter-malformed' },
  { key: 'oversized', tone: 'error-text' },
]

/** The one market a frame's updates are about, or null for none or several. */
function marketOf(frame: InspectorFrame): string | null {
  let found: string | null = null
  for (const u of frame.decoded) {
    const m = 'market' in u ? u.market : null
    if (m === null) continue
    if (found !== null && m !== found) return null
    found = m
  }
  return found
}

const FrameRow = memo(function FrameRow({ frame, names }: { frame: InspectorFrame; names: MarketNames }) {
  const market = marketOf(frame)
  const name = nameOf(names, market)
  return (
    <div
      className={`frame-row cls-${frame.classification}`}
      data-testid="inspector-frame"
      data-class={frame.classification}
      data-seq={frame.seq}
    >
      <span className="c-time">{formatClockMs(frame.receivedAt)}</span>
      <span className={`tag tag-${frame.classification}`}>{frame.classification}</span>
      <span className="frame-decoded ellipsis" title={frame.error ?? summary(frame)}>
        {frame.error !== undefined && frame.decoded.length > 0
          ? `${summary(frame)}: ${frame.error}`
          : summary(frame)}
      </span>
      <span className="mono ellipsis frame-raw" title={hintAbove(names, market, frame.raw)}>
        {name ? <b data-testid="inspector-frame-market">{name.label} </b> : null}
        {frame.raw}
        {frame.truncated ? '…' : ''}
      </span>
    </div>
  )
})

export function Inspector({ onClose }: { onClose(): void }) {
  const api = useApi()
  const frames = useMonitor((s) => s.inspector)
  const names = useMarketNames()
  const counters = useMonitor((s) => s.status?.counters ?? null)
  const adapter = useMonitor((s) => s.status?.adapter ?? null)
  const [filter, setFilter] = useState<'all' | FrameClass>('all')
  const [paused, setPaused] = useState<InspectorFrame[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    void api.setInspector(true).then((r) => {
      if (!r.ok) setError(r.error.message)
    })
    return () => {
      void api.setInspector(false)
    }
  }, [api])

  const source = paused ?? frames
  const shown: InspectorFrame[] = []
  for (let i = source.length - 1; i >= 0 && shown.length < SHOWN; i--) {
    const f = source[i] as InspectorFrame
    if (filter === 'all' || f.classification === filter) shown.push(f)
  }

  return (
    <section className="inspector" data-testid="inspector">
      <div className="pane-toolbar">
        <span className="pane-title">Inspector</span>
        {counters ? (
          <span className="counters" data-testid="inspector-counters">
            {COUNTERS.map(({ key, tone, testId }) => (
              <span key={key} className={tone && counters[key] > 0 ? tone : undefined}>
                {key}{' '}
                <b className="num" data-testid={testId}>
                  {counters[key]}
                </b>
              </span>
            ))}
          </span>
        ) : null}
        {adapter ? (
          <span className="muted" data-testid="inspector-adapter" title="The venue adapter reading frames">
            adapter{' '}
            <b>
              {adapter.selected === 'auto' ? `auto → ${adapter.picked ?? 'detecting…'}` : adapter.selected}
            </b>
          </span>
        ) : null}
        <span className="spacer" />
        <div className="seg" role="group" aria-label="Filter frames">
          {(['all', 'ok', 'unknown', 'malformed', 'oversized', 'refused'] as const).map((f) => (
            <button
              key={f}
              className={f === filter ? 'on' : ''}
              onClick={() => setFilter(f)}
              aria-pressed={f === filter}
            >
              {f}
            </button>
          ))}
        </div>
        <button className="btn ghost" onClick={() => setPaused(paused ? null : frames)}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button className="btn ghost" onClick={() => useMonitor.getState().clearInspector()}>
          Clear
        </button>
        <button className="icon-btn" onClick={onClose} aria-label="Close inspector">
          ×
        </button>
      </div>
      {error ? <div className="alert error">{error}</div> : null}
      <div className="frames">
        {shown.length === 0 ? (
          <div className="empty-note">No frames yet{filter !== 'all' ? ` classified ${filter}` : ''}.</div>
        ) : null}
        {shown.map((f) => (
          <FrameRow key={f.seq} frame={f} names={names} />
        ))}
      </div>
    </section>
  )
}
