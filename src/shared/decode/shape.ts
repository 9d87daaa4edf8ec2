// Which of the tolerant reader's key lists an object has, by the object's shape. The reader asks each object for
// some fifty keys, nearly all absent (each a property lookup), and a feed sends a few shapes of message (the
// same keys in the same order) again and again. So the answer is kept per shape: an object of a known shape costs
// one Object.keys and a compare, then each list is narrowed to the keys the shape has, in the list's order.
//
// Exact: a list narrowed this way holds every key of the list the object owns (Object.keys lists a JSON value's
// own properties, all enumerable), so a reader that takes the first usable key of the list takes the same one.
// Only shapes of up to MAX_KEYS keys are kept, at most MAX_SHAPES of them, so hostile frames (huge or ever new
// shapes) cost a bounded compare and otherwise take the full lists.

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

export class Shape {
  private readonly answers: Array<readonly string[] | undefined> = []

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

  matches(own: readonly string[]): boolean {
    const mine = this.own
    if (mine.length !== own.length) return false
    for (let i = 0; i < own.length; i++) if (mine[i] !== own[i]) return false
    return true
  }
}

const shapes: Shape[] = []
let enabled = true

/** The shape of `o`, or null (shapes turned off, or too many keys to keep). */
export function shapeOf(o: Record<string, unknown>): Shape | null {
  if (!enabled) return null
  const own = Object.keys(o)
  if (own.length > MAX_KEYS) return null
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i] as Shape
    if (!s.matches(own)) continue
    // The shape seen most often drifts to the front, where the next object of it is matched first.
    if (i > 0) [shapes[i - 1], shapes[i]] = [s, shapes[i - 1] as Shape]
    return s
  }
  const s = new Shape(own)
  if (shapes.length === MAX_SHAPES) shapes.pop()
  shapes.push(s)
  return s
}

/** The keys of `list` that `shape` has, or the whole list without a shape. */
export function keysOf(shape: Shape | null, list: KeyList): readonly string[] {
  return shape === null ? list.keys : shape.keys(list)
}

/** Turns the shape table off and on: only for the test that compares the reader with and without it. */
export function useShapes(on: boolean): void {
  enabled = on
}
