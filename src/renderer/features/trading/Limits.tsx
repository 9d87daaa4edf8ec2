// The profile's limits and fat-finger check (docs/trading.md): the most contracts and R$ per order, the most open
// orders, and how many ticks through the touch a limit may go before it asks first. A refusal over a limit names
// it and says to change it here. Checked against the contract's own schema before they go.
import { useState } from 'react'
import { createPortal } from 'react-dom'
import { tradingLimitsSchema, type TradingLimits } from '../../../shared/trading'
import { useApi } from '../../hooks/context'
import { useMonitor } from '../../store/monitor'
import { Dialog } from '../../ui/Dialog'
import { NumberField } from '../../ui/NumberField'
import { changeTrading } from './actions'

const FIELDS: ReadonlyArray<{ key: keyof TradingLimits; label: string; title: string; testId: string }> = [
  {
    key: 'maxContracts',
    label: 'Contracts per order',
    title: 'The most contracts one order may ask for',
    testId: 'limit-max-contracts',
  },
  {
    key: 'maxOrderValue',
    label: 'R$ per order',
    title: 'The most one order may cost: price × quantity plus the fee',
    testId: 'limit-max-value',
  },
  {
    key: 'maxOpenOrders',
    label: 'Open orders',
    title: 'The most working orders at once',
    testId: 'limit-max-open',
  },
  {
    key: 'farTicks',
    label: 'Ticks through the touch',
    title: 'A limit more ticks than this through the touch asks first',
    testId: 'limit-far-ticks',
  },
]

function LimitsDialog({ limits, onClose }: { limits: TradingLimits; onClose(): void }) {
  const api = useApi()
  const [text, setText] = useState<Record<keyof TradingLimits, string>>(() => ({
    maxContracts: String(limits.maxContracts),
    maxOrderValue: String(limits.maxOrderValue),
    maxOpenOrders: String(limits.maxOpenOrders),
    farTicks: String(limits.farTicks),
  }))
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const save = () => {
    const values = Object.fromEntries(FIELDS.map((f) => [f.key, Number(text[f.key].trim() || NaN)]))
    const checked = tradingLimitsSchema.safeParse(values)
    if (!checked.success) {
      const issue = checked.error.issues[0]
      const field = FIELDS.find((f) => f.key === issue?.path[0])
      setError({
        field: field?.key ?? null,
        message: `${field?.label ?? 'Limits'}: ${issue?.message ?? 'invalid'}`,
      })
      return
    }
    setBusy(true)
    void changeTrading(api, { limits: checked.data }).then((e) => {
      setBusy(false)
      if (e === null) onClose()
      else setError({ field: e.field ?? null, message: e.message })
    })
  }
  return createPortal(
    <Dialog
      title="Trading limits"
      testId="trading-limits"
      className="trading-limits"
      kind="form"
      onClose={onClose}
      boxProps={{
        onSubmit: (e) => {
          e.preventDefault()
          save()
        },
      }}
    >
      <p className="muted">
        For this profile, live and paper. An order over a limit is refused with the limit named.
      </p>
      <div className="limits-grid">
        {FIELDS.map((f) => (
          <NumberField
            key={f.key}
            label={f.label}
            title={f.title}
            testId={f.testId}
            value={text[f.key]}
            invalid={error?.field === f.key}
            integer={f.key !== 'maxOrderValue'}
            onChange={(v) => setText((t) => ({ ...t, [f.key]: v }))}
          />
        ))}
      </div>
      {error ? (
        <div className="alert error" data-testid="limits-error">
          {error.message}
        </div>
      ) : null}
      <div className="modal-foot">
        <button type="submit" className="btn primary" data-testid="limits-save" disabled={busy}>
          Save limits
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>,
    document.body,
  )
}

export function LimitsButton() {
  const limits = useMonitor((s) => s.account?.trading.settings.limits ?? null)
  const [open, setOpen] = useState(false)
  if (limits === null) return null
  return (
    <>
      <button
        type="button"
        className="btn ghost small-btn"
        data-testid="order-limits"
        title={`Limits: ${limits.maxContracts.toLocaleString('en-US')} contracts and R$ ${limits.maxOrderValue.toLocaleString('en-US')} per order, ${limits.maxOpenOrders} open orders; asks past ${limits.farTicks} ticks through the touch`}
        onClick={() => setOpen(true)}
      >
        Limits
      </button>
      {open ? <LimitsDialog limits={limits} onClose={() => setOpen(false)} /> : null}
    </>
  )
}
