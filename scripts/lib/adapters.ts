// The adapters the decode CLI offers: the shipped set, plus a folder of user adapter files when one is named.
import { AdapterFiles, type AdapterSet } from '../../src/main/services'

export function adaptersFor(dir: string | null): AdapterSet {
  return new AdapterFiles(dir).load()
}
