/**
 * Where an issue's file is in the checkout. The server gives each file's path relative to the
 * analysis's base directory (`sonar.projectBaseDir`), which the report file's own location tells
 * for each scanner; the annotation, check run and SARIF need it relative to the repository root.
 */
import { statSync } from 'node:fs'
import path from 'node:path'
import { DEFAULT_REPORT_LOCATIONS } from '../report-file.js'

/**
 * The analysis's base directory, from its report file (relative to `cwd`, or absolute): the
 * folder above the scanner's own (`.scannerwork/`, `target/sonar/`, `build/sonar/`,
 * `.sonarqube/out/.sonar/`), or else the folder above the report file's folder, where a custom
 * working directory usually sits. Without a report file (a task or an analysis asked for by its id): `cwd`.
 *
 * @example analysisBaseDir('services/api/target/sonar/report-task.txt', '/repo') // '/repo/services/api'
 */
export function analysisBaseDir(reportFile: string | undefined, cwd: string): string {
  if (reportFile === undefined) return cwd
  const file = path.resolve(cwd, reportFile)
  const slashed = file.split(path.sep).join('/')
  for (const { file: suffix } of DEFAULT_REPORT_LOCATIONS) {
    if (slashed.endsWith(`/${suffix}`)) {
      return path.resolve(file, ...suffix.split('/').map(() => '..'))
    }
  }
  return path.resolve(path.dirname(file), '..')
}

/** Whether a path is a regular file (the existence check of `locator`). */
export type FileCheck = (absolutePath: string) => boolean

const isFile: FileCheck = (absolutePath) => {
  try {
    return statSync(absolutePath).isFile()
  } catch {
    return false
  }
}

/** The longest server path looked at: longer ones are not real files. */
const MAX_PATH_CHARS = 1000

/**
 * A function from a server path (relative to `baseDir`) to the path relative to `repoRoot`, with
 * `/`, or undefined when the server path is absolute, holds a `..` segment, a control character
 * or a backslash, leaves the repository, or is not a file there.
 *
 * @example locator('/repo/services/api', '/repo')('src/app.ts') // 'services/api/src/app.ts'
 */
export function locator(
  baseDir: string,
  repoRoot: string,
  exists: FileCheck = isFile
): (serverPath: string) => string | undefined {
  const root = path.resolve(repoRoot)
  // Many issues share a file: each path is checked once.
  const known = new Map<string, string | undefined>()
  return (serverPath) => {
    if (!known.has(serverPath)) known.set(serverPath, locate(serverPath))
    return known.get(serverPath)
  }

  function locate(serverPath: string): string | undefined {
    if (!isSafeRelative(serverPath)) return undefined
    const absolute = path.resolve(baseDir, ...serverPath.split('/'))
    const relative = path.relative(root, absolute)
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined
    if (!exists(absolute)) return undefined
    return relative.split(path.sep).join('/')
  }
}

function isSafeRelative(serverPath: string): boolean {
  if (serverPath === '' || serverPath.length > MAX_PATH_CHARS) return false
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/.test(serverPath)) return false
  if (serverPath.startsWith('/') || /^[a-z]:/i.test(serverPath)) return false
  return serverPath.split('/').every((segment) => segment !== '..' && segment !== '')
}
