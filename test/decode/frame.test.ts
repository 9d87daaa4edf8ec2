// Table-driven: each real-venue shape (and our simulator's) decodes to exactly the Updates of DESIGN §3.2.
import { describe, expect, it } from 'vitest'
import { decodeFrame, decodeValue } from '../../src/shared/decode'
import { TRIMMED_UNREADABLE } from '../../src/shared/json-limits'
import type { Update } from '../../src/shared/model'

interface Case {
  name: string
  frame: unknown
  expect: Update[]
}

const simCases: Case[] = [
  {
    name: 'simulator orderbook snapshot',
    frame: {
      channel: 'market',
      type: 'orderbook',
      market: 'm-1',
      event: 'ev-1',
      snapshot: true,
      seq: 1,
      bids: [
        [0.52, 100],
        [0.51, 40],
      ],
      asks: [[0.55, 20]],
      ts: 1_700_000_000_000,
    },
    expect: [
      {
        kind: 'book',
        market: 'm-1',
        snapshot: true,
        seq: 1,
        bids: [
          [0.52, 100],
          [0.51, 40],
        ],
        asks: [[0.55, 20]],
      },
    ],
  },
  {
    name: 'simulator orderbook delta on the event channel (0 removes a level)',
    frame: {
      channel: 'event',
      type: 'orderbook',
      market: 'm-2',
      event: 'ev-1',
      snapshot: false,
      seq: 7,
      bids: [[0.5, 0]],
      asks: [],
    },
    expect: [{ kind: 'book', market: 'm-2', snapshot: false, seq: 7, bids: [[0.5, 0]], asks: [] }],
  },
  {
    name: 'simulator orderbook with numbers as strings (general path)',
    frame: {
      channel: 'market',
      type: 'orderbook',
      market: 'm-1',
      event: 'ev-1',
      snapshot: 'true',
      seq: '3',
      bids: [['0.40', '12.5']],
      asks: [],
    },
    expect: [{ kind: 'book', market: 'm-1', snapshot: true, seq: 3, bids: [[0.4, 12.5]], asks: [] }],
  },
  {
    name: 'simulator trade',
    frame: {
      channel: 'market',
      type: 'trade',
      market: 'm-1',
      event: 'ev-1',
      price: 0.53,
      size: 7,
      side: 'buy',
      id: 't-9',
      ts: 1_700_000_000_123,
    },
    expect: [
      { kind: 'trade', market: 'm-1', price: 0.53, size: 7, side: 'buy', ts: 1_700_000_000_123, id: 't-9' },
    ],
  },
  {
    name: 'simulator trade whose event id looks like a keyword',
    frame: {
      channel: 'event',
      type: 'trade',
      market: 'm',
      event: 'error',
      price: '0.1',
      size: '2',
      side: 'SELL',
      id: 5,
    },
    expect: [{ kind: 'trade', market: 'm', price: 0.1, size: 2, side: 'sell', ts: null, id: '5' }],
  },
  ...(['order', 'fill', 'position', 'balance'] as const).map((topic): Case => ({
    name: `simulator user ${topic}`,
    frame: { channel: 'user', type: topic, market: 'm-3', id: 'x' },
    expect: [
      { kind: 'user', topic, market: 'm-3', data: { channel: 'user', type: topic, market: 'm-3', id: 'x' } },
    ],
  })),
  {
    name: 'user balance without market; wallet counts as balance',
    frame: { channel: 'user', type: 'wallet', available: 10 },
    expect: [
      {
        kind: 'user',
        topic: 'balance',
        market: null,
        data: { channel: 'user', type: 'wallet', available: 10 },
      },
    ],
  },
  {
    name: 'user message of an unknown type',
    frame: { channel: 'user', type: 'margin_call' },
    expect: [{ kind: 'user', topic: 'other', market: null, data: { channel: 'user', type: 'margin_call' } }],
  },
  {
    name: 'user trade is a fill, not a market trade',
    frame: { channel: 'user', type: 'trade', market: 'm', price: 0.5, size: 1, side: 'buy' },
    expect: [
      {
        kind: 'user',
        topic: 'fill',
        market: 'm',
        data: { channel: 'user', type: 'trade', market: 'm', price: 0.5, size: 1, side: 'buy' },
      },
    ],
  },
  {
    name: 'subscribed ack',
    frame: { type: 'subscribed', channel: 'market', markets: ['m-1'], filter: 'all' },
    expect: [
      {
        kind: 'control',
        topic: 'subscribed',
        data: { type: 'subscribed', channel: 'market', markets: ['m-1'], filter: 'all' },
      },
    ],
  },
  {
    name: 'unsubscribed ack',
    frame: { type: 'unsubscribed', channel: 'user' },
    expect: [{ kind: 'control', topic: 'unsubscribed', data: { type: 'unsubscribed', channel: 'user' } }],
  },
  ...(['unauthorized', 'ip not allowed', 'invalid_request'] as const).map((code): Case => ({
    name: `error ${code}`,
    frame: { type: 'error', error: code, message: 'why' },
    expect: [
      { kind: 'control', topic: 'error', error: code, data: { type: 'error', error: code, message: 'why' } },
    ],
  })),
]

