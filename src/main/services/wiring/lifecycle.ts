// The engine's life in one place: what each room does when the connection resets (a new profile), opens and
// drops, and the order the engine shuts down in. monitor.ts builds the rooms; this says how they live together.
import type { ConnectionHooks } from '../feed/connection'
import type { Wiring } from './engine'

/** The connection's hooks; the parts are read when a hook runs, after every part was built. */
export function connectionHooks(w: Wiring): ConnectionHooks {
  const p = w.parts
  return {
    reset: () => {
      p.duplicates.clear()
      p.silence.reset()
      p.restBooks.reset()
      p.accountRest.reset()
      p.registry.disconnected()
      p.registry.venueChanged()
      p.data.clear()
      p.userFeed.clear()
      p.account.clear()
      p.fanout.forgetUser()
      p.catalog.clear()
      p.alerts.reset()
      // The sticky auth error belongs to the previous profile's key.
      p.registry.keyChanged()
      // A profile selected during a replay ends it (its own suspend() is not an interruption).
      p.recordReplay.interrupted()
    },
    opened: () => {
      p.venue.connected()
      p.registry.connected()
      p.liveness.restartClocks(w.now())
      p.resync.connected()
      p.alerts.connected()
      p.accountRest.userUp(w.now())
      p.accountRest.refresh()
    },
    dropped: (info) => {
      p.registry.disconnected()
      p.accountRest.userDown(w.now())
      if (info.cause === 'closed') return
      if (info.cause === 'silence') {
        p.silence.rebuilt(w.now(), p.liveness.lastDataAt())
        p.status.silenceChanged()
      }
      p.closes.closed(info)
      if (info.cause === 'oversized') {
        p.fanout.inspector(p.inspector.recordOversized(w.now(), info.error ?? 'frame too large'))
        p.incidents.badFrame(info.error ?? 'oversized frame')
      }
      if (info.wasOpen) p.data.linkLost()
    },
    frame: (text, receivedAt) => p.router.onFrame(text, receivedAt),
    expectsData: () => p.registry.hasAny(),
    silenceScale: () => p.silence.scale(),
    afterConnect: async () => {
      await p.keys.refreshHasKey({ probe: true })
      p.fanout.eventsChanged()
    },
  }
}

/** Stops every part, in an order where nothing runs against a part already gone. */
export async function shutDown(w: Wiring): Promise<void> {
  const p = w.parts
  // No frame may fire a rule (and ask for a save) after the relay's last write: the stream goes first.
  p.connection.close()
  await p.recordReplay.close()
  p.alerts.close()
  p.accountRest.close()
  await p.relay.close()
  p.stopLiveness()
  p.resync.close()
  p.status.close()
  p.registry.close()
  p.clients.closeAll()
  p.fanout.close()
  await w.demo.close()
}
