/**
 * The licences of the packages a bundle holds, as ncc's `licenses.txt` lists them (each package's
 * name, its `license` field and the text of its licence file, two blank lines apart), found from
 * the modules in ncc's stats. For the action, ncc's own list named only `@actions/glob` (its
 * chunks' package), not undici, `@actions/core` or the others its main file holds; for the
 * command it was complete, and this one is the same file. A bundled package without a licence
 * file fails the build.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'

/** What ncc's stats give of each module: its name, and the modules concatenated into it. */
export interface StatsModule {
  name?: string
  modules?: StatsModule[]
}

/** `./node_modules/a/node_modules/b/x.js` → `node_modules/a`, `node_modules/a/node_modules/b`. */
function packageFolders(moduleName: string): string[] {
  const folders: string[] = []
  for (const match of moduleName.matchAll(/node_modules\/(?:@[^/]+\/)?[^/\s]+/g)) {
    folders.push(moduleName.slice(0, match.index + match[0].length).replace(/^\.\//, ''))
  }
  return folders
}

/** Every package folder (relative to `root`) a module of the bundle comes from. */
function bundledPackages(modules: readonly StatsModule[]): string[] {
  const found = new Set<string>()
  const visit = (module: StatsModule): void => {
    for (const folder of packageFolders(module.name ?? '')) found.add(folder)
    module.modules?.forEach(visit)
  }
  modules.forEach(visit)
  return [...found]
}

/** One package's entry: its name, its licence's name and the licence's text, a line each. */
async function licenceEntry(root: string, folder: string): Promise<string> {
  const dir = path.join(root, folder)
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
    name: string
    license?: string
  }
  const file = (await readdir(dir)).find((name) =>
    /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name)
  )
  if (!file) throw new Error(`${manifest.name} (${folder}) is bundled but has no licence file.`)
  const text = (await readFile(path.join(dir, file), 'utf8')).trim()
  return `${manifest.name}\n${manifest.license ?? ''}\n${text}`
}

/** The licences of every package `modules` (ncc's `stats.toJson().modules`) come from. */
export async function bundledLicences(
  root: string,
  modules: readonly StatsModule[]
): Promise<string> {
  const entries = await Promise.all(bundledPackages(modules).map((f) => licenceEntry(root, f)))
  // One entry per text: a package bundled twice (two paths, one version) is listed once.
  const texts = [...new Set(entries)]
  return `${texts.sort().join('\n\n\n')}\n`
}
