// How prices read, switched from the status bar: cents of R$1 ("40¢", as VoxFi shows them) or probability
// ("0.40"). One setting of the app, kept by the engine and shared by every window and its alert texts
// (store/prefs.ts).
import { memo } from 'react'
import type { PriceUnit } from '../../lib/format'
import { useApi } from '../../hooks/context'
import { choosePriceUnit, usePriceUnit } from '../../store/prefs'

const CHOICES: ReadonlyArray<{ unit: PriceUnit; label: string; title: string }> = [
  { unit: 'cents', label: '¢', title: 'Prices in cents of R$1 per contract: 40¢' },
  { unit: 'probability', label: '0.00', title: 'Prices as probabilities: 0.40' },
]

export const PriceUnitToggle = memo(function PriceUnitToggle() {
  const unit = usePriceUnit()
  const api = useApi()
  return (
    <span
      className="seg price-unit"
      role="group"
      aria-label="Show prices in"
      data-testid="price-unit"
      data-unit={unit}
    >
      {CHOICES.map((c) => (
        <button
          key={c.unit}
          type="button"
          className={unit === c.unit ? 'on' : ''}
          aria-pressed={unit === c.unit}
          title={c.title}
          data-testid={`price-unit-${c.unit}`}
          onClick={() => void choosePriceUnit(api, c.unit)}
        >
          {c.label}
        </button>
      ))}
    </span>
  )
})
