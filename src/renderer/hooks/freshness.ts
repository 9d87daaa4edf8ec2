// The window's feed context for the badge rule (lib/freshness.ts), and a view's freshness with its age kept
// current. Components re-render when the link, the connection state, the replay's speed or pause, or the
// data-paused flag change; not on every status tick.
import { useMemo } from 'react'
import { useShallow } from 'zustand/react/shallow'
import type { TickerView } from '../../shared/model'
import {
  ageShownFrom,
  dimOf,
  freshness,
  viewFreshness,
  type FeedContext,
  type Freshness,
  type ViewFreshness,
} from '../lib/freshness'
import { useEngineLink } from '../store/engine-link'
import { useMonitor } from '../store/monitor'
import { useAgeNow } from './clock'

export function useFeed(): FeedContext {
  const link = useEngineLink((s) => s.link)
  const f = useMonitor(
    useShallow((s) => {
      const replay = s.status?.replay
      return {
        connection: s.status?.state ?? null,
        replaying: replay !== undefined,
        speed: replay?.speed ?? 0,
        paused: replay?.paused ?? false,
        ended: replay?.state === 'ended',
        dataPaused: s.status?.dataPaused === true,
      }
    }),
  )
  return useMemo(
    () => ({
      link,
      connection: f.connection,
      replay: f.replaying ? { speed: f.speed, paused: f.paused, ended: f.ended } : null,
      dataPaused: f.dataPaused,
    }),
    [link, f.connection, f.replaying, f.speed, f.paused, f.ended, f.dataPaused],
  )
}

/**
 * What the view may say now. Ticks only while an age is (or is about to be) shown: one timer up to that moment,
 * then the shared second clock; nothing otherwise.
 */
export function useFreshness(view: ViewFreshness): Freshness {
  const feed = useFeed()
  const now = useAgeNow(view.updatedAt, ageShownFrom(view, feed))
  return freshness(view, feed, now)
}

/**
 * The same without the age: for marks that do not show it (the ladder's quiet mark, an overlay, a row's dot),
 * so a whole ladder does not re-render each second to count an age it never shows.
 */
export function useFreshnessNoAge(view: ViewFreshness): Freshness {
  return freshness(view, useFeed(), -Infinity)
}

/** How much a row showing this ticker's prices is subdued (lib/freshness.ts dimOf). */
export function useDim(view: TickerView | undefined): 'stale' | 'quiet' | null {
  return dimOf(useFreshnessNoAge(viewFreshness(view)).state)
}

/**
 * What the badge rule says instead of "Live" for data the engine calls live, or null when the feed can vouch
 * for it: for values derived from a live book (a position's mark) that show no badge of their own.
 */
export function useFeedNotLive(): string | null {
  const f = freshness({ state: 'live', updatedAt: null }, useFeed(), -Infinity)
  return f.state === 'live' ? null : f.label
}
