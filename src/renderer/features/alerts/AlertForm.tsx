// Create or edit one alert rule (`alert-form`). Only the fields the chosen kind needs are shown; a price is typed
// in the unit the app shows (45 for 45¢), the one the form opened in. Enter in any field saves, Escape closes. Obvious mistakes are named before saving; the engine checks again and its refusal
// is shown here, with the form kept open.
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { ALERT_OPS, type PriceSubject } from '../../../shared/alerts'
import { askNotificationPermissionOnce } from '../../api/alert-delivery'
import { useApi } from '../../hooks/context'
import {
  conditionText,
  defaultHysteresis,
  draftToInput,
  draftFieldOf,
  fieldsOf,
  isAlertOp,
  isFormSubject,
  isPriceSubject,
  OP_LABELS,
  SUBJECT_GROUPS,
  type AlertDraft,
  type DraftField,
} from '../../lib/alerts'
import { findMarket } from '../../lib/events'
import { marketLabel } from '../../lib/market-names'
import type { PriceUnit } from '../../lib/format'
import { formatSubject, quoteOf } from '../../lib/quote'
import { useEvents, useMarketNames } from '../../store/events'
import { NO_TRADES, useMonitor } from '../../store/monitor'
import { Dialog } from '../../ui/Dialog'
import { NumberField } from '../../ui/NumberField'
import { Options } from '../../ui/Options'

/** A sensible threshold when the kind changes to one whose threshold means something else. */
const DEFAULT_VALUE: Partial<Record<AlertDraft['subject'], string>> = {
  disconnected: '30',
  'book-stale': '30',
  'key-expiring': '7',
}

/** How a price field says the unit it is typed in. */
const UNIT_SIGN: Record<PriceUnit, string> = { cents: '¢', probability: '0–1' }

const MODES: ReadonlyArray<{ mode: AlertDraft['mode']; label: string }> = [
  { mode: 'once', label: 'Once' },
  { mode: 'rearm', label: 'Re-arm' },
]

/** The subject's value now, so the trader sees which side of the level the market is. */
function CurrentValue({ market, subject, unit }: { market: string; subject: PriceSubject; unit: PriceUnit }) {
  const value = useMonitor((s) => {
    const t = s.trades[market] ?? NO_TRADES
    return quoteOf(s.books[market], s.tickers[market], t[t.length - 1]?.price)[subject]
  })
  if (value === null) return null
  return (
    <span className="muted small" data-testid="alert-current">
      now {formatSubject(subject, value, unit)}
    </span>
  )
}

