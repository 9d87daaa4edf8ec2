// Decode CLI (DESIGN §3.2): one JSON document on stdin.
//   npm run --silent decode < frame.json                    -> {"updates":[Update,...]}
//   npm run --silent decode -- --adapter kraken < frame.json (default --adapter auto, which works from one frame)
//   npm run --silent decode -- --events < body.json         -> {"events":[{"id","title","markets":[{"id","title"}]}]}
//   npm run --silent decode -- --corpus DIR [--json]         -> per venue: frames read, by adapter and kind
// Invalid JSON or an unknown flag: exit 2 with one line on stderr.
import { decodeEventsListing } from '../src/shared/decode'
import { AUTO, FrameDecoder } from '../src/shared/adapters'
import { adaptersFor } from './lib/adapters'
import { readCorpus, renderCorpus, summariseCorpus } from './lib/corpus'

const USAGE =
  'usage: npm run --silent decode [-- --adapter NAME|auto] [--adapters-dir DIR] [--events | --corpus DIR [--json]] < FILE'

function fail(message: string): never {
  process.stderr.write(`${message.replace(/\s+/g, ' ').trim()}\n`)
  process.exit(2)
}

interface Args {
  events: boolean
  adapter: string
  corpus: string | null
  json: boolean
  adaptersDir: string | null
}

function parseArgs(argv: string[]): Args {
  const args: Args = { events: false, adapter: AUTO, corpus: null, json: false, adaptersDir: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    const value = (): string => {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) fail(`${a} needs a value; ${USAGE}`)
      return v
    }
    if (a === '--events') args.events = true
    else if (a === '--adapter') args.adapter = value()
    else if (a.startsWith('--adapter=')) args.adapter = a.slice('--adapter='.length)
    else if (a === '--corpus') args.corpus = value()
    else if (a === '--adapters-dir') args.adaptersDir = value()
    else if (a === '--json') args.json = true
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n`)
      process.exit(0)
    } else fail(`unknown argument ${JSON.stringify(a)}; ${USAGE}`)
  }
  if (args.events && args.corpus !== null) fail(`--events and --corpus do not go together; ${USAGE}`)
  return args
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const library = adaptersFor(args.adaptersDir)
  for (const e of library.errors) process.stderr.write(`warning: ${e}\n`)
  if (args.adapter !== AUTO && !library.adapters.some((a) => a.name === args.adapter)) {
    fail(
      `no adapter named ${JSON.stringify(args.adapter)}; known: ${library.adapters.map((a) => a.name).join(', ')}`,
    )
  }
  if (args.corpus !== null) {
    let venues
    try {
      venues = readCorpus(args.corpus)
    } catch (e) {
      fail(`cannot read corpus ${args.corpus}: ${e instanceof Error ? e.message : String(e)}`)
    }
    const summary = summariseCorpus(venues, library.adapters, args.adapter)
    process.stdout.write(args.json ? `${JSON.stringify(summary)}\n` : renderCorpus(summary))
    return
  }
  const text = await readStdin()
  if (args.events) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (e) {
      fail(`invalid JSON on stdin: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`)
    }
    const listing = decodeEventsListing(value)
    for (const err of listing.errors) process.stderr.write(`warning: ${err}\n`)
    const out = listing.events.map((ev) => ({
      id: ev.id,
      title: ev.title,
      markets: ev.markets.map((m) => ({ id: m.id, title: m.title })),
    }))
    process.stdout.write(`${JSON.stringify({ events: out })}\n`)
    return
  }
  // A frame as the engine gets it: JSON, or text an adapter knows (a bare PONG, a Socket.IO packet).
  const decoded = new FrameDecoder({ adapters: library.adapters, selection: args.adapter }).decodeText(text)
  if (!decoded.ok) fail(`${decoded.error.replace(/^invalid JSON/, 'invalid JSON on stdin')}`)
  process.stdout.write(`${JSON.stringify({ updates: decoded.updates })}\n`)
}

main().catch((e: unknown) => fail(`decode failed: ${e instanceof Error ? e.message : String(e)}`))
