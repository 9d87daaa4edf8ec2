// Alerts in the window's store and the form's model: the alerts view and fired alerts through the frame queue,
// toasts, the intake that never acts on an alert twice or on one from before the window opened, and the rule
// input built from the form's fields.
import { beforeEach, describe, expect, it } from 'vitest'
import { ORDER_STATUSES, POSITION_CHANGES, type AlertEvent } from '../../src/shared/alerts'
import { createAlertIntake } from '../../src/renderer/api/alert-delivery'
import {
  alertText,
  draftFromRule,
  emptyDraft,
  draftToInput,
  draftFieldOf,
  ladderDraft,
  minutesUntilTomorrowMorning,
  numberText,
  prefill,
  quoteDraft,
} from '../../src/renderer/lib/alerts'
import { checkAlertCondition } from '../../src/shared/alert-rules-check'
import { marketNamesOf } from '../../src/renderer/lib/market-names'
import { mergeBatches } from '../../src/shared/batch-merge'
import { reduceBatch, TOAST_CAP, useMonitor } from '../../src/renderer/store/monitor'
import { emptyAlerts, EVENTS, ruleView } from './fake-api'

function fired(id: number, partial: Partial<AlertEvent> = {}): AlertEvent {
  return {
    id,
    ruleId: 'r1',
    kind: 'fired',
    at: 1_000 + id,
    title: `m1 ask crossed above 0.6 (#${id})`,
    detail: 'ask 0.61 (bid 0.58)',
    value: 0.61,
    market: 'm1',
    sound: false,
    acknowledged: false,
    ...partial,
  }
}

beforeEach(() => useMonitor.getState().reset())

describe('alerts in the store', () => {
  it('mergeBatches appends fired alerts in order and keeps the newest alerts view', () => {
    const a = emptyAlerts({ unread: 1 })
    const b = emptyAlerts({ unread: 3 })
    const merged = mergeBatches(
      { seq: 1, at: 1, alerts: a, alertsFired: [fired(1)] },
      { seq: 2, at: 2, alerts: b, alertsFired: [fired(2), fired(3)] },
    )
    expect(merged.alertsFired?.map((e) => e.id)).toEqual([1, 2, 3])
    expect(merged.alerts).toBe(b)
    // A batch without them keeps the older batch's.
    const kept = mergeBatches({ seq: 1, at: 1, alerts: a, alertsFired: [fired(1)] }, { seq: 2, at: 2 })
    expect(kept.alertsFired?.map((e) => e.id)).toEqual([1])
    expect(kept.alerts).toBe(a)
  })

  it('toasts fired alerts (not held ones, not read ones), at most TOAST_CAP, and drops those read meanwhile', () => {
    const s = useMonitor.getState()
    const next = reduceBatch(s, {
      seq: 1,
      at: 1,
      alertsFired: [fired(1), fired(2, { kind: 'held' }), fired(3, { acknowledged: true })],
    })
    expect(next.toasts?.map((t) => t.id)).toEqual([1])
    const many = Array.from({ length: TOAST_CAP + 3 }, (_, i) => fired(10 + i))
    useMonitor.getState().applyBatch({ seq: 2, at: 2, alertsFired: many })
    expect(useMonitor.getState().toasts.map((t) => t.id)).toEqual(many.slice(-TOAST_CAP).map((e) => e.id))
    // Read in another window: the view says so and the toast goes.
    const shown = useMonitor.getState().toasts
    const read = { ...(shown[0] as AlertEvent), acknowledged: true }
    useMonitor.getState().applyBatch({ seq: 3, at: 3, alerts: emptyAlerts({ history: [read] }) })
    expect(useMonitor.getState().toasts.map((t) => t.id)).toEqual(shown.slice(1).map((t) => t.id))
    useMonitor.getState().dismissToast(shown[1]?.id as number)
    expect(useMonitor.getState().toasts).toHaveLength(TOAST_CAP - 2)
  })

  it('a getAlerts reply is not applied over a view a batch already brought', () => {
    const fromBatch = emptyAlerts({ unread: 2 })
    useMonitor.getState().seedAlerts(emptyAlerts({ unread: 1 }))
    expect(useMonitor.getState().alerts?.unread).toBe(1)
    useMonitor.getState().applyBatch({ seq: 1, at: 1, alerts: fromBatch })
    useMonitor.getState().seedAlerts(emptyAlerts({ unread: 9 }))
    expect(useMonitor.getState().alerts).toBe(fromBatch)
    useMonitor.getState().reset()
    useMonitor.getState().seedAlerts(null, 'unknown method')
    expect(useMonitor.getState().alertsError).toBe('unknown method')
  })
})

