// Lint also enforces the layering of DESIGN §2 and the static part of Electron's security checklist.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import prettier from 'eslint-config-prettier'
import globals from 'globals'

const electronMsg = 'Only src/main/*.ts and src/preload may import electron (DESIGN §2).'
const electronBan = { name: 'electron', message: electronMsg }
const electronSubBan = { group: ['electron/*'], message: electronMsg }
// The engine's rooms (docs/architecture.md): each folder under src/main/services may import only the rooms below
// it; the top level (monitor, wiring/, frames, clients, options, index) builds and serves them, and the shells
// reach it only through index.ts.
const rooms = {
  base: [],
  health: ['base'],
  feed: ['base', 'health'],
  market: ['base', 'health', 'feed'],
  credentials: ['base', 'health', 'feed'],
  account: ['base', 'health', 'feed', 'market'],
  alerts: ['base', 'health', 'feed', 'market'],
  fanout: ['base'],
  recording: ['base'],
  settings: ['base', 'health', 'feed', 'credentials'],
  orders: ['base', 'health', 'feed', 'market', 'account'],
}
const topLevel = ['monitor', 'frames', 'clients', 'index', 'options', 'wiring/*']
const doorOnly = {
  group: ['**/services/**'],
  message: 'Outside the engine, import src/main/services only through its door, services/index.ts.',
}
function roomRule(room) {
  const forbidden = Object.keys(rooms).filter((r) => r !== room && !rooms[room].includes(r))
  return {
    group: [...forbidden.map((r) => `../${r}/*`), ...topLevel.map((t) => `../${t}`)],
    message: `services/${room} may import only ${rooms[room].length ? rooms[room].join(', ') : 'nothing else in services'} (rooms point one way; docs/architecture.md).`,
  }
}
// The renderer's folders point one way (docs/architecture.md, "Renderer folders"): lib/ is pure, store/ holds
// state, api/ talks to the engine, hooks/ give components both, ui/ draws widgets with no feature of their own.
// A feature (features/<name>/) may use all of these, and another feature only through its door,
// features/<name>/index.ts; views/ and the entry files put features together. Folders are flat, so a path's
// first step names the folder it lands in.
const rendererRooms = {
  lib: [],
  store: ['lib'],
  api: ['lib', 'store'],
  hooks: ['lib', 'store', 'api'],
  ui: ['lib', 'hooks'],
}
const rendererFolders = ['lib', 'store', 'api', 'hooks', 'ui', 'features', 'views']
const rendererBase = [
  { group: ['node:*'], message: 'The renderer has no Node.' },
  {
    group: ['**/main/**', '**/sim/**', '**/preload/**'],
    message: 'The renderer reaches main only through MonitorApi.',
  },
]
function rendererRoomRule(room) {
  const allowed = rendererRooms[room]
  const forbidden = rendererFolders.filter((f) => f !== room && !allowed.includes(f))
  return {
    regex: `^\\.\\./(${forbidden.join('|')})(/|$)`,
    message: `renderer/${room} may import only ${allowed.length ? allowed.join(', ') : 'nothing else in the renderer'} (the renderer's folders point one way; docs/architecture.md).`,
  }
}
const featureRules = [
  {
    // `../market` (the door) passes; `../market/MarketPane` does not.
    regex: '^\\.\\./[^./][^/]*/',
    message:
      "A feature uses another feature only through its door, features/<name>/index.ts: import '../<name>'.",
  },
  {
    regex: '^\\.\\./\\.\\./(views|features)(/|$)',
    message: 'A feature imports no view; another feature only through its door (../<name>).',
  },
]
const keyringBan = {
  name: '@napi-rs/keyring',
  message: 'Only src/main/services/credentials/ touches the keychain (DESIGN §2).',
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'release/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'docs/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='nodeIntegration'][value.value=true]",
          message: 'nodeIntegration must stay off (DESIGN §5).',
        },
        {
          selector: "Property[key.name='nodeIntegrationInWorker'][value.value=true]",
          message: 'nodeIntegrationInWorker must stay off (DESIGN §5).',
        },
        {
          selector: "Property[key.name='nodeIntegrationInSubFrames'][value.value=true]",
          message: 'nodeIntegrationInSubFrames must stay off (DESIGN §5).',
        },
        {
          selector: "Property[key.name='contextIsolation'][value.value=false]",
          message: 'contextIsolation must stay on (DESIGN §5).',
        },
        {
          selector: "Property[key.name='sandbox'][value.value=false]",
          message: 'sandbox must stay on (DESIGN §5).',
        },
        {
          selector: "Property[key.name='webSecurity'][value.value=false]",
          message: 'webSecurity must stay on (DESIGN §5).',
        },
        {
          selector: "Property[key.name='allowRunningInsecureContent'][value.value=true]",
          message: 'Insecure content must stay blocked (DESIGN §5).',
        },
        {
          selector: "Property[key.name='experimentalFeatures'][value.value=true]",
          message: 'Experimental features stay off (Electron checklist).',
        },
        {
          selector: "Property[key.name='enableBlinkFeatures']",
          message: 'Do not enable Blink features (Electron checklist).',
        },
        {
          selector: "Property[key.name='webviewTag'][value.value=true]",
          message: 'webview stays off (Electron checklist).',
        },
      ],
    },
  },
  // Layering (DESIGN §2). Later blocks override earlier ones for the same rule, so each area states its whole list.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx', 'bench/**', 'test/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [keyringBan], patterns: [] }] },
  },
  {
    files: ['src/main/services/**', 'src/sim/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronBan, keyringBan], patterns: [electronSubBan] }],
    },
  },
  {
    files: ['src/main/web/**', 'bench/**', 'scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [electronBan, keyringBan], patterns: [electronSubBan, doorOnly] },
      ],
    },
  },
  ...Object.keys(rooms).map((room) => ({
    files: [`src/main/services/${room}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: room === 'credentials' ? [electronBan] : [electronBan, keyringBan],
          patterns: [electronSubBan, roomRule(room)],
        },
      ],
    },
  })),
  // Electron glue: raw ipcMain only in the typed wrapper.
  {
    files: ['src/main/*.ts'],
    ignores: ['src/main/ipc.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            keyringBan,
            {
              name: 'electron',
              importNames: ['ipcMain'],
              message: 'Bind IPC only through src/main/ipc.ts (DESIGN §5).',
            },
          ],
          patterns: [doorOnly],
        },
      ],
    },
  },
  // src/shared is pure: no node: modules, no DOM, no electron.
  {
    files: ['src/shared/**'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan, keyringBan, 'ws', 'react', 'react-dom'],
          patterns: [
            electronSubBan,
            {
              group: [
                'node:*',
                'fs',
                'path',
                'os',
                'http',
                'https',
                'net',
                'crypto',
                'child_process',
                'worker_threads',
              ],
              message: 'src/shared is environment-free (DESIGN §2).',
            },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/sim/**'],
              message: 'src/shared imports only src/shared.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'process', 'Buffer', 'require'],
    },
  },
  // The renderer reaches main only through MonitorApi.
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan, keyringBan],
          patterns: [electronSubBan, ...rendererBase],
        },
      ],
    },
  },
  ...Object.keys(rendererRooms).map((room) => ({
    files: [`src/renderer/${room}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan, keyringBan],
          patterns: [electronSubBan, ...rendererBase, rendererRoomRule(room)],
        },
      ],
    },
  })),
  {
    files: ['src/renderer/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [electronBan, keyringBan], patterns: [electronSubBan, ...rendererBase, ...featureRules] },
      ],
    },
  },
  prettier,
)
