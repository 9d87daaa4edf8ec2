// The adapters shipped in resources/adapters/, bundled with the code that reads them so a packaged build needs no
// path to find them. They are data all the same: each is validated by the same schema a user's file meets.
import sim from '../../../resources/adapters/sim.json'
import voxfi from '../../../resources/adapters/voxfi.json'
import kalshi from '../../../resources/adapters/kalshi.json'
import polymarket from '../../../resources/adapters/polymarket.json'
import betfair from '../../../resources/adapters/betfair.json'
import dflow from '../../../resources/adapters/dflow.json'
import limitless from '../../../resources/adapters/limitless.json'
import predictfun from '../../../resources/adapters/predictfun.json'
import coinbase from '../../../resources/adapters/coinbase.json'
import kraken from '../../../resources/adapters/kraken.json'
import krakenV2 from '../../../resources/adapters/kraken-v2.json'
import krakenFutures from '../../../resources/adapters/kraken-futures.json'
import binance from '../../../resources/adapters/binance.json'
import bybit from '../../../resources/adapters/bybit.json'
import okx from '../../../resources/adapters/okx.json'
import deribit from '../../../resources/adapters/deribit.json'
import bitmex from '../../../resources/adapters/bitmex.json'
import bitstamp from '../../../resources/adapters/bitstamp.json'
import gemini from '../../../resources/adapters/gemini.json'
import kucoin from '../../../resources/adapters/kucoin.json'
import dydx from '../../../resources/adapters/dydx.json'
import bitfinex from '../../../resources/adapters/bitfinex.json'
import { compileAdapter, type CompiledAdapter } from './compile'
import { parseAdapter, type AdapterSpec } from './schema'

/**
 * In auto-detection order: the simulator's reference dialect and our venue (VoxFi, which the simulator speaks by
 * default) first, then the most specific fingerprints. The first two `detect`s exclude each other (a VoxFi ack
 * carries `status`, a reference ack does not; VoxFi's data frames have `msg_type` and no `channel`), so their
 * order decides nothing.
 */
const FILES: readonly unknown[] = [
  sim,
  voxfi,
  kalshi,
  polymarket,
  betfair,
  dflow,
  limitless,
  predictfun,
  coinbase,
  kraken,
  krakenV2,
  krakenFutures,
  binance,
  bybit,
  okx,
  deribit,
  bitmex,
  bitstamp,
  gemini,
  kucoin,
  dydx,
  bitfinex,
]

let specs: AdapterSpec[] | null = null
let compiled: CompiledAdapter[] | null = null

/** The shipped adapter files, validated. A shipped file that fails its schema is a build error, so it throws. */
export function builtinSpecs(): AdapterSpec[] {
  if (specs === null) {
    specs = FILES.map((f, i) => {
      const r = parseAdapter(f)
      if (!r.ok) throw new Error(`shipped adapter #${i} is invalid: ${r.errors.join('; ')}`)
      return r.adapter
    })
  }
  return specs
}

export function builtinAdapters(): CompiledAdapter[] {
  compiled ??= builtinSpecs().map((s) => compileAdapter(s))
  return compiled
}
