// A ticket as typed, read into the request one press sends: prices in the unit the app shows (¢ or 0–1) on whole
// ticks, whole contracts, the profile and mode the window shows, and the contract's own checks with the field
// named. Also the refusals' words: each code a sentence that says what to do, the field named where there is one.
import { describe, expect, it } from 'vitest'
import type { ApiError } from '../../src/shared/model'
import { DEFAULT_LIMITS, intentIdSchema } from '../../src/shared/trading'
import { parsePriceInput, priceInputText, priceTextIn } from '../../src/renderer/lib/price-input'
import { tradeError } from '../../src/main/services/orders/venue'
import { explainRefusal } from '../../src/renderer/features/trading/refusals'
import { readTicket, ticketRequest } from '../../src/renderer/features/trading/ticket'
import { newIntentId } from '../../src/renderer/features/trading/intent'
import { EMPTY_DRAFT, type TicketDraft } from '../../src/renderer/store/trading'

const draft = (partial: Partial<TicketDraft>): TicketDraft => ({ ...EMPTY_DRAFT, ...partial })
const live = {
  profileId: 'p1',
  settings: { mode: 'live' as const, oneClick: false, limits: { ...DEFAULT_LIMITS } },
}

describe('a typed price', () => {
  it('reads cents and probabilities, on whole ticks', () => {
    expect(parsePriceInput('40', 'cents')).toEqual({ ok: true, price: 0.4 })
    expect(parsePriceInput(' 40¢ ', 'cents')).toEqual({ ok: true, price: 0.4 })
    expect(parsePriceInput('0.4', 'probability')).toEqual({ ok: true, price: 0.4 })
    expect(parsePriceInput('.07', 'probability')).toEqual({ ok: true, price: 0.07 })
    expect(parsePriceInput('40.5', 'cents').ok).toBe(false)
    expect(parsePriceInput('0.405', 'probability').ok).toBe(false)
    expect(parsePriceInput('40', 'probability').ok).toBe(false)
    expect(parsePriceInput('0.4', 'cents').ok).toBe(false)
    expect(parsePriceInput('abc', 'cents').ok).toBe(false)
    expect(parsePriceInput('', 'cents').ok).toBe(false)
  })

  it('is written in the unit shown, and follows a change of unit', () => {
    expect(priceInputText(0.07, 'cents')).toBe('7')
    expect(priceInputText(0.07, 'probability')).toBe('0.07')
    expect(priceTextIn('40', 'cents', 'probability')).toBe('0.40')
    expect(priceTextIn('0.4', 'probability', 'cents')).toBe('40')
    // Not a price: left as typed, to be named when sent.
    expect(priceTextIn('4x', 'cents', 'probability')).toBe('4x')
  })
})

