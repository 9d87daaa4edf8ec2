// What this window shows of alerts (the form, the manager) and how it opens a market an alert is about. Engine
// state (rules, history, toasts) lives in the monitor store; this is only the window's own UI state, so a ladder
// row or an order row can open the form through a stable module function instead of a per-row closure.
import { create } from 'zustand'
import { emptyDraft, gridOfMarket, quoteDraft, type AlertDraft } from '../lib/alerts'
import { quoteOf } from '../lib/quote'
import { useEvents } from './events'
import { useMonitor } from './monitor'
import { usePrefs } from './prefs'

export interface AlertUiState {
  /** The open form's starting values; `n` remounts the form when another one is asked for while open. */
  form: { draft: AlertDraft; n: number } | null
  managerOpen: boolean
  /** The market the window has selected (the manager's `alert-new` starts from it). */
  selectedMarket: string | null
  /** Bumped after the notification permission may have changed, so the manager re-reads it. */
  permissionVersion: number
}

export const useAlertUi = create<AlertUiState>()(() => ({
  form: null,
  managerOpen: false,
  selectedMarket: null,
  permissionVersion: 0,
}))

export function openAlertForm(draft: AlertDraft): void {
  useAlertUi.setState((s) => ({ form: { draft, n: (s.form?.n ?? 0) + 1 } }))
}

/**
 * A new alert on a market's mid, starting from its current mid on the market's grid when the window has a quote
 * (what a market row, the market header and the manager's `alert-new` open); without a market, an empty form.
 */
export function openMarketAlert(market: string | null): void {
  const unit = usePrefs.getState().priceUnit
  if (market === null) {
    openAlertForm(emptyDraft(null, unit))
    return
  }
  const s = useMonitor.getState()
  const mid = quoteOf(s.books[market], s.tickers[market], undefined).mid
  openAlertForm(quoteDraft(market, 'mid', mid, gridOfMarket(useEvents.getState().events, market), unit))
}

export function closeAlertForm(): void {
  useAlertUi.setState({ form: null })
}

export function openAlertManager(): void {
  useAlertUi.setState({ managerOpen: true })
}

export function closeAlertManager(): void {
  useAlertUi.setState({ managerOpen: false })
}

export function toggleAlertManager(): void {
  useAlertUi.setState((s) => ({ managerOpen: !s.managerOpen }))
}

export function permissionChanged(): void {
  useAlertUi.setState((s) => ({ permissionVersion: s.permissionVersion + 1 }))
}

// How "Open" on a toast or a notification shows a market: the main window selects it in its pane, a market
// window showing it only comes to the front, anything else opens a market window. The view sets it on mount;
// it returns false when the window has no way of its own (then a market window is opened).
type OpenMarket = (market: string) => boolean
let openMarketHandler: OpenMarket | null = null

export function setOpenMarketHandler(handler: OpenMarket | null): void {
  openMarketHandler = handler
}

export function openMarketHandlerOf(): OpenMarket | null {
  return openMarketHandler
}

export function resetAlertUi(): void {
  useAlertUi.setState({ form: null, managerOpen: false, selectedMarket: null, permissionVersion: 0 })
  openMarketHandler = null
}
