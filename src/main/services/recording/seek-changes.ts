// What a seek's frames changed, held back from the windows until the seek lands (docs/recording.md, "Seek"). A
// seek feeds up to a million frames in slices while the event loop runs; windows must see the books at the
// target, not every state on the way there. The seek's frame router tells this object instead of the fan-out:
// it keeps only which markets changed, and drops the trades, account updates and inspector frames on the way,
// because the seek's end moves the replay's epoch and every window then reads its markets and account again.

/** Takes the fan-out's place in a seek's frame router (frames.ts `FrameRouterDeps.fanout`). */
export class SeekChanges {
  private readonly markets = new Set<string>()

  bookChanged(market: string): void {
    this.markets.add(market)
  }

  tickerChanged(market: string): void {
    this.markets.add(market)
  }

  trade(view: { market: string }): void {
    this.markets.add(view.market)
  }

  user(): void {}

  inspector(): void {}

  /** The seek landed: each market it changed is told once (`changed`: its book and ticker views). */
  release(changed: (market: string) => void): void {
    const markets = [...this.markets]
    this.markets.clear()
    for (const market of markets) changed(market)
  }
}
