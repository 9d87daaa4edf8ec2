// Which of the tolerant reader's key lists an object has, by the object's shape. The reader asks each object for
// some fifty keys, nearly all absent (each a property lookup), and a feed sends a few shapes of message (the
// same keys in the same order) again and again. So the answer is kept per shape: an object of a known shape costs
// one Object.keys and a compare, then each list is narrowed to the keys the shape has, in the list's order.
//
// Exact: a list narrowed this way holds every key of the list the object owns (Object.keys lists a JSON value's
// own properties, all enumerable), so a reader that takes the first usable key of the list takes the same one.
// Only shapes of up to MAX_KEYS keys are kept, at most MAX_SHAPES of them, a shape is used from its second
// object on, and after a run of misses the table rests a while: frames of huge or ever new shapes (hostile ones)
// take the full lists, as before, at the cost of a compare now and then.

/** A key list the reader probes, with a slot in every shape's answers. */
export interface KeyList {
  readonly keys: readonly string[]
  readonly slot: number
}

let slots = 0

export function keyList(keys: readonly string[]): KeyList {
  return { keys, slot: slots++ }
}

const MAX_KEYS = 32
const MAX_SHAPES = 32

let memoSlots = 0

/** A slot in every shape for what one reader keeps per shape (hints.ts: its last readings). */
export function memoSlot(): number {
  return memoSlots++
}

export class Shape {
  private readonly answers: Array<readonly string[] | undefined> = []
  private readonly memos: unknown[] = []

  constructor(private readonly own: readonly string[]) {}

  /** The keys of `list` this shape has, in the list's order. */
  keys(list: KeyList): readonly string[] {
    let a = this.answers[list.slot]
    if (a === undefined) {
      a = list.keys.filter((k) => this.own.includes(k))
      this.answers[list.slot] = a
    }
    return a
  }

  /** What the reader with this slot keeps for this shape (undefined until it keeps something). */
  memo(slot: number): unknown {
    return this.memos[slot]
  }

  setMemo(slot: number, value: unknown): void {
    this.memos[slot] = value
  }

  matches(own: readonly string[]): boolean {
    const mine = this.own
    if (mine.length !== own.length) return false
    for (let i = 0; i < own.length; i++) if (mine[i] !== own[i]) return false
    return true
  }
}

const shapes: Shape[] = []
let enabled = true
/** Misses in a row; past MISS_LIMIT (ever new shapes, a hostile frame) the table rests for REST objects. */
let misses = 0
let resting = 0
const MISS_LIMIT = 64
const REST = 4096

/** The shape of `o` when it was seen before, or null (new, too many keys to keep, or shapes turned off). */
export function shapeOf(o: Record<string, unknown>): Shape | null {
  if (!enabled) return null
  if (resting > 0) {
    resting -= 1
    return null
  }
  const own = Object.keys(o)
  if (own.length > MAX_KEYS) return miss()
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i] as Shape
    if (!s.matches(own)) continue
    misses = 0
    // The shape seen most often drifts to the front, where the next object of it is matched first.
    if (i > 0) [shapes[i - 1], shapes[i]] = [s, shapes[i - 1] as Shape]
    return s
  }
  // A shape seen for the first time is read with the full lists and only noted: narrowing its lists costs more
  // than it saves unless the shape comes again.
  if (shapes.length === MAX_SHAPES) shapes.pop()
  shapes.push(new Shape(own))
  return miss()
}

function miss(): null {
  misses += 1
  if (misses > MISS_LIMIT) {
    misses = 0
    resting = REST
  }
  return null
}

/** The keys of `list` that `shape` has, or the whole list without a shape. */
export function keysOf(shape: Shape | null, list: KeyList): readonly string[] {
  return shape === null ? list.keys : shape.keys(list)
}

/** Turns the shape table off and on: only for the test that compares the reader with and without it. */
export function useShapes(on: boolean): void {
  enabled = on
  misses = 0
  resting = 0
}
