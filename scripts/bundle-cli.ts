/**
 * Bundles the command-line tool (src/cli/index.ts) into dist/cli.js with ncc's API, beside the
 * action's dist/index.js: `npm run package` runs it after the action's build
 * (scripts/bundle-action.ts), and writes it under its own names:
 *
 * - dist/cli.js: the whole command in one file (it keeps the `#!/usr/bin/env node` line of its
 *   source), executable, run by `node` alone with nothing installed;
 * - dist/cli-licenses.txt: the licences of what it bundles (scripts/licenses.ts).
 *
 * The command must stay one file: a dynamic import would make ncc emit a chunk (`<id>.index.js`)
 * that could collide with the action's chunks in dist/ and would not be shipped (package.json's
 * `files`). Such a chunk fails the build here.
 *
 * The file is minified (ncc's terser: white space and local names only; nothing compressed,
 * every function's and class's name kept). Compiling the one file is most of the command's
 * start beyond Node's own: 292 kB start about 2 ms sooner than the 713 kB unminified, and the
 * platforms' code (used only with --decorate) costs its compile alone. Importing it eagerly
 * instead (`webpackMode: "eager"`, evaluated only when reached) was measured slower: the split
 * adds 66 kB of module wrappers (docs/performance.md); tried again minified, 2.7–4.6 ms slower
 * (49 module wrappers instead of 9), with or without the parentheses the action's build puts back.
 */
import { Buffer } from 'node:buffer'
import { chmod, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ncc from '@vercel/ncc'
import { bundledLicences } from './licenses.js'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = path.join(ROOT, 'src/cli/index.ts')
const DIST = path.join(ROOT, 'dist')

const { code, assets, stats } = await ncc(ENTRY, { quiet: true, minify: true })

const chunks = Object.keys(assets).filter((name) => /\.[cm]?js$/.test(name))
if (chunks.length > 0) {
  console.error(
    `bundle-cli: ncc emitted chunk files for the command (${chunks.join(', ')}): src/cli must not import anything dynamically, so that dist/cli.js stays one file.`
  )
  process.exit(1)
}
if (!code.startsWith('#!/usr/bin/env node\n')) {
  console.error('bundle-cli: dist/cli.js must start with "#!/usr/bin/env node" (src/cli/index.ts).')
  process.exit(1)
}

await writeFile(path.join(DIST, 'cli.js'), code)
// The executable bit matters for running dist/cli.js directly from the repository; npm sets it
// on the installed bin itself.
await chmod(path.join(DIST, 'cli.js'), 0o755)
const licences = await bundledLicences(
  ROOT,
  stats.toJson({ modules: true, nestedModules: true }).modules ?? []
)
await writeFile(path.join(DIST, 'cli-licenses.txt'), licences)
console.log(`dist/cli.js ${(Buffer.byteLength(code) / 1024).toFixed(0)} kB, dist/cli-licenses.txt`)
