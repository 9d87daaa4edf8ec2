// Tolerant decoders (DESIGN §3.2): server frame -> Update[]; REST events listing -> EventSummary[].
export { decodeFrame, decodeValue, type DecodeResult } from './frame'
export { limitUpdate, limitUpdates } from './limits'
export { decodeEventsListing, NO_LIST_ERROR, type EventsListing } from './events'
