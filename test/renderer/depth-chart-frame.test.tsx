// @vitest-environment happy-dom
// The depth chart draws in the commit that applies a book, so a batch costs one animation frame: a draw asked
// for the next animation frame gave every book change a frame of its own after the batch's.
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DepthChart } from '../../src/renderer/features/market/DepthChart'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { withDom } from './dom'
import { book, createFakeApi } from './fake-api'

const dom = withDom()

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the depth chart', () => {
  it('draws a new book in the commit that applies it, not in a later animation frame', async () => {
    const api = createFakeApi()
    await act(async () => {
      dom.root.render(
        <ServicesProvider api={api}>
          <DepthChart market="m1" />
        </ServicesProvider>,
      )
    })
    const drawn = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null)
    // Animation frames are held: what the chart draws before one runs is drawn in the batch's own frame.
    const held: FrameRequestCallback[] = []
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => held.push(cb))
    await act(async () => api.push({ books: [book()] }))
    expect(dom.byTestId('depth-chart')[0]?.dataset.levels).toBe('4')
    expect(drawn).toHaveBeenCalledTimes(1)
    await act(async () => {
      for (const cb of held.splice(0)) cb(performance.now())
    })
    expect(drawn).toHaveBeenCalledTimes(1)
  })
})
