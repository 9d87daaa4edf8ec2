// The local order journal (docs/trading.md): every order, cancel, cancel-all and merge request and its answer, one
// JSON line each, in the settings folder's `journal/`, one file per UTC day, rotated at a size and pruned to a
// count. The key is never in it: entries carry only what the engine chose to put there. A line is written before
// the request leaves (synchronously: a crash right after sending still leaves its trace), and a torn last line from
// a crash mid-write is skipped on reading; the next line always starts on a line of its own.
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  unlinkSync,
} from 'node:fs'
import { join } from 'node:path'
import type { JournalEntry } from '../../../shared/trading'
import type { Logger } from '../base/types'

export interface JournalOptions {
  /** The folder; null keeps the journal in memory only (tests, a settings-less engine). */
  dir: string | null
  log: Logger
  now(): number
  /** A file is rotated past this size (default 5 MiB). */
  maxFileBytes?: number
  /** At most this many files are kept, the oldest removed first (default 30). */
  maxFiles?: number
  /** Entries kept in memory for the blotter (default 2,000, today's only). */
  keep?: number
}

const FILE = /^orders-(\d{8})(?:-(\d+))?\.jsonl$/

function day(at: number): string {
  return new Date(at).toISOString().slice(0, 10).replace(/-/g, '')
}

export class OrderJournal {
  private seq = 0
  private readonly entries: JournalEntry[] = []
  private file: string | null = null
  private fileDay = ''
  private part = 0
  private broken = false

  constructor(private readonly o: JournalOptions) {
    if (o.dir === null) return
    try {
      mkdirSync(o.dir, { recursive: true, mode: 0o700 })
      for (const e of this.readDay(day(o.now()))) this.entries.push(e)
      this.seq = this.entries.reduce((m, e) => Math.max(m, e.seq), 0)
      this.trim()
    } catch (err) {
      this.fail(err)
    }
  }

  /** Records one entry (given everything but its number and time) and returns it as written. */
  append(entry: Omit<JournalEntry, 'seq' | 'at'>): JournalEntry {
    const at = this.o.now()
    const full: JournalEntry = { seq: ++this.seq, at, ...entry }
    this.entries.push(full)
    this.trim()
    this.write(full)
    return full
  }

  /** Today's entries, oldest first. */
  today(): JournalEntry[] {
    const d = day(this.o.now())
    return this.entries.filter((e) => day(e.at) === d)
  }

  /** Every entry of a UTC day (YYYYMMDD) on disk, oldest first; lines that do not parse are skipped. */
  readDay(yyyymmdd: string): JournalEntry[] {
    if (this.o.dir === null) return []
    const files = this.files()
      .filter((f) => f.day === yyyymmdd)
      .sort((a, b) => a.part - b.part)
    const out: JournalEntry[] = []
    for (const f of files) {
      let textOf: string
      try {
        textOf = readFileSync(join(this.o.dir, f.name), 'utf8')
      } catch {
        continue
      }
      for (const line of textOf.split('\n')) {
        if (line.trim() === '') continue
        try {
          const e = JSON.parse(line) as JournalEntry
          if (typeof e === 'object' && e !== null && typeof e.seq === 'number' && typeof e.at === 'number')
            out.push(e)
        } catch {
          // A torn line (a crash mid-write): skipped, the rest of the file still reads.
        }
      }
    }
    return out
  }

  private trim(): void {
    const keep = this.o.keep ?? 2_000
    if (this.entries.length > keep) this.entries.splice(0, this.entries.length - keep)
  }

  private files(): Array<{ name: string; day: string; part: number }> {
    if (this.o.dir === null) return []
    const out: Array<{ name: string; day: string; part: number }> = []
    for (const name of readdirSync(this.o.dir)) {
      const m = FILE.exec(name)
      if (m) out.push({ name, day: m[1] as string, part: m[2] === undefined ? 0 : Number(m[2]) })
    }
    return out
  }

  private write(entry: JournalEntry): void {
    if (this.o.dir === null || this.broken) return
    try {
      const d = day(entry.at)
      if (this.file === null || d !== this.fileDay) this.open(d)
      const max = this.o.maxFileBytes ?? 5 * 1024 * 1024
      let rotated = false
      if (this.file !== null && size(this.file) >= max) {
        this.part += 1
        this.file = join(this.o.dir, name(d, this.part))
        rotated = true
      }
      if (this.file === null) return
      appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 })
      // Pruned once the new part exists, so the count kept includes it.
      if (rotated) this.prune()
    } catch (err) {
      this.fail(err)
    }
  }

  /** Picks today's newest part, and ends a torn last line so the next entry starts on its own. */
  private open(d: string): void {
    const dir = this.o.dir as string
    const parts = this.files().filter((f) => f.day === d)
    this.part = parts.reduce((m, f) => Math.max(m, f.part), 0)
    this.fileDay = d
    this.file = join(dir, name(d, this.part))
    if (size(this.file) > 0 && !endsWithNewline(this.file)) appendFileSync(this.file, '\n')
    this.prune()
  }

  private prune(): void {
    const max = this.o.maxFiles ?? 30
    const files = this.files().sort((a, b) => (a.day === b.day ? a.part - b.part : a.day < b.day ? -1 : 1))
    for (const f of files.slice(0, Math.max(0, files.length - max))) {
      try {
        unlinkSync(join(this.o.dir as string, f.name))
      } catch {
        // Gone already, or not ours to remove: the count is a bound, not a promise.
      }
    }
  }

  private fail(err: unknown): void {
    // The journal is a record, not a gate: a disk that refuses it is said once, and trading goes on.
    if (!this.broken)
      this.o.log.error('journal: cannot write the order journal', { error: String(err).slice(0, 200) })
    this.broken = true
  }
}

function name(d: string, part: number): string {
  return part === 0 ? `orders-${d}.jsonl` : `orders-${d}-${part}.jsonl`
}

function size(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

function endsWithNewline(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const buf = Buffer.alloc(1)
    readSync(fd, buf, 0, 1, size(file) - 1)
    return buf[0] === 0x0a
  } finally {
    closeSync(fd)
  }
}
