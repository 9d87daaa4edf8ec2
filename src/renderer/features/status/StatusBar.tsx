// Connection state, the trading mode, reconnects, age of the last message, rate-limit quota, the incident log, and
// how prices read (¢ or probability). Every age and countdown here is its own small component on the shared second clock
// (hooks/clock), so a tick re-renders a few characters, not the bar, and only while that value is shown and
// changing.
import { memo, useMemo, useState } from 'react'
import type { ApiError, Incident, LinkFailure, StreamStatus } from '../../../shared/model'
import { useAgeNow, useCountdownNow } from '../../hooks/clock'
import { useApi } from '../../hooks/context'
import { formatAge, formatClock, formatCountdown, formatDuration } from '../../lib/format'
import { hintAbove, marketLabel } from '../../lib/market-names'
import { useMarketNames } from '../../store/events'
import { toggleAlertManager, useAlertUi } from '../../store/alerts-ui'
import { useMonitor } from '../../store/monitor'
import { GridTable, type GridColumn } from '../../ui/GridTable'
import { PriceUnitToggle } from '../settings'
import { TradingModeControl } from '../trading'
import { EngineLinkNotice, useEngineLost } from './EngineLinkNotice'

/**
 * The engine reports lastMessageAt with its status about once a second, so an age under this is noise: it reads
 * "now" until then. While messages keep coming the age never reaches this, so it never ticks.
 */
export const LAST_MESSAGE_FRESH_MS = 2_000
/** Past this the last-message age is shown as a warning. */
export const LAST_MESSAGE_WARN_MS = 10_000

/** A counting-up age, e.g. "12s"; re-renders only itself, once a second. */
const Age = memo(function Age({ since }: { since: number }) {
  const now = useAgeNow(since)
  return <>{formatAge(now - since)}</>
})

/** A countdown to `until`, e.g. "4s"; re-renders only itself, once a second until it is over. */
const Countdown = memo(function Countdown({ until }: { until: number }) {
  const now = useCountdownNow(until)
  return <>{formatCountdown(until - now)}</>
})

const LastMessageAge = memo(function LastMessageAge({ at }: { at: number | null }) {
  const now = useAgeNow(at, at === null ? null : at + LAST_MESSAGE_FRESH_MS)
  const shown = at !== null && now >= at + LAST_MESSAGE_FRESH_MS
  const age = at === null ? null : now - at
  return (
    <b className={`num age ${shown && age !== null && age > LAST_MESSAGE_WARN_MS ? 'warn-text' : ''}`}>
      {at === null ? formatDuration(null) : shown ? formatAge(age) : 'now'}
    </b>
  )
})

const STATE_LABEL: Record<StreamStatus['state'], string> = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
  'auth-error': 'Key refused',
}

const LINK_LABEL: Record<LinkFailure, string> = {
  refused: 'Connection refused',
  dns: 'Host not found',
  tls: 'TLS failed',
  timeout: 'Timed out',
  unauthorized: 'Key refused (4001)',
}

/** Why the link is down, as text in the bar (the whole sentence in its tooltip when it is cut). */
function LinkError({ error }: { error: ApiError }) {
  return (
    <span
      className="status-item status-error"
      data-testid="connection-error"
      data-link={error.link}
      title={error.message}
    >
      {error.link ? <b>{LINK_LABEL[error.link]}</b> : null}
      <span className="status-error-text">{error.message}</span>
    </span>
  )
}

const INCIDENT_LABEL: Record<Incident['kind'], string> = {
  disconnect: 'Disconnect',
  stall: 'Stall',
  resync: 'Resync',
  auth: 'Auth',
  rate_limit: 'Rate limit',
  bad_frame: 'Bad frame',
}

const INCIDENT_COLUMNS: GridColumn[] = [
  { head: 'Start', width: 66 },
  { head: 'Kind', width: 96 },
  { head: 'Duration', width: 72, num: true },
  { head: 'Detail' },
]

function IncidentLog({ incidents, onClose }: { incidents: Incident[]; onClose: () => void }) {
  const names = useMarketNames()
  return (
    <div className="popover incident-log" role="dialog" aria-label="Incident log">
      <div className="popover-head">
        <span>Incidents</span>
        <button className="icon-btn" onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      {incidents.length === 0 ? (
        <div className="empty-note">No incidents since start.</div>
      ) : (
        <GridTable
          columns={INCIDENT_COLUMNS}
          rows={incidents}
          row={(i) => (
            <tr key={i.id} data-testid="incident-row" data-kind={i.kind}>
              <td className="num">{formatClock(i.startedAt)}</td>
              <td>
                <span className={`tag tag-${i.kind}`}>{INCIDENT_LABEL[i.kind]}</span>
              </td>
              <td className="num">
                {i.endedAt === null ? (
                  <span className="warn-text">
                    <Age since={i.startedAt} />…
                  </span>
                ) : (
                  formatDuration(i.endedAt - i.startedAt)
                )}
              </td>
              <td className="ellipsis" title={hintAbove(names, i.market ?? null, i.detail)}>
                {i.market ? <span className="muted">{marketLabel(names, i.market)} · </span> : null}
                {i.detail}
              </td>
            </tr>
          )}
        />
      )}
    </div>
  )
}

