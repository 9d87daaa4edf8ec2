// The replay's frame store gives back every frame's text exactly: blocks of only ASCII are read as latin1 (cheaper
// than the UTF-8 decoder, for a seek through a million frames), any other block as UTF-8.
import { describe, expect, it } from 'vitest'
import { FrameStore } from '../../../src/main/services/recording/frame-store'

const ascii = (i: number): string =>
  JSON.stringify({ channel: 'market', type: 'orderbook_delta', market: `VX-${i % 20}`, seq: i, price: 0.45 })
const wide = ['é', '€ 1,00', '😀', '市場', 'naïve \u00ff', '\u0080'] as const

describe('FrameStore', () => {
  it('gives back ASCII and non-ASCII frames exactly, across blocks, in order and out of order', () => {
    const texts: string[] = []
    // About 3.5 MiB: three blocks of ASCII only, then blocks where a few frames are not ASCII.
    for (let i = 0; i < 30_000; i++) texts.push(ascii(i))
    for (let i = 0; i < 10_000; i++)
      texts.push(i % 997 === 0 ? `${ascii(i)}${wide[i % wide.length]}` : ascii(i))
    texts.push(...wide)
    const store = FrameStore.from(texts.map((f, t) => ({ t, f })))
    expect(store.length).toBe(texts.length)
    const read: string[] = []
    for (let i = 0; i < texts.length; i++) read.push(store.text(i))
    expect(read).toEqual(texts)
    for (let i = texts.length - 1; i >= 0; i -= 7919) expect(store.text(i)).toBe(texts[i])
    expect(store.t(12_345)).toBe(12_345)
  })

  it('a frame that is not ASCII in the middle of an ASCII block', () => {
    const texts = ['{"a":1}', '{"b":"ü"}', '{"c":3}']
    const store = FrameStore.from(texts.map((f, t) => ({ t, f })))
    expect(store.toArray().map((r) => r.f)).toEqual(texts)
  })
})