export function AlertForm({ initial, onClose }: { initial: AlertDraft; onClose(): void }) {
  const api = useApi()
  const events = useEvents((s) => s.events)
  const names = useMarketNames()
  const [draft, setDraft] = useState(initial)
  const [error, setError] = useState<{ field: DraftField | null; message: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const ref = useRef<HTMLElement | null>(null)
  const firstField = useRef<HTMLSelectElement | null>(null)
  const valueRef = useRef<HTMLInputElement | null>(null)
  const marketRef = useRef<HTMLInputElement | null>(null)
  const ids = useId()

  const f = fieldsOf(draft.subject)
  const set = (patch: Partial<AlertDraft>) => {
    setDraft((d) => ({ ...d, ...patch }))
    if (error) setError(null)
  }
  const built = draftToInput(draft, events)
  const found = draft.market.trim() ? findMarket(events, draft.market.trim()) : null

  const focusField = (field: DraftField | null) => {
    const el = field === 'value' ? valueRef.current : field === 'market' ? marketRef.current : null
    const named = field ? ref.current?.querySelector<HTMLElement>(`[name="${field}"]`) : null
    ;(el ?? named)?.focus()
  }

  const save = () => {
    if (busy) return
    if (!built.ok) {
      setError({ field: built.field, message: built.message })
      focusField(built.field)
      return
    }
    // From the click or the key press, so the browser may show its prompt.
    if (draft.id === undefined) askNotificationPermissionOnce()
    setBusy(true)
    setError(null)
    void api.saveAlert(built.input).then(
      (r) => {
        setBusy(false)
        if (r.ok) onClose()
        else {
          const field = draftFieldOf(r.error)
          setError({ field, message: r.error.message })
          focusField(field)
        }
      },
      (e: unknown) => {
        setBusy(false)
        setError({ field: null, message: String(e) })
      },
    )
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    save()
  }
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const tag = (e.target as HTMLElement).tagName
    if (e.key === 'Enter' && (tag === 'INPUT' || tag === 'SELECT')) {
      e.preventDefault()
      save()
    }
  }
  const invalid = (field: DraftField) => (error?.field === field ? true : undefined)
  const errorId = `${ids}-error`
  const describedBy = (field: DraftField) => (error?.field === field ? errorId : undefined)
  /** A number field's binding to its draft field: its name, text, error state and edits. */
  const numberField = (field: 'value' | 'hysteresis' | 'cooldown') => ({
    name: field,
    value: draft[field],
    invalid: invalid(field),
    describedBy: describedBy(field),
    onChange: (text: string) => set({ [field]: text }),
  })

  return (
    <Dialog
      title={draft.id ? 'Edit alert' : 'New alert'}
      testId="alert-form"
      className="alert-form"
      kind="form"
      initialFocus={initial.market && initial.value ? valueRef : firstField}
      onClose={onClose}
      boxRef={ref}
      boxProps={{ 'data-subject': draft.subject, noValidate: true, onSubmit, onKeyDown }}
    >
      <div className="alert-form-body">
        <div className="form-row">
          <label className="grow">
            <span>Alert on</span>
            <select
              ref={firstField}
              name="subject"
              data-testid="alert-subject"
              value={draft.subject}
              onChange={(e) => {
                const subject = e.target.value
                if (!isFormSubject(subject)) return
                const next = fieldsOf(subject)
                const keepValue = next.value === f.value
                // A price's hysteresis is in the price unit; another kind's in its own threshold's.
                const keepHysteresis = isPriceSubject(subject) === isPriceSubject(draft.subject)
                set({
                  subject,
                  value: keepValue ? draft.value : (DEFAULT_VALUE[subject] ?? ''),
                  hysteresis: keepHysteresis ? draft.hysteresis : defaultHysteresis(subject, draft.unit),
                })
              }}
            >
              {SUBJECT_GROUPS.map((g) => (
                <optgroup key={g.label} label={g.label}>
                  <Options of={g.options} />
                </optgroup>
              ))}
            </select>
          </label>
          {f.scope ? (
            <label>
              <span>In</span>
              <select
                name="scope"
                value={draft.scope}
                onChange={(e) => set({ scope: e.target.value === 'event' ? 'event' : 'market' })}
              >
                <option value="market">this market</option>
                <option value="event">any market of its event</option>
              </select>
            </label>
          ) : null}
        </div>
        {f.market ? (
          <label>
            <span>
              Market{f.market === 'optional' ? ' (empty: any)' : ''}
              {found ? (
                <b className="alert-market-name" data-testid="alert-market-name" title={found.market.id}>
                  {' '}
                  {marketLabel(names, found.market.id)}
                </b>
              ) : null}
            </span>
            <input
              ref={marketRef}
              name="market"
              data-testid="alert-market"
              className="mono-input"
              list={`${ids}-markets`}
              value={draft.market}
              autoComplete="off"
              spellCheck={false}
              placeholder={f.market === 'optional' ? 'any market' : 'market id'}
              aria-invalid={invalid('market')}
              aria-describedby={describedBy('market')}
              onChange={(e) => set({ market: e.target.value })}
            />
            <datalist id={`${ids}-markets`}>
              {events.flatMap((ev) =>
                ev.markets.map((m) => (
                  <option key={m.id} value={m.id}>
                    {marketLabel(names, m.id)}
                  </option>
                )),
              )}
            </datalist>
          </label>
        ) : null}
        {f.op || f.value !== null ? (
          <div className="form-row">
            {f.op ? (
              <label className="grow">
                <span>Condition</span>
                <select
                  name="op"
                  data-testid="alert-op"
                  value={draft.op}
                  onChange={(e) => {
                    if (isAlertOp(e.target.value)) set({ op: e.target.value })
                  }}
                >
                  {ALERT_OPS.map((op) => (
                    <option key={op} value={op}>
                      {OP_LABELS[op]}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {f.value !== null ? (
              <NumberField
                className="grow"
                label={
                  <>
                    {f.value}
                    {isPriceSubject(draft.subject) ? ` (${UNIT_SIGN[draft.unit]})` : null}
                    {isPriceSubject(draft.subject) && draft.market.trim() ? (
                      <>
                        {' '}
                        <CurrentValue
                          market={draft.market.trim()}
                          subject={draft.subject}
                          unit={draft.unit}
                        />
                      </>
                    ) : null}
                  </>
                }
                inputRef={valueRef}
                testId="alert-value"
                {...numberField('value')}
              />
            ) : null}
            {f.currency ? (
              <label>
                <span>Currency (empty: any)</span>
                <input
                  name="currency"
                  value={draft.currency}
                  placeholder="any"
                  autoComplete="off"
                  onChange={(e) => set({ currency: e.target.value })}
                />
              </label>
            ) : null}
          </div>
        ) : null}
        {f.op ? (
          <p className="muted small op-note">
            {draft.op.startsWith('crosses')
              ? 'Fires when the value crosses the level: it must be seen on the other side first.'
              : 'Fires as soon as the value is at or past the level, also if it already is.'}
          </p>
        ) : null}
        <fieldset className="form-row mode-row">
          <legend>Trigger</legend>
          {MODES.map(({ mode, label }) => (
            <label key={mode} className="radio">
              <input
                type="radio"
                name="mode"
                value={mode}
                checked={draft.mode === mode}
                onChange={() => set({ mode })}
              />
              {label}
            </label>
          ))}
          {draft.mode === 'rearm' && f.hysteresis ? (
            <NumberField
              className="inline"
              inputClassName="num-input small-input"
              label={isPriceSubject(draft.subject) ? `Hysteresis (${UNIT_SIGN[draft.unit]})` : 'Hysteresis'}
              title="How far the value must go back past the level before the rule can fire again"
              {...numberField('hysteresis')}
            />
          ) : null}
          {draft.mode === 'rearm' ? (
            <NumberField
              className="inline"
              inputClassName="num-input small-input"
              label="Cooldown s"
              integer
              title="The least time between two firings"
              {...numberField('cooldown')}
            />
          ) : null}
        </fieldset>
        <div className="form-row">
          <label className="grow">
            <span>Label (optional)</span>
            <input
              name="label"
              value={draft.label}
              maxLength={200}
              autoComplete="off"
              placeholder="e.g. take profit"
              aria-invalid={invalid('label')}
              aria-describedby={describedBy('label')}
              onChange={(e) => set({ label: e.target.value })}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="sound"
              data-testid="alert-sound"
              checked={draft.sound}
              onChange={(e) => set({ sound: e.target.checked })}
            />
            Sound
          </label>
        </div>
        <div className="alert-preview muted" data-testid="alert-preview">
          {built.ok
            ? `Alert when ${conditionText(built.input.condition, names, draft.unit)}`
            : 'What the alert watches for shows here once its condition is complete.'}
        </div>
        {error ? (
          <div className="alert error" role="alert" id={errorId} data-testid="alert-form-error">
            {error.message}
          </div>
        ) : null}
      </div>
      <div className="modal-foot">
        <span className="muted small">
          <kbd>Enter</kbd> save · <kbd>Esc</kbd> close
        </span>
        <span className="spacer" />
        <button type="button" className="btn ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn primary" data-testid="alert-save" disabled={busy}>
          {busy ? 'Saving…' : draft.id ? 'Save changes' : 'Create alert'}
        </button>
      </div>
    </Dialog>
  )
}
