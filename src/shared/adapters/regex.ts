// The regular expressions of an adapter file (`matches`, a market's `pattern`, `textPrefix`) are untrusted: a
// user's file can hold `^(a+)+$`, which a backtracking engine (JavaScript's) runs in exponential time, and a
// synchronous regex cannot be interrupted. So a pattern runs on JavaScript's engine only when a static check
// proves it cannot backtrack badly; any other runs on a linear-time engine (RE2) that the caller supplies, and
// is refused, with the reason, when there is none or that engine cannot run it. This module stays free of any
// runtime: the engine is passed in (src/main/services/feed/adapter-files.ts passes RE2).

/** A compiled pattern. JavaScript's RegExp is one; so is re2-wasm's RE2. */
export interface Matcher {
  test(s: string): boolean
  exec(s: string): readonly (string | undefined)[] | null
}

/** A regular-expression engine that runs in time linear in the input, whatever the pattern. */
export interface RegexEngine {
  readonly name: string
  /** Throws (a SyntaxError) when the engine cannot run the pattern. */
  compile(source: string): Matcher
}

/** The input length the step estimate is made for: tests and market patterns read strings up to 1,000 characters. */
const N = 1000
/** The most backtracking steps a pattern may take on the JavaScript engine (a few milliseconds). */
const MAX_STEPS = 2_000_000

/**
 * Why a pattern could backtrack super-linearly on JavaScript's engine, or null when it cannot. Conservative: a
 * pattern it cannot prove safe gets a reason. A repeat (`*`, `+`, `{n,}`, `{n,m}`) whose body holds another
 * repeat, an optional part or an alternation is refused (`(a+)+`, `(\w+\s?)*`, `(a|a)*`: exponential). Otherwise
 * the steps are estimated as the ways through the pattern (alternations and optional parts multiply them) times
 * n for each repeat in a row (and once more for a search not anchored with `^`), for n = 1,000 characters, and
 * a pattern over 2 million steps is refused (`\w*\w*\w*`, `(a|a)(a|a)(a|a)...`). Back-references, and
 * lookarounds that hold a repeat, are refused too.
 */
export function backtrackingRisk(source: string): string | null {
  let tree: Node
  try {
    tree = new Parser(source).parse()
    const shape = analyse(tree)
    const degree = shape.degree + (anchored(tree) ? 0 : 1)
    if (shape.choices * N ** degree > MAX_STEPS) {
      const parts: string[] = []
      if (shape.degree > 0) parts.push(`${shape.degree} repeats one after another`)
      if (!anchored(tree)) parts.push('no ^ anchor')
      if (shape.choices > 1)
        parts.push(`${shape.choices > 1e6 ? 'millions of' : shape.choices} ways through its alternatives`)
      return `it has ${parts.join(' and ')}, which can backtrack polynomially or worse`
    }
    return null
  } catch (e) {
    if (e instanceof Risk) return e.message
    return 'it cannot be analysed'
  }
}

/** The JavaScript engine, for patterns `backtrackingRisk` passes. */
const JS: RegexEngine = { name: 'JavaScript', compile: (source) => new RegExp(source) }

/**
 * Compiles an adapter's pattern: on JavaScript's engine when it is provably safe there, else on `linear`.
 * Throws an Error whose message says why the pattern is refused.
 */
export function compilePattern(source: string, linear: RegexEngine | null): Matcher {
  const risk = backtrackingRisk(source)
  if (risk === null) return JS.compile(source)
  if (linear === null) {
    throw new Error(`${JSON.stringify(source)} is refused: ${risk}, and no linear-time engine is available`)
  }
  try {
    return linear.compile(source)
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e)
    throw new Error(
      `${JSON.stringify(source)} is refused: ${risk}, and the linear-time engine (${linear.name}) cannot run it (${why.slice(0, 160)})`,
      { cause: e },
    )
  }
}

class Risk extends Error {}

type Node =
  | { t: 'atom' }
  | { t: 'start' }
  | { t: 'assert' }
  | { t: 'look'; body: Node }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; branches: Node[] }
  | { t: 'quant'; body: Node; min: number; max: number }

interface Shape {
  /** Repeats in a row along the worst path. */
  degree: number
  /** Ways through the pattern apart from the repeats' lengths: alternations and optional parts multiply them. */
  choices: number
  /** Matches one fixed shape: no repeat, optional part or alternation inside. */
  fixed: boolean
}

