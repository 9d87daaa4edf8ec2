// The one rule for what an API key looks like. `setApiKey` refuses anything else before it is sent, the REST
// client never puts characters a header cannot carry on the wire, and the engine's key scrub takes nothing else
// for a key (base/key-scrub.ts). VoxFi's docs give no format: the exchange generates the key (docs/voxfi.md §2);
// the simulator's demo key is `sk_demo_` and 32 hex digits.

/**
 * The shortest API key. A shorter string would be a common word or a fragment of the venue's own frames
 * (`market`, `orderbook`), not a key: taken for one, it would be refused at input for nothing and, scrubbed,
 * would blank that word in every copy of every frame. VoxFi's keys and the demo key are far longer.
 */
export const MIN_KEY_LENGTH = 16

/**
 * A key's characters: visible ASCII, which a header carries unchanged, except `"` and `\`. JSON escapes those
 * two, so a key holding one would not appear as written in a venue's JSON frame and the scrub could not find
 * it there; and a quote in a key would let the scrub cut a frame's copy across its structure. A key pasted with
 * its quotes (`"sk_…"`, from a JSON file) is refused with a sentence that says so, not sent.
 */
const KEY_CHARACTERS = /^[\x21\x23-\x5b\x5d-\x7e]+$/

export type KeyFormatProblem = 'empty' | 'characters' | 'short'

/** Why `key` cannot be an API key, or null when it can. */
export function keyFormatProblem(key: string): KeyFormatProblem | null {
  if (key.length === 0) return 'empty'
  if (!KEY_CHARACTERS.test(key)) return 'characters'
  if (key.length < MIN_KEY_LENGTH) return 'short'
  return null
}

export function isWellFormedKey(key: unknown): key is string {
  return typeof key === 'string' && keyFormatProblem(key) === null
}

/** The sentence for a refused key; it never quotes the key. */
export function keyFormatMessage(problem: KeyFormatProblem): string {
  switch (problem) {
    case 'empty':
      return 'No API key was given. Enter the key from your profile security settings.'
    case 'characters':
      return (
        'The API key contains characters API keys do not have (spaces, line breaks, quotes, backslashes or ' +
        'non-ASCII). Paste the key again exactly as the exchange showed it.'
      )
    case 'short':
      return (
        `The key is too short: API keys have at least ${MIN_KEY_LENGTH} characters. Paste the whole key as the ` +
        'exchange showed it.'
      )
  }
}