const polymarket: Case[] = [
  {
    name: 'polymarket book (objects, strings, asset_id beats market)',
    frame: {
      event_type: 'book',
      asset_id: 'tok-yes',
      market: '0xcond',
      bids: [
        { price: '.48', size: '30' },
        { price: '.49', size: '20' },
      ],
      asks: [{ price: '.52', size: '25' }],
      timestamp: '1757908892351',
      hash: '0xabc',
    },
    expect: [
      {
        kind: 'book',
        market: 'tok-yes',
        snapshot: true,
        bids: [
          [0.48, 30],
          [0.49, 20],
        ],
        asks: [[0.52, 25]],
      },
    ],
  },
  {
    name: 'polymarket price_change: several assets in one frame',
    frame: {
      event_type: 'price_change',
      market: '0xcond',
      price_changes: [
        { asset_id: 'A', price: '0.5', size: '200', side: 'BUY', hash: 'h', best_bid: '0.5', best_ask: '1' },
        { asset_id: 'B', price: '0.5', size: '0', side: 'SELL', hash: 'h' },
        { asset_id: 'A', price: '0.4', size: '10', side: 'SELL' },
      ],
      timestamp: '1757908892351',
    },
    expect: [
      { kind: 'book', market: 'A', snapshot: false, bids: [[0.5, 200]], asks: [[0.4, 10]] },
      { kind: 'book', market: 'B', snapshot: false, bids: [], asks: [[0.5, 0]] },
    ],
  },
  {
    name: 'polymarket legacy price_change with changes[] and buys/sells book',
    frame: [
      {
        event_type: 'price_change',
        asset_id: 'A',
        market: '0xc',
        changes: [{ price: '0.4', side: 'SELL', size: '3' }],
      },
      { event_type: 'book', asset_id: 'A', buys: [{ price: '0.3', size: '1' }], sells: [] },
    ],
    expect: [
      { kind: 'book', market: 'A', snapshot: false, bids: [], asks: [[0.4, 3]] },
      { kind: 'book', market: 'A', snapshot: true, bids: [[0.3, 1]], asks: [] },
    ],
  },
  {
    name: 'polymarket last_trade_price',
    frame: {
      event_type: 'last_trade_price',
      asset_id: 'tok',
      market: '0xc',
      price: '0.456',
      side: 'BUY',
      size: '219.217767',
      fee_rate_bps: '0',
      timestamp: '1750428146322',
    },
    expect: [
      { kind: 'trade', market: 'tok', price: 0.456, size: 219.217767, side: 'buy', ts: 1750428146322 },
    ],
  },
  {
    name: 'polymarket best_bid_ask is a ticker',
    frame: {
      event_type: 'best_bid_ask',
      asset_id: 'tok',
      best_bid: '0.73',
      best_ask: '0.77',
      spread: '0.04',
    },
    expect: [{ kind: 'ticker', market: 'tok', bid: 0.73, ask: 0.77 }],
  },
  {
    name: 'polymarket user trade goes to the user feed',
    frame: {
      event_type: 'trade',
      type: 'TRADE',
      asset_id: 'tok',
      price: '0.5',
      size: '1',
      side: 'BUY',
      maker_orders: [],
    },
    expect: [
      {
        kind: 'user',
        topic: 'fill',
        market: 'tok',
        data: {
          event_type: 'trade',
          type: 'TRADE',
          asset_id: 'tok',
          price: '0.5',
          size: '1',
          side: 'BUY',
          maker_orders: [],
        },
      },
    ],
  },
]

