// The engine link: whether batches from the engine still reach this window. The engine sends a heartbeat batch to
// a window it has sent nothing for ENGINE_HEARTBEAT_MS, so a window that got no batch at all for
// ENGINE_LOST_AFTER_MS has lost its engine (a browser host that died or froze, an Electron main process that is
// gone): every view then shows as not live (lib/freshness.ts) until batches flow again. A bridge socket that
// closes loses the link at once. docs/liveness.md, "The engine link".
import { create } from 'zustand'
import { ENGINE_LOST_AFTER_MS, type ViewBatch } from '../../shared/ipc'
import type { EngineLink } from '../lib/freshness'

export interface EngineLinkState {
  link: EngineLink
  /** The bridge socket is closed (browser only): the page is reconnecting to its host. */
  reconnecting: boolean
  /** When the link was lost (ms since epoch); null while up. */
  lostAt: number | null
}

/** Up until the watchdog says otherwise: a window without one (a component test) is never lost. */
export const useEngineLink = create<EngineLinkState>()(() => ({
  link: 'up',
  reconnecting: false,
  lostAt: null,
}))

/** What the watchdog listens to: the MonitorApi's batches, and the bridge's socket where there is one. */
export interface EngineLinkSource {
  onBatch(listener: (batch: ViewBatch) => void): () => void
  /** The browser bridge only (bridge-client.ts). */
  onConnectionChange?(listener: (open: boolean) => void): () => void
}

/**
 * Before its first batch a window waits this long: a page still loading on a busy machine is not "lost", and
 * nothing in it can claim to be live before a batch came anyway.
 */
export const FIRST_BATCH_WITHIN_MS = 5_000

export interface EngineLinkOptions {
  lostAfterMs?: number
  firstBatchWithinMs?: number
  /** How often the silence is checked (default a sixth of lostAfterMs). */
  checkMs?: number
  now?: () => number
}

/** Watches the window's batches; call once per window, from the renderer entry. Returns the function that stops it. */
export function startEngineLink(source: EngineLinkSource, options: EngineLinkOptions = {}): () => void {
  const lostAfter = options.lostAfterMs ?? ENGINE_LOST_AFTER_MS
  const checkMs = options.checkMs ?? Math.max(50, Math.round(lostAfter / 6))
  const now = options.now ?? Date.now
  // The window starts as if a batch had arrived that long before the first is due.
  let lastBatch = now() + (options.firstBatchWithinMs ?? FIRST_BATCH_WITHIN_MS) - lostAfter
  let lastCheck = lastBatch
  let socketOpen = true

  const set = (link: EngineLink, reconnecting: boolean): void => {
    const s = useEngineLink.getState()
    if (s.link === link && s.reconnecting === reconnecting) return
    useEngineLink.setState({ link, reconnecting, lostAt: link === 'lost' ? (s.lostAt ?? now()) : null })
  }

  const stopBatches = source.onBatch(() => {
    // What a closing bridge delivers itself (the offline status) is not word from the engine.
    if (!socketOpen) return
    lastBatch = now()
    if (useEngineLink.getState().link === 'lost') set('up', false)
  })
  const stopSocket =
    source.onConnectionChange?.((open) => {
      socketOpen = open
      // Open again: the link is back with the first batch, which the host sends on connect.
      if (!open) set('lost', true)
      else lastBatch = now()
    }) ?? (() => {})

  const timer = setInterval(() => {
    const at = now()
    // The timer itself ran far too late: this window was suspended (a frozen background tab, a machine that
    // slept), and the batches that came meanwhile may not have been read yet. Judge from the next check.
    const late = at - lastCheck > lostAfter
    lastCheck = at
    if (late) {
      lastBatch = Math.max(lastBatch, at - checkMs)
      return
    }
    if (socketOpen && at - lastBatch > lostAfter) set('lost', false)
  }, checkMs)

  return () => {
    clearInterval(timer)
    stopBatches()
    stopSocket()
    useEngineLink.setState({ link: 'up', reconnecting: false, lostAt: null })
  }
}
