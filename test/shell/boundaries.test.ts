// Static guarantees of the shell: the dangerous APIs have exactly one home each.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(__dirname, '../..')

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(name)) out.push(path)
  }
  return out
}

function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(join(root, 'src'))
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file).split('\\').join('/'))
    .sort()
}

describe('source boundaries', () => {
  it('shell.openExternal appears only in src/main/links.ts', () => {
    expect(filesMatching(/\bopenExternal\b/)).toEqual(['src/main/links.ts'])
  })

  it('ipcMain is used only in src/main/ipc.ts', () => {
    expect(filesMatching(/\bipcMain\b/)).toEqual(['src/main/ipc.ts'])
  })

  it('BrowserWindow is constructed only in the window factory', () => {
    expect(filesMatching(/new\s+BrowserWindow\s*\(/)).toEqual(['src/main/windows.ts'])
  })

  it('the preload never hands ipcRenderer to the page', () => {
    const preload = readFileSync(join(root, 'src/preload/index.ts'), 'utf8')
    expect(preload).toMatch(/exposeInMainWorld\('monitor', createMonitorApi\(\)\)/)
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/)
    expect(filesMatching(/exposeInMainWorld/)).toEqual(['src/preload/index.ts'])
  })

  it('nothing turns the web preferences off', () => {
    const banned =
      /(nodeIntegration|nodeIntegrationInWorker|nodeIntegrationInSubFrames|allowRunningInsecureContent|experimentalFeatures|webviewTag)\s*:\s*true|(contextIsolation|sandbox|webSecurity)\s*:\s*false/
    expect(filesMatching(banned)).toEqual([])
  })
})
