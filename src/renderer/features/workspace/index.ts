// The workspace's door for the other features: the watchlist star and its edit, and this window's selection
// state. The docked workspace itself (panes, layouts) is views' to mount, not a feature's to import.
export { WatchToggle } from './WatchToggle'
export { toggleWatch } from './watchlists'
export { useWindowWorkspace } from './window-state'
