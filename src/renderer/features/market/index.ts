// The market feature's door for the other features: its panes, for the workspace to dock, and the feed hook
// they share.
export { DepthChart } from './DepthChart'
export { MarketPane } from './MarketPane'
export { PriceChart } from './PriceChart'
export { TradeTape, type TapeFilters } from './TradeTape'
export { useMarketFeed } from './market-feed'
