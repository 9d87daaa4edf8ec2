// The user's own adapter files (settings folder, `adapters/*.json`) beside the shipped ones. A file is untrusted:
// it is size-capped, parsed, validated by the adapter schema and compiled; a bad one is refused with a message
// naming the file and field, and the last good version of that file (if any) stays in use. Its regular
// expressions run on JavaScript's engine only where a static check proves they cannot backtrack badly, and on
// RE2 (re2-wasm: linear time, WebAssembly, no native build) otherwise; one RE2 cannot run is refused by field.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { RE2 } from 're2-wasm'
import {
  builtinAdapters,
  compileAdapter,
  parseAdapter,
  type CompiledAdapter,
  type RegexEngine,
} from '../../../shared/adapters'
import { jsonLimitProblem } from '../../../shared/json-limits'
import { errorMessage } from '../base/errors'

/** RE2 through re2-wasm: matching time linear in the input, whatever the pattern (no backtracking). */
export const re2Engine: RegexEngine = {
  name: 'RE2',
  // re2-wasm runs in unicode mode only. Its objects hold WebAssembly memory that is never freed, which is why
  // a file is compiled again only when it changed.
  compile: (source) => new RE2(source, 'u'),
}

const MAX_FILE_BYTES = 1024 * 1024
const MAX_FILES = 100

export interface AdapterSet {
  /** User adapters first (a user file may replace a shipped adapter of the same name), then the shipped ones. */
  adapters: CompiledAdapter[]
  /** One line per refused file. */
  errors: string[]
}

export class AdapterFiles {
  /** The last good compile of each user file, by file name. */
  private readonly good = new Map<string, CompiledAdapter>()
  /**
   * What each file was (size and mtime) when last read, and its error then: the folder is read at every
   * connection, and a reconnect storm must not re-parse and re-compile files that did not change.
   */
  private readonly lastRead = new Map<string, { stamp: string; error: string | null }>()

  constructor(private readonly dir: string | null) {}

  /** Reads the folder again; a missing folder is no user adapters. */
  load(): AdapterSet {
    const errors: string[] = []
    const seen = new Set<string>()
    for (const file of this.listFiles(errors)) {
      seen.add(file)
      const compiled = this.readOne(file, errors)
      if (compiled !== null) this.good.set(file, compiled)
    }
    for (const file of [...this.good.keys()]) if (!seen.has(file)) this.good.delete(file)
    for (const file of [...this.lastRead.keys()]) if (!seen.has(file)) this.lastRead.delete(file)
    const user = [...this.good.values()]
    const names = new Set(user.map((a) => a.name))
    return { adapters: [...user, ...builtinAdapters().filter((a) => !names.has(a.name))], errors }
  }

  private listFiles(errors: string[]): string[] {
    if (this.dir === null) return []
    let names: string[]
    try {
      names = readdirSync(this.dir)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') errors.push(`${this.dir}: ${errorMessage(e)}`)
      return []
    }
    const files = names.filter((n) => n.endsWith('.json')).sort()
    if (files.length > MAX_FILES)
      errors.push(`${this.dir}: only the first ${MAX_FILES} adapter files are read`)
    return files.slice(0, MAX_FILES)
  }

  private readOne(file: string, errors: string[]): CompiledAdapter | null {
    const path = join(this.dir as string, file)
    const keep = this.good.has(file) ? '; the previous version stays in use' : ''
    let stamp = ''
    const refuse = (why: string): null => {
      const error = `adapter ${file}: ${why}${keep}`
      this.lastRead.set(file, { stamp, error })
      errors.push(error)
      return null
    }
    try {
      const st = statSync(path)
      stamp = `${st.size}:${st.mtimeMs}`
      const last = this.lastRead.get(file)
      if (last !== undefined && last.stamp === stamp) {
        if (last.error !== null) errors.push(last.error)
        return this.good.get(file) ?? null
      }
      if (st.size > MAX_FILE_BYTES) return refuse('larger than 1 MB, refused')
      const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
      // Before the schema walks it: a value nested thousands deep would otherwise end in a stack overflow.
      const tooBig = jsonLimitProblem(value)
      if (tooBig !== null) return refuse(tooBig.message)
      const r = parseAdapter(value)
      if (!r.ok) return refuse(r.errors.join('; '))
      const compiled = compileAdapter(r.adapter, { regex: re2Engine })
      this.lastRead.set(file, { stamp, error: null })
      return compiled
    } catch (e) {
      return refuse(errorMessage(e))
    }
  }
}
