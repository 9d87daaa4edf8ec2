// A value that follows another only once it has held still for a moment: a list's visible rows subscribe to the
// rows the trader stops on, not to each one a fling through the list passes.
import { useEffect, useState } from 'react'

/** `value` once `key` has not changed for `ms`; the previous settled value until then. */
export function useSettled<T>(value: T, key: string, ms: number): T {
  const [settled, setSettled] = useState<{ key: string; value: T }>({ key, value })
  useEffect(() => {
    if (settled.key === key) return
    const t = setTimeout(() => setSettled({ key, value }), ms)
    return () => clearTimeout(t)
  }, [key, value, ms, settled.key])
  return settled.value
}

/** How long a list's visible range must hold still before its subscriptions follow it. */
export const SETTLE_MS = 150
