// The adapters shipped in resources/adapters/, bundled with the code that reads them so a packaged build needs no
// path to find them. They are data all the same: each is validated by the same schema a user's file meets.
import sim from '../../../resources/adapters/sim.json'
import { compileAdapter, type CompiledAdapter } from './compile'
import { parseAdapter, type AdapterSpec } from './schema'

/** In auto-detection order: the simulator (our own venue) first, then the most specific fingerprints. */
const FILES: readonly unknown[] = [sim]

let specs: AdapterSpec[] | null = null
let compiled: CompiledAdapter[] | null = null

/** The shipped adapter files, validated. A shipped file that fails its schema is a build error, so it throws. */
export function builtinSpecs(): AdapterSpec[] {
  if (specs === null) {
    specs = FILES.map((f, i) => {
      const r = parseAdapter(f)
      if (!r.ok) throw new Error(`shipped adapter #${i} is invalid: ${r.errors.join('; ')}`)
      return r.adapter
    })
  }
  return specs
}

export function builtinAdapters(): CompiledAdapter[] {
  compiled ??= builtinSpecs().map((s) => compileAdapter(s))
  return compiled
}
