import path from 'node:path'
import type { FileFinder } from '../gate/targets.js'

/**
 * The files a scanMetadataReportFile glob matches, with the toolkit's own `@actions/glob` (loaded
 * only when a line is a glob): relative to the working directory, files only, hidden folders
 * such as .scannerwork included, sorted, at most `limit`.
 *
 * @example await findReportFiles('**\/report-task.txt', process.cwd(), 51)
 */
export const findReportFiles: FileFinder = async (pattern, cwd, limit) => {
  const glob = await import('@actions/glob')
  // @actions/glob roots relative patterns at process.cwd(): root them at cwd, escaped.
  const rooted = path.isAbsolute(pattern) ? pattern : path.join(globEscape(cwd), pattern)
  const globber = await glob.create(rooted, {
    matchDirectories: false,
    implicitDescendants: false,
    followSymbolicLinks: false
  })
  const files: string[] = []
  for await (const file of globber.globGenerator()) {
    files.push(path.relative(cwd, file) || file)
    if (files.length >= limit) break
  }
  return files.sort()
}

/**
 * A path as a glob that matches only itself, escaped as @actions/glob escapes the working
 * directory itself: `[x]` is the character x; `\` escapes on Linux and macOS only.
 */
function globEscape(text: string): string {
  return (process.platform === 'win32' ? text : text.replace(/\\/g, '\\\\'))
    .replace(/(\[)(?=[^/]+\])/g, '[[]')
    .replace(/\?/g, '[?]')
    .replace(/\*/g, '[*]')
}
