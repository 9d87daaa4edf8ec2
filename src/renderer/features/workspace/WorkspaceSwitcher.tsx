// The window's workspace menu in the title bar: which workspace is shown (built-in and saved ones), save the
// layout on screen under a new name, reset it, delete a saved one, and add a pane.
import { useState } from 'react'
import { useApi } from '../../hooks/context'
import { useMonitor } from '../../store/monitor'
import { MenuSelect } from '../../ui/MenuSelect'
import { NameInput } from '../../ui/NameInput'
import { BUILT_INS } from './layouts'
import { isWindowPaneKind, WINDOW_PANE_KINDS } from './pane-kinds'
import { PANES } from './panes'
import { workspaceController } from './Workspace'
import { requestDock, useWindowWorkspace } from './window-state'
import { MoreIcon } from '../../ui/icons'

/** Built-in ones first (under the user's name for them once saved), then saved ones by name. */
export function useWorkspaceChoices(): { id: string; name: string; saved: boolean }[] {
  const saved = useMonitor((s) => s.workspace?.workspaces)
  const list = saved ?? []
  const builtIns = BUILT_INS.map((b) => {
    const own = list.find((w) => w.id === b.id)
    return { id: b.id, name: own?.name ?? b.name, saved: own !== undefined }
  })
  const others = list
    .filter((w) => !BUILT_INS.some((b) => b.id === w.id))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((w) => ({ id: w.id, name: w.name, saved: true }))
  return [...builtIns, ...others]
}

export function WorkspaceSwitcher() {
  const api = useApi()
  const current = useWindowWorkspace((s) => s.workspaceId)
  const choices = useWorkspaceChoices()
  const [naming, setNaming] = useState(false)
  const [name, setName] = useState('')
  const [confirm, setConfirm] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const chosen = choices.find((c) => c.id === current)
  const deletable = chosen?.saved === true && !BUILT_INS.some((b) => b.id === chosen.id)

  const saveAs = () => {
    const trimmed = name.trim()
    if (!trimmed) return
    const c = workspaceController()
    if (!c) return
    void c.saveAs(trimmed).then((e) => {
      setError(e)
      if (e === null) setNaming(false)
    })
  }

  if (naming)
    return (
      <span className="workspace-switcher" data-testid="workspace-switcher">
        <NameInput
          placeholder="Workspace name"
          label="New workspace name"
          testId="workspace-name"
          value={name}
          onChange={setName}
          onSubmit={saveAs}
          onCancel={() => setNaming(false)}
        />
        <button className="btn" data-testid="workspace-save" onClick={saveAs}>
          Save
        </button>
        <button className="btn ghost" onClick={() => setNaming(false)}>
          Cancel
        </button>
        {error ? <span className="error-text">{error}</span> : null}
      </span>
    )
  return (
    <span className="workspace-switcher" data-testid="workspace-switcher">
      <select
        aria-label="Workspace"
        data-testid="workspace-select"
        value={current ?? ''}
        onChange={(e) => {
          setConfirm(false)
          requestDock({ kind: 'switch', workspace: e.target.value })
        }}
      >
        {current === null ? <option value="">Workspace…</option> : null}
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <MenuSelect
        label="Workspace actions"
        testId="workspace-actions"
        placeholder="Workspace actions"
        icon={<MoreIcon size={14} />}
        onPick={(v) => {
          if (v === 'save-as') {
            setName('')
            setError(null)
            setNaming(true)
          } else if (v === 'reset') requestDock({ kind: 'reset' })
          else if (v === 'delete') setConfirm(true)
        }}
      >
        <option value="save-as">Save as new workspace…</option>
        <option value="reset">Reset this layout</option>
        {deletable ? <option value="delete">Delete “{chosen.name}”…</option> : null}
      </MenuSelect>
      {confirm && chosen ? (
        <button
          className="btn danger"
          data-testid="workspace-delete"
          onClick={() => {
            setConfirm(false)
            void api.deleteWorkspace(chosen.id).then((r) => {
              if (!r.ok) setError(r.error.message)
              else requestDock({ kind: 'switch', workspace: BUILT_INS[0]?.id ?? 'default' })
            })
          }}
          onBlur={() => setConfirm(false)}
        >
          Delete “{chosen.name}”?
        </button>
      ) : null}
      <MenuSelect
        label="Add a pane"
        testId="add-pane"
        placeholder="+ Pane"
        onPick={(kind) => {
          if (isWindowPaneKind(kind)) requestDock({ kind: 'show-pane', pane: kind })
        }}
      >
        {WINDOW_PANE_KINDS.map((k) => (
          <option key={k} value={k}>
            {PANES[k].title}
          </option>
        ))}
      </MenuSelect>
      {error ? <span className="error-text">{error}</span> : null}
    </span>
  )
}
