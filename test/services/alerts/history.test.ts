// AlertHistory: entries newest first with increasing ids, the rule's label in the detail, held entries silent and never unread, acknowledge reporting whether anything changed, list a copy.
import { describe, expect, it } from 'vitest'
import { AlertHistory } from '../../../src/main/services/alerts/history'
import type { Firing } from '../../../src/main/services/alerts/rules'
import { marketWord, price, words, wordsText } from '../../../src/shared/alert-text'
import { makeRule } from './helpers'

const text: Firing = { title: ['m1 mid crossed above 0.45'], detail: ['mid 0.46'], value: 0.46, market: 'm1' }
const condition = { kind: 'price', market: 'm1', subject: 'mid', op: 'above', value: 0.45 } as const

describe('AlertHistory', () => {
  it('adds entries newest first with increasing ids, carrying the firing text and the rule', () => {
    const h = new AlertHistory()
    const rule = makeRule(condition, {}, { id: 'a-1' })
    const first = h.add(rule, 'fired', 100, text, 'probability')
    const second = h.add(rule, 'fired', 200, { ...text, value: 0.47 }, 'probability')
    expect(first).toEqual({
      id: 1,
      ruleId: 'a-1',
      kind: 'fired',
      at: 100,
      title: 'm1 mid crossed above 0.45',
      detail: 'mid 0.46',
      value: 0.46,
      market: 'm1',
      sound: false,
      acknowledged: false,
    })
    expect(second.id).toBe(2)
    expect(h.list()).toEqual([second, first])
  })

  it('writes a price out in the unit given, and keeps the words for a window to write in its own', () => {
    const h = new AlertHistory()
    const priced: Firing = {
      title: words`${marketWord('m1', 'Fed · Cut')} — mid at or above ${price(0.45)}`,
      detail: words`mid ${price(0.455)}`,
      value: 0.455,
      market: 'm1',
    }
    const cents = h.add(makeRule(condition, { label: 'hedge' }), 'fired', 1, priced, 'cents')
    expect(cents.title).toBe('Fed · Cut — mid at or above 45¢')
    expect(cents.detail).toBe('hedge: mid 45.5¢')
    expect(cents.words).toEqual({
      title: [{ market: 'm1', name: 'Fed · Cut' }, ' — mid at or above ', { price: 0.45 }],
      detail: ['hedge: ', 'mid ', { price: 0.455 }],
    })
    expect(wordsText(cents.words?.detail ?? [], 'probability')).toBe('hedge: mid 0.455')
    expect(h.add(makeRule(condition), 'fired', 2, priced, 'probability').title).toBe(
      'Fed · Cut — mid at or above 0.45',
    )
    // Words without a price or a market are the text itself: nothing more is kept.
    expect(h.add(makeRule(condition), 'fired', 3, text, 'cents').words).toBeUndefined()
  })

  it("puts the rule's label before the detail", () => {
    const h = new AlertHistory()
    expect(h.add(makeRule(condition, { label: 'my hedge' }), 'fired', 1, text, 'probability').detail).toBe(
      'my hedge: mid 0.46',
    )
  })

  it('a held entry makes no sound and is not unread, even for a rule with sound on', () => {
    const h = new AlertHistory()
    const loud = makeRule(condition, { sound: true })
    expect(h.add(loud, 'held', 1, text, 'probability').sound).toBe(false)
    expect(h.unread()).toBe(0)
    expect(h.add(loud, 'fired', 2, text, 'probability').sound).toBe(true)
    expect(h.unread()).toBe(1)
  })

  it('acknowledge marks the given ids or all, and says whether anything changed', () => {
    const h = new AlertHistory()
    const rule = makeRule(condition)
    for (let i = 0; i < 3; i++) h.add(rule, 'fired', i, text, 'probability')
    expect(h.acknowledge([2, 99])).toBe(true)
    expect(h.unread()).toBe(2)
    expect(h.acknowledge([2])).toBe(false)
    expect(h.acknowledge([])).toBe(false)
    expect(h.acknowledge('all')).toBe(true)
    expect(h.unread()).toBe(0)
    expect(h.acknowledge('all')).toBe(false)
    expect(h.list().every((e) => e.acknowledged)).toBe(true)
  })

  it("list is a copy: changing it does not change the history's", () => {
    const h = new AlertHistory()
    h.add(makeRule(condition), 'fired', 1, text, 'probability')
    const list = h.list()
    list.pop()
    expect(h.list()).toHaveLength(1)
  })
})
