import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { inParentheses, moduleFactories } from '../../scripts/module-map.js'

/**
 * dist/index.js as scripts/bundle-action.ts builds it: minified, and every module of webpack's
 * map in parentheses, so that V8 compiles the modules with the file instead of pre-parsing them
 * and parsing them again when they are required. A build that loses the parentheses still works,
 * 3–4 ms slower to start than not minified at all (docs/performance.md): only this test sees it.
 */
const ACTION = path.resolve(import.meta.dirname, '../../dist/index.js')

/** How many modules the bundle's map has, and how many of them are not in parentheses. */
function counted(code: string): { modules: number; bare: number } {
  const modules = moduleFactories(code)
  return { modules: modules.length, bare: modules.filter((m) => !m.inParentheses).length }
}

describe('the action bundle', () => {
  const code = readFileSync(ACTION, 'utf8')

  it('is minified: no comment of webpack or of our sources is left', () => {
    expect(code).not.toContain('// CONCATENATED MODULE')
    expect(code).not.toContain('/***/')
  })

  it('has every module of its map in parentheses, compiled with the file', () => {
    const { modules, bare } = counted(code)
    expect(modules).toBeGreaterThan(100)
    expect(bare).toBe(0)
  })

  it('is told from a bundle that lost them (a planted one), which the build mends', () => {
    const planted = 'var t={770:((e,t,A)=>{e.exports=A(218)}),218:(e,t,A)=>{t.x=1}};'
    expect(counted(planted)).toEqual({ modules: 2, bare: 1 })
    expect(inParentheses(planted)).toBe(
      'var t={770:((e,t,A)=>{e.exports=A(218)}),218:((e,t,A)=>{t.x=1})};'
    )
  })

  it('is refused by the build when its map cannot be found', () => {
    expect(() => moduleFactories('var t={a:1};')).toThrow(/expected one module map/)
  })
})
