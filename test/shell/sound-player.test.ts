// The alert chime: which player runs on which platform (with a fake spawn), fallbacks, one sound at a time,
// failures logged once and never thrown, where the file is in packaged and development builds, and the
// committed WAV being exactly what scripts/make-sound.mjs makes.
import { EventEmitter } from 'node:events'
import { spawn as realSpawn } from 'node:child_process'
import type { ChildProcess, SpawnOptions } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resourceFile } from '../../src/main/resources'
import { SoundPlayer, playCommands } from '../../src/main/sound-player'
// @ts-expect-error -- plain .mjs script without type declarations
import * as makeSound from '../../scripts/make-sound.mjs'

const root = join(__dirname, '../..')
const sound = makeSound as {
  buildSound(): { path: string; data: Buffer }[]
  SAMPLE_RATE: number
  DURATION_S: number
}

class FakeChild extends EventEmitter {
  unrefed = false
  killed = false
  unref(): void {
    this.unrefed = true
  }
  kill(): boolean {
    this.killed = true
    this.emit('exit', null, 'SIGTERM')
    return true
  }
  /** The player finished (0) or failed (other codes). */
  exit(code: number): void {
    this.emit('exit', code, null)
  }
  /** What Node emits when the command does not exist. */
  notFound(): void {
    this.emit('error', Object.assign(new Error('spawn ENOENT'), { code: 'ENOENT' }))
  }
}

interface Spawned {
  command: string
  args: readonly string[]
  options: SpawnOptions
  child: FakeChild
}

let spawned: Spawned[]
let warnings: { message: string; fields: unknown }[]
const logger = {
  info: () => undefined,
  warn: (message: string, fields?: unknown) => warnings.push({ message, fields }),
  error: (message: string, fields?: unknown) => warnings.push({ message, fields }),
}
const spawn = (command: string, args: readonly string[], options: SpawnOptions): ChildProcess => {
  const child = new FakeChild()
  spawned.push({ command, args, options, child })
  return child as unknown as ChildProcess
}
function last(): Spawned {
  const s = spawned.at(-1)
  if (!s) throw new Error('nothing spawned')
  return s
}
function player(
  platform: NodeJS.Platform,
  extra: Partial<ConstructorParameters<typeof SoundPlayer>[0]> = {},
) {
  return new SoundPlayer({
    file: '/res/sounds/alert.wav',
    logger,
    platform,
    spawn,
    exists: () => true,
    ...extra,
  })
}

beforeEach(() => {
  spawned = []
  warnings = []
})

describe('player per platform', () => {
  it('macOS: afplay', () => {
    player('darwin').play()
    expect(spawned.map((s) => [s.command, ...s.args])).toEqual([['afplay', '/res/sounds/alert.wav']])
  })

  it('Windows: PowerShell Media.SoundPlayer, PlaySync, no console window, not detached', () => {
    player('win32').play()
    expect(last().command).toBe('powershell.exe')
    expect(last().args).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      "(New-Object Media.SoundPlayer '/res/sounds/alert.wav').PlaySync()",
    ])
    expect(last().options).toMatchObject({ windowsHide: true, detached: false, stdio: 'ignore' })
  })

  it("Windows: a quote in the path cannot break out of PowerShell's string", () => {
    const [command] = playCommands('win32', "C:\\Users\\O'Brien\\alert.wav")
    expect(command?.args.at(-1)).toBe(
      "(New-Object Media.SoundPlayer 'C:\\Users\\O''Brien\\alert.wav').PlaySync()",
    )
  })

  it('Linux: paplay first, then pw-play, then aplay', () => {
    expect(playCommands('linux', '/f.wav')).toEqual([
      { command: 'paplay', args: ['/f.wav'] },
      { command: 'pw-play', args: ['/f.wav'] },
      { command: 'aplay', args: ['-q', '/f.wav'] },
    ])
  })

  it('spawns detached (POSIX), ignoring stdio, and unref’d so that a sound never keeps the app alive', () => {
    player('linux').play()
    expect(last().options).toMatchObject({ detached: true, stdio: 'ignore' })
    expect(last().child.unrefed).toBe(true)
  })
})

