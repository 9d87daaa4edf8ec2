// The decode CLI (DESIGN §3.2) as a user runs it: a real process, JSON on stdin.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '../..')

function run(
  args: string[],
  stdin: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'scripts/decode.ts', ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(stdin)
  })
}

/** npm may print its own config warnings on stderr; only our lines count. */
function ownLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'))
}

// Each test starts the CLI through tsx, several times: seconds each on a loaded machine.
describe('decode CLI', { timeout: 60_000 }, () => {
  it('prints {"updates":[...]} for a frame', async () => {
    const frame = {
      channel: 'market',
      type: 'orderbook',
      market: 'm-1',
      event: 'e',
      snapshot: true,
      seq: 1,
      bids: [[0.4, 5]],
      asks: [[0.6, 1]],
    }
    const r = await run([], JSON.stringify(frame))
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      updates: [{ kind: 'book', market: 'm-1', snapshot: true, seq: 1, bids: [[0.4, 5]], asks: [[0.6, 1]] }],
    })
  })

  it('with --events prints only id/title/markets[id,title] and warns about skipped items', async () => {
    const body = {
      data: [
        { event_id: 'a', name: 'A', volume: 3, markets: [{ ticker: 'm', question: 'Q', status: 'open' }] },
        { title: 'no id' },
      ],
    }
    const r = await run(['--events'], JSON.stringify(body))
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      events: [{ id: 'a', title: 'A', markets: [{ id: 'm', title: 'Q' }] }],
    })
    expect(ownLines(r.stderr)).toEqual(['warning: events[1] has no id'])
  })

  it('exits 2 with one line on stderr for invalid JSON', async () => {
    const r = await run([], '{"type": "trade", oops}')
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    const lines = ownLines(r.stderr)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^invalid JSON/)
  })

  it('exits 2 with usage for an unknown flag', async () => {
    const r = await run(['--nope'], '{}')
    expect(r.code).toBe(2)
    expect(ownLines(r.stderr).join('\n')).toMatch(/usage: .*--events/)
  })

  it('--adapter names the venue; auto (the default) picks it from the single frame', async () => {
    const frame = [1921, [['0.042960', '5000.0', '1618678157.946108', 's', 'm', '']], 'trade', 'SC/EUR']
    const expected = {
      updates: [
        { kind: 'trade', market: 'SC/EUR', price: 0.04296, size: 5000, side: 'sell', ts: 1618678157946 },
      ],
    }
    const auto = await run([], JSON.stringify(frame))
    expect(auto.code).toBe(0)
    expect(JSON.parse(auto.stdout)).toEqual(expected)
    const named = await run(['--adapter', 'kraken'], JSON.stringify(frame))
    expect(JSON.parse(named.stdout)).toEqual(expected)
    // Another venue's adapter does not guess: the frame stays unknown.
    const wrong = await run(['--adapter', 'bitfinex'], JSON.stringify(frame))
    expect(JSON.parse(wrong.stdout)).toEqual({ updates: [{ kind: 'unknown', raw: frame }] })
    const missing = await run(['--adapter', 'nope'], '{}')
    expect(missing.code).toBe(2)
    expect(ownLines(missing.stderr).join('\n')).toMatch(/no adapter named "nope"; known: sim, /)
  })

  it('--corpus prints per venue how many frames each adapter read, and as which kinds', async () => {
    const r = await run(['--corpus', 'test/decode/venues', '--json'], '')
    expect(r.code).toBe(0)
    const rows = JSON.parse(r.stdout) as {
      venue: string
      frames: number
      read: number
      byAdapter: Record<string, number>
    }[]
    const sim = rows.find((v) => v.venue === 'sim')
    expect(sim).toMatchObject({ read: sim?.frames, byAdapter: { sim: sim?.frames } })
    expect(rows.length).toBeGreaterThanOrEqual(21)
    const text = await run(['--corpus', 'test/decode/venues/kalshi'], '')
    expect(text.stdout).toMatch(/^venue +frames +read +%/)
    expect(text.stdout).toMatch(/\nkalshi +\d+ +\d+ +100%/)
  })
})
