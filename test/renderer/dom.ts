// A fresh React root in a fresh container for every test of a file (happy-dom), with the store reset.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { useMonitor } from '../../src/renderer/store/monitor'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export interface Dom {
  readonly container: HTMLDivElement
  readonly root: Root
  byTestId(id: string, within?: ParentNode): HTMLElement[]
}

/** Call at the top level of a test file; the returned object's container and root change per test. */
export function withDom(): Dom {
  let container: HTMLDivElement | null = null
  let root: Root | null = null
  beforeEach(() => {
    useMonitor.getState().reset()
    container = document.createElement('div')
    document.body.append(container)
    root = createRoot(container)
  })
  afterEach(async () => {
    const r = root
    if (r) await act(async () => r.unmount())
    container?.remove()
    container = null
    root = null
  })
  const need = <T>(v: T | null, what: string): T => {
    if (v === null) throw new Error(`withDom: no ${what} outside a test`)
    return v
  }
  return {
    get container() {
      return need(container, 'container')
    },
    get root() {
      return need(root, 'root')
    },
    byTestId: (id, within) =>
      Array.from(
        (within ?? need(container, 'container')).querySelectorAll<HTMLElement>(`[data-testid="${id}"]`),
      ),
  }
}

/** Lets pending promises and effects settle (a fake engine's replies, a store update's re-render). */
export const flush = (): Promise<void> => act(async () => new Promise<void>((r) => setTimeout(r, 0)))

/** Types into a field (or picks an option) as a user does: the value, then the event React listens to. */
export async function setField(el: HTMLInputElement | HTMLSelectElement, value: string): Promise<void> {
  const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype
  const setValue = Object.getOwnPropertyDescriptor(proto, 'value')?.set
  await act(async () => {
    setValue?.call(el, value)
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
  })
}

/** A keydown on `el` (bubbling, cancelable); `init` adds modifiers or `repeat`. */
export async function key(el: Element, k: string, init: KeyboardEventInit = {}): Promise<void> {
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }))
  })
}

export async function click(el: Element): Promise<void> {
  await act(async () => {
    ;(el as HTMLElement).click()
  })
  await flush()
}

/**
 * Catches what the page saves (lib/csv.ts downloadCsv: a Blob behind an <a download> click) instead of a browser
 * download: each file's name and contents, in order. Undone by vi.restoreAllMocks().
 */
export function captureDownloads(): { names: string[]; texts(): Promise<string[]> } {
  const blobs: Blob[] = []
  const names: string[] = []
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    blobs.push(b as Blob)
    return `blob:test/${blobs.length}`
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download)
  })
  return { names, texts: () => Promise.all(blobs.map((b) => b.text())) }
}

/**
 * Call at the top level of a test file: elements of class `className` report `px` as their height. A virtualised
 * list renders only the rows its scroll box has room for, and happy-dom lays nothing out.
 */
export function withScrollHeight(className: string, px: number): void {
  const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight')
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains(className) ? px : 0
      },
    })
  })
  afterAll(() => {
    if (own) Object.defineProperty(HTMLElement.prototype, 'clientHeight', own)
    else delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight
  })
}
