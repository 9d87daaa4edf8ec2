// @vitest-environment happy-dom
// The account on VoxFi: balances in reais read "R$ 1,234.56"; fills show which contract (YES/NO) and the fee
// where their record says (`outcome` or `contract_type`, `fee`: the engine's account keeps them on the fill row);
// order and fill prices follow the price preference.
import { act, type ReactNode } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { UserUpdateView } from '../../src/shared/model'
import { deriveAccount, type FillRow } from '../../src/shared/account'
import { AccountPane } from '../../src/renderer/features/account/AccountPane'
import { ServicesProvider } from '../../src/renderer/hooks/context'
import { formatMoney } from '../../src/renderer/lib/format'
import { setPriceUnit } from '../../src/renderer/store/prefs'
import { useProfiles } from '../../src/renderer/store/profiles'
import { withDom } from './dom'
import { account, createFakeApi, status, type FakeApi } from './fake-api'

const dom = withDom()
const NBSP = '\u00a0'
let seq = 0

const u = (topic: UserUpdateView['topic'], data: unknown, market: string | null = null): UserUpdateView => ({
  seq: ++seq,
  topic,
  market,
  data,
  receivedAt: 1_700_000_000_000 + seq,
})

async function render(api: FakeApi, node: ReactNode) {
  await act(async () => {
    dom.root.render(<ServicesProvider api={api}>{node}</ServicesProvider>)
  })
}

const flush = () => act(async () => new Promise<void>((r) => setTimeout(r, 0)))

async function openWithKey(api: FakeApi) {
  await render(api, <AccountPane onOpenKeySettings={() => {}} />)
  await act(async () => api.push({ status: status({ hasKey: true }) }))
  await flush()
}

beforeEach(() => {
  useProfiles.setState({ profiles: [], activeId: null, error: null })
  setPriceUnit('cents')
})

describe('money in reais', () => {
  it('formats BRL with the R$ symbol, grouped, two decimals', () => {
    expect(formatMoney(1234.56, 'BRL')).toBe(`R$${NBSP}1,234.56`)
    expect(formatMoney(26988.8, 'BRL')).toBe(`R$${NBSP}26,988.80`)
    expect(formatMoney(0.1, 'brl')).toBe(`R$${NBSP}0.10`)
    expect(formatMoney(-12, 'BRL')).toBe(`-R$${NBSP}12.00`)
    expect(formatMoney(null, 'BRL')).toBe('—')
    // Other currencies keep their plain amount (the card names the currency).
    expect(formatMoney(9838.7, 'USD')).toBe('9,838.70')
    expect(formatMoney(1.5, 'USDC')).toBe('1.50')
    expect(formatMoney(2, null)).toBe('2.00')
  })

  it('shows a BRL balance as R$ on its card', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    await act(async () =>
      api.push({
        account: account({
          balances: [
            { currency: 'BRL', total: 26988.8, available: 9956.1, updatedAt: 1 },
            { currency: 'USD', total: 100, available: 50, updatedAt: 1 },
          ],
        }),
      }),
    )
    const card = dom.container.querySelector<HTMLElement>('[data-testid="balance"][data-currency="BRL"]')
    expect(dom.byTestId('balance-total', card as HTMLElement)[0]?.textContent).toBe(`R$${NBSP}26,988.80`)
    expect(card?.textContent).toContain(`available R$${NBSP}9,956.10`)
    const usd = dom.container.querySelector<HTMLElement>('[data-testid="balance"][data-currency="USD"]')
    expect(dom.byTestId('balance-total', usd as HTMLElement)[0]?.textContent).toBe('100.00')
  })
})

describe('fill outcome and fee', () => {
  it('keeps the contract and the fee on the fill row, from the record as the venue wrote it', () => {
    const account = deriveAccount([
      u('fill', { market: 'm1', price: 0.4, quantity: 10, outcome: 'YES', fee: 0.1 }),
      u('fill', { fills: [{ trade_id: 't9', price: 0.6, size: 2, contract_type: 'NO' }] }),
      // VoxFi's raw fee is in centavos: only the engine's converted `fee` is read.
      u('fill', { market: 'm1', price: 0.41, quantity: 1, transaction_fee: 10, outcome: 'maybe' }),
    ])
    const [plain, byId, first] = account.fills as [FillRow, FillRow, FillRow]
    expect([first.outcome, first.fee]).toEqual(['yes', 0.1])
    expect([byId.key, byId.outcome, byId.fee]).toEqual(['t9', 'no', undefined])
    expect([plain.outcome, plain.fee]).toEqual([undefined, undefined])
  })

  it('shows the contract and the fee columns when fills carry them, prices in the chosen unit', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    const held = deriveAccount([
      u('fill', { market: 'm1', side: 'buy', price: 0.4, quantity: 10, outcome: 'yes', fee: 0.1 }),
      u('fill', { market: 'm1', side: 'sell', price: 0.57, quantity: 3, outcome: 'no' }),
    ]).fills
    await act(async () =>
      api.push({
        account: account({
          balances: [{ currency: 'BRL', total: 1000, available: 900, updatedAt: 1 }],
          fills: held,
        }),
      }),
    )
    const fills = dom.byTestId('fills')[0] as HTMLElement
    const head = Array.from(fills.querySelectorAll('th')).map((th) => th.textContent)
    expect(head).toEqual(['Time', 'Market', 'Side', 'Out.', 'Price', 'Size', 'Fee'])
    const rows = dom.byTestId('fill-row', fills)
    // Newest first.
    expect(rows.map((r) => r.dataset.outcome)).toEqual(['NO', 'YES'])
    expect(dom.byTestId('fill-outcome', rows[0])[0]?.textContent).toBe('NO')
    expect(dom.byTestId('fill-fee', rows[0])[0]?.textContent).toBe('—')
    expect(dom.byTestId('fill-outcome', rows[1])[0]?.textContent).toBe('YES')
    // The fee in the account's currency.
    expect(dom.byTestId('fill-fee', rows[1])[0]?.textContent).toBe(`R$${NBSP}0.10`)
    expect(rows[1]?.textContent).toContain('40¢')
    await act(async () => setPriceUnit('probability'))
    expect(rows[1]?.textContent).toContain('0.40')
  })

  it('keeps the fills table as it was for a venue that says neither', async () => {
    const api = createFakeApi()
    await openWithKey(api)
    await act(async () =>
      api.push({
        account: account({
          fills: deriveAccount([u('fill', { market: 'm1', side: 'buy', price: 0.4, size: 10 })]).fills,
        }),
      }),
    )
    const fills = dom.byTestId('fills')[0] as HTMLElement
    expect(Array.from(fills.querySelectorAll('th')).map((th) => th.textContent)).toEqual([
      'Time',
      'Market',
      'Side',
      'Price',
      'Size',
    ])
    expect(dom.byTestId('fill-outcome')).toHaveLength(0)
  })

  it('the account read at start (getAccount) carries the same info', async () => {
    const fills = deriveAccount([
      u('fill', { market: 'm1', price: 0.4, quantity: 10, outcome: 'no', fee: 0.2 }),
    ]).fills
    const api = createFakeApi({ getAccount: async () => ({ ok: true, value: account({ fills }) }) })
    await openWithKey(api)
    await flush()
    const row = dom.byTestId('fill-row')[0]
    expect(row?.dataset.outcome).toBe('NO')
    expect(row?.dataset.fee).toBe('0.2')
  })
})