const kalshi: Case[] = [
  {
    name: 'kalshi orderbook_snapshot: YES bids, NO bids become YES asks at 1-p, cents to probability',
    frame: {
      type: 'orderbook_snapshot',
      sid: 2,
      seq: 2,
      msg: {
        market_ticker: 'FED-23DEC-T3.00',
        yes: [
          [8, 300],
          [22, 333],
        ],
        no: [
          [54, 20],
          [56, 146],
        ],
      },
    },
    expect: [
      {
        kind: 'book',
        market: 'FED-23DEC-T3.00',
        snapshot: true,
        seq: 2,
        bids: [
          [0.22, 333],
          [0.08, 300],
        ],
        asks: [
          [0.44, 146],
          [0.46, 20],
        ],
      },
    ],
  },
  {
    name: 'kalshi snapshot with one side missing and 1-cent levels',
    frame: { type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'K', yes: [[1, 500]] } },
    expect: [{ kind: 'book', market: 'K', snapshot: true, seq: 1, bids: [[0.01, 500]], asks: [] }],
  },
  {
    name: 'kalshi snapshot in dollars',
    frame: {
      type: 'orderbook_snapshot',
      seq: 4,
      msg: { market_ticker: 'K', yes_dollars: [['0.0800', 300]], no_dollars: [['0.5400', 20]] },
    },
    expect: [{ kind: 'book', market: 'K', snapshot: true, seq: 4, bids: [[0.08, 300]], asks: [[0.46, 20]] }],
  },
  {
    name: 'kalshi orderbook_delta on YES is a relative bid change',
    frame: {
      type: 'orderbook_delta',
      sid: 2,
      seq: 3,
      msg: { market_ticker: 'K', price: 96, delta: -54, side: 'yes' },
    },
    expect: [
      { kind: 'book', market: 'K', snapshot: false, seq: 3, relative: true, bids: [[0.96, -54]], asks: [] },
    ],
  },
  {
    name: 'kalshi orderbook_delta on NO is a relative YES ask change at 1-p',
    frame: {
      type: 'orderbook_delta',
      sid: 2,
      seq: 4,
      msg: { market_ticker: 'K', price: 30, delta: 12, side: 'no' },
    },
    expect: [
      { kind: 'book', market: 'K', snapshot: false, seq: 4, relative: true, bids: [], asks: [[0.7, 12]] },
    ],
  },
  {
    name: 'kalshi trade: yes_price in cents, taker_side no = taker sold YES, ts in seconds',
    frame: {
      type: 'trade',
      sid: 11,
      msg: {
        trade_id: 'd91bc706',
        market_ticker: 'K',
        yes_price: 36,
        no_price: 64,
        count: 136,
        taker_side: 'no',
        ts: 1669149841,
      },
    },
    expect: [
      { kind: 'trade', market: 'K', price: 0.36, size: 136, side: 'sell', ts: 1669149841000, id: 'd91bc706' },
    ],
  },
  {
    name: 'kalshi trade with only no_price',
    frame: { type: 'trade', msg: { market_ticker: 'K', no_price: 70, count: 1, taker_side: 'yes' } },
    expect: [{ kind: 'trade', market: 'K', price: 0.3, size: 1, side: 'buy', ts: null }],
  },
  {
    name: 'kalshi ticker in cents',
    frame: {
      type: 'ticker',
      sid: 1,
      msg: { market_ticker: 'K', price: 48, yes_bid: 45, yes_ask: 53, volume: 33896, ts: 1669149841 },
    },
    expect: [{ kind: 'ticker', market: 'K', bid: 0.45, ask: 0.53, last: 0.48 }],
  },
  {
    name: 'kalshi fill is a user update',
    frame: {
      type: 'fill',
      sid: 13,
      msg: {
        trade_id: 't',
        order_id: 'o',
        market_ticker: 'K',
        is_taker: true,
        side: 'yes',
        yes_price: 75,
        count: 278,
      },
    },
    expect: [
      {
        kind: 'user',
        topic: 'fill',
        market: 'K',
        data: {
          type: 'fill',
          sid: 13,
          msg: {
            trade_id: 't',
            order_id: 'o',
            market_ticker: 'K',
            is_taker: true,
            side: 'yes',
            yes_price: 75,
            count: 278,
          },
        },
      },
    ],
  },
  {
    name: 'kalshi error: code under msg',
    frame: { id: 123, type: 'error', msg: { code: 6, msg: 'Already subscribed' } },
    expect: [
      {
        kind: 'control',
        topic: 'error',
        error: '6',
        data: { id: 123, type: 'error', msg: { code: 6, msg: 'Already subscribed' } },
      },
    ],
  },
]

