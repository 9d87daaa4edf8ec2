// No import cycles in src/: a module and everything it imports can be read (and evaluated) before it, so each
// layer stands on the ones below. ESLint has no cycle rule installed here (eslint-plugin-import is not a
// dependency), so this walks the imports with the TypeScript compiler API. Every edge counts: a type-only import,
// a re-export and a lazy `import()` are still one module leaning on another, and a cycle broken by making one
// edge lazy or type-only is still a cycle.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  resolveJsonModule: true,
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
}

/** Every module specifier a file names: imports, re-exports and `import()` calls. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Each file below `root` and the files below `root` it imports, resolved as the compiler resolves them. */
function importGraph(root: string): Map<string, string[]> {
  const files = new Set(sourceFiles(root))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = specifiers(file)
      .map((s) => ts.resolveModuleName(s, file, OPTIONS, ts.sys).resolvedModule?.resolvedFileName)
      .filter((t): t is string => t !== undefined && files.has(t))
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/**
 * Every cycle, one per strongly connected group of modules (Tarjan), each named as a path that returns to its
 * start, relative to `root`: `a.ts → b.ts → a.ts`.
 */
function importCycles(root: string): string[] {
  const graph = importGraph(root)
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const connect = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w)
      group.push(w)
    }
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group)
  }
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file)
  return groups.map((group) => {
    // A path inside the group from its first module (by name) back to it: breadth-first, so the shortest.
    const members = new Set(group)
    const start = [...group].sort()[0]!
    const from = new Map<string, string>()
    const queue = [start]
    let last: string | undefined
    while (last === undefined && queue.length > 0) {
      const v = queue.shift()!
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue
        if (w === start) {
          last = v
          break
        }
        if (!from.has(w)) {
          from.set(w, v)
          queue.push(w)
        }
      }
    }
    const path = [start]
    for (let v = last; v !== undefined && v !== start; v = from.get(v)) path.splice(1, 0, v)
    path.push(start)
    return path.map((f) => relative(root, f)).join(' → ')
  })
}

describe('import cycles', () => {
  it('finds a cycle made of a type-only import, a re-export and a lazy import, and names it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-cycles-'))
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b'\nexport type A = B\n")
      writeFileSync(join(dir, 'b.ts'), "export { C as B } from './c'\n")
      writeFileSync(join(dir, 'c.ts'), "export type C = number\nexport const load = () => import('./a')\n")
      writeFileSync(join(dir, 'd.ts'), "import type { A } from './a'\nexport type D = A\n")
      writeFileSync(join(dir, 'e.tsx'), "import { f } from './f'\nexport const e = f\n")
      writeFileSync(join(dir, 'f.ts'), "import { e } from './e'\nexport const f = 1\nexport const g = e\n")
      expect(importCycles(dir)).toEqual(['a.ts → b.ts → c.ts → a.ts', 'e.tsx → f.ts → e.tsx'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('src/ has none', () => {
    expect(importCycles(join(process.cwd(), 'src'))).toEqual([])
  })
})
