// The numbers book deltas name their views by, and the deltas themselves, shared by every window in a pass. A
// number stands for one view object of the order book (immutable, and built once per version and depth), so two
// windows that got the same view hold the same number, and the delta between two views is taken once however
// many windows need it (its JSON text is then made once too, batch-json.ts).
import { bookDelta } from '../../../shared/book-delta'
import type { BookDelta, BookView } from '../../../shared/model'

interface Numbered {
  version: number
  /** The view with its number, as a window that takes deltas gets it whole; made when first sent so. */
  whole: BookView | null
  /** The last delta taken to this view, and the view it was taken from (null: none, or it must go whole). */
  from: BookView | null
  delta: BookDelta | null
}

export class BookVersions {
  /** Lives as long as the view does: the order book's cached view, and the windows' last sent ones. */
  private readonly numbered = new WeakMap<BookView, Numbered>()
  private next = 0

  private entry(view: BookView): Numbered {
    let entry = this.numbered.get(view)
    if (entry === undefined) {
      const version = ++this.next
      entry = { version, whole: null, from: null, delta: null }
      this.numbered.set(view, entry)
    }
    return entry
  }

  /** The view whole, with its number. */
  whole(view: BookView): BookView {
    const entry = this.entry(view)
    return (entry.whole ??= { ...view, version: entry.version })
  }

  /** The delta from `before` (a view this numbered earlier) to `after`; null when `after` must go whole. */
  delta(before: BookView, after: BookView): BookDelta | null {
    const entry = this.entry(after)
    if (entry.from !== before) {
      const earlier = this.entry(before)
      entry.from = before
      entry.delta = bookDelta(before, after, earlier.version, entry.version)
      // Otherwise every view would keep the one before it alive, and so on back to the first.
      if (earlier !== entry) {
        earlier.from = null
        earlier.delta = null
      }
    }
    return entry.delta
  }
}
