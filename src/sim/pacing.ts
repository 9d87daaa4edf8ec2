// The firehose's pace, the same in both dialects: a target message rate spread over a fixed round of synthetic
// books (synthetic.ts), a 10 ms tick at a time. What each message says is the dialect's.
import { firehoseId, isFirehoseId } from './synthetic'

export abstract class PacedFirehose<B> {
  private readonly books = new Map<string, B>()
  private active: B[] = []
  private rate = 0
  private timer: NodeJS.Timeout | null = null
  private startedAt = 0
  private generated = 0
  private cursor = 0
  /** Messages handed to a subscriber so far. */
  sent = 0

  protected abstract makeBook(id: string): B
  /** One message for `book`; `now` is the tick's time, shared by the tick's messages. */
  protected abstract emit(book: B, now: number): void

  /** The synthetic book for an `fh-NNNN` id, created on first use so it can be subscribed before start. */
  get(id: string): B | undefined {
    if (!isFirehoseId(id)) return undefined
    let b = this.books.get(id)
    if (b === undefined) {
      b = this.makeBook(id)
      this.books.set(id, b)
    }
    return b
  }

  get running(): boolean {
    return this.timer !== null
  }

  start(msgsPerSec: number, markets: number): string[] {
    this.stop()
    const ids: string[] = []
    this.active = []
    for (let i = 0; i < markets; i++) {
      const id = firehoseId(i)
      ids.push(id)
      this.active.push(this.get(id) as B)
    }
    this.rate = msgsPerSec
    this.startedAt = performance.now()
    this.generated = 0
    this.cursor = 0
    this.timer = setInterval(() => this.tick(), 10)
    this.timer.unref()
    return ids
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
  }

  private tick(): void {
    const target = Math.floor(((performance.now() - this.startedAt) * this.rate) / 1000)
    let due = target - this.generated
    // After a long event-loop stall, do not try to catch up more than 100 ms worth in one burst.
    const cap = Math.max(1, Math.ceil(this.rate / 10))
    if (due > cap) {
      this.generated = target - cap
      due = cap
    }
    if (due <= 0) return
    const now = Date.now()
    const n = this.active.length
    for (let k = 0; k < due; k++) {
      const b = this.active[this.cursor] as B
      this.cursor = this.cursor + 1 === n ? 0 : this.cursor + 1
      this.emit(b, now)
    }
    this.generated += due
  }
}