/** Unread alerts; always shown (with 0) so the manager is one click away. Alt+A does the same. */
const AlertsBadge = memo(function AlertsBadge() {
  const alerts = useMonitor((s) => s.alerts)
  const unread = alerts?.unread ?? 0
  const paused = alerts?.paused ?? false
  const armed = useMemo(() => alerts?.rules.filter((r) => r.state === 'armed').length ?? 0, [alerts])
  const open = useAlertUi((s) => s.managerOpen)
  return (
    <button
      type="button"
      className={`link-btn alerts-badge ${unread > 0 ? 'unread' : ''} ${paused ? 'paused' : ''}`}
      data-testid="alerts-badge"
      data-count={unread}
      data-paused={paused}
      aria-expanded={open}
      aria-label={`Alerts: ${unread} unread, ${armed} armed${paused ? ', paused' : ''} (Alt+A)`}
      title={`Alerts: ${armed} armed${paused ? ' · paused' : ''} (Alt+A)`}
      onClick={toggleAlertManager}
    >
      Alerts <b className={`num count-pill ${unread > 0 ? 'on' : ''}`}>{unread}</b>
      {paused ? <span className="warn-text"> paused</span> : null}
    </button>
  )
})

/**
 * The app's own update (docs/updates.md): a quiet "Updating n%" while it downloads, then "Restart to update",
 * which installs only when clicked. Nothing otherwise: checks, "no update" and failures (offline) stay in the log.
 */
