// The order actions a window takes besides placing one: cancel one, cancel all, merge, and the trading settings.
// Each is one call to the engine; a refusal comes back as the engine's error for the caller to show where the
// trader acted. Cancel-all is the kill switch: one press is one run, it never waits for a ticket's order in
// flight, and with confirmations on it asks first (TradingLayer draws the question).
import type { MonitorApi } from '../../../shared/ipc'
import type { ApiError, Result } from '../../../shared/model'
import type { TradingSettingsInput } from '../../../shared/trading'
import { useMonitor } from '../../store/monitor'
import { setCancelAll, useTradingUi } from '../../store/trading'

/** A call that threw (a bridge that went away) as the refusal it amounts to: nothing is known to have happened. */
export function thrown(e: unknown): ApiError {
  return { code: 'network', message: e instanceof Error ? e.message : String(e) }
}

async function settle<T>(call: Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await call
  } catch (e) {
    return { ok: false, error: thrown(e) }
  }
}

/** Cancels one order; resolves to the refusal, or null once the engine took the cancel. */
export async function cancelOrder(api: MonitorApi, id: string): Promise<ApiError | null> {
  const r = await settle(api.cancelOrder(id))
  return r.ok ? null : r.error
}

/** Cancel-all from a button or the hotkey: at once in one-click mode, else after the confirmation. */
export function requestCancelAll(api: MonitorApi, confirmations: boolean): void {
  if (confirmations) setCancelAll({ asking: true })
  else void runCancelAll(api)
}

/** Cancels every working order of the active profile; a press while one runs is the same run. */
export async function runCancelAll(api: MonitorApi): Promise<void> {
  // Read and set in one turn: a second press (a held key, a double click) finds it running.
  if (useTradingUi.getState().cancelAll.running) return
  setCancelAll({ asking: false, running: true, error: null, result: null })
  const r = await settle(api.cancelAllOrders())
  setCancelAll(r.ok ? { running: false, result: r.value } : { running: false, error: r.error })
}

/** Merges `quantity` YES+NO pairs of a market into R$1.00 each; resolves to the refusal, or null. */
export async function mergePairs(
  api: MonitorApi,
  market: string,
  quantity: number,
): Promise<ApiError | null> {
  const r = await settle(api.mergePositions({ market, quantity }))
  return r.ok ? null : r.error
}

/** Changes the active profile's trading settings; the window shows the engine's answer at once. */
export async function changeTrading(api: MonitorApi, input: TradingSettingsInput): Promise<ApiError | null> {
  const r = await settle(api.setTrading(input))
  if (!r.ok) return r.error
  useMonitor.getState().applyTradingView(r.value)
  return null
}

/** Whether orders and cancel-all ask first: confirmations are on unless the profile chose one-click. */
export function useConfirmations(): boolean {
  return useMonitor((s) => !(s.account?.trading.settings.oneClick ?? false))
}