describe('the request one press sends', () => {
  it('carries the order, the profile and mode shown, the intent and the moment of the press', () => {
    const r = ticketRequest(
      draft({ side: 'sell', outcome: 'NO', price: '0.43', priceUnit: 'probability', quantity: '12' }),
      'm1',
      live,
      'intent-abcdef12',
      123,
    )
    expect(r).toEqual({
      ok: true,
      value: {
        intentId: 'intent-abcdef12',
        profileId: 'p1',
        mode: 'live',
        market: 'm1',
        side: 'sell',
        outcome: 'NO',
        kind: 'limit',
        priceTicks: 43,
        quantity: 12,
        clickedAt: 123,
      },
    })
    // A market order has no price.
    const m = ticketRequest(
      draft({ kind: 'market', price: 'junk', quantity: '3' }),
      'm1',
      live,
      'intent-1234',
      1,
    )
    expect(m.ok).toBe(true)
    expect(m.ok && 'priceTicks' in m.value).toBe(false)
  })

  it('refuses with the field named: a price, a quantity, the contract’s range', () => {
    const refused = (d: Partial<TicketDraft>) => {
      const r = ticketRequest(draft(d), 'm1', live, 'intent-1234', 1)
      return r.ok ? null : r.error
    }
    expect(refused({ price: '', quantity: '1' })).toMatchObject({ code: 'invalid_argument', field: 'price' })
    expect(refused({ price: '40', quantity: '' })).toMatchObject({ field: 'quantity' })
    expect(refused({ price: '40', quantity: '2.5' })).toMatchObject({ field: 'quantity' })
    // 0¢ and 0 contracts parse, and the contract's schema names them.
    expect(refused({ price: '0', quantity: '1' })).toMatchObject({ field: 'price' })
    expect(refused({ price: '40', quantity: '0' })).toMatchObject({ field: 'quantity' })
    expect(refused({ price: '40', quantity: '0' })?.message).toContain('at least 1 contract')
    // Off: nothing to send.
    const off = { ...live, settings: { ...live.settings, mode: 'off' as const } }
    const r = ticketRequest(draft({ price: '40', quantity: '1' }), 'm1', off, 'intent-1234', 1)
    expect(r.ok ? null : r.error.code).toBe('off')
  })

  it('reads the shape the estimate works on while the trader types', () => {
    expect(readTicket(draft({ price: '41', quantity: '5' }))).toEqual({
      ok: true,
      shape: { side: 'buy', outcome: 'YES', kind: 'limit', ticks: 41, quantity: 5 },
    })
    expect(readTicket(draft({ price: '41', quantity: '' })).ok).toBe(false)
  })

  it('makes intent ids the contract accepts, a new one each time', () => {
    const a = newIntentId()
    const b = newIntentId()
    expect(intentIdSchema.safeParse(a).success).toBe(true)
    expect(a).not.toBe(b)
  })
})

describe('refusals in words', () => {
  const of = (e: Partial<ApiError>) => explainRefusal({ code: 'venue_refused', message: 'x', ...e })

  it('names the venue’s code, what to do, and the field, in the engine’s words for it', () => {
    // The error as the engine makes it from VoxFi's error body (en/api/errors).
    const venue = (code: string, status = 400) =>
      explainRefusal(tradeError('place', status, { error: 'refused', error_code: code }))
    expect(venue('PO1')).toMatchObject({ code: 'PO1', field: 'price', detail: null })
    expect(venue('PO2')).toMatchObject({ code: 'PO2', field: 'quantity' })
    expect(venue('PO3').sentence).toContain('lower the quantity or the price')
    expect(venue('PO4')).toMatchObject({ code: 'PO4', field: 'quantity' })
    expect(venue('PO5').sentence).toContain('limit order')
    expect(venue('PO7', 403).sentence).toContain('Profile → Security')
    expect(venue('PO8', 406).code).toBe('PO8')
    expect(venue('-1', 500).sentence).toContain('Check your open orders')
  })

  it('says a refusal once when the ticket already shows its lasting state', () => {
    const po7 = tradeError('place', 403, { error: 'refused', error_code: 'PO7' })
    expect(explainRefusal(po7, 'permission')).toEqual({
      code: 'PO7',
      sentence: 'The venue refused this order (PO7), for the reason above.',
      field: null,
      detail: null,
    })
    // Another lasting state shown: this refusal still says everything.
    expect(explainRefusal(po7, 'busy').sentence).toContain('Profile → Security')
    expect(explainRefusal({ code: 'busy', message: 'x' }, 'busy').sentence).toBe(
      'This order was not sent, for the reason above.',
    )
  })

  it('says what the app’s own refusals ask of the trader', () => {
    expect(of({ code: 'permission', message: 'denied' }).sentence).toContain('Profile → Security')
    expect(of({ code: 'permission' }).sentence).not.toMatch(/IP/)
    expect(of({ code: 'rate_limited', retryAfterMs: 12_300 }).sentence).toContain('13 s')
    expect(of({ code: 'too_large', message: 'Over the 1,000 contracts limit.' }).sentence).toContain('Limits')
    expect(of({ code: 'off' }).sentence).toContain('Paper or Live')
    expect(of({ code: 'network' }).sentence).toContain('Nothing is ever resent by itself')
    expect(of({ code: 'invalid_argument', message: 'bad', field: 'priceTicks' })).toMatchObject({
      code: 'invalid_argument',
      field: 'price',
    })
  })
})
