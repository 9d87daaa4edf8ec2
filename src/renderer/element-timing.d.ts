// Element Timing (https://wicg.github.io/element-timing/): the `elementtiming` attribute marks an element whose
// first paint the UI benchmark reads with a PerformanceObserver. React passes it through; this lets TSX say it.
import 'react'

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- must repeat React's type parameter to merge
  interface HTMLAttributes<T> {
    elementtiming?: string | undefined
  }
}
