// The unit this window shows prices in. It is one setting of the app, kept by the engine (which writes its alert
// texts and OS notifications in it): every window hears it in the workspace view and mirrors it here, and the
// status bar's switch asks the engine to change it. Until the engine's view arrives, VoxFi's own unit.
import { create } from 'zustand'
import type { MonitorApi } from '../../shared/ipc'
import { DEFAULT_PRICE_UNIT, type PriceUnit } from '../../shared/price-format'
import { useMonitor } from './monitor'

export { DEFAULT_PRICE_UNIT }

export interface PrefsState {
  priceUnit: PriceUnit
}

export const usePrefs = create<PrefsState>()(() => ({ priceUnit: DEFAULT_PRICE_UNIT }))

/** The unit prices are shown in; a component that formats prices re-renders when it changes. */
export function usePriceUnit(): PriceUnit {
  return usePrefs((s) => s.priceUnit)
}

/** Shows prices in `unit` in this window (what the engine's view says; tests). */
export function setPriceUnit(unit: PriceUnit): void {
  if (usePrefs.getState().priceUnit !== unit) usePrefs.setState({ priceUnit: unit })
}

/**
 * The trader's choice: shown here at once, and asked of the engine, which tells every window (this one too).
 * A refusal puts back what the engine still says.
 */
export async function choosePriceUnit(api: MonitorApi, unit: PriceUnit): Promise<void> {
  const before = usePrefs.getState().priceUnit
  setPriceUnit(unit)
  const r = await api.setPriceUnit(unit).catch(() => null)
  if (r?.ok !== true) setPriceUnit(useMonitor.getState().workspace?.priceUnit ?? before)
}

// The engine's word is the window's: every workspace view (the first batch, a change from any window) carries it.
useMonitor.subscribe((s, prev) => {
  if (s.workspace !== prev.workspace && s.workspace) setPriceUnit(s.workspace.priceUnit)
})
