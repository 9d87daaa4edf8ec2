// One press, one intent: an id made once per press of Send (or of a confirmation), which the engine sends at most
// one order for, whatever arrives (docs/trading.md). 128 random bits as 32 hex digits: letters and digits only, as
// the contract's intentIdSchema asks, and from crypto.getRandomValues, which a page served over plain http has too.
export function newIntentId(): string {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  let id = ''
  for (const b of bytes) id += b.toString(16).padStart(2, '0')
  return id
}
