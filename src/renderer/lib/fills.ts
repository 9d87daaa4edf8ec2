// What a fill row shows beyond the account's FillRow: which contract it was (YES / NO) and its fee, where the
// update that brought it says (`data.outcome`, `data.fee`; VoxFi). The account (shared/account.ts) derives the
// rows and does not keep these; this finds each new row's record again and keeps what it says, per fill key, for
// as long as the account holds that fill. Pure: no DOM, no store.
import { userRecords, type FillRow, type Obj } from '../../shared/account'
import type { Outcome, UserUpdateView } from '../../shared/model'

export interface FillInfo {
  outcome?: Outcome
  /** The fee as the engine delivers it (money already in the account's currency, e.g. reais). */
  fee?: number
  /** The fee's currency, where the record names one. */
  currency?: string
}

export type FillInfoMap = Readonly<Record<string, FillInfo>>

export const NO_FILL_INFO: FillInfoMap = Object.freeze({})

/** The id fields shared/account.ts keys a fill by, in its order. */
const FILL_ID_FIELDS = ['fill_id', 'fillId', 'trade_id', 'tradeId', 'execution_id', 'id']

function idOf(r: Obj): string | null {
  for (const k of FILL_ID_FIELDS) {
    const v = r[k]
    if (typeof v === 'string' && v !== '') return v
    if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  }
  return null
}

export function parseOutcome(v: unknown): Outcome | null {
  if (typeof v !== 'string') return null
  const s = v.trim().toLowerCase()
  if (s === 'yes' || s === 'sim') return 'yes'
  if (s === 'no' || s === 'não' || s === 'nao') return 'no'
  return null
}

function parseAmount(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v)
    return Number.isFinite(n) ? n : null
  }
  return null
}

/**
 * What a fill record says about its contract and fee: `outcome` (else VoxFi's `contract_type`) and `fee`, on the
 * record or on the update's data around it; null when it says neither. VoxFi's raw `transaction_fee` is in
 * centavos and is not read here: the engine delivers money converted, as `fee`.
 */
export function fillInfoOf(record: Obj, data: unknown): FillInfo | null {
  const outer: Obj = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Obj) : {}
  const outcome =
    parseOutcome(record.outcome) ??
    parseOutcome(record.contract_type) ??
    parseOutcome(outer.outcome) ??
    parseOutcome(outer.contract_type)
  const fee = parseAmount(record.fee) ?? parseAmount(outer.fee)
  const currency = record.fee_currency ?? record.currency ?? outer.fee_currency ?? outer.currency
  if (outcome === null && fee === null) return null
  const info: FillInfo = {}
  if (outcome !== null) info.outcome = outcome
  if (fee !== null) info.fee = fee
  if (typeof currency === 'string' && currency !== '') info.currency = currency
  return info
}

const GENERATED_KEY = /^u(\d+)-(\d+)$/

/**
 * The fill info after `updates` were applied and turned `prevFills` into `fills`: each new fill's record is found
 * again (by its id, or for a fill without one, by the update its key names and its order within that update) and
 * what it says is kept; fills the account no longer holds are forgotten. The same map back when nothing changed.
 */
export function noteFillInfo(
  prev: FillInfoMap,
  updates: readonly UserUpdateView[],
  prevFills: readonly FillRow[],
  fills: readonly FillRow[],
): FillInfoMap {
  if (fills === prevFills) return prev
  const known = new Set(prevFills)
  const fresh = fills.filter((f) => !known.has(f))
  const byId = new Map<string, { r: Obj; u: UserUpdateView }>()
  const bySeq = new Map<number, { u: UserUpdateView; records: Obj[] }>()
  if (fresh.length > 0) {
    for (const u of updates) {
      if (u.topic !== 'fill') continue
      const anonymous: Obj[] = []
      for (const r of userRecords(u)) {
        const id = idOf(r)
        if (id === null) anonymous.push(r)
        else byId.set(id, { r, u })
      }
      if (anonymous.length > 0) bySeq.set(u.seq, { u, records: anonymous })
    }
  }
  const next: Record<string, FillInfo> = {}
  let changed = false
  // Fills without an id are keyed u<seq>-<n>, n counting up within the update: the k-th of an update is its
  // k-th record without an id.
  const generated = new Map<number, Array<{ key: string; n: number }>>()
  for (const f of fresh) {
    const m = GENERATED_KEY.exec(f.key)
    const hit = byId.get(f.key)
    if (hit) {
      const info = fillInfoOf(hit.r, hit.u.data)
      if (info) {
        next[f.key] = info
        changed = true
      }
    } else if (m) {
      const seq = Number(m[1])
      const list = generated.get(seq) ?? []
      list.push({ key: f.key, n: Number(m[2]) })
      generated.set(seq, list)
    }
  }
  for (const [seq, list] of generated) {
    const from = bySeq.get(seq)
    if (!from) continue
    list.sort((a, b) => a.n - b.n)
    list.forEach(({ key }, k) => {
      const r = from.records[k]
      const info = r ? fillInfoOf(r, from.u.data) : null
      if (info) {
        next[key] = info
        changed = true
      }
    })
  }
  // Carry what is still held; drop what the account let go.
  let kept = 0
  for (const f of fills) {
    const info = prev[f.key]
    if (info && next[f.key] === undefined) {
      next[f.key] = info
      kept++
    }
  }
  if (!changed && kept === Object.keys(prev).length) return prev
  return next
}
