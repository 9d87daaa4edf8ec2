// The layering of DESIGN §2 and the static security rules are enforced by eslint.config.mjs; this pins them, so a
// config edit cannot silently switch a rule off. Each snippet is linted as if it lived at the given path.
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function messages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`)
}

describe('lint enforces the layering and the security checklist', () => {
  it.each([
    ['src/shared/x.ts', "import { app } from 'electron'\nexport const x = app\n", 'no-restricted-imports'],
    ['src/shared/x.ts', "import fs from 'node:fs'\nexport const x = fs\n", 'no-restricted-imports'],
    ['src/shared/x.ts', 'export const x = window.location\n', 'no-restricted-globals'],
    [
      'src/main/services/x.ts',
      "import { app } from 'electron'\nexport const x = app\n",
      'no-restricted-imports',
    ],
    ['src/main/web/x.ts', "import { app } from 'electron'\nexport const x = app\n", 'no-restricted-imports'],
    ['src/sim/x.ts', "import { app } from 'electron'\nexport const x = app\n", 'no-restricted-imports'],
    [
      'src/main/x.ts',
      "import { ipcMain } from 'electron'\nexport const x = ipcMain\n",
      'no-restricted-imports',
    ],
    [
      'src/main/services/settings/store.ts',
      "import { Entry } from '@napi-rs/keyring'\nexport const x = Entry\n",
      'no-restricted-imports',
    ],
    [
      'src/renderer/x.ts',
      "import { BookStore } from '../main/services/market/books'\nexport const x = BookStore\n",
      'no-restricted-imports',
    ],
    // The engine's rooms point one way (docs/architecture.md), and its callers use the door.
    [
      'src/main/services/health/x.ts',
      "import { A } from '../feed/stream'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'src/main/services/feed/x.ts',
      "import { A } from '../market/books'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'src/main/services/base/x.ts',
      "import { A } from '../health/status'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'src/main/services/alerts/x.ts',
      "import { A } from '../fanout/fanout'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'src/main/services/market/x.ts',
      "import { A } from '../monitor'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'src/main/x.ts',
      "import { A } from './services/monitor'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'src/main/web/x.ts',
      "import { A } from '../services/feed/rest'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'bench/x.ts',
      "import { A } from '../src/main/services/monitor'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    // The renderer's folders point one way, and a feature reaches another only through its door.
    ...[
      ['src/renderer/ui/x.tsx', '../features/market/MarketPane'],
      ['src/renderer/ui/x.tsx', '../features/market'],
      ['src/renderer/ui/x.tsx', '../store/monitor'],
      ['src/renderer/lib/x.ts', '../features/workspace/window-state'],
      ['src/renderer/lib/x.ts', '../store/monitor'],
      ['src/renderer/store/x.ts', '../features/workspace/window-state'],
      ['src/renderer/store/x.ts', '../hooks/context'],
      ['src/renderer/store/x.ts', '../api/alert-delivery'],
      ['src/renderer/api/x.ts', '../hooks/context'],
      ['src/renderer/hooks/x.ts', '../views/MainView'],
      ['src/renderer/hooks/x.ts', '../features/alerts'],
      ['src/renderer/features/events/x.tsx', '../market/MarketPane'],
      ['src/renderer/features/events/x.tsx', '../workspace/index'],
      ['src/renderer/features/events/x.tsx', '../../views/MainView'],
      ['src/renderer/features/events/x.tsx', '../../features/market/MarketPane'],
    ].map(([file, from]): [string, string, string] => [
      file!,
      `import { A } from '${from!}'\nexport const x = A\n`,
      'no-restricted-imports',
    ]),
    [
      'src/renderer/features/events/x.tsx',
      "import { A } from '../../../main/services/market/books'\nexport const x = A\n",
      'no-restricted-imports',
    ],
    [
      'src/main/x.ts',
      'export const w = { webPreferences: { nodeIntegration: true } }\n',
      'no-restricted-syntax',
    ],
    [
      'src/main/x.ts',
      'export const w = { webPreferences: { contextIsolation: false } }\n',
      'no-restricted-syntax',
    ],
    ['src/main/x.ts', 'export const w = { webPreferences: { sandbox: false } }\n', 'no-restricted-syntax'],
    [
      'src/main/x.ts',
      'export const w = { webPreferences: { webSecurity: false } }\n',
      'no-restricted-syntax',
    ],
    [
      'src/main/x.ts',
      "export const w = { webPreferences: { enableBlinkFeatures: 'X' } }\n",
      'no-restricted-syntax',
    ],
  ])('%s: %s is refused', async (file, code, rule) => {
    const found = await messages(file, code)
    expect(
      found.some((m) => m.startsWith(`${rule}:`)),
      found.join('\n'),
    ).toBe(true)
  })

  it.each([
    ['src/main/ipc.ts', "import { ipcMain } from 'electron'\nexport const x = ipcMain\n"],
    [
      'src/main/services/credentials/store.ts',
      "import { Entry } from '@napi-rs/keyring'\nexport const x = Entry\n",
    ],
    ['src/preload/index.ts', "import { contextBridge } from 'electron'\nexport const x = contextBridge\n"],
    ['src/main/services/market/x.ts', "import { A } from '../feed/rest'\nexport const x = A\n"],
    ['src/main/services/settings/x.ts', "import { A } from '../credentials/store'\nexport const x = A\n"],
    ['src/main/services/x.ts', "import { A } from './alerts/service'\nexport const x = A\n"],
    ['src/main/x.ts', "import { A } from './services'\nexport const x = A\n"],
    ...[
      ['src/renderer/features/events/x.tsx', '../market'],
      ['src/renderer/features/events/x.tsx', './EventMeta'],
      ['src/renderer/features/events/x.tsx', '../../store/monitor'],
      ['src/renderer/features/events/x.tsx', '../../ui/Dialog'],
      ['src/renderer/features/events/x.tsx', '../../hooks/context'],
      ['src/renderer/features/events/x.tsx', '../../api'],
      ['src/renderer/features/events/x.tsx', '../../lib/format'],
      ['src/renderer/features/events/x.tsx', '../../../shared/model'],
      ['src/renderer/ui/x.tsx', '../hooks/dialog'],
      ['src/renderer/hooks/x.ts', '../api/alert-delivery'],
      ['src/renderer/api/x.ts', '../store/alerts-ui'],
      ['src/renderer/store/x.ts', '../lib/market-names'],
      ['src/renderer/views/x.tsx', '../features/workspace/Workspace'],
      ['src/renderer/main.tsx', './features/workspace/window-state'],
    ].map(([file, from]): [string, string] => [file!, `import { A } from '${from!}'\nexport const x = A\n`]),
  ])('%s may do what it exists for', async (file, code) => {
    const found = await messages(file, code)
    expect(
      found.filter((m) => m.startsWith('no-restricted')),
      found.join('\n'),
    ).toEqual([])
  })
})
