// What a window's client may ask of trading (docs/trading.md): the calls of MonitorApi's trading section, with
// who is asking. The order service implements it; clients.ts validates each call first.
import type { Result } from '../../../shared/model'
import type {
  AccountView,
  CancelAllResult,
  JournalEntry,
  MergeResult,
  OrderRequest,
  OrderView,
  TradingSettingsInput,
  TradingView,
} from '../../../shared/trading'

/**
 * Which venues a window may send live orders to. The browser host's page holds only a token: unless the host was
 * started with --allow-trading, that token must not be enough to trade real money, so its windows may reach the
 * built-in simulator only. Electron windows may trade.
 */
export type TradingReach = 'any' | 'builtin-simulator'

export interface TradingApi {
  account(): AccountView
  setTrading(input: TradingSettingsInput): Promise<Result<TradingView>>
  place(request: OrderRequest, reach: TradingReach): Promise<Result<OrderView>>
  cancel(id: string): Promise<Result<OrderView>>
  cancelAll(): Promise<Result<CancelAllResult>>
  merge(request: { market: string; quantity: number }): Promise<Result<MergeResult>>
  journal(): JournalEntry[]
}
