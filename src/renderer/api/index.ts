// The renderer's one way to reach the engine: the Electron preload's window.monitor when present, otherwise
// the browser host's WebSocket bridge, built from this page's own address and token.
import type { MonitorApi } from '../../shared/ipc'
import type { WindowTarget } from '../../shared/model'
import { createBridgeApi } from './bridge-client'
import { readWindowTarget } from './window-target'

export { createBridgeApi, bridgeUrl } from './bridge-client'
export type { BridgeApi, BridgeApiOptions, BridgeSocket, BridgeSocketConstructor } from './bridge-client'
export { readWindowTarget, windowTargetQuery } from './window-target'

let api: MonitorApi | null = null

export function getMonitorApi(): MonitorApi {
  api ??=
    window.monitor ??
    createBridgeApi({ url: location.href, token: new URLSearchParams(location.search).get('token') ?? '' })
  return api
}

/** What this window shows, from its own URL. */
export function currentWindowTarget(): WindowTarget {
  return readWindowTarget(location.search)
}
