// The alert chime, resources/sounds/alert.wav, synthesised in pure Node so that the committed file is
// reproducible and carries no third-party licence: two soft bell tones (C6 then G6), 0.35 s, 22.05 kHz 16-bit
// mono PCM, the most widely playable WAV (afplay, paplay, pw-play, aplay and Media.SoundPlayer all read it).
// Usage: node scripts/make-sound.mjs [--check]   (--check: exit 1 when the committed file is out of date)
import { isMain, writeOrCheck } from './lib/generated.mjs'

export const SOUND_PATH = 'resources/sounds/alert.wav'
export const SAMPLE_RATE = 22_050
export const DURATION_S = 0.35
// Scales the mix so that the loudest sample sits near 0.45 of full scale (about -7 dBFS): an alert should be
// noticed, not startle, and the OS volume still applies on top.
export const LEVEL = 0.75

// Each tone: a sine with a quiet octave partial (a bell, not a beep), a 4 ms attack to avoid a click and an
// exponential decay. The second tone starts as the first fades, so the two read as one "ding-dong".
const TONES = [
  { freq: 1046.5, start: 0, decay: 0.07, gain: 0.55 },
  { freq: 1568.0, start: 0.11, decay: 0.09, gain: 0.5 },
]
const ATTACK_S = 0.004
const FADE_OUT_S = 0.03

/** The chime as 16-bit samples. Deterministic: only Math.sin/Math.exp of fixed inputs, rounded to integers. */
export function synthesise() {
  const count = Math.round(SAMPLE_RATE * DURATION_S)
  const samples = new Int16Array(count)
  for (let i = 0; i < count; i++) {
    const t = i / SAMPLE_RATE
    let value = 0
    for (const tone of TONES) {
      const local = t - tone.start
      if (local < 0) continue
      const envelope = Math.min(1, local / ATTACK_S) * Math.exp(-local / tone.decay)
      const phase = 2 * Math.PI * tone.freq * local
      value += tone.gain * envelope * (Math.sin(phase) + 0.2 * Math.sin(2 * phase))
    }
    const fade = Math.min(1, (DURATION_S - t) / FADE_OUT_S)
    samples[i] = Math.round(Math.max(-1, Math.min(1, value * LEVEL * fade)) * 32767)
  }
  return samples
}

/** A canonical 44-byte-header RIFF/WAVE file of 16-bit mono PCM. */
export function encodeWav(samples, sampleRate = SAMPLE_RATE) {
  const data = Buffer.alloc(samples.length * 2)
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(samples[i], i * 2)
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'ascii')
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVE', 8, 'ascii')
  header.write('fmt ', 12, 'ascii')
  header.writeUInt32LE(16, 16) // fmt chunk size
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * 2, 28) // byte rate
  header.writeUInt16LE(2, 32) // block align
  header.writeUInt16LE(16, 34) // bits per sample
  header.write('data', 36, 'ascii')
  header.writeUInt32LE(data.length, 40)
  return Buffer.concat([header, data])
}

/** Every output file: { path (relative to the repo), data }. */
export function buildSound() {
  return [{ path: SOUND_PATH, data: encodeWav(synthesise()) }]
}

if (isMain(import.meta.url)) writeOrCheck(buildSound(), 'sound', 'scripts/make-sound.mjs')
