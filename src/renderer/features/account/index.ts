// The account feature's door for the other features: its pane, for the workspace to dock.
export { AccountPane } from './AccountPane'