function analyse(n: Node): Shape {
  switch (n.t) {
    case 'atom':
    case 'start':
    case 'assert':
      return { degree: 0, choices: 1, fixed: true }
    case 'look': {
      // Tried once where it stands, and never backtracked into.
      const body = analyse(n.body)
      if (body.degree > 0) throw new Risk('a lookaround holds a repeat')
      return { degree: 0, choices: 1, fixed: true }
    }
    case 'seq': {
      let degree = 0
      let choices = 1
      let fixed = true
      for (const item of n.items) {
        const s = analyse(item)
        degree += s.degree
        choices *= s.choices
        fixed &&= s.fixed
      }
      return { degree, choices, fixed }
    }
    case 'alt': {
      let degree = 0
      let choices = 0
      for (const b of n.branches) {
        const s = analyse(b)
        degree = Math.max(degree, s.degree)
        choices += s.choices
      }
      return { degree, choices, fixed: n.branches.length < 2 }
    }
    case 'quant': {
      const body = analyse(n.body)
      // Exactly k times: k copies in a row.
      if (n.min === n.max)
        return { degree: body.degree * n.min, choices: body.choices ** n.min, fixed: body.fixed }
      if (n.max <= 1) return { degree: body.degree, choices: body.choices + 1, fixed: false }
      if (!body.fixed) {
        throw new Risk(
          'a repeated group holds a repeat, an optional part or an alternation, which can backtrack exponentially',
        )
      }
      return { degree: 1, choices: 1, fixed: false }
    }
  }
}

/** Whether every way through the pattern starts with `^`. */
function anchored(n: Node): boolean {
  if (n.t === 'start') return true
  if (n.t === 'seq') return n.items[0] !== undefined && anchored(n.items[0])
  if (n.t === 'alt') return n.branches.every(anchored)
  return false
}

/** Enough of JavaScript's (non-unicode) pattern syntax to see its repeats, alternations and groups. */
class Parser {
  private i = 0
  constructor(private readonly s: string) {}

  parse(): Node {
    const n = this.alternation()
    if (this.i < this.s.length) throw new Risk('it cannot be analysed (an unmatched parenthesis)')
    return n
  }

  private alternation(): Node {
    const branches = [this.sequence()]
    while (this.s[this.i] === '|') {
      this.i++
      branches.push(this.sequence())
    }
    return branches.length === 1 ? (branches[0] as Node) : { t: 'alt', branches }
  }

  private sequence(): Node {
    const items: Node[] = []
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') {
      const atom = this.atom()
      items.push(this.quantified(atom))
    }
    return { t: 'seq', items }
  }

  private quantified(atom: Node): Node {
    const s = this.s
    const c = s[this.i]
    let min: number
    let max: number
    if (c === '*' || c === '+' || c === '?') {
      this.i++
      min = c === '+' ? 1 : 0
      max = c === '?' ? 1 : Infinity
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i))
      if (m === null) return atom // a literal brace
      this.i += m[0].length
      min = Number(m[1])
      max = m[2] === undefined ? min : m[3] === '' || m[3] === undefined ? Infinity : Number(m[3])
    } else return atom
    if (s[this.i] === '?') this.i++ // lazy: the same steps in another order
    if (atom.t === 'start' || atom.t === 'assert') return atom
    return this.quantified({ t: 'quant', body: atom, min, max })
  }

  private atom(): Node {
    const s = this.s
    const c = s[this.i] as string
    this.i++
    switch (c) {
      case '^':
        return { t: 'start' }
      case '$':
        return { t: 'assert' }
      case '\\':
        return this.escape()
      case '[':
        this.charClass()
        return { t: 'atom' }
      case '(':
        return this.group()
      case '*':
      case '+':
      case '?':
        throw new Risk('it cannot be analysed (a quantifier with nothing to repeat)')
      default:
        return { t: 'atom' }
    }
  }

  private escape(): Node {
    const c = this.s[this.i]
    if (c === undefined) throw new Risk('it cannot be analysed (a trailing backslash)')
    this.i++
    if (c === 'b' || c === 'B') return { t: 'assert' }
    if (/[1-9]/.test(c) || c === 'k') throw new Risk('it uses a back-reference')
    // \d \w \s, \. and the like, and the first letter of \xHH, \uHHHH, \cX (the rest read as literal characters).
    return { t: 'atom' }
  }

  private charClass(): void {
    const s = this.s
    while (this.i < s.length) {
      const c = s[this.i]
      this.i++
      if (c === '\\') this.i++
      else if (c === ']') return
    }
    throw new Risk('it cannot be analysed (an unclosed character class)')
  }

  private group(): Node {
    const s = this.s
    let look = false
    if (s[this.i] === '?') {
      const rest = s.slice(this.i + 1)
      if (rest.startsWith(':')) this.i += 2
      else if (rest.startsWith('=') || rest.startsWith('!')) {
        this.i += 2
        look = true
      } else if (rest.startsWith('<=') || rest.startsWith('<!')) {
        this.i += 3
        look = true
      } else {
        const m = /^<[A-Za-z_$][\w$]*>/.exec(rest)
        if (m === null) throw new Risk('it cannot be analysed (an unknown group)')
        this.i += 1 + m[0].length
      }
    }
    const body = this.alternation()
    if (s[this.i] !== ')') throw new Risk('it cannot be analysed (an unclosed group)')
    this.i++
    return look ? { t: 'look', body } : body
  }
}
