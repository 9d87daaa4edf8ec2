// What the account pane says about the API key: the reminder ahead of its expiry, the engine's refusals (a key
// the venue refused, a keychain that cannot be read), and the prompt to add one when there is none.
import { useEffect, useState } from 'react'
import type { ApiError } from '../../../shared/model'
import { refreshStatus, useApi, useNow } from '../../hooks/context'
import { expiryState, explainError } from '../../lib/errors'
import { activeProfile, useProfiles } from '../../store/profiles'

interface OpensKeySettings {
  onOpenKeySettings(): void
}

/** The reminder ahead of the key's expiry, where the trader looks all day (key settings has the details). */
export function ExpiryBanner({ onOpenKeySettings }: OpensKeySettings) {
  const profile = useProfiles(activeProfile)
  const now = useNow(60_000)
  const { state, days } = expiryState(profile?.keyExpiresAt ?? null, now)
  if (state !== 'soon' && state !== 'expired') return null
  return (
    <div
      className={`alert ${state === 'expired' ? 'error' : 'warn'}`}
      data-testid="key-expiry-banner"
      data-state={state}
    >
      {state === 'expired'
        ? `The API key expired on ${profile?.keyExpiresAt}. `
        : `The API key expires ${days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`}. `}
      Create a new key in your profile’s security settings and store it here.{' '}
      <button className="link-btn" onClick={onOpenKeySettings}>
        Key settings
      </button>
    </div>
  )
}

/** An error from the engine about the key, with the steps that fix it. */
export function KeyError({
  error,
  testId,
  onOpenKeySettings,
}: OpensKeySettings & { error: ApiError; testId: string }) {
  const { title, steps } = explainError(error)
  return (
    <div className="alert error" data-testid={testId} data-code={error.code}>
      <b>{title}</b>
      <ul>
        {steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <button className="btn" onClick={onOpenKeySettings}>
        Open key settings
      </button>
    </div>
  )
}

export function NoKey({ onOpenKeySettings }: OpensKeySettings) {
  const api = useApi()
  const profile = useProfiles(activeProfile)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    // Whether to offer the demo key depends on the active profile.
    if (useProfiles.getState().activeId === null) void useProfiles.getState().load(api)
  }, [api])
  return (
    <div className="cta" data-testid="account-cta">
      <b>No API key for {profile ? `“${profile.name}”` : 'this profile'}</b>
      <p className="muted">
        Orders, fills, positions and the wallet come from the private user channel, which needs an API key.
        Market data keeps flowing without one.
      </p>
      <div className="row-gap">
        <button className="btn primary" onClick={onOpenKeySettings} data-testid="open-key-settings-cta">
          Add API key…
        </button>
        {profile?.demo ? (
          <button
            className="btn"
            disabled={busy}
            data-testid="cta-use-demo-key"
            onClick={() => {
              setBusy(true)
              setError(null)
              void api.useDemoKey().then((r) => {
                setBusy(false)
                if (!r.ok) setError(r.error.message)
                void useProfiles.getState().load(api)
                void refreshStatus(api)
              })
            }}
          >
            {busy ? 'Verifying…' : 'Use demo key'}
          </button>
        ) : null}
      </div>
      {error ? <span className="error-text">{error}</span> : null}
    </div>
  )
}
