// Profiles and their API key. The key is write-only: verified by the engine before it is stored, and never
// shown again; only "a key is stored", its label and the expiry the user entered come back.
import { useEffect, useState } from 'react'
import type { KeyInfo } from '../../../shared/ipc'
import type { ApiError, Profile } from '../../../shared/model'
import { refreshStatus, useApi, useNow } from '../../hooks/context'
import { endpointErrors } from '../../../shared/endpoints'
import { expiryState, explainError } from '../../lib/errors'
import { activeProfile, useProfiles } from '../../store/profiles'
import { Dialog } from '../../ui/Dialog'

function ErrorExplained({ error }: { error: ApiError }) {
  const ex = explainError(error)
  return (
    <div className="alert error" role="alert" data-testid="key-error" data-code={error.code}>
      <b>{ex.title}</b>
      <ul>
        {ex.steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
    </div>
  )
}

function ExpiryNote({ expiresAt }: { expiresAt: string | null }) {
  const now = useNow(60_000)
  const { state, days } = expiryState(expiresAt, now)
  if (state === 'none') return <span className="muted">No expiry date entered: add one to be reminded.</span>
  if (state === 'expired')
    return (
      <span className="error-text" data-testid="key-expiry" data-state="expired">
        Expired on {expiresAt}. Create a new key in your profile’s security settings, store it here, then
        revoke this one.
      </span>
    )
  if (state === 'soon')
    return (
      <span className="warn-text" data-testid="key-expiry" data-state="soon">
        Expires {days === 0 ? 'today' : `in ${days} day${days === 1 ? '' : 's'}`} ({expiresAt}). Create its
        replacement now.
      </span>
    )
  return (
    <span className="muted" data-testid="key-expiry" data-state="ok">
      Expires {expiresAt}
    </span>
  )
}

function KeySection({ profile }: { profile: Profile }) {
  const api = useApi()
  const [info, setInfo] = useState<{ profile: string; info: KeyInfo } | null>(null)
  const [loadError, setLoadError] = useState<ApiError | null>(null)
  const [editing, setEditing] = useState(false)
  const [key, setKey] = useState('')
  const [label, setLabel] = useState('')
  const [expires, setExpires] = useState('')
  const [busy, setBusy] = useState<null | 'verify' | 'remove' | 'demo'>(null)
  const [error, setError] = useState<ApiError | null>(null)
  const [confirmRemove, setConfirmRemove] = useState(false)

  useEffect(() => {
    let cancelled = false
    void api.getKeyInfo().then((r) => {
      if (cancelled) return
      if (r.ok) setInfo({ profile: profile.id, info: r.value })
      else setLoadError(r.error)
    })
    return () => {
      cancelled = true
    }
  }, [api, profile.id])

  const current = info?.profile === profile.id ? info.info : null
  const showForm = editing || (current !== null && !current.hasKey)

  const done = (r: { ok: true; value: KeyInfo } | { ok: false; error: ApiError }) => {
    setBusy(null)
    if (r.ok) {
      setInfo({ profile: profile.id, info: r.value })
      setEditing(false)
      setKey('')
      setError(null)
      setConfirmRemove(false)
      void useProfiles.getState().load(api)
    } else setError(r.error)
    void refreshStatus(api)
  }

  const save = () => {
    if (key.trim() === '') {
      setError({ code: 'invalid_argument', message: 'Paste the key value first.' })
      return
    }
    setBusy('verify')
    setError(null)
    void api
      .setApiKey({ key: key.trim(), label: label.trim() || null, expiresAt: expires || null })
      .then(done, (e: unknown) => done({ ok: false, error: { code: 'internal', message: String(e) } }))
  }

  return (
    <section className="settings-section">
      <h3>API key</h3>
      {loadError ? <ErrorExplained error={loadError} /> : null}
      {current === null && !loadError ? <div className="muted">Loading…</div> : null}
      {current?.hasKey && !editing ? (
        <div className="key-stored" data-testid="key-stored">
          <div>
            <span className="dot dot-live" /> <b>A key is stored</b>
            {current.label ? <span className="muted"> · {current.label}</span> : null}
          </div>
          <ExpiryNote expiresAt={current.expiresAt} />
          <div className="row-gap">
            <button className="btn" onClick={() => setEditing(true)} data-testid="replace-key">
              Replace key…
            </button>
            {confirmRemove ? (
              <>
                <span className="warn-text">Remove the stored key?</span>
                <button
                  className="btn danger"
                  disabled={busy !== null}
                  data-testid="confirm-remove-key"
                  onClick={() => {
                    setBusy('remove')
                    void api.clearApiKey().then(done)
                  }}
                >
                  {busy === 'remove' ? 'Removing…' : 'Remove'}
                </button>
                <button className="btn ghost" onClick={() => setConfirmRemove(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button
                className="btn ghost danger-text"
                onClick={() => setConfirmRemove(true)}
                data-testid="remove-key"
              >
                Remove key
              </button>
            )}
          </div>
        </div>
      ) : null}
      {showForm ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault()
            save()
          }}
          autoComplete="off"
        >
          <label>
            <span>Key</span>
            <input
              type="password"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              placeholder="Paste the key value shown when you created it"
              autoComplete="off"
              spellCheck={false}
              data-testid="key-input"
            />
          </label>
          <div className="form-row">
            <label>
              <span>Label (optional)</span>
              <input
                value={label}
                onChange={(e) => setLabel(e.target.value)}
                placeholder="e.g. desk-2026"
                data-testid="key-label"
              />
            </label>
            <label>
              <span>Expires on</span>
              <input
                type="date"
                value={expires}
                onChange={(e) => setExpires(e.target.value)}
                data-testid="key-expires"
              />
            </label>
          </div>
          <p className="muted small">
            The key is checked with the exchange before it is saved, then kept{' '}
            {profile.demo ? 'in memory until the app quits (demo profile)' : 'in the system keychain'}. It is
            never shown again here.
          </p>
          <div className="row-gap">
            <button className="btn primary" type="submit" disabled={busy !== null} data-testid="save-key">
              {busy === 'verify' ? 'Verifying…' : 'Verify and save'}
            </button>
            {editing ? (
              <button
                className="btn ghost"
                type="button"
                onClick={() => {
                  setEditing(false)
                  setKey('')
                  setError(null)
                }}
              >
                Cancel
              </button>
            ) : null}
            {profile.demo ? (
              <button
                className="btn"
                type="button"
                disabled={busy !== null}
                data-testid="use-demo-key"
                onClick={() => {
                  setBusy('demo')
                  setError(null)
                  void api.useDemoKey().then(done)
                }}
              >
                {busy === 'demo' ? 'Verifying…' : 'Use demo key'}
              </button>
            ) : null}
          </div>
        </form>
      ) : null}
      {error ? <ErrorExplained error={error} /> : null}
    </section>
  )
}

