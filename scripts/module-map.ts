/**
 * webpack's module map in a bundle ncc wrote: the one top-level object whose properties are all
 * `<number>: (module, exports, require) => { … }`, each written bare or in parentheses. Read with
 * TypeScript's parser; scripts/bundle-action.ts puts the parentheses back after minifying, and
 * __tests__/unit/action-bundle.test.ts checks that they are there (why: bundle-action.ts).
 */
import ts from 'typescript'

/** A module of the map: its function, and whether it is written in parentheses. */
export interface ModuleFactory {
  start: number
  end: number
  inParentheses: boolean
}

/** A module's function: an arrow function, bare or in parentheses. */
function factoryOf(node: ts.Expression): ts.ArrowFunction | undefined {
  if (ts.isArrowFunction(node)) return node
  return ts.isParenthesizedExpression(node) && ts.isArrowFunction(node.expression)
    ? node.expression
    : undefined
}

/** The modules of every top-level object made only of `<number>: <module>` properties. */
function moduleMaps(file: ts.SourceFile): ModuleFactory[][] {
  const maps: ModuleFactory[][] = []
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue
    for (const { initializer } of statement.declarationList.declarations) {
      if (!initializer || !ts.isObjectLiteralExpression(initializer)) continue
      const modules = initializer.properties.map((p) =>
        ts.isPropertyAssignment(p) && ts.isNumericLiteral(p.name) && factoryOf(p.initializer)
          ? {
              start: p.initializer.getStart(file),
              end: p.initializer.end,
              inParentheses: ts.isParenthesizedExpression(p.initializer)
            }
          : undefined
      )
      if (modules.length > 0 && modules.every((m) => m !== undefined)) maps.push(modules)
    }
  }
  return maps
}

/** The modules of the bundle's map; throws unless the bundle has exactly one map. */
export function moduleFactories(code: string): ModuleFactory[] {
  const file = ts.createSourceFile('index.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const maps = moduleMaps(file)
  if (maps.length !== 1 || !maps[0]) {
    throw new Error(
      `expected one module map in the bundle, found ${maps.length}: ncc's output changed, see scripts/bundle-action.ts.`
    )
  }
  return maps[0]
}

/** `code` with every module of its map (`moduleFactories(code)`) in parentheses. */
export function inParentheses(code: string, modules = moduleFactories(code)): string {
  let out = ''
  let at = 0
  for (const { start, end, inParentheses: already } of modules) {
    if (already) continue
    out += `${code.slice(at, start)}(${code.slice(start, end)})`
    at = end
  }
  return out + code.slice(at)
}
