// The alert chime, played by the platform's own command-line player. Plain Node (no electron import): Electron
// has no main-process audio API, and a window's <audio> would need a window, while alerts fire with every
// window closed.
import { spawn as nodeSpawn } from 'node:child_process'
import type { ChildProcess, SpawnOptions } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Logger } from './services'
import { errorMessage } from './services'

export interface PlayCommand {
  command: string
  args: string[]
}

/** PowerShell single-quoted string: only the quote itself needs escaping (doubled). */
function psQuote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

/** The players to try, in order, for one platform. */
export function playCommands(platform: NodeJS.Platform, file: string): PlayCommand[] {
  switch (platform) {
    case 'darwin':
      return [{ command: 'afplay', args: [file] }]
    case 'win32':
      // Media.SoundPlayer is in every Windows PowerShell; PlaySync keeps the process alive until the sound
      // ends, so "one sound at a time" below holds on Windows too.
      return [
        {
          command: 'powershell.exe',
          args: [
            '-NoProfile',
            '-NonInteractive',
            '-Command',
            `(New-Object Media.SoundPlayer ${psQuote(file)}).PlaySync()`,
          ],
        },
      ]
    default:
      // paplay speaks to PulseAudio and to PipeWire's Pulse server (most desktops); pw-play to PipeWire alone;
      // aplay goes to ALSA directly, the last resort (fails when a sound server holds the device).
      return [
        { command: 'paplay', args: [file] },
        { command: 'pw-play', args: [file] },
        { command: 'aplay', args: ['-q', file] },
      ]
  }
}

export type Spawn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess

export interface SoundPlayerOptions {
  /** The WAV file (resourceFile(roots, 'sounds', 'alert.wav')). */
  file: string
  logger: Logger
  platform?: NodeJS.Platform
  spawn?: Spawn
  exists?: (path: string) => boolean
  /** A player that hangs (a stuck sound server) is killed after this, so that later alerts still sound. */
  timeoutMs?: number
}

export class SoundPlayer {
  private readonly commands: PlayCommand[]
  private readonly platform: NodeJS.Platform
  private readonly spawn: Spawn
  private readonly exists: (path: string) => boolean
  private readonly timeoutMs: number
  private readonly logged = new Set<string>()
  private child: ChildProcess | null = null
  /** The player that worked last time; tried first. */
  private preferred = 0
  /** Every player is missing from this system: stop spawning on each alert. */
  private unavailable = false

  constructor(private readonly options: SoundPlayerOptions) {
    this.platform = options.platform ?? process.platform
    this.commands = playCommands(this.platform, options.file)
    this.spawn = options.spawn ?? nodeSpawn
    this.exists = options.exists ?? existsSync
    this.timeoutMs = options.timeoutMs ?? 10_000
  }

  get playing(): boolean {
    return this.child !== null
  }

  /**
   * Plays the chime unless it is already playing: a burst of alerts sounds once. Never throws; the first
   * failure of each kind is logged, later ones are not (an alert storm must not become a log storm).
   */
  play(): void {
    if (this.child || this.unavailable) return
    try {
      if (!this.exists(this.options.file)) {
        this.logOnce('missing', 'alert sound file missing; alerts stay silent', { file: this.options.file })
        return
      }
      this.tryFrom(this.preferred, 0, [])
    } catch (error) {
      this.logOnce('failed', 'alert sound failed', { error: errorMessage(error) })
    }
  }

  /** Tries the players starting at `index`, wrapping round, `tried` of them so far. */
  private tryFrom(index: number, tried: number, missing: string[]): void {
    if (tried >= this.commands.length) {
      if (missing.length === this.commands.length) {
        this.unavailable = true
        this.logOnce('unavailable', 'no sound player found; alerts stay silent', {
          tried: missing.join(', '),
        })
      } else {
        this.logOnce('failed', 'alert sound could not be played', { tried: tried })
      }
      return
    }
    const at = index % this.commands.length
    const { command, args } = this.commands[at] as PlayCommand
    const next = (why: 'missing' | 'failed'): void =>
      this.tryFrom(at + 1, tried + 1, why === 'missing' ? [...missing, command] : missing)

    let child: ChildProcess
    try {
      child = this.spawn(command, args, {
        stdio: 'ignore',
        // POSIX: its own process group, so that a signal to ours (a terminal's Ctrl+C) doesn't cut the chime.
        // Not on Windows, where a detached process gets a console of its own.
        detached: this.platform !== 'win32',
        windowsHide: true,
      })
    } catch (error) {
      this.logOnce(`spawn:${command}`, 'sound player could not start', {
        command,
        error: errorMessage(error),
      })
      next('failed')
      return
    }
    this.child = child
    let settled = false
    const timer = setTimeout(() => {
      this.logOnce('timeout', 'sound player did not finish; stopped', { command })
      child.kill()
    }, this.timeoutMs)
    timer.unref()
    const settle = (outcome: 'played' | 'missing' | 'failed' | 'stopped'): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      this.child = null
      if (outcome === 'played') this.preferred = at
      else if (outcome !== 'stopped') next(outcome)
    }
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT')
        this.logOnce(`error:${command}`, 'sound player failed', { command, error: error.message })
      settle(error.code === 'ENOENT' ? 'missing' : 'failed')
    })
    child.once('exit', (code, signal) => {
      // Killed by our timeout (or anyone else): it may have played; trying another player would double it.
      if (signal) settle('stopped')
      else settle(code === 0 ? 'played' : 'failed')
    })
    // A sound never keeps the app alive.
    child.unref()
  }

  private logOnce(key: string, text: string, fields: Record<string, string | number>): void {
    if (this.logged.has(key)) return
    this.logged.add(key)
    this.options.logger.warn(text, fields)
  }
}
