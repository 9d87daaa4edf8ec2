// Continuous scrolling of one scroll container in the page, for the UI benchmark: selector in, fps out. A
// requestAnimationFrame loop moves the container's scrollTop by a fixed step every frame, down to the bottom and
// back up, over and over, and keeps the frame times. Every SAMPLE_EVERY frames it also checks, before moving,
// that rows cover the top and the bottom of the container's box (a virtualised list that falls behind shows
// blank space there). The loop runs only between start and stop. Used for the virtualised tape (`tape-scroll`
// scenario); a watchlist or any other list takes the same two calls with its own selectors.
//
// In-page code is script text, as in probe.ts: the Node typecheck has no DOM types, and a function handed to
// Playwright would be serialised after tsx's transform.
import type { Page } from '@playwright/test'
import { round, SampleSet } from '../lib/stats'

export interface ScrollOptions {
  /** The scroll container (its scrollTop is moved). */
  selector: string
  /** What counts as a row inside it, for the blank check; default: any element child of the container's content. */
  itemSelector?: string
  /** Pixels per frame (default 6: about 360 px/s at 60 fps). */
  pxPerFrame?: number
}

export interface ScrollStats {
  selector: string
  px_per_frame: number
  /** requestAnimationFrame callbacks per second while scrolling. */
  fps: number | null
  frames: number
  frames_over_50ms: number
  p95_frame_ms: number | null
  longest_frame_ms: number | null
  /** Total distance moved, and how many times the direction turned at an end. */
  px_scrolled: number
  reversals: number
  /** The container's scrollable height and box height at the end (a list much taller than its box is virtual). */
  scroll_height_px: number
  client_height_px: number
  /** Elements matching itemSelector in the container: the most seen at a sample (virtualisation keeps it small). */
  rendered_items_max: number
  /** Samples (top and bottom edge of the box each count) where no row was under the point. */
  blank_edge_samples: number
  edge_samples: number
}

const SAMPLE_EVERY = 10

function startScript(o: Required<ScrollOptions>): string {
  return `(() => {
  const el = document.querySelector(${JSON.stringify(o.selector)})
  if (!el) return false
  const item = ${JSON.stringify(o.itemSelector)}
  const s = { frames: [], px: 0, reversals: 0, maxItems: 0, blank: 0, samples: 0, dir: 1, on: true }
  window.__benchScroll = s
  const sample = () => {
    const r = el.getBoundingClientRect()
    const x = r.left + r.width / 2
    for (const y of [r.top + 2, r.bottom - 2]) {
      const hit = document.elementFromPoint(x, y)
      s.samples++
      if (!hit || !el.contains(hit) || !hit.closest(item)) s.blank++
    }
    s.maxItems = Math.max(s.maxItems, el.querySelectorAll(item).length)
  }
  const step = (t) => {
    if (!s.on) return
    s.frames.push(t)
    if (s.frames.length % ${SAMPLE_EVERY} === 0) sample()
    const max = el.scrollHeight - el.clientHeight
    if (s.dir > 0 && el.scrollTop >= max - 1) { s.dir = -1; s.reversals++ }
    else if (s.dir < 0 && el.scrollTop <= 0) { s.dir = 1; s.reversals++ }
    const before = el.scrollTop
    el.scrollTop = before + s.dir * ${o.pxPerFrame}
    s.px += Math.abs(el.scrollTop - before)
    requestAnimationFrame(step)
  }
  requestAnimationFrame(step)
  return true
})()`
}

const STOP_SCRIPT = `(() => {
  const s = window.__benchScroll
  if (!s) return null
  s.on = false
  return { frames: s.frames, px: s.px, reversals: s.reversals, maxItems: s.maxItems, blank: s.blank, samples: s.samples }
})()`

interface RawStats {
  frames: number[]
  px: number
  reversals: number
  maxItems: number
  blank: number
  samples: number
}

export interface Scrolling {
  /** Ends the loop and returns what it measured. */
  stop(): Promise<ScrollStats>
}

/** Starts scrolling the element; throws when the selector matches nothing. */
export async function startScrolling(page: Page, options: ScrollOptions): Promise<Scrolling> {
  const o: Required<ScrollOptions> = {
    selector: options.selector,
    itemSelector: options.itemSelector ?? `${options.selector} > * > *`,
    pxPerFrame: options.pxPerFrame ?? 6,
  }
  const started = (await page.evaluate(startScript(o))) as boolean
  if (!started) throw new Error(`scroll: nothing matches ${o.selector}`)
  return {
    async stop() {
      const raw = (await page.evaluate(STOP_SCRIPT)) as RawStats | null
      const size = (await page.evaluate(
        `(() => { const el = document.querySelector(${JSON.stringify(o.selector)}); return el ? [el.scrollHeight, el.clientHeight] : [0, 0] })()`,
      )) as [number, number]
      if (raw === null) throw new Error('scroll: the loop was not running')
      const gaps = new SampleSet()
      let over = 0
      for (let i = 1; i < raw.frames.length; i++) {
        const g = (raw.frames[i] as number) - (raw.frames[i - 1] as number)
        gaps.add(g)
        if (g > 50) over++
      }
      const span =
        raw.frames.length > 1 ? (raw.frames[raw.frames.length - 1] as number) - (raw.frames[0] as number) : 0
      return {
        selector: o.selector,
        px_per_frame: o.pxPerFrame,
        fps: span > 0 ? round((gaps.count / span) * 1000, 1) : null,
        frames: gaps.count,
        frames_over_50ms: over,
        p95_frame_ms: round(gaps.percentile(95), 1),
        longest_frame_ms: round(gaps.max(), 1),
        px_scrolled: Math.round(raw.px),
        reversals: raw.reversals,
        scroll_height_px: size[0],
        client_height_px: size[1],
        rendered_items_max: raw.maxItems,
        blank_edge_samples: raw.blank,
        edge_samples: raw.samples,
      }
    },
  }
}
