// The trading mode, always in sight in the status bar (DESIGN §3.7): `trading-mode` says off, paper or live in
// the mode's own colour, and `trading-mode-select` changes it for the active profile. Live asks first
// (`trading-live-confirm`): only then does the window send `confirmLive`. Why live orders cannot go now (a key
// without the permission, a host that may not trade here) is said beside it, in words.
import { useState } from 'react'
import type { ApiError } from '../../../shared/model'
import { TRADING_MODES, type TradingMode } from '../../../shared/trading'
import { useApi } from '../../hooks/context'
import { activeProfile, useProfiles } from '../../store/profiles'
import { useMonitor } from '../../store/monitor'
import { changeTrading } from './actions'
import { ConfirmDialog } from './ConfirmDialog'
import { explainBlock } from './refusals'

const OPTION: Record<TradingMode, string> = {
  off: 'Trading off',
  paper: 'PAPER trading',
  live: 'LIVE trading',
}

function isMode(value: string): value is TradingMode {
  return (TRADING_MODES as readonly string[]).includes(value)
}

export function TradingModeControl() {
  const api = useApi()
  const trading = useMonitor((s) => s.account?.trading ?? null)
  const accountError = useMonitor((s) => s.accountError)
  const profile = useProfiles(activeProfile)
  const [askLive, setAskLive] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)
  const mode = trading?.settings.mode ?? 'off'
  const blocked = mode === 'live' ? (trading?.blocked ?? null) : null
  const change = (input: Parameters<typeof changeTrading>[1]) => {
    setError(null)
    void changeTrading(api, input).then(setError)
  }
  return (
    <span
      className={`status-item trading-mode mode-${mode}`}
      data-testid="trading-mode"
      data-mode={mode}
      data-unavailable={trading === null || undefined}
      title={
        trading === null
          ? `Trading is not available${accountError ? `: ${accountError}` : ' yet'}`
          : mode === 'paper'
            ? 'Paper: orders rest against the live book and never reach the venue'
            : mode === 'live'
              ? 'Live: orders go to the venue'
              : 'Trading is off: no order is sent'
      }
    >
      <span className={`mode-dot mode-${mode}`} aria-hidden="true" />
      <select
        aria-label="Trading mode of this profile"
        data-testid="trading-mode-select"
        value={mode}
        disabled={trading === null}
        onChange={(e) => {
          const next = e.target.value
          if (!isMode(next) || next === mode) return
          if (next === 'live') setAskLive(true)
          else change({ mode: next })
        }}
      >
        {TRADING_MODES.map((m) => (
          <option key={m} value={m}>
            {OPTION[m]}
          </option>
        ))}
      </select>
      {blocked !== null ? (
        <span
          className="trading-blocked warn-text"
          data-testid="trading-blocked"
          data-code={blocked.code}
          title={explainBlock(blocked)}
        >
          Live orders blocked: {explainBlock(blocked)}
        </span>
      ) : null}
      {error !== null ? (
        <span className="error-text trading-blocked" data-testid="trading-mode-error" title={error.message}>
          {error.message}
        </span>
      ) : null}
      {askLive ? (
        <ConfirmDialog
          title="Trade live?"
          testId="trading-live-dialog"
          confirmTestId="trading-live-confirm"
          confirmLabel="Trade live"
          danger
          onClose={() => setAskLive(false)}
          onConfirm={() => {
            setAskLive(false)
            change({ mode: 'live', confirmLive: true })
          }}
        >
          <p>
            Orders of {profile ? <b>{profile.name}</b> : 'this profile'} will be sent to the venue
            {profile ? <span className="mono"> ({hostOf(profile.baseUrl)})</span> : null}
            {profile?.demo ? ', the built-in simulator.' : ': real orders, with real money.'}
          </p>
          <p className="muted">
            The mode stays in sight in the status bar and on each ticket. Paper orders already resting stay
            paper.
          </p>
        </ConfirmDialog>
      ) : null}
    </span>
  )
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}
