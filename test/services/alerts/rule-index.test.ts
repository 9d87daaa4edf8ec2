// buildIndex sorts the active rules by what update can concern them (disabled and spent ones left out), and indexInterests turns the index into merged, sorted subscriptions.
import { describe, expect, it } from 'vitest'
import type { AlertCondition, AlertRule } from '../../../src/shared/alerts'
import { buildIndex, indexInterests, NONE } from '../../../src/main/services/alerts/rule-index'
import { createRuntime } from '../../../src/main/services/alerts/rules'
import { makeRule } from './helpers'

const price = (market: string, subject: 'bid' | 'mid' | 'last' = 'mid'): AlertCondition => ({
  kind: 'price',
  market,
  subject,
  op: 'above',
  value: 0.5,
})

const index = (rules: AlertRule[]) => buildIndex(rules.map(createRuntime))
const ids = (list: { rule: AlertRule }[] | undefined) => (list ?? []).map((rt) => rt.rule.id)

describe('buildIndex', () => {
  it('files each rule where its updates arrive: book, last trade, market or event trades, account, health', () => {
    const rules = [
      makeRule(price('m1', 'bid'), {}, { id: 'bid' }),
      makeRule(price('m1', 'mid'), {}, { id: 'mid' }),
      makeRule(price('m1', 'last'), {}, { id: 'last' }),
      makeRule({ kind: 'big-trade', scope: 'market', id: 'm2', minSize: 5 }, {}, { id: 'trade' }),
      makeRule({ kind: 'big-trade', scope: 'event', id: 'e1', minSize: 5 }, {}, { id: 'event' }),
      makeRule({ kind: 'order', market: null, status: 'filled' }, {}, { id: 'order' }),
      makeRule({ kind: 'position', market: 'm1', change: 'opened' }, {}, { id: 'position' }),
      makeRule({ kind: 'balance-below', value: 10, currency: null }, {}, { id: 'balance' }),
      makeRule({ kind: 'disconnected', seconds: 5 }, {}, { id: 'down' }),
      makeRule({ kind: 'book-stale', market: 'm3', seconds: 5 }, {}, { id: 'stale' }),
      makeRule({ kind: 'auth-error' }, {}, { id: 'auth' }),
    ]
    const i = index(rules)
    expect([...i.book.keys()]).toEqual(['m1'])
    expect(ids(i.book.get('m1')?.rules)).toEqual(['bid', 'mid'])
    expect(ids(i.last.get('m1'))).toEqual(['last'])
    expect(ids(i.trade.get('m2'))).toEqual(['trade'])
    expect(ids(i.event.get('e1'))).toEqual(['event'])
    expect(ids(i.user)).toEqual(['order', 'position', 'balance'])
    expect(ids(i.health)).toEqual(['down', 'stale', 'auth'])
    expect(i.active).toBe(rules.length)
  })

  it("a market's book entry starts with no quote judged and untrusted", () => {
    const entry = index([makeRule(price('m1'))]).book.get('m1')
    expect(entry).toMatchObject({ bid: NONE, ask: NONE, trusted: false })
  })

  it('leaves out disabled rules and spent once rules; a re-arming rule that fired stays in', () => {
    const i = index([
      makeRule(price('off'), { enabled: false }),
      makeRule(price('spent'), { mode: 'once' }, { firedAt: 5 }),
      makeRule(price('again'), { mode: 'rearm' }, { firedAt: 5 }),
    ])
    expect([...i.book.keys()]).toEqual(['again'])
    expect(i.active).toBe(1)
  })
})

describe('indexInterests', () => {
  it('asks for nothing without rules', () => {
    expect(indexInterests(index([]))).toEqual([])
  })

  it('merges what each market needs, sorted by id, then events, then the user channel once', () => {
    const i = index([
      makeRule({ kind: 'book-stale', market: 'z-book', seconds: 5 }),
      makeRule({ kind: 'big-trade', scope: 'market', id: 'b-both', minSize: 1 }),
      makeRule({ kind: 'book-stale', market: 'b-both', seconds: 5 }),
      makeRule({ kind: 'big-trade', scope: 'market', id: 'c-trades', minSize: 1 }),
      makeRule(price('a-last', 'last')),
      makeRule({ kind: 'big-trade', scope: 'event', id: 'e2', minSize: 1 }),
      makeRule({ kind: 'big-trade', scope: 'event', id: 'e1', minSize: 1 }),
      makeRule({ kind: 'order', market: null, status: 'filled' }),
      makeRule({ kind: 'balance-below', value: 1, currency: 'USD' }),
    ])
    expect(indexInterests(i)).toEqual([
      { channel: 'market', id: 'a-last', filter: 'all' },
      { channel: 'market', id: 'b-both', filter: 'all' },
      { channel: 'market', id: 'c-trades', filter: 'trades' },
      { channel: 'market', id: 'z-book', filter: 'orderbook' },
      { channel: 'event', id: 'e1', filter: 'trades' },
      { channel: 'event', id: 'e2', filter: 'trades' },
      { channel: 'user' },
    ])
  })

  it('health rules that name no market (any book, disconnected, auth) subscribe nothing', () => {
    const i = index([
      makeRule({ kind: 'book-stale', market: null, seconds: 5 }),
      makeRule({ kind: 'disconnected', seconds: 5 }),
      makeRule({ kind: 'key-expiring', days: 7 }),
    ])
    expect(i.health).toHaveLength(3)
    expect(indexInterests(i)).toEqual([])
  })
})
