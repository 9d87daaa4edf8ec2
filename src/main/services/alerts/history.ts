// What the user has been told: the firings and held entries, newest first, capped so a rule that fires all day
// cannot grow the engine without bound, and which of them are still unread. Kept apart from the rules: the history
// outlives edits and deletions of the rules it speaks of, and (saved beside the settings) the engine's run.
import { ALERT_HISTORY_CAP, type AlertEvent, type AlertRule } from '../../../shared/alerts'
import { wordsText, type Words } from '../../../shared/alert-text'
import type { PriceUnit } from '../../../shared/price-format'
import type { Firing } from './rules'

export class AlertHistory {
  private entries: AlertEvent[]
  private nextId: number

  /** `restored`: a previous run's entries, newest first (already validated and capped by whoever read them). */
  constructor(restored: readonly AlertEvent[] = []) {
    this.entries = restored.slice(0, ALERT_HISTORY_CAP)
    // Ids go on from the last run's, so an entry is never mistaken for an older one of the same id.
    let last = 0
    for (const e of this.entries) last = Math.max(last, e.id)
    this.nextId = last + 1
  }

  /** A copy: the caller's view must not change under it. */
  list(): AlertEvent[] {
    return this.entries.slice()
  }

  unread(): number {
    let n = 0
    for (const e of this.entries) if (e.kind === 'fired' && !e.acknowledged) n++
    return n
  }

  /**
   * Adds an entry for `rule` (newest first, dropping the oldest beyond the cap) and returns it: its words written
   * out in `unit` (what the OS notification and the file say) and, where they hold a price or a market, kept too.
   */
  add(rule: AlertRule, kind: AlertEvent['kind'], now: number, text: Firing, unit: PriceUnit): AlertEvent {
    const detail: Words = rule.label !== null ? [`${rule.label}: `, ...text.detail] : text.detail
    const event: AlertEvent = {
      id: this.nextId++,
      ruleId: rule.id,
      kind,
      at: now,
      title: wordsText(text.title, unit),
      detail: wordsText(detail, unit),
      value: text.value,
      market: text.market,
      // A held entry is not a notification: it makes no sound.
      sound: kind === 'fired' && rule.sound,
      acknowledged: false,
    }
    if (text.quote !== undefined) event.quote = text.quote
    if (![...text.title, ...detail].every((p) => typeof p === 'string'))
      event.words = { title: text.title, detail }
    this.entries.unshift(event)
    if (this.entries.length > ALERT_HISTORY_CAP) this.entries.length = ALERT_HISTORY_CAP
    return event
  }

  /** Marks entries read (`ids`, or 'all'); true when any changed. */
  acknowledge(ids: readonly number[] | 'all'): boolean {
    const wanted = ids === 'all' ? null : new Set(ids)
    let changed = false
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i] as AlertEvent
      if (e.acknowledged || (wanted !== null && !wanted.has(e.id))) continue
      // Entries are replaced, never mutated: views already handed out stay as they were.
      this.entries[i] = { ...e, acknowledged: true }
      changed = true
    }
    return changed
  }
}
