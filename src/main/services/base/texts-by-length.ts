// A map keyed by frame texts that never hashes them. A Map keyed by a string makes V8 hash the whole string on
// its first lookup, and a venue's frame is looked up once before anything else reads it: for VoxFi's 2 KB whole
// books that hash costs about as much as decoding the frame. Texts are found by their length first, then
// compared whole; most lengths hold one text or none, and a comparison stops at the first differing character.

/** A value per text, found by the text's length and then by comparing it whole. */
export class TextsByLength<V> {
  private readonly byLength = new Map<number, Array<{ text: string; value: V }>>()
  private count = 0

  get size(): number {
    return this.count
  }

  get(text: string): V | undefined {
    if (this.count === 0) return undefined
    const list = this.byLength.get(text.length)
    if (list === undefined) return undefined
    for (const slot of list) if (slot.text === text) return slot.value
    return undefined
  }

  /** `text` now stands for `value` (whatever it stood for before is replaced). */
  set(text: string, value: V): void {
    const list = this.byLength.get(text.length)
    if (list === undefined) {
      this.byLength.set(text.length, [{ text, value }])
      this.count += 1
      return
    }
    for (const slot of list) {
      if (slot.text !== text) continue
      slot.value = value
      return
    }
    list.push({ text, value })
    this.count += 1
  }

  /** Forgets `text`; with `only`, only while the text still stands for that very value. */
  delete(text: string, only?: V): boolean {
    const list = this.byLength.get(text.length)
    if (list === undefined) return false
    const i = list.findIndex((slot) => slot.text === text && (only === undefined || slot.value === only))
    if (i < 0) return false
    if (list.length === 1) this.byLength.delete(text.length)
    else list.splice(i, 1)
    this.count -= 1
    return true
  }

  clear(): void {
    this.byLength.clear()
    this.count = 0
  }
}
