// The window's account: the engine sends it whole in batches when it changes; getAccount backfills it when the
// window starts and after every new timeline (another profile, a replay), whose account the window forgot. A reply
// asked for before the timeline moved on, or older than a batch's account, is not applied (the store compares
// `accountSeq`, which both move on).
import { useEffect } from 'react'
import type { MonitorApi } from '../../shared/ipc'
import { useMonitor } from '../store/monitor'

export function useAccountSeed(api: MonitorApi): void {
  const epoch = useMonitor((s) => s.marketsEpoch)
  useEffect(() => {
    const asked = useMonitor.getState().accountSeq
    const seed = useMonitor.getState().seedAccount
    api.getAccount().then(
      (r) => seed(r.ok ? { view: r.value } : { error: r.error.message }, asked),
      (e: unknown) => seed({ error: String(e) }, asked),
    )
  }, [api, epoch])
}
