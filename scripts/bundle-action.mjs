/**
 * Bundles the action (src/action/index.ts) into dist/ with ncc's API, as `npm run package`'s
 * first step (scripts/bundle-cli.mjs then adds the command):
 *
 * - dist/index.js: the action, minified as the command is (ncc's terser: white space, comments
 *   and local names; nothing compressed, every function's and class's name kept);
 * - dist/<id>.index.js: the chunks it loads only when asked for (globs, SARIF, the check run, the
 *   comment, a pull request's lines), as ncc writes them;
 * - dist/licenses.txt and dist/package.json (`"type": "module"`).
 *
 * **Why each module of webpack's map is wrapped in parentheses again.** ncc writes every module
 * of the bundle's map as `((module, exports, require) => { … })`, and V8 compiles a function
 * written in parentheses at once, with the file: the modules the action requires at start (most of
 * them: undici, which `@actions/core` loads, alone holds about a hundred) are parsed once. Terser
 * drops those parentheses; V8 then only pre-parses each module with the file and parses it again
 * when it is required. Measured (docs/performance.md): minified without them the action started
 * 3–4 ms slower than not minified, minified with them 4–5 ms faster. So the build fails when the
 * map is not found: a change in ncc's output must be looked at, not shipped slower.
 */
import { Buffer } from 'node:buffer'
import { readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ncc from '@vercel/ncc'
import ts from 'typescript'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = path.join(ROOT, 'src/action/index.ts')
const DIST = path.join(ROOT, 'dist')

/**
 * The top-level object of the bundle whose properties are all `<number>: (…) => {…}`: webpack's
 * module map. Throws unless there is exactly one.
 */
function moduleMap(file) {
  const maps = []
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue
    for (const { initializer } of statement.declarationList.declarations) {
      if (
        initializer &&
        ts.isObjectLiteralExpression(initializer) &&
        initializer.properties.length > 0 &&
        initializer.properties.every(
          (p) =>
            ts.isPropertyAssignment(p) &&
            ts.isNumericLiteral(p.name) &&
            ts.isArrowFunction(p.initializer)
        )
      ) {
        maps.push(initializer)
      }
    }
  }
  if (maps.length !== 1) {
    throw new Error(
      `bundle-action: expected one module map in the minified bundle, found ${maps.length}: ncc's output changed, see this script's comment.`
    )
  }
  return maps[0]
}

/** `code` with each module of its map in parentheses, so that V8 compiles it with the file. */
function compiledWithTheFile(code) {
  const file = ts.createSourceFile(
    'index.js',
    code,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.JS
  )
  const factories = moduleMap(file).properties.map((p) => p.initializer)
  let out = ''
  let at = 0
  for (const factory of factories) {
    const start = factory.getStart(file)
    out += `${code.slice(at, start)}(${code.slice(start, factory.end)})`
    at = factory.end
  }
  return { code: out + code.slice(at), modules: factories.length }
}

// ncc writes its chunks but never removes those of an earlier build: a chunk no longer imported
// would stay in dist/ unnoticed.
for (const name of await readdir(DIST)) {
  if (/^\d+\.index\.js$/.test(name)) await rm(path.join(DIST, name))
}

const { code, assets } = await ncc(ENTRY, { license: 'licenses.txt', quiet: true, minify: true })
const main = compiledWithTheFile(code)
await writeFile(path.join(DIST, 'index.js'), main.code)
for (const [name, asset] of Object.entries(assets)) {
  await writeFile(path.join(DIST, name), asset.source)
}
console.log(
  `dist/index.js ${(Buffer.byteLength(main.code) / 1024).toFixed(0)} kB (${main.modules} modules compiled with the file), ${Object.keys(assets).join(', ')}`
)
