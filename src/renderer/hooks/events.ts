// The events listing as a window's views use it: loaded on mount and whenever the engine, the key or the profile
// says it changed. The listing itself (what was loaded, the generation that drops a stale reply) is the store's,
// store/events.ts; this hook is what ties it to the window's MonitorApi.
import { useEffect } from 'react'
import { useApi } from './context'
import { useEvents, type EventsState } from '../store/events'
import { useMonitor } from '../store/monitor'

/** Load the listing on mount, whenever the engine reports a change, and when the key or the profile changes. */
export function useEventsListing(): EventsState {
  const api = useApi()
  const version = useMonitor((s) => s.eventsVersion)
  const hasKey = useMonitor((s) => s.status?.hasKey ?? null)
  const profile = useMonitor((s) => s.status?.profileId ?? null)
  useEffect(() => {
    void useEvents.getState().load(api)
  }, [api, version, hasKey, profile])
  return useEvents()
}
