/**
 * The path of a request target relative to BASE_PATH, without the query string;
 * undefined when the target lies outside BASE_PATH. No normalisation: `//`, `.` and
 * percent-escapes are compared as sent, so the root is exactly `{BASE_PATH}/`.
 */
export function relativePath(target: string, basePath: string): string | undefined {
  const queryAt = target.indexOf('?')
  const path = queryAt === -1 ? target : target.slice(0, queryAt)
  if (!path.startsWith('/')) return undefined
  if (basePath === '') return path
  if (!path.startsWith(basePath + '/')) return undefined
  return path.slice(basePath.length)
}

/** The path for the request log: the target without its query string. */
export function pathOf(target: string): string {
  const queryAt = target.indexOf('?')
  return queryAt === -1 ? target : target.slice(0, queryAt)
}
