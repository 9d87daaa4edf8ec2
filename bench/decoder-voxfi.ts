// `npm run bench:decoder -- [--rounds N] [--seconds S] [--base DIR]`: the VoxFi adapter's decode alone, µs
// per frame, on the frames the VoxFi simulator's benchmark firehose sends (whole YES and NO books as
// `update-orderbook`, one print in eight as `new-trade`, 20 markets), parsed once beforehand. Four readers in
// rounds, each round in the same order, so all see the same machine load: this tree's adapter with its generated
// hot path and with closures only (`generate: false`), and, with --base, the same two of the tree there (a build of an
// earlier commit, for the "before" figure). The engine's whole cost per frame is bench:day's; this is its decoder
// share. Prints one line per reader: the median and range over rounds, and the load average.
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { VoxFirehose, type VoxFirehoseBook } from '../src/sim/voxfi/firehose'
import { firehoseId } from '../src/sim/synthetic'
import type { Update } from '../src/shared/model'

interface Adapters {
  builtinSpecs: () => { name: string }[]
  compileAdapter: (spec: never, options?: { generate?: boolean }) => Decoder
  AdapterState: new () => object
}
interface Decoder {
  decode(frame: unknown, st: object, out: Update[], reasons: string[]): string | null
}

const args = process.argv.slice(2)
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(name)
  return i >= 0 && args[i + 1] !== undefined ? (args[i + 1] as string) : dflt
}
const ROUNDS = Number(opt('--rounds', '6'))
const SECONDS = Number(opt('--seconds', '1'))
/** Another checkout to compare with (a build of an older commit); without it, this tree alone. */
const BASE = args.includes('--base') ? resolve(opt('--base', '.')) : null
const MARKETS = 20
const FRAMES = 4000

/** The firehose's own frames, drawn without its timer. */
class Frames extends VoxFirehose {
  readonly texts: string[] = []

  constructor() {
    super(
      (_m, _e, _k, text) => this.texts.push(text),
      () => true,
      ['u1', 'u2'],
    )
  }

  take(n: number): string[] {
    const books: VoxFirehoseBook[] = Array.from({ length: MARKETS }, (_, i) => this.makeBook(firehoseId(i)))
    for (let i = 0; this.texts.length < n; i++) this.emit(books[i % MARKETS] as VoxFirehoseBook)
    return this.texts
  }
}

async function load(dir: string): Promise<Adapters> {
  return (await import(pathToFileURL(resolve(dir, 'src/shared/adapters/index.ts')).href)) as Adapters
}

function reader(a: Adapters, generate: boolean): (frames: unknown[]) => number {
  const spec = a.builtinSpecs().find((s) => s.name === 'voxfi')
  if (spec === undefined) throw new Error('no voxfi adapter')
  const d = a.compileAdapter(spec as never, { generate })
  const st = new a.AdapterState()
  const out: Update[] = []
  const reasons: string[] = []
  return (frames) => {
    let n = 0
    for (const f of frames) {
      out.length = 0
      reasons.length = 0
      if (d.decode(f, st, out, reasons) !== null) n += out.length
    }
    return n
  }
}

/** µs per frame over about SECONDS of whole passes. */
function time(run: (frames: unknown[]) => number, frames: unknown[]): number {
  let passes = 0
  const t0 = process.hrtime.bigint()
  let elapsed = 0
  while (elapsed < SECONDS * 1e9) {
    run(frames)
    passes++
    elapsed = Number(process.hrtime.bigint() - t0)
  }
  return elapsed / 1e3 / (passes * frames.length)
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

async function main(): Promise<void> {
  const texts = new Frames().take(FRAMES)
  const frames = texts.map((t) => JSON.parse(t) as unknown)
  const here = await load(resolve(import.meta.dirname, '..'))
  const base = BASE === null ? null : await load(BASE)
  const readers: [string, (frames: unknown[]) => number][] =
    base === null
      ? [
          ['this tree, default', reader(here, true)],
          ['this tree, closures only', reader(here, false)],
        ]
      : [
          ['before (base), default', reader(base, true)],
          ['after (this tree), default', reader(here, true)],
          ['before (base), closures only', reader(base, false)],
          ['after (this tree), closures only', reader(here, false)],
        ]
  // The same updates from every reader: a faster reader that read less would be no figure.
  const counts = readers.map(([, r]) => r(frames))
  if (new Set(counts).size !== 1)
    throw new Error(`readers disagree on the update count: ${counts.join(', ')}`)
  for (const [, r] of readers) time(r, frames) // warm-up: JIT
  const results = readers.map(() => [] as number[])
  const loads: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    readers.forEach(([, r], i) => results[i]?.push(time(r, frames)))
    loads.push(loadavg()[0] ?? NaN)
  }
  const books = texts.filter((t) => t.includes('"update-orderbook"')).length
  console.log(
    `decoder-voxfi: ${frames.length} frames (${books} whole books, ${frames.length - books} prints), ${counts[0]} updates a pass; ` +
      `${ROUNDS} rounds of ${SECONDS} s per reader; load average ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
  )
  readers.forEach(([name], i) => {
    const xs = results[i] as number[]
    console.log(
      `  ${name.padEnd(34)} ${median(xs).toFixed(3)} µs/frame (${Math.min(...xs).toFixed(3)}-${Math.max(...xs).toFixed(3)})`,
    )
  })
}

main().catch((e: unknown) => {
  console.error(`decoder-voxfi: ${e instanceof Error ? e.message : String(e)}`)
  process.exit(1)
})
