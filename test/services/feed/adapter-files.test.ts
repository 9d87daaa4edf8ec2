// The user's own adapter files: read from a folder, validated, compiled; a bad file is refused with the file
// and field named, and the last good version of it stays in use.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtinAdapters } from '../../../src/shared/adapters'
import { AdapterFiles } from '../../../src/main/services/feed/adapter-files'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'tm-adapters-'))
  dirs.push(d)
  return d
}

function file(name: string, title: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: 'trading-monitor-adapter',
    version: 1,
    name,
    title,
    docs: [],
    detect: { path: 'venue', equals: name },
    rules: [{ name: 'tick', when: [], emit: [{ kind: 'ticker', market: 'm', last: 'p' }] }],
    ...extra,
  })
}

describe('user adapter files', () => {
  it('a missing folder is no user adapters, and no error', () => {
    const set = new AdapterFiles(join(tmpdir(), 'tm-no-such-folder-x')).load()
    expect(set.errors).toEqual([])
    expect(set.adapters.map((a) => a.name)).toEqual(builtinAdapters().map((a) => a.name))
  })

  it('loads a user adapter first and lets it replace a shipped one of the same name', () => {
    const d = folder()
    writeFileSync(join(d, 'mine.json'), file('mine', 'My venue'))
    writeFileSync(join(d, 'kraken.json'), file('kraken', 'My Kraken'))
    writeFileSync(join(d, 'notes.txt'), 'not an adapter')
    const set = new AdapterFiles(d).load()
    expect(set.errors).toEqual([])
    expect(set.adapters.slice(0, 2).map((a) => `${a.name}:${a.title}`)).toEqual([
      'kraken:My Kraken',
      'mine:My venue',
    ])
    expect(set.adapters.filter((a) => a.name === 'kraken')).toHaveLength(1)
  })

  it('refuses a malformed file naming it and its field, and keeps the previous good version', () => {
    const d = folder()
    const path = join(d, 'mine.json')
    writeFileSync(path, file('mine', 'Version 1'))
    const files = new AdapterFiles(d)
    expect(files.load().adapters[0]?.title).toBe('Version 1')

    writeFileSync(
      path,
      file('mine', 'Version 2', { rules: [{ name: 'r', when: [], emit: [{ kind: 'book' }] }] }),
    )
    const bad = files.load()
    expect(bad.errors).toHaveLength(1)
    expect(bad.errors[0]).toMatch(/^adapter mine\.json: rules\.0\.emit\.0/)
    expect(bad.errors[0]).toMatch(/the previous version stays in use$/)
    expect(bad.adapters[0]?.title).toBe('Version 1')

    writeFileSync(path, '{ not json')
    const broken = files.load()
    expect(broken.errors[0]).toMatch(/^adapter mine\.json: .*JSON/)
    expect(broken.adapters[0]?.title).toBe('Version 1')

    writeFileSync(path, file('mine', 'Version 3'))
    expect(files.load().adapters[0]?.title).toBe('Version 3')
  })

  it('a new bad file is refused without a previous version, and the others still load', () => {
    const d = folder()
    writeFileSync(join(d, 'a.json'), file('a-venue', 'A'))
    writeFileSync(join(d, 'b.json'), JSON.stringify({ format: 'something-else' }))
    const set = new AdapterFiles(d).load()
    expect(set.errors).toHaveLength(1)
    expect(set.errors[0]).toMatch(/^adapter b\.json: format/)
    expect(set.errors[0]).not.toMatch(/previous version/)
    expect(set.adapters[0]?.name).toBe('a-venue')
  })

  it('a file nested 20,000 deep is refused naming the limit and where, not with a stack overflow', () => {
    const d = folder()
    const deep = '['.repeat(20_000) + ']'.repeat(20_000)
    writeFileSync(join(d, 'deep.json'), file('deep', 'Deep').replace('"docs":[]', `"docs":${deep}`))
    const set = new AdapterFiles(d).load()
    expect(set.errors).toHaveLength(1)
    expect(set.errors[0]).toMatch(/deep\.json/)
    expect(set.errors[0]).toMatch(/nested deeper than 32 levels at docs\./)
    expect(set.errors[0]).not.toMatch(/call stack/)
  })

  it('a file that did not change is not read again (the folder is read at every connection)', () => {
    const d = folder()
    writeFileSync(join(d, 'mine.json'), file('mine', 'Mine'))
    writeFileSync(join(d, 'bad.json'), '{ not json')
    const files = new AdapterFiles(d)
    const first = files.load()
    const second = files.load()
    expect(second.adapters[0]).toBe(first.adapters[0])
    // The bad file is still reported, with the same message, without being parsed again.
    expect(second.errors).toEqual(first.errors)
    expect(second.errors).toHaveLength(1)
  })
})
