// `npx tsx bench/lib/profile-summary.ts FILE.cpuprofile [--top N] [--from SECONDS]`: where the time went in a V8 CPU profile
// (from `node --cpu-prof`): self time per function and per source file, and inclusive time of chosen entry points.
// --from skips the first SECONDS of samples (start-up and warm-up, e.g. module loading under tsx).
import { readFileSync } from 'node:fs'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}

interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}

interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

function isProfile(v: unknown): v is CpuProfile {
  if (typeof v !== 'object' || v === null) return false
  const p = v as Partial<CpuProfile>
  return Array.isArray(p.nodes) && Array.isArray(p.samples) && Array.isArray(p.timeDeltas)
}

function shortUrl(url: string): string {
  if (url === '') return '(native)'
  const i = url.indexOf('/node_modules/')
  if (i >= 0) return url.slice(i + 1)
  const s = url.indexOf('/src/')
  if (s >= 0) return url.slice(s + 1)
  const b = url.indexOf('/bench/')
  if (b >= 0) return url.slice(b + 1)
  return url.replace(/^file:\/\//, '')
}

function label(f: CallFrame): string {
  return `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}${f.url ? `:${f.lineNumber + 1}` : ''}`
}

function main(): void {
  const file = process.argv[2]
  if (file === undefined) {
    process.stderr.write('usage: profile-summary FILE.cpuprofile [--top N] [--from SECONDS]\n')
    process.exit(2)
  }
  const topArg = process.argv.indexOf('--top')
  const top = topArg >= 0 ? Number(process.argv[topArg + 1]) || 25 : 25
  const fromArg = process.argv.indexOf('--from')
  const fromUs = fromArg >= 0 ? (Number(process.argv[fromArg + 1]) || 0) * 1e6 : 0
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (!isProfile(parsed)) throw new Error(`${file} is not a V8 CPU profile`)
  const p = parsed

  const byId = new Map<number, ProfileNode>()
  const parent = new Map<number, number>()
  for (const n of p.nodes) {
    byId.set(n.id, n)
    for (const c of n.children ?? []) parent.set(c, n.id)
  }
  const selfUs = new Map<number, number>()
  let elapsedUs = 0
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i] as number
    const dt = p.timeDeltas[i] ?? 0
    elapsedUs += dt
    if (elapsedUs < fromUs) continue
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt)
  }
  let total = 0
  let idle = 0
  const perFn = new Map<string, number>()
  const perFile = new Map<string, number>()
  for (const [id, us] of selfUs) {
    const n = byId.get(id)
    if (n === undefined) continue
    total += us
    if (n.callFrame.functionName === '(idle)') idle += us
    const key = label(n.callFrame)
    perFn.set(key, (perFn.get(key) ?? 0) + us)
    const f = n.callFrame.url ? shortUrl(n.callFrame.url) : `(${n.callFrame.functionName})`
    perFile.set(f, (perFile.get(f) ?? 0) + us)
  }
  // Inclusive time: each sample counts once for every distinct function on its stack.
  const incl = new Map<string, number>()
  for (const [id, us] of selfUs) {
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)
      if (n === undefined) break
      const key = label(n.callFrame)
      if (seen.has(key)) continue
      seen.add(key)
      incl.set(key, (incl.get(key) ?? 0) + us)
    }
  }
  const busy = total - idle
  const pctOf = (us: number, of: number): string => `${((100 * us) / of).toFixed(1).padStart(5)}%`
  const out: string[] = []
  out.push(
    `profile: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (idle excluded below)`,
  )
  out.push('', `top ${top} functions by self time (% of busy):`)
  for (const [k, us] of [...perFn]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    out.push(`  ${pctOf(us, busy)}  ${k}`)
  }
  out.push('', 'self time by file (% of busy):')
  for (const [k, us] of [...perFile]
    .filter(([k]) => k !== '((idle))')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    out.push(`  ${pctOf(us, busy)}  ${k}`)
  }
  out.push('', `top ${top} by inclusive time (% of busy):`)
  for (const [k, us] of [...incl]
    .filter(([k]) => !k.startsWith('('))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    out.push(`  ${pctOf(us, busy)}  ${k}`)
  }
  process.stdout.write(`${out.join('\n')}\n`)
}

main()
