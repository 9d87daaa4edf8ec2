// Decode CLI (DESIGN §3.2): one JSON document on stdin.
//   npm run --silent decode < frame.json            -> {"updates":[Update,...]}
//   npm run --silent decode -- --events < body.json -> {"events":[{"id","title","markets":[{"id","title"}]}]}
// Invalid JSON or an unknown flag: exit 2 with one line on stderr.
import { decodeEventsListing, decodeValue } from '../src/shared/decode'

const USAGE = 'usage: npm run --silent decode [-- --events] < FILE'

function fail(message: string): never {
  process.stderr.write(`${message.replace(/\s+/g, ' ').trim()}\n`)
  process.exit(2)
}

function parseArgs(argv: string[]): { events: boolean } {
  let events = false
  for (const a of argv) {
    if (a === '--events') events = true
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n`)
      process.exit(0)
    } else fail(`unknown argument ${JSON.stringify(a)}; ${USAGE}`)
  }
  return { events }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

async function main(): Promise<void> {
  const { events } = parseArgs(process.argv.slice(2))
  const text = await readStdin()
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    fail(`invalid JSON on stdin: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`)
  }
  if (events) {
    const listing = decodeEventsListing(value)
    for (const err of listing.errors) process.stderr.write(`warning: ${err}\n`)
    const out = listing.events.map((ev) => ({
      id: ev.id,
      title: ev.title,
      markets: ev.markets.map((m) => ({ id: m.id, title: m.title })),
    }))
    process.stdout.write(`${JSON.stringify({ events: out })}\n`)
  } else {
    process.stdout.write(`${JSON.stringify({ updates: decodeValue(value) })}\n`)
  }
}

main().catch((e: unknown) => fail(`decode failed: ${e instanceof Error ? e.message : String(e)}`))
