import { readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * dist/index.js as scripts/bundle-action.mjs builds it: minified, and every module of webpack's
 * map in parentheses, so that V8 compiles the modules with the file instead of pre-parsing them
 * and parsing them again when they are required. A build that loses the parentheses still works,
 * 3–4 ms slower to start than not minified at all (docs/performance.md): only this test sees it.
 */
const ACTION = path.resolve(import.meta.dirname, '../../dist/index.js')

/** The module map's factories: how many, and how many are not in parentheses. */
function moduleFactories(code: string): { modules: number; bare: number } {
  const file = ts.createSourceFile('index.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue
    for (const { initializer } of statement.declarationList.declarations) {
      if (!initializer || !ts.isObjectLiteralExpression(initializer)) continue
      const values = initializer.properties.map((p) =>
        ts.isPropertyAssignment(p) && ts.isNumericLiteral(p.name) ? p.initializer : undefined
      )
      if (values.length === 0 || values.some((v) => v === undefined)) continue
      const bare = values.filter((v) => v && !ts.isParenthesizedExpression(v)).length
      return { modules: values.length, bare }
    }
  }
  return { modules: 0, bare: 0 }
}

describe('the action bundle', () => {
  const code = readFileSync(ACTION, 'utf8')

  it('is minified: no comment of webpack or of our sources is left', () => {
    expect(code).not.toContain('// CONCATENATED MODULE')
    expect(code).not.toContain('/***/')
  })

  it('has every module of its map in parentheses, compiled with the file', () => {
    const { modules, bare } = moduleFactories(code)
    expect(modules).toBeGreaterThan(100)
    expect(bare).toBe(0)
  })

  it('is told from a bundle that lost them (a planted one)', () => {
    const planted = 'var t={770:((e,t,A)=>{e.exports=A(218)}),218:(e,t,A)=>{t.x=1}};'
    expect(moduleFactories(planted)).toEqual({ modules: 2, bare: 1 })
  })
})