describe('alert intake', () => {
  it('never acts on an alert that was in the history when the window opened, nor on one twice', () => {
    const intake = createAlertIntake()
    intake.seed(emptyAlerts({ history: [fired(1)] }))
    const b = intake.filter({ seq: 1, at: 1, alertsFired: [fired(1), fired(2)] })
    expect(b.alertsFired?.map((e) => e.id)).toEqual([2])
    const again = intake.filter({ seq: 2, at: 2, alertsFired: [fired(2)] })
    expect(again.alertsFired).toBeUndefined()
  })

  it('the first batch seeds the history, except for what fired in that same batch', () => {
    const intake = createAlertIntake()
    const b = intake.filter({
      seq: 1,
      at: 1,
      alerts: emptyAlerts({ history: [fired(3), fired(1)] }),
      alertsFired: [fired(3)],
    })
    expect(b.alertsFired?.map((e) => e.id)).toEqual([3])
    // Seeded once: a later getAlerts reply does not change what counts as old.
    intake.seed(emptyAlerts({ history: [fired(4)] }))
    expect(intake.filter({ seq: 2, at: 2, alertsFired: [fired(4)] }).alertsFired?.map((e) => e.id)).toEqual([
      4,
    ])
    expect(intake.filter({ seq: 3, at: 3, alertsFired: [fired(1)] }).alertsFired).toBeUndefined()
  })
})

