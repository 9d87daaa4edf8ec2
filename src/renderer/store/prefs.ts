// The trader's display preferences, kept in this window's localStorage (per origin: every window of the app shares
// it, and a change made in one reaches the others through the `storage` event). Only plain display choices live
// here: nothing secret, nothing the engine needs.
import { create } from 'zustand'
import type { PriceUnit } from '../lib/format'
import { webStorage } from '../lib/storage'

export const PRICE_UNIT_KEY = 'tm.priceUnit'
/** As VoxFi's own UI: 40¢. */
export const DEFAULT_PRICE_UNIT: PriceUnit = 'cents'

export function parsePriceUnit(value: unknown): PriceUnit | null {
  return value === 'cents' || value === 'probability' ? value : null
}

const storage = () => webStorage('localStorage')

function storedPriceUnit(): PriceUnit {
  try {
    return parsePriceUnit(storage()?.getItem(PRICE_UNIT_KEY)) ?? DEFAULT_PRICE_UNIT
  } catch {
    return DEFAULT_PRICE_UNIT
  }
}

export interface PrefsState {
  priceUnit: PriceUnit
}

export const usePrefs = create<PrefsState>()(() => ({ priceUnit: storedPriceUnit() }))

/** The unit prices are shown in; a component that formats prices re-renders when it changes. */
export function usePriceUnit(): PriceUnit {
  return usePrefs((s) => s.priceUnit)
}

export function setPriceUnit(unit: PriceUnit): void {
  if (usePrefs.getState().priceUnit !== unit) usePrefs.setState({ priceUnit: unit })
  try {
    storage()?.setItem(PRICE_UNIT_KEY, unit)
  } catch {
    // Full or refused: the choice holds for this window until it closes.
  }
}

/** Re-reads the saved preferences (another window saved them; tests). */
export function reloadPrefs(): void {
  const unit = storedPriceUnit()
  if (usePrefs.getState().priceUnit !== unit) usePrefs.setState({ priceUnit: unit })
}

if (typeof window !== 'undefined' && typeof window.addEventListener === 'function') {
  window.addEventListener('storage', (e: StorageEvent) => {
    // null key: the whole storage was cleared.
    if (e.key === PRICE_UNIT_KEY || e.key === null) reloadPrefs()
  })
}
