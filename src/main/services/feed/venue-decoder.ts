// The engine's frame decoder for the active profile: the profile's adapter (or `auto`) over the shipped adapters
// and the user's own files, rebuilt for every connection so a new connection learns channel ids afresh and
// picks up edited adapter files. Refused files and the adapter auto-detection settled on are told to the user.
import {
  AUTO,
  builtinAdapters,
  FrameDecoder,
  type CompiledAdapter,
  type TextDecoded,
} from '../../../shared/adapters'
import type { AdapterChoice } from '../../../shared/ipc'
import type { AdapterFiles } from './adapter-files'
import type { Logger } from '../base/types'

export interface VenueDecoderDeps {
  files: AdapterFiles
  log: Logger
  /** The active profile's adapter choice. */
  selection: () => string
  /** A message the user must see (a refused adapter file, an unknown adapter name). */
  notice: (text: string) => void
  changed: () => void
}

export class VenueDecoder {
  private decoder: FrameDecoder
  private adapters: readonly CompiledAdapter[]
  private selected = AUTO
  private readonly told = new Set<string>()

  constructor(private readonly d: VenueDecoderDeps) {
    // The profile is not known, and the user's files are not read, until the first connection: the engine is
    // still being composed here.
    this.adapters = builtinAdapters()
    this.decoder = new FrameDecoder({ adapters: this.adapters, selection: AUTO })
  }

  /** A connection opened: a fresh decoder, with the adapter files read again. */
  connected(): void {
    this.selected = this.d.selection()
    this.decoder = this.build()
    this.d.changed()
  }

  decodeText(text: string): TextDecoded {
    return this.decoder.decodeText(text)
  }

  /** The adapters a profile can name: as of the last connection, the user's files first. */
  choices(): AdapterChoice[] {
    return this.adapters.map((a) => ({ name: a.name, title: a.title }))
  }

  /** The adapter frames are read with, or null before `auto` has picked one: for the per-frame path (no object). */
  pickedName(): string | null {
    return this.decoder.picked?.name ?? null
  }

  view(): { selected: string; picked: string | null } {
    return { selected: this.selected, picked: this.decoder.picked?.name ?? null }
  }

  private build(): FrameDecoder {
    const set = this.d.files.load()
    this.adapters = set.adapters
    for (const e of set.errors) this.tell(e)
    const decoder = new FrameDecoder({
      adapters: set.adapters,
      selection: this.selected,
      onPick: (a) => {
        this.d.log.info('venue adapter detected', { adapter: a.name })
        this.d.changed()
      },
    })
    if (decoder.problem !== null) this.tell(decoder.problem)
    return decoder
  }

  /** Each distinct message once per run: a bad file is reported when found, not at every reconnect. */
  private tell(text: string): void {
    if (this.told.has(text)) return
    this.told.add(text)
    this.d.log.warn(text)
    this.d.notice(text)
  }
}

export { AUTO }
