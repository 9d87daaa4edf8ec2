// The text of each market's last whole-book frame, indexed by that text. A venue that sends whole books (VoxFi)
// sends a book that did not change as the very text it sent before: found here by the text alone, it need not be
// parsed or walked again. An entry says which book it was read into and that book's revision then, so anything
// else that touched the book since (a delta, a REST read, stale, resyncing, quiet, a reset) makes it stale: the
// next frame, identical or not, is read and heals the book. One text per market; the book store forgets a market's
// text with its book.
import { TextsByLength } from '../base/texts-by-length'

/** What one remembered text stands for. */
export interface BookText<T> {
  market: string
  /** The book the text was read into, and its revision right after: the book as the text leaves it. */
  book: object
  revision: number
  /** What the frame was decoded to, so its other effects (ticker figures, the inspector) can be replayed. */
  decoded: T
}

export class BookTexts<T> {
  private readonly byText = new TextsByLength<BookText<T>>()
  private readonly byMarket = new Map<string, string>()

  get size(): number {
    return this.byMarket.size
  }

  /** The market's last whole-book frame is now `text`; its previous text is forgotten. */
  remember(text: string, entry: BookText<T>): void {
    const previous = this.byMarket.get(entry.market)
    if (previous !== undefined && previous !== text) this.byText.delete(previous)
    // Another market's entry under the same text (a venue sending ids in no frame) must not stay half-indexed.
    const other = this.byText.get(text)
    if (other !== undefined && other.market !== entry.market) this.byMarket.delete(other.market)
    this.byText.set(text, entry)
    this.byMarket.set(entry.market, text)
  }

  /** The entry this text was remembered as, whatever has happened to its book since. */
  get(text: string): BookText<T> | undefined {
    return this.byText.get(text)
  }

  forget(market: string): void {
    const text = this.byMarket.get(market)
    if (text === undefined) return
    this.byMarket.delete(market)
    this.byText.delete(text)
  }

  clear(): void {
    this.byText.clear()
    this.byMarket.clear()
  }
}
