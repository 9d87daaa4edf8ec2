// Typed events between services (the pattern VS Code's services use): the owner fires, whoever wires the engine
// subscribes, and a reader following a call finds the subscription in monitor.ts instead of a closure buried in
// a constructor's options.

/** Subscribes a listener; the returned function unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => () => void

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>()

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  fire(value: T): void {
    for (const listener of this.listeners) listener(value)
  }

  dispose(): void {
    this.listeners.clear()
  }
}
