// Each market's last whole-book text, found by the text alone (market/book-texts.ts): one text per market, texts of
// one length told apart by their content, a text that moves to another market indexed once.
import { describe, expect, it } from 'vitest'
import { BookTexts, type BookText } from '../../../src/main/services/market/book-texts'

const entry = (market: string, revision = 1): BookText<string> => ({
  market,
  book: {},
  revision,
  decoded: market,
})

describe('BookTexts', () => {
  it('finds a text by its content, not by its length', () => {
    const texts = new BookTexts<string>()
    expect(texts.get('aaaa')).toBeUndefined()
    texts.remember('aaaa', entry('m1'))
    texts.remember('bbbb', entry('m2'))
    expect(texts.get('aaaa')?.market).toBe('m1')
    expect(texts.get('bbbb')?.market).toBe('m2')
    expect(texts.get('cccc')).toBeUndefined()
    expect(texts.size).toBe(2)
  })

  it("keeps one text per market: a market's new text forgets its old one", () => {
    const texts = new BookTexts<string>()
    texts.remember('aaaa', entry('m1'))
    texts.remember('aaab', entry('m1', 2))
    expect(texts.get('aaaa')).toBeUndefined()
    expect(texts.get('aaab')?.revision).toBe(2)
    texts.remember('aaab', entry('m1', 3))
    expect(texts.get('aaab')?.revision).toBe(3)
    expect(texts.size).toBe(1)
  })

  it('a text sent for another market is indexed once, under that market', () => {
    const texts = new BookTexts<string>()
    texts.remember('same', entry('m1'))
    texts.remember('same', entry('m2'))
    expect(texts.get('same')?.market).toBe('m2')
    expect(texts.size).toBe(1)
    // m1 has no text any more: forgetting it leaves m2's.
    texts.forget('m1')
    expect(texts.get('same')?.market).toBe('m2')
    texts.forget('m2')
    expect(texts.get('same')).toBeUndefined()
    expect(texts.size).toBe(0)
  })

  it('forgets a market and its text, and everything on clear', () => {
    const texts = new BookTexts<string>()
    texts.remember('aaaa', entry('m1'))
    texts.remember('bbbb', entry('m2'))
    texts.forget('m1')
    expect(texts.get('aaaa')).toBeUndefined()
    expect(texts.get('bbbb')?.market).toBe('m2')
    texts.clear()
    expect(texts.get('bbbb')).toBeUndefined()
    expect(texts.size).toBe(0)
  })
})
