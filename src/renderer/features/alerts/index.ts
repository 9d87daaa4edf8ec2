// The alerts feature's door for the other features: its pane, for the workspace to dock.
export { AlertsPane } from './AlertsPane'
