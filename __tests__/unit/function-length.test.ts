import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * No function in src/ longer than a screen: past 80 lines a function does several things, and
 * each should have a name. Counted from its first line to its last, as the file shows it, for
 * every function, method and arrow function with a body.
 */
const MAX_LINES = 80

const SRC = path.resolve(import.meta.dirname, '../../src')

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return entry.name.endsWith('.ts') ? [file] : []
  })
}

/** Each function of the file with a body, as `file:line` and its number of lines. */
function functionLengths(file: string, text: string): { at: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: { at: string; lines: number }[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ at: `${path.relative(SRC, file)}:${first + 1}`, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('the functions of src/', () => {
  it(`none is over ${MAX_LINES} lines`, () => {
    const all = sourceFiles(SRC).flatMap((file) =>
      functionLengths(file, readFileSync(file, 'utf8'))
    )
    expect(all.length).toBeGreaterThan(500)
    expect(all.filter(({ lines }) => lines > MAX_LINES)).toEqual([])
  })

  it('a function over the bound is found', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const a${i} = ${i}`).join('\n')
    const [long] = functionLengths(path.join(SRC, 'long.ts'), `function long() {\n${body}\n}\n`)
    expect(long).toEqual({ at: 'long.ts:1', lines: MAX_LINES + 2 })
  })
})
