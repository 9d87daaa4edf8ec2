// setInterests() replaces the whole window's interest set, while many components each want a few things
// (an expanded event, the open market, the account pane). This registry keeps each owner's wish and sends
// the union once per tick, and only when it changed.
import type { Interest, MonitorApi } from '../../shared/ipc'
import type { ChannelFilter } from '../../shared/model'

export interface InterestRegistry {
  set(owner: string, interests: readonly Interest[]): void
  clear(owner: string): void
  /** The union that is (or is about to be) sent. */
  current(): Interest[]
}

function keyOf(i: Interest): string {
  return i.channel === 'user' ? 'user' : `${i.channel}:${i.id}`
}

function uniteFilter(a: ChannelFilter, b: ChannelFilter): ChannelFilter {
  return a === b ? a : 'all'
}

export function unionOf(lists: Iterable<readonly Interest[]>): Interest[] {
  const byKey = new Map<string, Interest>()
  for (const list of lists)
    for (const i of list) {
      const k = keyOf(i)
      const have = byKey.get(k)
      if (!have || have.channel === 'user' || i.channel === 'user') byKey.set(k, i)
      else byKey.set(k, { ...have, filter: uniteFilter(have.filter, i.filter) })
    }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v)
}

export function createInterestRegistry(
  api: Pick<MonitorApi, 'setInterests'>,
  onError: (message: string) => void = () => {},
): InterestRegistry {
  const owners = new Map<string, readonly Interest[]>()
  let lastSent = '[]'
  let scheduled = false

  const flush = () => {
    scheduled = false
    const union = unionOf(owners.values())
    const text = JSON.stringify(union)
    if (text === lastSent) return
    lastSent = text
    api.setInterests(union).then(
      (r) => {
        if (!r.ok) onError(r.error.message)
      },
      (e: unknown) => onError(String(e)),
    )
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    queueMicrotask(flush)
  }
  return {
    set(owner, interests) {
      owners.set(owner, [...interests])
      schedule()
    },
    clear(owner) {
      if (owners.delete(owner)) schedule()
    },
    current: () => unionOf(owners.values()),
  }
}