const crypto: Case[] = [
  {
    name: 'binance trade: m=true means buyer is maker, so the taker sold',
    frame: {
      e: 'trade',
      E: 1672515782136,
      s: 'BNBBTC',
      t: 12345,
      p: '0.001',
      q: '100',
      T: 1672515782136,
      m: true,
      M: true,
    },
    expect: [
      {
        kind: 'trade',
        market: 'BNBBTC',
        price: 0.001,
        size: 100,
        side: 'sell',
        ts: 1672515782136,
        id: '12345',
      },
    ],
  },
  {
    name: 'binance aggTrade inside a combined stream, m=false: taker bought',
    frame: {
      stream: 'bnbbtc@aggTrade',
      data: { e: 'aggTrade', E: 1, s: 'BNBBTC', a: 7, p: '0.5', q: '2', T: 1672515782136, m: false },
    },
    expect: [
      { kind: 'trade', market: 'BNBBTC', price: 0.5, size: 2, side: 'buy', ts: 1672515782136, id: '7' },
    ],
  },
  {
    name: 'binance depthUpdate (b/a arrays)',
    frame: {
      e: 'depthUpdate',
      E: 1,
      s: 'BNBBTC',
      U: 157,
      u: 160,
      b: [['0.0024', '10']],
      a: [['0.0026', '0']],
    },
    expect: [{ kind: 'book', market: 'BNBBTC', snapshot: false, bids: [[0.0024, 10]], asks: [[0.0026, 0]] }],
  },
  {
    name: 'binance partial depth is a snapshot',
    frame: { lastUpdateId: 160, bids: [['0.0024', '10', []]], asks: [['0.0026', '100']] },
    expect: [{ kind: 'book', market: null, snapshot: true, bids: [[0.0024, 10]], asks: [[0.0026, 100]] }],
  },
  {
    name: 'binance bookTicker (scalar b/a) is a ticker',
    frame: {
      u: 400900217,
      s: 'BNBUSDT',
      b: '25.35190000',
      B: '31.21000000',
      a: '25.36520000',
      A: '40.66000000',
    },
    expect: [{ kind: 'ticker', market: 'BNBUSDT', bid: 25.3519, ask: 25.3652 }],
  },
  {
    name: 'coinbase match: side is the maker side, so it is inverted',
    frame: {
      type: 'match',
      trade_id: 10,
      sequence: 50,
      maker_order_id: 'ac928c66',
      taker_order_id: '132fb6ae',
      time: '2014-11-07T08:19:27.028459Z',
      product_id: 'BTC-USD',
      size: '5.23512',
      price: '400.23',
      side: 'sell',
    },
    expect: [
      {
        kind: 'trade',
        market: 'BTC-USD',
        price: 400.23,
        size: 5.23512,
        side: 'buy',
        ts: Date.parse('2014-11-07T08:19:27.028Z'),
        id: '10',
      },
    ],
  },
  {
    name: 'coinbase l2update: side-tagged change arrays',
    frame: {
      type: 'l2update',
      product_id: 'BTC-USD',
      changes: [
        ['buy', '10101.80', '0.162567'],
        ['sell', '10102', '0'],
      ],
      time: '2019-08-14T20:42:27.265Z',
    },
    expect: [
      { kind: 'book', market: 'BTC-USD', snapshot: false, bids: [[10101.8, 0.162567]], asks: [[10102, 0]] },
    ],
  },
  {
    name: 'coinbase snapshot',
    frame: {
      type: 'snapshot',
      product_id: 'BTC-USD',
      bids: [['10101.10', '0.45054140']],
      asks: [['10102.55', '0.57753524']],
    },
    expect: [
      {
        kind: 'book',
        market: 'BTC-USD',
        snapshot: true,
        bids: [[10101.1, 0.4505414]],
        asks: [[10102.55, 0.57753524]],
      },
    ],
  },
  {
    name: 'coinbase ticker',
    frame: {
      type: 'ticker',
      product_id: 'BTC-USD',
      price: '333.99',
      best_bid: '333.98',
      best_ask: '333.99',
      side: 'buy',
      time: '2015-09-16T12:00:00Z',
    },
    expect: [{ kind: 'ticker', market: 'BTC-USD', bid: 333.98, ask: 333.99, last: 333.99 }],
  },
  {
    name: 'coinbase advanced level2 under events[] with updates[]',
    frame: {
      channel: 'l2_data',
      timestamp: '2023-02-09T20:32:50.714964855Z',
      sequence_num: 0,
      events: [
        {
          type: 'snapshot',
          product_id: 'BTC-USD',
          updates: [
            {
              side: 'bid',
              event_time: '1970-01-01T00:00:00Z',
              price_level: '21921.73',
              new_quantity: '0.06317902',
            },
            {
              side: 'offer',
              event_time: '1970-01-01T00:00:00Z',
              price_level: '21921.74',
              new_quantity: '1.5',
            },
          ],
        },
      ],
    },
    expect: [
      {
        kind: 'book',
        market: 'BTC-USD',
        snapshot: true,
        bids: [[21921.73, 0.06317902]],
        asks: [[21921.74, 1.5]],
      },
    ],
  },
  {
    name: 'coinbase advanced market_trades: several trades in one frame',
    frame: {
      channel: 'market_trades',
      events: [
        {
          type: 'update',
          trades: [
            {
              trade_id: '1',
              product_id: 'ETH-USD',
              price: '1260.01',
              size: '0.3',
              side: 'BUY',
              time: '2019-08-14T20:42:27.265Z',
            },
            {
              trade_id: '2',
              product_id: 'ETH-USD',
              price: '1260.00',
              size: '0.1',
              side: 'SELL',
              time: '2019-08-14T20:42:27.265Z',
            },
          ],
        },
      ],
    },
    expect: [
      {
        kind: 'trade',
        market: 'ETH-USD',
        price: 1260.01,
        size: 0.3,
        side: 'buy',
        ts: 1565815347265,
        id: '1',
      },
      { kind: 'trade', market: 'ETH-USD', price: 1260, size: 0.1, side: 'sell', ts: 1565815347265, id: '2' },
    ],
  },
  {
    name: 'bybit orderbook snapshot under data{}',
    frame: {
      topic: 'orderbook.50.BTCUSDT',
      type: 'snapshot',
      ts: 1672304484978,
      data: {
        s: 'BTCUSDT',
        b: [['16493.50', '0.006']],
        a: [['16611.00', '0.029']],
        u: 18521288,
        seq: 7961638724,
      },
    },
    expect: [
      {
        kind: 'book',
        market: 'BTCUSDT',
        snapshot: true,
        seq: 7961638724,
        bids: [[16493.5, 0.006]],
        asks: [[16611, 0.029]],
      },
    ],
  },
  {
    name: 'bybit publicTrade: several trades under data[]',
    frame: {
      topic: 'publicTrade.BTCUSDT',
      type: 'snapshot',
      ts: 1672304486868,
      data: [
        {
          T: 1672304486865,
          s: 'BTCUSDT',
          S: 'Buy',
          v: '0.001',
          p: '16578.50',
          L: 'PlusTick',
          i: '20f43950',
          BT: false,
        },
        { T: 1672304486866, s: 'BTCUSDT', S: 'Sell', v: '0.002', p: '16578.00', i: '20f43951', BT: false },
      ],
    },
    expect: [
      {
        kind: 'trade',
        market: 'BTCUSDT',
        price: 16578.5,
        size: 0.001,
        side: 'buy',
        ts: 1672304486865,
        id: '20f43950',
      },
      {
        kind: 'trade',
        market: 'BTCUSDT',
        price: 16578,
        size: 0.002,
        side: 'sell',
        ts: 1672304486866,
        id: '20f43951',
      },
    ],
  },
  {
    name: 'okx books: instrument only in arg, 4-element levels',
    frame: {
      arg: { channel: 'books', instId: 'BTC-USDT' },
      action: 'update',
      data: [{ asks: [['8476.98', '415', '0', '13']], bids: [], ts: '1597026383085', checksum: -855196043 }],
    },
    expect: [{ kind: 'book', market: 'BTC-USDT', snapshot: false, bids: [], asks: [[8476.98, 415]] }],
  },
  {
    name: 'okx trades with px/sz',
    frame: {
      arg: { channel: 'trades', instId: 'BTC-USDT' },
      data: [
        {
          instId: 'BTC-USDT',
          tradeId: '130639474',
          px: '42219.9',
          sz: '0.12060306',
          side: 'buy',
          ts: '1630048897897',
        },
      ],
    },
    expect: [
      {
        kind: 'trade',
        market: 'BTC-USDT',
        price: 42219.9,
        size: 0.12060306,
        side: 'buy',
        ts: 1630048897897,
        id: '130639474',
      },
    ],
  },
  {
    name: 'kraken v2 book snapshot with price/qty objects, several symbols',
    frame: {
      channel: 'book',
      type: 'snapshot',
      data: [
        {
          symbol: 'MATIC/USD',
          bids: [{ price: 0.5666, qty: 4831.75496356 }],
          asks: [{ price: 0.5668, qty: 4410.79769741 }],
          checksum: 2439117997,
        },
        { symbol: 'ETH/USD', bids: [{ price: 1800, qty: 1 }], asks: [] },
      ],
    },
    expect: [
      {
        kind: 'book',
        market: 'MATIC/USD',
        snapshot: true,
        bids: [[0.5666, 4831.75496356]],
        asks: [[0.5668, 4410.79769741]],
      },
      { kind: 'book', market: 'ETH/USD', snapshot: true, bids: [[1800, 1]], asks: [] },
    ],
  },
  {
    name: 'kraken v2 trade with ISO timestamp',
    frame: {
      channel: 'trade',
      type: 'update',
      data: [
        {
          symbol: 'MATIC/USD',
          side: 'sell',
          price: 0.5117,
          qty: 40,
          ord_type: 'market',
          trade_id: 4665906,
          timestamp: '2023-09-25T07:49:37.708706Z',
        },
      ],
    },
    expect: [
      {
        kind: 'trade',
        market: 'MATIC/USD',
        price: 0.5117,
        size: 40,
        side: 'sell',
        ts: Date.parse('2023-09-25T07:49:37.708Z'),
        id: '4665906',
      },
    ],
  },
  {
    name: 'deribit book change with new/change/delete actions',
    frame: {
      jsonrpc: '2.0',
      method: 'subscription',
      params: {
        channel: 'book.BTC-PERPETUAL.100ms',
        data: {
          type: 'change',
          timestamp: 1554375447971,
          instrument_name: 'BTC-PERPETUAL',
          change_id: 109615,
          bids: [
            ['new', 5042.34, 30],
            ['delete', 5041.9, 0],
          ],
          asks: [['change', 5043, 12]],
        },
      },
    },
    expect: [
      {
        kind: 'book',
        market: 'BTC-PERPETUAL',
        snapshot: false,
        bids: [
          [5042.34, 30],
          [5041.9, 0],
        ],
        asks: [[5043, 12]],
      },
    ],
  },
  {
    name: 'deribit trades with direction and amount',
    frame: {
      jsonrpc: '2.0',
      method: 'subscription',
      params: {
        channel: 'trades.BTC-PERPETUAL.raw',
        data: [
          {
            trade_id: '48079269',
            instrument_name: 'BTC-PERPETUAL',
            price: 8956.17,
            amount: 10,
            direction: 'sell',
            timestamp: 1590484512188,
          },
        ],
      },
    },
    expect: [
      {
        kind: 'trade',
        market: 'BTC-PERPETUAL',
        price: 8956.17,
        size: 10,
        side: 'sell',
        ts: 1590484512188,
        id: '48079269',
      },
    ],
  },
]

