import { readBoundedFile } from './bounded-file.js'

/** The most of a GitHub Actions run's event file read (GitHub caps webhook payloads at 25 MB). */
export const EVENT_FILE_BYTES = 25 * 1024 * 1024

/**
 * One object of the run's event payload (`pull_request`, `workflow_run`), or undefined when the
 * file is not given, cannot be read within EVENT_FILE_BYTES, is not JSON or holds no such object.
 * Its fields are untrusted: each caller checks those it takes.
 *
 * @example const run = await eventObject(env['GITHUB_EVENT_PATH'], 'workflow_run')
 */
export async function eventObject(
  path: string | undefined,
  field: string
): Promise<Record<string, unknown> | undefined> {
  const read = path ? await readBoundedFile(path, EVENT_FILE_BYTES) : undefined
  if (read?.outcome !== 'read') return undefined
  let payload: unknown
  try {
    payload = JSON.parse(read.bytes.toString('utf8'))
  } catch {
    return undefined
  }
  const value: unknown =
    typeof payload === 'object' && payload !== null
      ? (payload as Record<string, unknown>)[field]
      : undefined
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
