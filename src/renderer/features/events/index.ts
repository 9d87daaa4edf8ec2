// The events feature's door for the other features: an event's meta and rules (the market header shows both),
// and its panes, for the workspace to dock.
export { EventMatrix } from './EventMatrix'
export { EventMeta } from './EventMeta'
export { EventsColumn } from './EventsColumn'
export { RulesDialog } from './RulesDialog'