const generic: Case[] = [
  {
    name: 'maker_side is inverted to the taker side',
    frame: { type: 'trade', market_id: 'x', price: 1, quantity: 2, maker_side: 'sell' },
    expect: [{ kind: 'trade', market: 'x', price: 1, size: 2, side: 'buy', ts: null }],
  },
  {
    name: 'is_buyer_maker false means the taker bought; marketId and ms timestamp',
    frame: {
      type: 'trade',
      marketId: 'x',
      price: '1',
      amount: '2',
      is_buyer_maker: false,
      timestamp: 1700000000000,
    },
    expect: [{ kind: 'trade', market: 'x', price: 1, size: 2, side: 'buy', ts: 1700000000000 }],
  },
  {
    name: 'buyer_is_maker true; nanosecond and microsecond timestamps; several trades under trades[]',
    frame: {
      type: 'trades',
      symbol: 'S',
      trades: [
        { price: 1, size: 1, buyer_is_maker: true, ts: '1700000000000000000' },
        { price: 2, size: 1, taker_side: 'buy', ts: 1700000000000000 },
      ],
    },
    expect: [
      { kind: 'trade', market: 'S', price: 1, size: 1, side: 'sell', ts: 1700000000000 },
      { kind: 'trade', market: 'S', price: 2, size: 1, side: 'buy', ts: 1700000000000 },
    ],
  },
  {
    name: 'several markets in one frame under data[]',
    frame: {
      type: 'orderbook',
      snapshot: false,
      data: [
        { market: 'a', bids: [{ px: 0.1, sz: 1 }], asks: [] },
        { market: 'b', bids: [], asks: [{ p: '0.9', s: '3' }] },
      ],
    },
    expect: [
      { kind: 'book', market: 'a', snapshot: false, bids: [[0.1, 1]], asks: [] },
      { kind: 'book', market: 'b', snapshot: false, bids: [], asks: [[0.9, 3]] },
    ],
  },
  {
    name: 'top-level array of mixed updates',
    frame: [
      { type: 'trade', product_id: 'p', price: 1, qty: 1, side: 'b' },
      { type: 'ticker', instrument: 'i', bestBid: '0.4', bestAsk: 0.6, last_price: 0.5 },
      { type: 'heartbeat' },
    ],
    expect: [
      { kind: 'trade', market: 'p', price: 1, size: 1, side: 'buy', ts: null },
      { kind: 'ticker', market: 'i', bid: 0.4, ask: 0.6, last: 0.5 },
      { kind: 'control', topic: 'heartbeat', data: { type: 'heartbeat' } },
    ],
  },
  {
    name: 'ticker type with plain price is last',
    frame: { type: 'ticker', ticker: 'T', price: '0.61' },
    expect: [{ kind: 'ticker', market: 'T', last: 0.61 }],
  },
  {
    name: 'events[] of trades',
    frame: { events: [{ type: 'trade', market: 'q', price: 0.2, size: 3, side: 'sell' }] },
    expect: [{ kind: 'trade', market: 'q', price: 0.2, size: 3, side: 'sell', ts: null }],
  },
  {
    name: 'op pong',
    frame: { op: 'pong', success: true },
    expect: [{ kind: 'control', topic: 'heartbeat', data: { op: 'pong', success: true } }],
  },
  {
    name: 'ping object',
    frame: { ping: 1492420473027 },
    expect: [{ kind: 'control', topic: 'heartbeat', data: { ping: 1492420473027 } }],
  },
  {
    name: 'kraken heartbeat channel',
    frame: { channel: 'heartbeat' },
    expect: [{ kind: 'control', topic: 'heartbeat', data: { channel: 'heartbeat' } }],
  },
  {
    name: 'okx subscribe ack in event',
    frame: { event: 'subscribe', arg: { channel: 'books', instId: 'X' } },
    expect: [
      {
        kind: 'control',
        topic: 'subscribed',
        data: { event: 'subscribe', arg: { channel: 'books', instId: 'X' } },
      },
    ],
  },
  {
    name: 'success:false is an error with its message',
    frame: { op: 'subscribe', success: false, ret_msg: 'bad topic' },
    expect: [
      {
        kind: 'control',
        topic: 'error',
        error: 'bad topic',
        data: { op: 'subscribe', success: false, ret_msg: 'bad topic' },
      },
    ],
  },
  {
    name: 'error object with code',
    frame: { error: { code: 2, msg: 'Invalid request' }, id: 1 },
    expect: [
      {
        kind: 'control',
        topic: 'error',
        error: '2',
        data: { error: { code: 2, msg: 'Invalid request' }, id: 1 },
      },
    ],
  },
  {
    name: 'json-rpc result ack',
    frame: { result: null, id: 1 },
    expect: [{ kind: 'control', topic: 'other', data: { result: null, id: 1 } }],
  },
]