const UpdateItem = memo(function UpdateItem() {
  const api = useApi()
  const state = useMonitor((s) => s.status?.update?.state ?? null)
  const version = useMonitor((s) => s.status?.update?.version ?? null)
  const percent = useMonitor((s) => s.status?.update?.percent ?? null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  if (state === 'downloading') {
    return (
      <span
        className="status-item muted"
        data-testid="update-progress"
        title={version ? `Downloading Trading Monitor ${version}` : 'Downloading an update'}
      >
        Updating <span className="num">{percent ?? 0}%</span>
      </span>
    )
  }
  if (state !== 'ready') return null
  const restart = (): void => {
    setBusy(true)
    setFailure(null)
    api.installUpdate().then(
      (r) => {
        // On success the app quits and restarts; the button stays disabled until then.
        if (!r.ok) {
          setBusy(false)
          setFailure(r.error.message)
        }
      },
      (error: unknown) => {
        setBusy(false)
        setFailure(String(error))
      },
    )
  }
  return (
    <button
      type="button"
      className={`link-btn update-restart ${failure ? 'warn-text' : ''}`}
      data-testid="update-restart"
      data-version={version ?? undefined}
      disabled={busy}
      title={
        failure
          ? `The update could not be installed: ${failure}`
          : version
            ? `Trading Monitor ${version} is ready: restart to install it`
            : 'An update is ready: restart to install it'
      }
      onClick={restart}
    >
      {busy ? 'Restarting…' : 'Restart to update'}
    </button>
  )
})

export function StatusBar({ onOpenInspector }: { onOpenInspector?: () => void }) {
  const api = useApi()
  const status = useMonitor((s) => s.status)
  const [showIncidents, setShowIncidents] = useState(false)
  const state = status?.state ?? 'connecting'
  const rl = status?.rateLimit ?? null
  const incidents = status?.incidents ?? []
  const open = incidents.filter((i) => i.endedAt === null).length
  // Re-renders the bar once a second only while a rate-limit block is counting down.
  const blockedUntil = rl?.blockedUntil ?? null
  const now = useCountdownNow(blockedUntil)
  const blocked = blockedUntil !== null && blockedUntil > now ? blockedUntil : null
  // A replay sets the live connection aside on purpose: say so, and offer no reconnect (the banner stops it).
  const replaying = status?.replay !== undefined
  // The venue's data stopped and the socket has been rebuilt for it: one steady line, whether the socket is open or
  // between two rebuilds, instead of "Reconnecting…" and back every few seconds. A reconnect that fails for
  // another reason (refused, DNS, TLS) says that instead.
  const silence = status?.venueSilent
  const silent =
    silence !== undefined &&
    !replaying &&
    (state === 'live' ||
      ((state === 'reconnecting' || state === 'connecting') && status?.lastError?.link === undefined))
  // Connected and answering pings, yet every watched market has gone quiet: neither "Live" nor "Offline".
  const paused = silent || (state === 'live' && status?.dataPaused === true && !replaying)
  const connected = state === 'live' || silent
  const engineLost = useEngineLost()

  return (
    <footer className="statusbar">
      <EngineLinkNotice />
      <span
        className="status-item"
        hidden={engineLost}
        data-testid="connection-status"
        data-state={state}
        data-paused={paused ? 'true' : undefined}
        data-silent={silent ? String(silence.rebuilds) : undefined}
        title={
          replaying
            ? 'A recording is being replayed: the live connection is set aside.'
            : silent
              ? `The venue answers pings but has sent no data since ${formatClock(silence.since)}; the connection ` +
                `was rebuilt ${silence.rebuilds} time${silence.rebuilds === 1 ? '' : 's'} for it, each time ` +
                'after a longer wait. No book is live meanwhile.'
              : paused
                ? 'The venue is connected (it answers pings) but sends nothing for the watched markets.'
                : status?.lastError?.message
        }
      >
        {/* Paused is connected but not live: amber, never the live green. */}
        <span className={`dot dot-${paused ? 'paused' : state}`} />
        <b>
          {replaying
            ? 'Replay · live feed paused'
            : silent
              ? `Venue silent · reconnect ${silence.rebuilds}`
              : paused
                ? 'Venue silent'
                : STATE_LABEL[state]}
        </b>
        {state === 'reconnecting' && !silent && status?.nextRetryAt ? (
          <span className="muted">
            {' '}
            retry in <Countdown until={status.nextRetryAt} />
          </span>
        ) : null}
      </span>
      {!connected && !replaying && status?.lastError ? <LinkError error={status.lastError} /> : null}
      {!connected && !replaying ? (
        <button className="link-btn" onClick={() => void api.reconnectNow()}>
          Reconnect now
        </button>
      ) : null}
      <TradingModeControl />
      <span className="status-item" title="Reconnects since start">
        Reconnects <b className="num">{status?.reconnects ?? 0}</b>
      </span>
      <span
        className="status-item"
        title="Age of the last message from the exchange"
        data-testid="last-message-age"
      >
        Last msg <LastMessageAge at={status?.lastMessageAt ?? null} />
      </span>
      {status?.connectedSince && state === 'live' ? (
        <span className="status-item muted">
          up <Age since={status.connectedSince} />
        </span>
      ) : null}
      <span className="spacer" />
      <UpdateItem />
      {rl && (rl.limit !== null || rl.remaining !== null || blocked !== null) ? (
        <span className={`status-item ${blocked !== null ? 'warn-text' : ''}`} data-testid="rate-limit">
          {blocked !== null ? (
            <>
              Rate limited · retry in <Countdown until={blocked} />
            </>
          ) : (
            <>
              Quota <b className="num">{rl.remaining ?? '?'}</b>/
              <span className="num">{rl.limit ?? '?'}</span>
              {rl.resetAt ? (
                <span className="muted">
                  {' '}
                  · resets <Countdown until={rl.resetAt} />
                </span>
              ) : null}
            </>
          )}
        </span>
      ) : null}
      {status ? (
        <span className="status-item muted" title="Frames received · malformed · unknown">
          <span className="num">{status.counters.frames.toLocaleString('en-US')}</span> frames
          {status.counters.malformed + status.counters.unknown > 0 ? (
            <span className="warn-text">
              {' '}
              · {status.counters.malformed} bad · {status.counters.unknown} unknown
            </span>
          ) : null}
        </span>
      ) : null}
      <PriceUnitToggle />
      {onOpenInspector ? (
        <button className="link-btn" onClick={onOpenInspector} data-testid="open-inspector">
          Inspector
        </button>
      ) : null}
      <AlertsBadge />
      <span className="popover-anchor">
        <button
          className={`link-btn ${open > 0 ? 'warn-text' : ''}`}
          onClick={() => setShowIncidents((v) => !v)}
          data-testid="incidents-button"
          aria-expanded={showIncidents}
        >
          Incidents <b className="num">{incidents.length}</b>
          {open > 0 ? ` (${open} ongoing)` : ''}
        </button>
        {showIncidents ? <IncidentLog incidents={incidents} onClose={() => setShowIncidents(false)} /> : null}
      </span>
    </footer>
  )
}
