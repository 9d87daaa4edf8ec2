// Trading's public face: what other features and views use (the ticket in a market pane, the mode in the status
// bar, cancel-all, order and position actions in the account pane, the blotter pane, the window's layer).
// Everything else in this folder is its own.
export { OrderTicket } from './OrderTicket'
export { TradingModeControl } from './TradingMode'
export { TradingLayer } from './TradingLayer'
export { Blotter } from './Blotter'
export { CancelAllButton, CancelAllOutcome } from './CancelAll'
export { PositionActions } from './PositionActions'
export { cancelOrder } from './actions'
export { explainRefusal } from './refusals'
export { heldContracts, mergeablePairs } from './estimate'
export { rtt } from './words'
