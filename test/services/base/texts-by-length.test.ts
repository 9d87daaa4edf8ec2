import { describe, expect, it } from 'vitest'
import { TextsByLength } from '../../../src/main/services/base/texts-by-length'

describe('TextsByLength', () => {
  it('tells texts of one length apart and finds each by its whole text', () => {
    const texts = new TextsByLength<number>()
    texts.set('abc', 1)
    texts.set('abd', 2)
    texts.set('abcd', 3)
    expect([texts.get('abc'), texts.get('abd'), texts.get('abcd'), texts.get('abe')]).toEqual([
      1,
      2,
      3,
      undefined,
    ])
    expect(texts.size).toBe(3)
    // Built from pieces, so not the same string object: found by its characters.
    expect(texts.get(['a', 'b', 'c'].join(''))).toBe(1)
  })

  it('replaces the value of a text set again, without counting it twice', () => {
    const texts = new TextsByLength<string>()
    texts.set('x', 'old')
    texts.set('x', 'new')
    expect(texts.get('x')).toBe('new')
    expect(texts.size).toBe(1)
  })

  it('deletes a text, or only while it stands for the value given', () => {
    const texts = new TextsByLength<object>()
    const a = {}
    const b = {}
    texts.set('same', a)
    texts.set('sane', b)
    expect(texts.delete('same', b)).toBe(false)
    expect(texts.get('same')).toBe(a)
    expect(texts.delete('same', a)).toBe(true)
    expect(texts.get('same')).toBeUndefined()
    expect(texts.get('sane')).toBe(b)
    expect(texts.delete('sane')).toBe(true)
    expect(texts.delete('sane')).toBe(false)
    expect(texts.size).toBe(0)
    texts.set('q', a)
    texts.clear()
    expect([texts.size, texts.get('q')]).toEqual([0, undefined])
  })
})
