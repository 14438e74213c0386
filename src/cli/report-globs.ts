import type { Dirent } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import path from 'node:path'
import { GLOBSTAR, Minimatch } from 'minimatch'
import { messageOf, ReportFileError } from '../errors.js'
import type { FileFinder } from '../gate/targets.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/**
 * How far one glob may search below the folder its literal part names: a glob that would walk
 * further is refused with a message, never cut short silently (nothing the action would find is
 * skipped). The action's `@actions/glob` has no such bound; a whole file system is a typo.
 */
const WALK_LIMITS = { depth: 100, entries: 500_000 } as const

const IS_WINDOWS = process.platform === 'win32'

/**
 * The files a --report glob matches, found as the action finds them with `@actions/glob`, but
 * with minimatch alone and without a line of `::debug::` output: the pattern rooted at `cwd`
 * (relative patterns) with the same minimatch options (dot files and hidden folders such as
 * .scannerwork included, no braces, no extglobs, no negation, case-insensitive on Windows);
 * files only (a pattern that ends with a separator matches folders only, so nothing); symbolic
 * links not followed (a link itself is returned when its name matches); folders entered only
 * when the pattern can match below them. Relative to `cwd`, sorted, at most `limit`.
 *
 * @example await findReportFiles('services/*\/.scannerwork/report-task.txt', process.cwd(), 51)
 */
export const findReportFiles: FileFinder = async (pattern, cwd, limit) => {
  // As the action: path.join roots and normalises it (`a/../b` is `b`), the folder escaped.
  const rooted = path.isAbsolute(pattern) ? pattern : path.join(globEscape(cwd), pattern)
  if ((IS_WINDOWS ? /[\\/]$/ : /\/$/).test(rooted)) return []
  const matcher = new Minimatch(IS_WINDOWS ? rooted.replace(/\\/g, '/') : rooted, {
    dot: true,
    nobrace: true,
    nocase: IS_WINDOWS,
    nocomment: true,
    noext: true,
    nonegate: true
  })
  const segments = matcher.set[0] ?? []
  const literal: string[] = []
  for (const segment of segments) {
    if (typeof segment !== 'string') break
    literal.push(segment)
  }
  const root = literal.join('/') || '/'
  // `@actions/glob` tests a path that ends in a globstar with a trailing separator.
  const globstarLast = segments[segments.length - 1] === GLOBSTAR
  const matches = (file: string) => matcher.match(globstarLast ? `${file}/` : file)

  const found: string[] = []
  const relative = (file: string) => path.relative(cwd, file) || file
  let rootStats
  try {
    rootStats = await lstat(root)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw searchError(pattern, root, error)
  }
  if (!rootStats.isDirectory()) return matches(root) ? [relative(root)] : []

  let entries = 0
  const stack: { folder: string; depth: number }[] = [{ folder: root, depth: 0 }]
  while (stack.length > 0 && found.length < limit) {
    const { folder, depth } = stack.pop()!
    let children: Dirent[]
    try {
      children = await readdir(folder, { withFileTypes: true })
    } catch (error) {
      throw searchError(pattern, folder, error)
    }
    entries += children.length
    if (entries > WALK_LIMITS.entries) {
      throw new ReportFileError(
        `The glob ${shown(pattern)} searches more than ${WALK_LIMITS.entries.toLocaleString('en')} files and folders under ${shown(root)}: narrow it, e.g. services/*/target/sonar/report-task.txt rather than **/report-task.txt.`
      )
    }
    const folders: string[] = []
    for (const child of children) {
      const file = path.join(folder, child.name)
      if (child.isDirectory()) {
        if (matcher.match(file, true)) folders.push(file)
      } else if (matches(file)) {
        found.push(relative(file))
        if (found.length >= limit) break
      }
    }
    if (folders.length > 0 && depth + 1 > WALK_LIMITS.depth) {
      throw new ReportFileError(
        `The glob ${shown(pattern)} searches more than ${WALK_LIMITS.depth} folders deep under ${shown(root)}: narrow it.`
      )
    }
    // Depth first, in the folder's order, as `@actions/glob` walks; sorted at the end anyway.
    for (const child of folders.reverse()) stack.push({ folder: child, depth: depth + 1 })
  }
  return found.sort()
}

/**
 * A path as a glob that matches only itself, escaped as `@actions/glob` escapes the working
 * directory (so that both finders root a pattern alike): `[x]` is the character x; `\` escapes
 * on Linux and macOS only.
 */
function globEscape(text: string): string {
  return (IS_WINDOWS ? text : text.replace(/\\/g, '\\\\'))
    .replace(/(\[)(?=[^/]+\])/g, '[[]')
    .replace(/\?/g, '[?]')
    .replace(/\*/g, '[*]')
}

function searchError(pattern: string, folder: string, error: unknown): ReportFileError {
  return new ReportFileError(
    `Cannot search ${shown(folder)} for the glob ${shown(pattern)}: ${oneLine(messageOf(error), QUOTE_LIMITS.long)}.`,
    { cause: error }
  )
}

function shown(text: string): string {
  return `"${oneLine(text, QUOTE_LIMITS.long)}"`
}
