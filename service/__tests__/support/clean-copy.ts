import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

/**
 * The service's folder as a fresh clone has it, in a new temporary directory: the files git
 * tracks, and new ones it would track, without node_modules or anything git ignores.
 */
export function cleanCopyOfService(): string {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'service'],
    { cwd: ROOT, encoding: 'utf8' }
  )
  const copy = mkdtempSync(path.join(tmpdir(), 'service-clone-'))
  for (const file of listed.split('\0').filter((name) => name !== '')) {
    const from = path.join(ROOT, file)
    const to = path.join(copy, path.relative('service', file))
    mkdirSync(path.dirname(to), { recursive: true })
    try {
      copyFileSync(from, to)
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the copy.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return copy
}

/**
 * The environment of a fresh shell: PATH without any node_modules/.bin (so `node` and `npm`
 * are the machine's, not the repository's), HOME (npm's cache), nothing else.
 */
export function freshShellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const PATH = (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`))
    .join(path.delimiter)
  return { PATH, HOME: process.env['HOME'] ?? '', ...extra }
}
