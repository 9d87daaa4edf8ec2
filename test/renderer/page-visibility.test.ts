// @vitest-environment happy-dom
// Work that changes what is drawn waits while the document is hidden, and runs once, at once, when it is shown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { visibleTimeout, whenShown } from '../../src/renderer/store/page-visibility'

let visibility: DocumentVisibilityState = 'visible'
const show = (): void => {
  visibility = 'visible'
  document.dispatchEvent(new Event('visibilitychange'))
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  visibility = 'visible'
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
})

afterEach(() => {
  show()
  vi.useRealTimers()
  Reflect.deleteProperty(document, 'visibilityState')
})

describe('page visibility', () => {
  it('a timeout due while hidden runs when the document is shown, once', () => {
    const f = vi.fn()
    visibleTimeout(f, 100)
    visibility = 'hidden'
    document.dispatchEvent(new Event('visibilitychange'))
    vi.advanceTimersByTime(5_000)
    expect(f).not.toHaveBeenCalled()
    show()
    expect(f).toHaveBeenCalledTimes(1)
    show()
    expect(f).toHaveBeenCalledTimes(1)
  })

  it('visible, a timeout runs on time; cancelled, it never runs, hidden or not', () => {
    const onTime = vi.fn()
    visibleTimeout(onTime, 100)
    vi.advanceTimersByTime(99)
    expect(onTime).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(onTime).toHaveBeenCalledTimes(1)

    const cancelledEarly = vi.fn()
    visibleTimeout(cancelledEarly, 100)()
    const cancelledWaiting = vi.fn()
    const cancel = visibleTimeout(cancelledWaiting, 100)
    visibility = 'hidden'
    vi.advanceTimersByTime(100)
    cancel()
    show()
    vi.advanceTimersByTime(1_000)
    expect(cancelledEarly).not.toHaveBeenCalled()
    expect(cancelledWaiting).not.toHaveBeenCalled()
  })

  it('whenShown runs at once on a visible document', () => {
    const f = vi.fn()
    whenShown(f)
    expect(f).toHaveBeenCalledTimes(1)
  })
})
