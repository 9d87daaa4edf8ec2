// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FillRow } from '../../src/shared/account'
import type { TradeView } from '../../src/shared/model'
import {
  csvField,
  csvFilename,
  downloadCsv,
  fillsCsv,
  FILLS_HEADER,
  toCsv,
  tradesCsv,
  TRADES_HEADER,
} from '../../src/renderer/lib/csv'
import { marketNamesOf } from '../../src/renderer/lib/market-names'

const TS = Date.UTC(2024, 4, 6, 7, 8, 9, 10)

const trade = (partial: Partial<TradeView> = {}): TradeView => ({
  key: 'k1',
  market: 'm1',
  price: 0.53,
  size: 12,
  side: 'buy',
  ts: TS,
  receivedAt: TS,
  ...partial,
})

const fill = (partial: Partial<FillRow> = {}): FillRow => ({
  key: 'f1',
  orderId: 'o1',
  market: 'm1',
  side: 'sell',
  price: 0.4,
  size: 5,
  ts: TS,
  ...partial,
})

describe('csv fields', () => {
  it('quotes a field with a comma, quote, CR or LF and doubles its quotes', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('cr\rhere')).toBe('"cr\rhere"')
    expect(csvField('')).toBe('')
    expect(csvField(null)).toBe('')
    expect(csvField(undefined)).toBe('')
  })

  it('defuses text a spreadsheet would run as a formula, but keeps numbers as numbers', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvField('+1')).toBe("'+1")
    expect(csvField('-1')).toBe("'-1")
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(csvField('\tx')).toBe("'\tx")
    expect(csvField('\rx')).toBe(`"'\rx"`)
    expect(csvField('a=b')).toBe('a=b')
    expect(csvField(-1.5)).toBe('-1.5')
    expect(csvField(0)).toBe('0')
    expect(csvField(Number.NaN)).toBe('')
    expect(csvField(Number.POSITIVE_INFINITY)).toBe('')
  })

  it('ends every line with CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          [1, 'x'],
          [null, 'y,z'],
        ],
      ),
    ).toBe('a,b\r\n1,x\r\n,"y,z"\r\n')
  })
})

describe('trades and fills', () => {
  // One event with a market whose title means nothing alone, and one market absent from the listing.
  const names = marketNamesOf([
    {
      id: 'e1',
      title: 'Bitcoin monthly change to Dec 30: which range?',
      markets: [{ id: 'm1', title: '-5% to 0%' }],
    },
  ])

  it('trades: time, the market id with its event and market titles, price, size, side, key', () => {
    expect(TRADES_HEADER.join(',')).toBe('time,market,event,market_title,price,size,side,key')
    const text = tradesCsv(
      [trade(), trade({ key: 'k2', market: 'm-gone', side: null, price: 0.535, size: 3.5 })],
      names,
    )
    expect(text.split('\r\n')).toEqual([
      'time,market,event,market_title,price,size,side,key',
      // A title starting with "-" is defused like any text a spreadsheet would run.
      "2024-05-06T07:08:09.010Z,m1,Bitcoin monthly change to Dec 30: which range?,'-5% to 0%,0.53,12,buy,k1",
      '2024-05-06T07:08:09.010Z,m-gone,,,0.535,3.5,,k2',
      '',
    ])
  })

  it('fills: titles beside the id; unknown fields stay empty; hostile ids are defused', () => {
    expect(FILLS_HEADER.join(',')).toBe(
      'time,market,event,market_title,price,size,side,order_id,fill_id,mode',
    )
    const text = fillsCsv(
      [
        fill(),
        fill({
          key: '=cmd|x',
          orderId: null,
          market: null,
          side: null,
          price: null,
          size: null,
          mode: 'paper',
        }),
      ],
      names,
    )
    expect(text.split('\r\n')).toEqual([
      'time,market,event,market_title,price,size,side,order_id,fill_id,mode',
      "2024-05-06T07:08:09.010Z,m1,Bitcoin monthly change to Dec 30: which range?,'-5% to 0%,0.4,5,sell,o1,f1,live",
      "2024-05-06T07:08:09.010Z,,,,,,,,'=cmd|x,paper",
      '',
    ])
  })

  it('an empty list is the header alone', () => {
    expect(tradesCsv([], names)).toBe('time,market,event,market_title,price,size,side,key\r\n')
    expect(fillsCsv([], names)).toBe(
      'time,market,event,market_title,price,size,side,order_id,fill_id,mode\r\n',
    )
  })
})

describe('file names', () => {
  const at = new Date(2024, 0, 2, 3, 4, 5)

  it('kind, sanitised market and a local timestamp', () => {
    expect(csvFilename('trades', 'm-12.a_b', at)).toBe('trades-m-12.a_b-20240102-030405.csv')
    expect(csvFilename('trades', '../etc/pass wd:*?', at)).toBe('trades-etc_pass_wd_-20240102-030405.csv')
    expect(csvFilename('fills', null, at)).toBe('fills-20240102-030405.csv')
    expect(csvFilename('trades', '///', at)).toBe('trades-20240102-030405.csv')
    expect(csvFilename('trades', 'x'.repeat(200), at)).toBe(`trades-${'x'.repeat(80)}-20240102-030405.csv`)
  })
})

describe('download', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  it('clicks a hidden <a download> for a CSV blob, removes it and revokes the URL later', async () => {
    vi.useFakeTimers()
    const blobs: Blob[] = []
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob)
      return 'blob:test/1'
    })
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    const clicked: Array<{ href: string; download: string; attached: boolean }> = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, attached: this.isConnected })
    })
    downloadCsv('fills-x.csv', 'a,b\r\n')
    expect(create).toHaveBeenCalledTimes(1)
    expect(blobs[0]?.type).toBe('text/csv;charset=utf-8')
    expect(await blobs[0]?.text()).toBe('a,b\r\n')
    expect(clicked).toEqual([{ href: 'blob:test/1', download: 'fills-x.csv', attached: true }])
    expect(document.querySelectorAll('a[download]')).toHaveLength(0)
    expect(revoke).not.toHaveBeenCalled()
    vi.runAllTimers()
    expect(revoke).toHaveBeenCalledWith('blob:test/1')
  })
})