describe('fallbacks and failures', () => {
  it('Linux: a missing paplay falls through to pw-play, which is then preferred', () => {
    const p = player('linux')
    p.play()
    last().child.notFound()
    expect(last().command).toBe('pw-play')
    last().child.exit(0)
    p.play()
    expect(last().command).toBe('pw-play')
    expect(spawned).toHaveLength(3)
    expect(warnings).toEqual([])
  })

  it('Linux: paplay failing (no sound server) falls through to the next player', () => {
    player('linux').play()
    last().child.exit(1)
    expect(last().command).toBe('pw-play')
  })

  it('no player installed: logged once, then no more spawning', () => {
    const p = player('linux')
    p.play()
    for (let i = 0; i < 3; i++) last().child.notFound()
    expect(spawned.map((s) => s.command)).toEqual(['paplay', 'pw-play', 'aplay'])
    p.play()
    p.play()
    expect(spawned).toHaveLength(3)
    expect(warnings.map((w) => w.message)).toEqual(['no sound player found; alerts stay silent'])
  })

  it('every player failing: logged once, tried again on the next alert', () => {
    const p = player('darwin')
    p.play()
    last().child.exit(1)
    p.play()
    last().child.exit(1)
    expect(spawned).toHaveLength(2)
    expect(warnings.map((w) => w.message)).toEqual(['alert sound could not be played'])
  })

  it('a missing file: logged once, nothing spawned, no throw', () => {
    const p = player('darwin', { exists: () => false })
    expect(() => {
      p.play()
      p.play()
    }).not.toThrow()
    expect(spawned).toEqual([])
    expect(warnings).toEqual([
      { message: 'alert sound file missing; alerts stay silent', fields: { file: '/res/sounds/alert.wav' } },
    ])
  })

  it('a spawn that throws is caught and logged', () => {
    const p = new SoundPlayer({
      file: '/f.wav',
      logger,
      platform: 'darwin',
      exists: () => true,
      spawn: () => {
        throw new Error('EAGAIN')
      },
    })
    expect(() => p.play()).not.toThrow()
    expect(warnings.map((w) => w.message)).toContain('sound player could not start')
    expect(p.playing).toBe(false)
  })

  it('the real spawn with a player that does not exist: no throw, no unhandled error', async () => {
    const p = new SoundPlayer({
      file: '/f.wav',
      logger,
      platform: 'darwin',
      exists: () => true,
      spawn: (_command, args, options) => realSpawn('tm-no-such-player-for-test', args, options),
    })
    expect(() => p.play()).not.toThrow()
    await vi.waitFor(() => expect(p.playing).toBe(false))
    expect(warnings.map((w) => w.message)).toEqual(['no sound player found; alerts stay silent'])
  })
})

describe('one sound at a time', () => {
  it('a burst of alerts plays once; the next alert after it ends plays again', () => {
    const p = player('darwin')
    for (let i = 0; i < 10; i++) p.play()
    expect(spawned).toHaveLength(1)
    expect(p.playing).toBe(true)
    last().child.exit(0)
    expect(p.playing).toBe(false)
    p.play()
    expect(spawned).toHaveLength(2)
  })

  it('a player that hangs is killed after the timeout, and not replaced by another player', () => {
    vi.useFakeTimers()
    try {
      const p = player('linux', { timeoutMs: 1_000 })
      p.play()
      vi.advanceTimersByTime(1_000)
      expect(spawned[0]?.child.killed).toBe(true)
      expect(spawned).toHaveLength(1)
      expect(p.playing).toBe(false)
      expect(warnings.map((w) => w.message)).toEqual(['sound player did not finish; stopped'])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('where the sound file is', () => {
  it('packaged: <resourcesPath>/sounds/alert.wav (electron-builder extraResources)', () => {
    const roots = { packaged: true, resourcesPath: '/opt/Trading Monitor/resources', appPath: '/ignored' }
    expect(resourceFile(roots, 'sounds', 'alert.wav')).toBe(
      join('/opt/Trading Monitor/resources', 'sounds', 'alert.wav'),
    )
  })

  it('development: the repository’s resources/sounds/alert.wav, which exists', () => {
    const roots = { packaged: false, resourcesPath: '/electron/dist/resources', appPath: root }
    const file = resourceFile(roots, 'sounds', 'alert.wav')
    expect(file).toBe(join(root, 'resources', 'sounds', 'alert.wav'))
    expect(existsSync(file)).toBe(true)
  })
})

describe('the committed chime', () => {
  it('is exactly what scripts/make-sound.mjs makes', () => {
    for (const { path, data } of sound.buildSound()) {
      expect(
        readFileSync(join(root, path)).equals(data),
        `${path} is stale: run node scripts/make-sound.mjs`,
      ).toBe(true)
    }
  })

  it('is a small 16-bit mono 22.05 kHz PCM WAV of about 0.35 s that starts and ends at silence', () => {
    const wav = readFileSync(join(root, 'resources/sounds/alert.wav'))
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF')
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8)
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ')
    expect(wav.readUInt16LE(20)).toBe(1) // PCM
    expect(wav.readUInt16LE(22)).toBe(1) // mono
    expect(wav.readUInt32LE(24)).toBe(22_050)
    expect(wav.readUInt16LE(34)).toBe(16)
    expect(wav.toString('ascii', 36, 40)).toBe('data')
    const samples = wav.readUInt32LE(40) / 2
    expect(samples / 22_050).toBeCloseTo(0.35, 2)
    expect(wav.length).toBeLessThan(20_000)
    let peak = 0
    for (let i = 0; i < samples; i++) peak = Math.max(peak, Math.abs(wav.readInt16LE(44 + i * 2)))
    // Audible, but never near clipping.
    expect(peak / 32767).toBeGreaterThan(0.2)
    expect(peak / 32767).toBeLessThan(0.6)
    expect(Math.abs(wav.readInt16LE(44))).toBeLessThan(100)
    expect(Math.abs(wav.readInt16LE(wav.length - 2))).toBeLessThan(100)
  })
})
