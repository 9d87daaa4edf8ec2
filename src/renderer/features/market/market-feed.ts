// What a pane showing one market asks of the engine: the market's interest (ref-counted by owner, so the
// ladder, depth, tape and chart of one market share one subscription) and, once, its recent history. Panes
// mounted together for one market share one getMarketSnapshot call instead of each seeding the store again.
import { useEffect, useState } from 'react'
import type { MonitorApi } from '../../../shared/ipc'
import type { ApiError, ChannelFilter } from '../../../shared/model'
import { useApi, useInterests } from '../../hooks/context'
import { useMonitor } from '../../store/monitor'

const inFlight = new Map<string, Promise<ApiError | null>>()

function backfill(api: MonitorApi, market: string): Promise<ApiError | null> {
  const pending = inFlight.get(market)
  if (pending) return pending
  const p = api.getMarketSnapshot(market).then(
    (r) => {
      if (r.ok) useMonitor.getState().seedMarket(market, r.value)
      return r.ok ? null : r.error
    },
    (e: unknown): ApiError => ({ code: 'internal', message: String(e) }),
  )
  inFlight.set(market, p)
  void p.finally(() => inFlight.delete(market))
  return p
}

/** Subscribes this pane to a market and loads its history; null market = nothing. */
export function useMarketFeed(
  market: string | null,
  owner: string,
  filter: ChannelFilter = 'all',
): { loading: boolean; error: ApiError | null } {
  const api = useApi()
  useInterests(owner, market === null ? [] : [{ channel: 'market', id: market, filter }])
  const [done, setDone] = useState<{ market: string; error: ApiError | null } | null>(null)
  // A replay that starts, stops or seeks back makes the store forget every market: read this one again.
  const epoch = useMonitor((s) => s.marketsEpoch)
  useEffect(() => {
    if (market === null) return
    let cancelled = false
    void backfill(api, market).then((error) => {
      if (!cancelled) setDone({ market, error })
    })
    return () => {
      cancelled = true
    }
  }, [api, market, epoch])
  if (market === null) return { loading: false, error: null }
  if (done?.market !== market) return { loading: true, error: null }
  return { loading: false, error: done.error }
}
