// A venue that keeps its socket and pings alive while its data stops (a stall, a frozen venue) is caught by the
// stream's silence limit, which rebuilds the socket. A rebuild cures a subscription the venue forgot, but when the
// venue itself is silent every rebuild finds it silent again. So the engine keeps one *silence episode* from the
// first rebuild for silence until data (a book, trade, ticker or account update: an ack is not data) arrives
// again:
//  - while it lasts the data is paused, so no book is called live, however fresh its REST copy (docs/liveness.md);
//  - windows show one steady line for it ("Venue silent · reconnect N") instead of flipping between states;
//  - each further rebuild waits longer (the stream's silence limit is scaled), so a long stall does not tear the
//    socket down and re-read every book over REST every few seconds.

/** The silence limit doubles with each rebuild of an episode, up to this factor (3 s, 6 s, 12 s, then 24 s). */
export const SILENCE_BACKOFF_MAX_FACTOR = 8

export interface SilenceEpisode {
  /** When the data was last heard before the episode, or when it began if never (ms since epoch). */
  since: number
  /** Sockets rebuilt for silence in this episode. */
  rebuilds: number
}

export class VenueSilence {
  private episode: SilenceEpisode | null = null

  /** Data arrived during an episode: it is over. The frame router asks `active` first, so a frame costs nothing. */
  heard(): void {
    this.episode = null
  }

  /** A socket was closed because its data stopped; `lastDataAt`: when data was last heard, if ever. */
  rebuilt(at: number, lastDataAt: number | null): void {
    if (this.episode === null) this.episode = { since: lastDataAt ?? at, rebuilds: 0 }
    this.episode.rebuilds += 1
  }

  get active(): boolean {
    return this.episode !== null
  }

  view(): SilenceEpisode | null {
    return this.episode === null ? null : { ...this.episode }
  }

  /** How much longer than its learnt limit the stream waits before rebuilding a silent socket again. */
  scale(): number {
    return this.episode === null ? 1 : Math.min(SILENCE_BACKOFF_MAX_FACTOR, 2 ** this.episode.rebuilds)
  }

  /** Another profile: another venue, whose silence is its own. */
  reset(): void {
    this.episode = null
  }
}