describe('alert form model', () => {
  it('a ladder level: its side, its price, and the direction from the mid', () => {
    expect(ladderDraft('m1', 'ask', 0.6, 0.57, 'probability')).toMatchObject({
      market: 'm1',
      subject: 'ask',
      op: 'crosses-above',
      value: '0.6',
    })
    expect(ladderDraft('m1', 'bid', 0.55, 0.57, 'probability')).toMatchObject({
      subject: 'bid',
      op: 'crosses-below',
      value: '0.55',
    })
    // In the unit the app shows: the ladder's 55¢ is typed 55.
    expect(ladderDraft('m1', 'bid', 0.55, 0.57, 'cents')).toMatchObject({ value: '55', unit: 'cents' })
    expect(numberText(0.1 + 0.2)).toBe('0.3')
  })

  it('builds the rule input for each kind, with only the fields it has', () => {
    const price = draftToInput(
      prefill({ market: 'm1', subject: 'mid', op: 'below', value: '0.4' }, 'probability'),
      EVENTS,
    )
    expect(price).toEqual({
      ok: true,
      input: {
        condition: { kind: 'price', market: 'm1', subject: 'mid', op: 'below', value: 0.4 },
        mode: 'once',
        sound: true,
        label: null,
      },
    })
    const order = draftToInput(prefill({ market: '', subject: 'order-filled' }, 'probability'), EVENTS)
    expect(order.ok && order.input.condition).toEqual({ kind: 'order', market: null, status: 'filled' })
    const event = draftToInput(
      prefill({ market: 'm2', subject: 'trade-size', scope: 'event', value: '500' }, 'probability'),
      EVENTS,
    )
    expect(event.ok && event.input.condition).toEqual({
      kind: 'big-trade',
      scope: 'event',
      id: 'e1',
      minSize: 500,
    })
    const rearm = draftToInput(
      prefill(
        {
          market: 'm1',
          subject: 'last',
          value: '0.5',
          mode: 'rearm',
          hysteresis: '0.02',
          cooldown: '30',
        },
        'probability',
      ),
      EVENTS,
    )
    expect(rearm.ok && rearm.input).toMatchObject({ mode: 'rearm', hysteresis: 0.02, cooldownSec: 30 })
    const stale = draftToInput(prefill({ subject: 'disconnected', value: '15' }, 'probability'), EVENTS)
    expect(stale.ok && stale.input.condition).toEqual({ kind: 'disconnected', seconds: 15 })
  })

  it('an order or position subject is its status or change after the prefix, both ways', () => {
    for (const status of ORDER_STATUSES) {
      const input = draftToInput(prefill({ market: 'm1', subject: `order-${status}` }, 'probability'), EVENTS)
      expect(input.ok && input.input.condition).toEqual({ kind: 'order', market: 'm1', status })
      expect(
        draftFromRule(ruleView({ condition: { kind: 'order', market: 'm1', status } }), 'probability')
          .subject,
      ).toBe(`order-${status}`)
    }
    for (const change of POSITION_CHANGES) {
      const input = draftToInput(
        prefill({ market: '', subject: `position-${change}` }, 'probability'),
        EVENTS,
      )
      expect(input.ok && input.input.condition).toEqual({ kind: 'position', market: null, change })
      expect(
        draftFromRule(ruleView({ condition: { kind: 'position', market: null, change } }), 'probability')
          .subject,
      ).toBe(`position-${change}`)
    }
  })

  it('refuses a level the market cannot have with the engine’s own words (one rule: checkAlertCondition)', () => {
    const grid = { min: 0, max: 1, tick: 0.01 }
    const events = [{ id: 'e9', title: 'Rain', markets: [{ id: 'v1', title: 'SP', priceGrid: grid }] }]
    const draft = prefill({ market: 'v1', subject: 'last', op: 'crosses-above', value: '5' }, 'probability')
    const said = "Price 5 is outside this market's prices (0 to 1): the alert could never fire as meant."
    expect(draftToInput(draft, events)).toEqual({ ok: false, field: 'value', message: said })
    // The engine's check says the same.
    expect(
      checkAlertCondition(
        { kind: 'price', market: 'v1', subject: 'last', op: 'crosses-above', value: 5 },
        grid,
        'probability',
      ),
    ).toEqual({ field: 'condition.value', message: said })
    expect(draftToInput({ ...draft, value: '0.25' }, events).ok).toBe(true)
    // Typed in cents, named in cents: 500 is 500¢.
    expect(draftToInput({ ...draft, value: '500', unit: 'cents' }, events)).toEqual({
      ok: false,
      field: 'value',
      message:
        "Price 500¢ is outside this market's prices (0¢ to 100¢): the alert could never fire as meant.",
    })
    // A market the listing gives no prices for: the form leaves the range to the engine.
    expect(draftToInput({ ...draft, market: 'm1' }, EVENTS).ok).toBe(true)
  })

  it("an alert's words in the unit shown now and with the listing's names; words without them as the engine wrote them", () => {
    // As the engine keeps them (src/main/services/alerts/history.ts): written out in its unit, parts kept.
    const e = fired(1, {
      title: 'm1 — mid crossed above 0.10',
      detail: 'take profit: mid 0.105 (bid 0.10 · ask 0.11) · fired once the book was live again',
      market: 'm1',
      words: {
        title: [{ market: 'm1', name: 'm1' }, ' — mid crossed above ', { price: 0.1 }],
        detail: [
          'take profit: mid ',
          { price: 0.105 },
          ' (bid ',
          { price: 0.1 },
          ' · ask ',
          { price: 0.11 },
          ') · fired once the book was live again',
        ],
      },
    })
    const names = marketNamesOf(EVENTS)
    expect(alertText(e, names, 'cents')).toEqual({
      title: 'Fed decision · No change — mid crossed above 10¢',
      detail: 'take profit: mid 10.5¢ (bid 10¢ · ask 11¢) · fired once the book was live again',
    })
    expect(alertText(e, names, 'probability').title).toBe('Fed decision · No change — mid crossed above 0.10')
    // A market this window's listing lacks keeps the engine's name for it.
    const trade = fired(3, {
      title: 'Rain · SP — trade of 500',
      detail: 'buy 500 @ 0.42 (at least 100)',
      market: 'zz',
      words: {
        title: [{ market: 'zz', name: 'Rain · SP' }, ' — trade of 500'],
        detail: ['buy 500 @ ', { price: 0.42 }, ' (at least 100)'],
      },
    })
    expect(alertText(trade, names, 'cents')).toEqual({
      title: 'Rain · SP — trade of 500',
      detail: 'buy 500 @ 42¢ (at least 100)',
    })
    const plain = fired(2, { title: 'Disconnected for 30 s', detail: 'since 10:00', market: null })
    expect(alertText(plain, names, 'cents')).toEqual({ title: plain.title, detail: plain.detail })
  })

  it('a price typed in cents is sent in 0–1, its hysteresis too, and a stored rule comes back in cents', () => {
    const draft = prefill(
      { market: 'm1', subject: 'bid', value: '45', mode: 'rearm', hysteresis: '2', cooldown: '0' },
      'cents',
    )
    const input = draftToInput(draft, EVENTS)
    expect(input.ok && input.input).toMatchObject({
      condition: { kind: 'price', subject: 'bid', value: 0.45 },
      hysteresis: 0.02,
    })
    expect(emptyDraft('m1', 'cents').hysteresis).toBe('1')
    // A balance's hysteresis is money, whatever the price unit.
    const balance = draftToInput(
      prefill(
        { subject: 'balance-below', value: '100', mode: 'rearm', hysteresis: '5', cooldown: '0' },
        'cents',
      ),
      EVENTS,
    )
    expect(balance.ok && balance.input).toMatchObject({ condition: { value: 100 }, hysteresis: 5 })
    const rule = ruleView({
      condition: { kind: 'price', market: 'm1', subject: 'mid', op: 'above', value: 0.455 },
      mode: 'rearm',
      hysteresis: 0.02,
    })
    expect(draftFromRule(rule, 'cents')).toMatchObject({ value: '45.5', hysteresis: '2', unit: 'cents' })
    expect(draftFromRule(rule, 'probability')).toMatchObject({ value: '0.455', hysteresis: '0.02' })
  })

  it('the default level of a quote is the value shown, on the tick, crossing toward it', () => {
    const grid = { min: 0, max: 1, tick: 0.01 }
    const q = (subject: 'last' | 'bid' | 'mid', value: number | null) =>
      quoteDraft('v1', subject, value, grid, 'probability')
    expect(q('last', 0.2499999999)).toMatchObject({ value: '0.25', op: 'crosses-above' })
    expect(q('bid', 0.2549)).toMatchObject({ value: '0.25', op: 'crosses-below' })
    expect(q('mid', 0.245)).toMatchObject({ value: '0.245' })
    expect(q('mid', null).value).toBe('')
    expect(quoteDraft('v1', 'mid', 0.245, grid, 'cents')).toMatchObject({ value: '24.5' })
  })

  it('names the field of an obviously bad number: empty, not a number, negative, zero where it must be positive', () => {
    const bad = (patch: Parameters<typeof prefill>[0]) =>
      draftToInput(prefill({ market: 'm1', ...patch }, 'probability'), EVENTS)
    expect(bad({ value: '' })).toEqual({ ok: false, field: 'value', message: 'Price: enter a number.' })
    expect(bad({ value: 'abc' })).toMatchObject({
      ok: false,
      field: 'value',
      message: 'Price: “abc” is not a number.',
    })
    expect(bad({ value: '-0.1' })).toMatchObject({ ok: false, message: 'Price must not be negative.' })
    expect(bad({ subject: 'trade-size', value: '0' })).toMatchObject({
      message: 'Min size must be greater than 0.',
    })
    expect(bad({ market: ' ', value: '0.5' })).toMatchObject({ ok: false, field: 'market' })
    expect(bad({ value: '0.5', mode: 'rearm', cooldown: 'NaN' })).toMatchObject({ field: 'cooldown' })
  })

  it("round-trips a stored rule, and maps the engine's field names to the form's", () => {
    const rule = ruleView({
      id: 'r9',
      label: 'tp',
      condition: { kind: 'big-trade', scope: 'market', id: 'm3', minSize: 250 },
      mode: 'rearm',
      cooldownSec: 120,
      sound: true,
    })
    const draft = draftFromRule(rule, 'probability')
    expect(draft).toMatchObject({
      id: 'r9',
      subject: 'trade-size',
      market: 'm3',
      value: '250',
      cooldown: '120',
    })
    const back = draftToInput(draft, EVENTS)
    expect(back.ok && back.input).toMatchObject({
      id: 'r9',
      label: 'tp',
      condition: rule.condition,
      cooldownSec: 120,
    })
    // The engine names the field (ApiError.field); the message is for people and is never parsed.
    const refused = (field?: string) => ({
      code: 'invalid_argument' as const,
      message: 'whatever',
      ...(field ? { field } : {}),
    })
    expect(draftFieldOf(refused('condition.value'))).toBe('value')
    expect(draftFieldOf(refused('condition.minSize'))).toBe('value')
    expect(draftFieldOf(refused('condition.market'))).toBe('market')
    expect(draftFieldOf(refused('cooldownSec'))).toBe('cooldown')
    expect(draftFieldOf(refused('hysteresis'))).toBe('hysteresis')
    expect(draftFieldOf(refused())).toBeNull()
  })

  it('"until tomorrow morning" is the minutes to 08:00 the next day', () => {
    const now = new Date(2030, 0, 10, 22, 30).getTime()
    expect(minutesUntilTomorrowMorning(now)).toBe(9 * 60 + 30)
  })
})