/** The profile's two endpoints. */
const URL_FIELDS = [
  { key: 'baseUrl', label: 'REST base URL (with /v1)', testId: 'profile-base-url' },
  { key: 'wsUrl', label: 'WebSocket URL', testId: 'profile-ws-url' },
] as const

/** A labelled text field with the reason its value cannot be saved under it. */
function TextField({
  label,
  value,
  onChange,
  testId,
  mono = false,
  error,
}: {
  label: string
  value: string
  onChange(value: string): void
  testId: string
  mono?: boolean
  error: string | undefined
}) {
  return (
    <label>
      <span>{label}</span>
      <input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={mono ? 'mono' : undefined}
        data-testid={testId}
      />
      {error ? <em className="field-error">{error}</em> : null}
    </label>
  )
}

function ProfileSection({
  profile,
  creating,
  onCreated,
}: {
  profile: Profile | null
  creating: boolean
  onCreated(): void
}) {
  const api = useApi()
  const [name, setName] = useState(profile?.name ?? '')
  const [urls, setUrls] = useState({
    baseUrl: profile?.baseUrl ?? 'https://',
    wsUrl: profile?.wsUrl ?? 'wss://',
  })
  const [adapter, setAdapter] = useState(profile?.adapter ?? 'auto')
  const adapters = useProfiles((s) => s.adapters)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const [created, setCreated] = useState<Profile | null>(null)
  if (profile?.demo)
    return (
      <section className="settings-section">
        <h3>Endpoints</h3>
        <p className="muted">The demo profile talks to the embedded simulator; its endpoints are fixed.</p>
        <dl className="kv">
          <dt>REST</dt>
          <dd className="mono">{profile.baseUrl}</dd>
          <dt>Stream</dt>
          <dd className="mono">{profile.wsUrl}</dd>
        </dl>
      </section>
    )
  const invalid = endpointErrors(urls.baseUrl, urls.wsUrl)
  const nameError = name.trim() === '' ? 'A name is required' : undefined
  const canSave = !invalid.baseUrl && !invalid.wsUrl && !nameError && !busy
  return (
    <section className="settings-section">
      <h3>{creating ? 'New profile' : 'Endpoints'}</h3>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault()
          if (!canSave) return
          setBusy(true)
          setError(null)
          setSaved(false)
          void api
            .saveProfile({
              ...(profile && !creating ? { id: profile.id } : {}),
              name: name.trim(),
              baseUrl: urls.baseUrl.trim(),
              wsUrl: urls.wsUrl.trim(),
              adapter,
            })
            .then(async (r) => {
              setBusy(false)
              if (!r.ok) return setError(r.error.message)
              setSaved(true)
              await useProfiles.getState().load(api)
              // A new profile is not switched to unasked: the live feed and account would change under the user.
              if (creating) setCreated(r.value)
            })
        }}
      >
        <TextField label="Name" value={name} onChange={setName} testId="profile-name" error={nameError} />
        {URL_FIELDS.map(({ key, label, testId }) => (
          <TextField
            key={key}
            label={label}
            value={urls[key]}
            onChange={(v) => setUrls((u) => ({ ...u, [key]: v }))}
            testId={testId}
            mono
            error={invalid[key]}
          />
        ))}
        <label>
          <span>Venue adapter</span>
          <select value={adapter} onChange={(e) => setAdapter(e.target.value)} data-testid="profile-adapter">
            <option value="auto">Detect from the first frames (auto)</option>
            <option value="tolerant">None: the tolerant reader only</option>
            {adapters.map((a) => (
              <option key={a.name} value={a.name}>
                {a.title} ({a.name})
              </option>
            ))}
            {adapter !== 'auto' && adapter !== 'tolerant' && !adapters.some((a) => a.name === adapter) ? (
              <option value={adapter}>{adapter} (not found)</option>
            ) : null}
          </select>
        </label>
        <div className="row-gap">
          <button className="btn primary" type="submit" disabled={!canSave} data-testid="save-profile">
            {busy ? 'Saving…' : creating ? 'Create profile' : 'Save endpoints'}
          </button>
          {saved ? <span className="ok-text">Saved</span> : null}
          {profile && !creating ? (
            <button
              className="btn ghost danger-text"
              type="button"
              onClick={() =>
                void api.deleteProfile(profile.id).then(async (r) => {
                  if (!r.ok) return setError(r.error.message)
                  await useProfiles.getState().load(api)
                  void refreshStatus(api)
                })
              }
            >
              Delete profile
            </button>
          ) : null}
        </div>
        {error ? <div className="alert error">{error}</div> : null}
      </form>
      {created ? <SwitchToCreated profile={created} onDone={onCreated} /> : null}
    </section>
  )
}