const invalid: Case[] = [
  {
    name: 'NaN price makes the trade unknown',
    frame: { type: 'trade', market: 'm', price: 'abc', size: 1, side: 'buy' },
    expect: [{ kind: 'unknown', raw: { type: 'trade', market: 'm', price: 'abc', size: 1, side: 'buy' } }],
  },
  {
    name: 'negative size makes the trade unknown',
    frame: { type: 'trade', market: 'm', price: 0.5, size: -1, side: 'buy' },
    expect: [{ kind: 'unknown', raw: { type: 'trade', market: 'm', price: 0.5, size: -1, side: 'buy' } }],
  },
  {
    name: 'negative level size makes the book unknown (absolute deltas)',
    frame: { type: 'orderbook', market: 'm', snapshot: false, bids: [[0.5, -3]], asks: [] },
    expect: [
      {
        kind: 'unknown',
        raw: { type: 'orderbook', market: 'm', snapshot: false, bids: [[0.5, -3]], asks: [] },
      },
    ],
  },
  {
    name: 'one bad trade among good ones: only that one is unknown',
    frame: {
      type: 'trades',
      trades: [
        { price: 1, size: 1, side: 'buy', market: 'a' },
        { price: 'x', size: 1, market: 'a' },
      ],
    },
    expect: [
      { kind: 'trade', market: 'a', price: 1, size: 1, side: 'buy', ts: null },
      { kind: 'unknown', raw: { price: 'x', size: 1, market: 'a' } },
    ],
  },
  {
    name: 'one bad market among a price_change: only that market is unknown',
    frame: {
      event_type: 'price_change',
      price_changes: [
        { asset_id: 'A', price: '0.5', size: '1', side: 'BUY' },
        { asset_id: 'B', price: 'NaN', size: '1', side: 'BUY' },
      ],
    },
    expect: [
      { kind: 'book', market: 'A', snapshot: false, bids: [[0.5, 1]], asks: [] },
      {
        kind: 'unknown',
        raw: {
          event_type: 'price_change',
          price_changes: [
            { asset_id: 'A', price: '0.5', size: '1', side: 'BUY' },
            { asset_id: 'B', price: 'NaN', size: '1', side: 'BUY' },
          ],
        },
      },
    ],
  },
  { name: 'number at top level', frame: 42, expect: [{ kind: 'unknown', raw: 42 }] },
  { name: 'null', frame: null, expect: [{ kind: 'unknown', raw: null }] },
  { name: 'empty object', frame: {}, expect: [{ kind: 'unknown', raw: {} }] },
  { name: 'empty array', frame: [], expect: [{ kind: 'unknown', raw: [] }] },
  {
    name: 'a bare level is not a trade',
    frame: { price: 1, size: 2 },
    expect: [{ kind: 'unknown', raw: { price: 1, size: 2 } }],
  },
  {
    name: 'polymarket tick_size_change is unknown',
    frame: { event_type: 'tick_size_change', asset_id: 'a', old_tick_size: '0.01', new_tick_size: '0.001' },
    expect: [
      {
        kind: 'unknown',
        raw: { event_type: 'tick_size_change', asset_id: 'a', old_tick_size: '0.01', new_tick_size: '0.001' },
      },
    ],
  },
]

