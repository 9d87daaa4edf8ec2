// The engine's one door: the Electron glue, the browser host, the benches and scripts import from here and
// nowhere deeper (lint enforces it), so a room can be rearranged without touching its callers.
export { createMonitor, type CreateMonitorOptions, type StreamTuning } from './monitor'
export type {
  AttachOptions,
  LogFields,
  Logger,
  MonitorClient,
  MonitorClientApi,
  MonitorEngine,
  ShellState,
} from './base/types'
export { errorMessage } from './base/errors'
export { writeAtomically } from './settings/files'
export { createKeyringStore, createMemoryStore, type CredentialStore } from './credentials/store'
export { batchJson } from './fanout/batch-json'
export { AdapterFiles, type AdapterSet } from './feed/adapter-files'
export { CANNOT_TELL } from './orders/reconcile'
