// Command-line options of the browser host. Settings default to a per-user file, so the web host keeps its
// profiles between runs without touching the desktop app's settings.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export const USAGE =
  'usage: npm run --silent web -- [--port P] [--demo] [--settings FILE|none] [--no-build] [--allow-trading]'

export interface CliOptions {
  port: number
  demo: boolean
  /** null = settings in memory only. */
  settingsPath: string | null
  build: boolean
  /**
   * Whether a page may send live orders to a venue other than the built-in simulator. Off by default: the page's
   * token alone must not be enough to trade real money (docs/trading.md).
   */
  allowTrading: boolean
}

export function defaultSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  const configHome =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0 ? env.XDG_CONFIG_HOME : join(homedir(), '.config')
  return join(configHome, 'trading-monitor', 'web-settings.json')
}

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  const options: CliOptions = {
    port: 0,
    demo: false,
    settingsPath: defaultSettingsPath(env),
    build: true,
    allowTrading: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = (): string => {
      const next = argv[++i]
      if (next === undefined) throw new Error(`${arg} needs a value`)
      return next
    }
    if (arg === '--demo') options.demo = true
    else if (arg === '--no-build') options.build = false
    else if (arg === '--allow-trading') options.allowTrading = true
    else if (arg === '--port') {
      const raw = value()
      const port = Number(raw)
      if (!/^\d+$/.test(raw) || port > 65535) throw new Error(`--port must be an integer 0-65535, got ${raw}`)
      options.port = port
    } else if (arg === '--settings') {
      const file = value()
      options.settingsPath = file === 'none' ? null : resolve(file)
    } else throw new Error(`unknown argument: ${String(arg)}`)
  }
  return options
}
