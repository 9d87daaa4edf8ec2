// The Electron preload exposes MonitorApi as window.monitor; in a plain browser it is absent.
import type { MonitorApi } from '../../shared/ipc'

declare global {
  interface Window {
    monitor?: MonitorApi
  }
}

export {}
