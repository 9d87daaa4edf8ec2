// Emitter/Event: fire reaches the listeners subscribed now, in order; unsubscribing (also from inside a listener) and dispose stop delivery.
import { describe, expect, it } from 'vitest'
import { Emitter } from '../../../src/main/services/base/events'

describe('Emitter', () => {
  it('fires the value to every listener, in the order they subscribed', () => {
    const emitter = new Emitter<number>()
    const heard: string[] = []
    emitter.event((v) => heard.push(`a${v}`))
    emitter.event((v) => heard.push(`b${v}`))
    emitter.fire(1)
    emitter.fire(2)
    expect(heard).toEqual(['a1', 'b1', 'a2', 'b2'])
  })

  it('the function a subscription returns removes that listener only', () => {
    const emitter = new Emitter<string>()
    const a: string[] = []
    const b: string[] = []
    const offA = emitter.event((v) => a.push(v))
    emitter.event((v) => b.push(v))
    emitter.fire('x')
    offA()
    emitter.fire('y')
    // Unsubscribing again is harmless.
    offA()
    emitter.fire('z')
    expect(a).toEqual(['x'])
    expect(b).toEqual(['x', 'y', 'z'])
  })

  it('a listener that unsubscribes itself while firing does not stop the others', () => {
    const emitter = new Emitter<number>()
    const heard: string[] = []
    const off = emitter.event((v) => {
      heard.push(`once${v}`)
      off()
    })
    emitter.event((v) => heard.push(`always${v}`))
    emitter.fire(1)
    emitter.fire(2)
    expect(heard).toEqual(['once1', 'always1', 'always2'])
  })

  it('dispose drops every listener: a later fire reaches nobody', () => {
    const emitter = new Emitter<void>()
    let calls = 0
    emitter.event(() => calls++)
    emitter.event(() => calls++)
    emitter.fire()
    emitter.dispose()
    emitter.fire()
    expect(calls).toBe(2)
  })
})
