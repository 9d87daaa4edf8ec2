// `decode --corpus DIR`: how many frames of each venue the adapters read, as which kinds, and why the rest were
// not. DIR is a folder of venues, or one venue: `frames.jsonl` (one frame per line, as the recordings are) or
// corpus cases (`*.json` with `frame` or `frameText`, as test/decode/venues/ holds).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { FrameDecoder, TOLERANT, type CompiledAdapter } from '../../src/shared/adapters'

export interface CorpusFrame {
  label: string
  text: string
}

export interface CorpusVenue {
  name: string
  frames: CorpusFrame[]
}

export interface VenueSummary {
  venue: string
  frames: number
  /** Read by an adapter with no unknown item. */
  read: number
  /** Read by an adapter, with some items unknown. */
  partly: number
  /** Left to the tolerant reader. */
  tolerant: number
  unread: number
  malformed: number
  byAdapter: Record<string, number>
  /** Updates by kind; user updates as `user:<topic>`. */
  kinds: Record<string, number>
  /** Frames that produced any account (user) update. */
  userFrames: string[]
  problems: { label: string; reason: string; frame: string }[]
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory()
  } catch {
    return false
  }
}

function venueFrom(dir: string): CorpusVenue | null {
  const frames: CorpusFrame[] = []
  const jsonl = join(dir, 'frames.jsonl')
  if (existsSync(jsonl)) {
    readFileSync(jsonl, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.trim() !== '') frames.push({ label: `frames.jsonl:${i + 1}`, text: line })
      })
  }
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const c: unknown = JSON.parse(readFileSync(join(dir, f), 'utf8'))
    if (typeof c !== 'object' || c === null) continue
    const o = c as { frame?: unknown; frameText?: unknown }
    if (typeof o.frameText === 'string') frames.push({ label: f, text: o.frameText })
    else if (o.frame !== undefined) frames.push({ label: f, text: JSON.stringify(o.frame) })
  }
  return frames.length > 0 ? { name: basename(dir), frames } : null
}

export function readCorpus(dir: string): CorpusVenue[] {
  if (!isDir(dir)) throw new Error('not a folder')
  const own = venueFrom(dir)
  if (own !== null) return [own]
  const venues: CorpusVenue[] = []
  for (const name of readdirSync(dir).sort()) {
    const sub = join(dir, name)
    if (!isDir(sub)) continue
    const v = venueFrom(sub)
    if (v !== null) venues.push(v)
  }
  return venues
}

const bump = (r: Record<string, number>, k: string): void => {
  r[k] = (r[k] ?? 0) + 1
}

export function summariseCorpus(
  venues: CorpusVenue[],
  adapters: readonly CompiledAdapter[],
  selection: string,
): VenueSummary[] {
  return venues.map((v) => {
    // One decoder per venue, as one connection, so channel ids learned from an ack serve later frames.
    const decoder = new FrameDecoder({ adapters, selection, lock: false })
    const s: VenueSummary = {
      venue: v.name,
      frames: v.frames.length,
      read: 0,
      partly: 0,
      tolerant: 0,
      unread: 0,
      malformed: 0,
      byAdapter: {},
      kinds: {},
      userFrames: [],
      problems: [],
    }
    for (const f of v.frames) {
      const d = decoder.decodeText(f.text)
      const snippet = f.text.length > 160 ? `${f.text.slice(0, 160)}…` : f.text
      if (!d.ok) {
        s.malformed++
        s.problems.push({ label: f.label, reason: d.error, frame: snippet })
        continue
      }
      for (const u of d.updates) bump(s.kinds, u.kind === 'user' ? `user:${u.topic}` : u.kind)
      if (d.updates.some((u) => u.kind === 'user')) s.userFrames.push(f.label)
      if (d.adapter === null) s.unread++
      else if (d.adapter === TOLERANT) s.tolerant++
      else if (d.unknown) s.partly++
      else s.read++
      bump(s.byAdapter, d.adapter ?? '(none)')
      if (d.unknown || d.adapter === TOLERANT || d.adapter === null) {
        s.problems.push({
          label: f.label,
          reason: d.reasons[0] ?? 'read by the tolerant reader',
          frame: snippet,
        })
      }
    }
    return s
  })
}

const pct = (n: number, d: number): string => (d === 0 ? '-' : `${Math.floor((1000 * n) / d) / 10}%`)

const list = (r: Record<string, number>): string =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')

export function renderCorpus(summary: VenueSummary[]): string {
  const lines: string[] = []
  lines.push(
    `${'venue'.padEnd(16)}${'frames'.padStart(7)}${'read'.padStart(6)}${'%'.padStart(7)}${'partly'.padStart(7)}${'tolerant'.padStart(9)}${'unread'.padStart(7)}${'user'.padStart(5)}  adapters; kinds`,
  )
  let frames = 0
  let read = 0
  for (const s of summary) {
    frames += s.frames
    read += s.read
    lines.push(
      `${s.venue.padEnd(16)}${String(s.frames).padStart(7)}${String(s.read).padStart(6)}${pct(s.read, s.frames).padStart(7)}${String(s.partly).padStart(7)}${String(s.tolerant).padStart(9)}${String(s.unread + s.malformed).padStart(7)}${String(s.userFrames.length).padStart(5)}  ${list(s.byAdapter)}; ${list(s.kinds)}`,
    )
  }
  lines.push(
    `${'all'.padEnd(16)}${String(frames).padStart(7)}${String(read).padStart(6)}${pct(read, frames).padStart(7)}`,
  )
  const problems = summary.flatMap((s) => s.problems.map((p) => ({ venue: s.venue, ...p })))
  if (problems.length > 0) {
    lines.push('', 'not read by an adapter (or partly):')
    for (const p of problems) lines.push(`  ${p.venue} ${p.label}: ${p.reason}`, `    ${p.frame}`)
  }
  const users = summary.flatMap((s) => s.userFrames.map((l) => `${s.venue} ${l}`))
  if (users.length > 0) lines.push('', 'read as the account’s own data:', ...users.map((u) => `  ${u}`))
  return `${lines.join('\n')}\n`
}
