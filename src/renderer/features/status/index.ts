// The status feature's door for the other features: the inspector pane, for the workspace to dock.
export { Inspector } from './Inspector'
