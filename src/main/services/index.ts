// The engine's public face for the shells (Electron main, browser host) and tests.
export { createMonitor, type CreateMonitorOptions, type StreamTuning } from './monitor'
export type {
  AttachOptions,
  LogFields,
  Logger,
  MonitorClient,
  MonitorClientApi,
  MonitorEngine,
} from './types'
export { createKeyringStore, createMemoryStore, type CredentialStore } from './credentials'
export { createSettingsStore, type Settings } from './settings'
export {
  createStreamConnection,
  type StreamCloseInfo,
  type StreamConnection,
  type StreamOptions,
  type StreamState,
} from './stream'
export { createRegistry, type SubscriptionRegistry, type UserChannelState } from './registry'
export { createInspector, type Inspector } from './inspector'