describe('decodeValue / decodeFrame', () => {
  const groups: [string, Case[]][] = [
    ['simulator', simCases],
    ['polymarket', polymarket],
    ['kalshi', kalshi],
    ['binance, coinbase, bybit, okx, kraken, deribit', crypto],
    ['generic shapes', generic],
    ['invalid items', invalid],
  ]
  for (const [group, cases] of groups) {
    describe(group, () => {
      it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
        expect(decodeValue(c.frame)).toEqual(c.expect)
        const r = decodeFrame(JSON.stringify(c.frame))
        expect(r).toEqual({
          ok: true,
          updates: c.expect,
          unknown: c.expect.some((u) => u.kind === 'unknown'),
        })
      })
    })
  }

  it('reports invalid JSON as ok:false with a one-line error', () => {
    const r = decodeFrame('{"type": "trade",\n "price": ')
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error).toMatch(/^invalid JSON/)
      expect(r.error).not.toContain('\n')
    }
    expect(decodeFrame('').ok).toBe(false)
  })

  it('treats bare PING/PONG text as a heartbeat', () => {
    expect(decodeFrame('PONG')).toEqual({
      ok: true,
      unknown: false,
      updates: [{ kind: 'control', topic: 'heartbeat', data: 'PONG' }],
    })
  })

  it('does not mutate its input', () => {
    const frame = {
      type: 'orderbook_snapshot',
      seq: 1,
      msg: {
        market_ticker: 'K',
        yes: [
          [8, 1],
          [22, 2],
        ],
        no: [[54, 3]],
      },
    }
    const copy = JSON.parse(JSON.stringify(frame)) as unknown
    decodeValue(frame)
    expect(frame).toEqual(copy)
  })

  it('survives a throwing getter (hostile input) without throwing', () => {
    const hostile = {
      get type(): string {
        throw new Error('boom')
      },
    }
    // It could not be serialised either: what is kept says so instead (shared/json-limits.ts).
    expect(decodeValue(hostile)).toEqual([{ kind: 'unknown', raw: TRIMMED_UNREADABLE }])
  })

  it('bounds recursion on deeply nested wrappers', () => {
    let v: unknown = { type: 'trade', market: 'm', price: 1, size: 1, side: 'buy', extra: 1 }
    for (let i = 0; i < 5000; i++) v = { data: v }
    const out = decodeValue(v)
    expect(out.length).toBe(1)
    expect(out[0]?.kind).toBe('unknown')
  })
})
