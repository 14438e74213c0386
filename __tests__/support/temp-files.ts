/**
 * A temporary folder for the tests of one file that read what they write there, and whether this
 * machine can make the special files they try (a named pipe).
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'

/** A temporary folder: its path, and a path in it. */
export interface TempFolder {
  readonly dir: string
  file(name: string): string
}

/**
 * A fresh folder for the enclosing file or block, removed after it.
 *
 * @example const temp = tempFolder('report-file-') // then temp.file('plain.txt')
 */
export function tempFolder(prefix: string): TempFolder {
  let made: string | undefined
  beforeAll(async () => {
    made = await mkdtemp(path.join(tmpdir(), prefix))
  })
  afterAll(async () => {
    if (made) await rm(made, { recursive: true, force: true })
  })
  const folder = (): string => {
    if (!made) throw new Error('tempFolder: used outside a test of its block')
    return made
  }
  return {
    get dir() {
      return folder()
    },
    file: (name) => path.join(folder(), name)
  }
}

/** Whether `mkfifo` is on this machine, to make a named pipe with. */
export const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
