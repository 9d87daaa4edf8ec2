// The window's title bar: app name, active profile, and the global actions.
import type { ReactNode } from 'react'
import { activeProfile, useProfiles } from '../store/profiles'
import { DiamondIcon } from '../ui/icons'

export function Header({ title, children }: { title: ReactNode; children?: ReactNode }) {
  const profile = useProfiles(activeProfile)
  return (
    <header className="app-head">
      <span className="brand">
        <span className="brand-mark">
          <DiamondIcon filled />
        </span>
        <span className="brand-name"> Trading Monitor</span>
      </span>
      <span className="head-title ellipsis">{title}</span>
      <span className="spacer" />
      {profile ? (
        <span
          className={`profile-chip ${profile.demo ? 'demo' : ''}`}
          title={profile.baseUrl}
          data-testid="profile-chip"
        >
          {profile.name}
          {profile.demo ? <span className="tag tag-demo">demo</span> : null}
        </span>
      ) : null}
      {children}
    </header>
  )
}

/** The last two actions of a docked window's title bar: key settings and the keyboard shortcuts. */
export function KeysAndHelp({ onKeySettings, onHelp }: { onKeySettings(): void; onHelp(): void }) {
  return (
    <>
      <button className="btn ghost" onClick={onKeySettings} data-testid="header-key-settings">
        Key settings
      </button>
      <button
        className="btn ghost"
        onClick={onHelp}
        data-testid="help-button"
        title="Keyboard shortcuts (?)"
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
    </>
  )
}
