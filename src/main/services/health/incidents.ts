// The incident log shown in the status bar: disconnects, stalls, resync episodes, auth and rate-limit events,
// bursts of bad frames. Newest first, capped, each with its start and (once over) its end.
import type { Incident, IncidentKind } from '../../../shared/model'

export const INCIDENT_CAP = 100
/** Bad frames within this long of the last one join its incident instead of opening another. */
const BAD_FRAME_BURST_MS = 10_000

export class IncidentLog {
  private readonly items: Incident[] = []
  private nextId = 1

  constructor(
    private readonly now: () => number,
    private readonly onChange: () => void,
    private readonly cap = INCIDENT_CAP,
  ) {}

  /** An incident that is still going on (end it with end()). */
  open(kind: IncidentKind, detail: string, market?: string): Incident {
    return this.add(kind, detail, market, true)
  }

  /** An incident that is over as it happens. */
  record(kind: IncidentKind, detail: string, market?: string): Incident {
    return this.add(kind, detail, market, false)
  }

  /** Ends an open incident, optionally with a new detail (how it ended). */
  end(incident: Incident | null | undefined, detail?: string): void {
    if (!incident || incident.endedAt !== null) return
    incident.endedAt = this.now()
    if (detail !== undefined) incident.detail = detail
    this.onChange()
  }

  /** One incident per burst of bad frames, so a flood cannot push every other incident out of the list. */
  badFrame(detail: string): void {
    const latest = this.items[0]
    const at = this.now()
    if (
      latest &&
      latest.kind === 'bad_frame' &&
      at - (latest.endedAt ?? latest.startedAt) < BAD_FRAME_BURST_MS
    ) {
      const m = /\((\d+) frames\)$/.exec(latest.detail)
      const count = (m ? Number(m[1]) : 1) + 1
      latest.detail = `${detail} (${count} frames)`
      latest.endedAt = at
      this.onChange()
      return
    }
    this.record('bad_frame', detail)
  }

  /** Copies, newest first. */
  list(): Incident[] {
    return this.items.map((i) => ({ ...i }))
  }

  private add(kind: IncidentKind, detail: string, market: string | undefined, open: boolean): Incident {
    const at = this.now()
    const incident: Incident = { id: this.nextId++, kind, startedAt: at, endedAt: open ? null : at, detail }
    if (market !== undefined) incident.market = market
    this.items.unshift(incident)
    if (this.items.length > this.cap) this.items.length = this.cap
    this.onChange()
    return incident
  }
}