/** Asks whether to switch to a profile just created; either way the settings show the active profile after. */
function SwitchToCreated({ profile, onDone }: { profile: Profile; onDone(): void }) {
  const api = useApi()
  const current = useProfiles(activeProfile)
  const [busy, setBusy] = useState(false)
  const switchNow = () => {
    setBusy(true)
    void api.selectProfile(profile.id).then(async () => {
      await useProfiles.getState().load(api)
      void refreshStatus(api)
      onDone()
    })
  }
  return (
    <Dialog title={`Switch to ${profile.name}?`} testId="switch-profile" onClose={onDone}>
      <p>
        Profile <b>{profile.name}</b> is saved. Switching closes the connection to{' '}
        {current ? <b>{current.name}</b> : 'the current profile'} and shows the new venue’s markets and
        account instead.
      </p>
      <div className="row-gap">
        <button
          className="btn primary"
          type="button"
          disabled={busy}
          onClick={switchNow}
          data-testid="switch-profile-now"
        >
          {busy ? 'Switching…' : `Switch to ${profile.name}`}
        </button>
        <button className="btn ghost" type="button" onClick={onDone} data-testid="switch-profile-later">
          Stay on {current?.name ?? 'the current profile'}
        </button>
      </div>
    </Dialog>
  )
}

export function KeySettings({ onClose }: { onClose(): void }) {
  const api = useApi()
  const { profiles, error } = useProfiles()
  const profile = useProfiles(activeProfile)
  const [creating, setCreating] = useState(false)
  useEffect(() => {
    void useProfiles.getState().load(api)
  }, [api])

  return (
    <Dialog
      title="Key settings"
      heading="Connection and API key"
      testId="key-settings"
      closeTestId="close-key-settings"
      onClose={onClose}
    >
      <section className="settings-section">
        <h3>Profile</h3>
        <div className="row-gap">
          <select
            value={creating ? '' : (profile?.id ?? '')}
            onChange={(e) => {
              setCreating(false)
              void api.selectProfile(e.target.value).then(async () => {
                await useProfiles.getState().load(api)
                void refreshStatus(api)
              })
            }}
            data-testid="profile-select"
            aria-label="Active profile"
          >
            {creating ? <option value="">New profile…</option> : null}
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.demo ? ' (demo)' : ''}
              </option>
            ))}
          </select>
          <button className="btn ghost" onClick={() => setCreating(true)} data-testid="new-profile">
            New profile…
          </button>
        </div>
        {error ? <div className="error-text">{error}</div> : null}
      </section>
      {creating ? (
        <ProfileSection key="new" profile={null} creating onCreated={() => setCreating(false)} />
      ) : profile ? (
        <>
          <KeySection key={profile.id} profile={profile} />
          <ProfileSection key={`p-${profile.id}`} profile={profile} creating={false} onCreated={() => {}} />
        </>
      ) : (
        <div className="muted">Loading profiles…</div>
      )}
    </Dialog>
  )
}
