/**
 * The one way a folder for a file we write is created (the command's result files, the action's
 * SARIF file): never `mkdir(…, { recursive: true })`, which spins forever under /proc in Node 20
 * and 24 (a missing level there is refused with ENOENT while its parent exists, and Node creates
 * the parent and tries again without end). Instead the nearest ancestor that exists is found by a
 * walk of at most the path's depth, and each missing level below it is created by a plain mkdir,
 * so any refusal (EACCES, ENOENT, ENOTDIR, EEXIST on a file) is thrown once, as the system says it.
 */
import { mkdir, stat } from 'node:fs/promises'
import path from 'node:path'

/**
 * Creates `folder` and the folders missing above it; nothing when it is a folder already. Throws
 * the system's error for the first level that cannot be created (`EEXIST` when `folder` or a level
 * above it is a file).
 *
 * @example await makeFolders(path.dirname(path.resolve(cwd, file)))
 */
export async function makeFolders(folder: string): Promise<void> {
  for (const level of (await missingLevels(path.resolve(folder))).reverse()) {
    try {
      await mkdir(level)
    } catch (error) {
      // Created meanwhile by another process: fine when it is a folder.
      if (!(isCode(error, 'EEXIST') && (await isFolder(level)))) throw error
    }
  }
}

/**
 * `folder` and each level above it up to the nearest that is a folder (not included), deepest
 * first. A level that exists but is no folder, or that cannot be looked at (ENOTDIR, EACCES), ends
 * the walk: creating it throws the reason.
 */
async function missingLevels(folder: string): Promise<string[]> {
  const levels: string[] = []
  const depth = folder.split(path.sep).length
  let level = folder
  for (let step = 0; step < depth; step += 1) {
    try {
      if ((await stat(level)).isDirectory()) return levels
      return [...levels, level]
    } catch (error) {
      levels.push(level)
      const parent = path.dirname(level)
      if (!isCode(error, 'ENOENT') || parent === level) return levels
      level = parent
    }
  }
  return levels
}

async function isFolder(level: string): Promise<boolean> {
  return stat(level).then(
    (stats) => stats.isDirectory(),
    () => false
  )
}

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code
}
