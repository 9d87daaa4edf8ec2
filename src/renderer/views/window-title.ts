// Keeps the page's title (what the OS calls the window) on its market's or event's name from the listing.
import { useEffect } from 'react'
import type { EventSummary, WindowTarget } from '../../shared/model'
import { windowTitleOf } from '../../shared/window-title'
import { marketNamesOf } from '../lib/market-names'
import { useEvents } from '../store/events'

export function windowTitle(target: WindowTarget, events: readonly EventSummary[]): string {
  if (target.kind === 'main') return windowTitleOf(target, undefined)
  const name =
    target.kind === 'market'
      ? marketNamesOf(events).get(target.market)?.label
      : events.find((e) => e.id === target.event)?.title
  return windowTitleOf(target, name)
}

export function useWindowTitle(target: WindowTarget): void {
  const title = windowTitle(
    target,
    useEvents((s) => s.events),
  )
  useEffect(() => {
    document.title = title
  }, [title])
}
