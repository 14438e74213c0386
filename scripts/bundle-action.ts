/**
 * Bundles the action (src/action/index.ts) into dist/ with ncc's API, as `npm run package`'s
 * first step (scripts/bundle-cli.ts then adds the command):
 *
 * - dist/index.js: the action, minified as the command is (ncc's terser: white space, comments
 *   and local names; nothing compressed, every function's and class's name kept);
 * - dist/<id>.index.js: the chunks it loads only when asked for (globs, SARIF, the check run, the
 *   comment, a pull request's lines), as ncc writes them;
 * - dist/licenses.txt, the licences of what it bundles (scripts/licenses.ts), and
 *   dist/package.json (`"type": "module"`).
 *
 * **Why each module of webpack's map is wrapped in parentheses again.** ncc writes every module
 * of the bundle's map as `((module, exports, require) => { … })`, and V8 compiles a function
 * written in parentheses at once, with the file: the modules the action requires at start (most of
 * them: undici, which `@actions/core` loads, alone holds about a hundred) are parsed once. Terser
 * drops those parentheses; V8 then only pre-parses each module with the file and parses it again
 * when it is required. Measured (docs/performance.md): minified without them the action started
 * 3–4 ms slower than not minified, minified with them 4–6 ms faster. So the build fails when the
 * map is not found (scripts/module-map.ts): a change in ncc's output must be looked at, not
 * shipped slower.
 */
import { Buffer } from 'node:buffer'
import { readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ncc from '@vercel/ncc'
import { bundledLicences } from './licenses.js'
import { inParentheses, moduleFactories } from './module-map.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = path.join(ROOT, 'src/action/index.ts')
const DIST = path.join(ROOT, 'dist')

// ncc writes its chunks but never removes those of an earlier build: a chunk no longer imported
// would stay in dist/ unnoticed.
for (const name of await readdir(DIST)) {
  if (/^\d+\.index\.js$/.test(name)) await rm(path.join(DIST, name))
}

const { code, assets, stats } = await ncc(ENTRY, { quiet: true, minify: true })
const modules = moduleFactories(code)
const main = inParentheses(code, modules)
await writeFile(path.join(DIST, 'index.js'), main)
for (const [name, asset] of Object.entries(assets)) {
  await writeFile(path.join(DIST, name), asset.source)
}
const licences = await bundledLicences(
  ROOT,
  stats.toJson({ modules: true, nestedModules: true }).modules ?? []
)
await writeFile(path.join(DIST, 'licenses.txt'), licences)
console.log(
  `dist/index.js ${(Buffer.byteLength(main) / 1024).toFixed(0)} kB (${modules.length} modules compiled with the file), ${Object.keys(assets).join(', ')}, licenses.txt`
)
