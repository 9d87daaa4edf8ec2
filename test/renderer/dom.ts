// A fresh React root in a fresh container for every test of a file (happy-dom), with the store reset.
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
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
