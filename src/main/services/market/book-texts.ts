// The text of each market's last whole-book frame, indexed by that text. A venue that sends whole books (VoxFi)
// sends a book that did not change as the very text it sent before: found here by the text alone, it need not be
// parsed or walked again. An entry says which book it was read into and that book's revision then, so anything
// else that touched the book since (a delta, a REST read, stale, resyncing, quiet, a reset) makes it stale: the
// next frame, identical or not, is read and heals the book. One text per market; the book store forgets a market's
// text with its book.

/** What one remembered text stands for. */
export interface BookText<T> {
  market: string
  /** The book the text was read into, and its revision right after: the book as the text leaves it. */
  book: object
  revision: number
  /** What the frame was decoded to, so its other effects (ticker figures, the inspector) can be replayed. */
  decoded: T
}

/** A remembered text with what it stands for. */
interface Slot<T> {
  text: string
  entry: BookText<T>
}

export class BookTexts<T> {
  /**
   * The texts by their length, then compared whole: a Map keyed by the text would hash each frame's 2 KB text
   * (VoxFi's whole books), which costs as much as decoding one; most lengths hold one text or none.
   */
  private readonly byLength = new Map<number, Slot<T>[]>()
  private readonly byMarket = new Map<string, string>()

  get size(): number {
    return this.byMarket.size
  }

  /** The market's last whole-book frame is now `text`; its previous text is forgotten. */
  remember(text: string, entry: BookText<T>): void {
    const previous = this.byMarket.get(entry.market)
    if (previous !== undefined && previous !== text) this.drop(previous)
    const slot = this.slot(text)
    if (slot === undefined) {
      const list = this.byLength.get(text.length)
      if (list === undefined) this.byLength.set(text.length, [{ text, entry }])
      else list.push({ text, entry })
    } else {
      // Another market's entry under the same text (a venue sending ids in no frame) must not stay half-indexed.
      if (slot.entry.market !== entry.market) this.byMarket.delete(slot.entry.market)
      slot.entry = entry
    }
    this.byMarket.set(entry.market, text)
  }

  /** The entry this text was remembered as, whatever has happened to its book since. */
  get(text: string): BookText<T> | undefined {
    // Asked for every frame: with nothing remembered (a venue of deltas, a seek's start), nothing is looked at.
    return this.byMarket.size === 0 ? undefined : this.slot(text)?.entry
  }

  forget(market: string): void {
    const text = this.byMarket.get(market)
    if (text === undefined) return
    this.byMarket.delete(market)
    this.drop(text)
  }

  clear(): void {
    this.byLength.clear()
    this.byMarket.clear()
  }

  private slot(text: string): Slot<T> | undefined {
    const list = this.byLength.get(text.length)
    if (list === undefined) return undefined
    for (const slot of list) if (slot.text === text) return slot
    return undefined
  }

  private drop(text: string): void {
    const list = this.byLength.get(text.length)
    if (list === undefined) return
    const i = list.findIndex((slot) => slot.text === text)
    if (i < 0) return
    if (list.length === 1) this.byLength.delete(text.length)
    else list.splice(i, 1)
  }
}
