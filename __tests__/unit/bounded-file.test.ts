/**
 * The one bounded reader of small files (the report file, the CA file, the event file): a regular
 * file up to the limit is read whole; anything else is an outcome, never a wait or a long read.
 */
import { execFileSync } from 'node:child_process'
import fs, { existsSync } from 'node:fs'
import { chmod, mkdir, truncate, writeFile } from 'node:fs/promises'
import { syncBuiltinESMExports } from 'node:module'
import { describe, expect, it, vi } from 'vitest'
import { readBoundedFile } from '../../src/bounded-file.js'
import { hasMkfifo, tempFolder } from '../support/temp-files.js'

const temp = tempFolder('bounded-file-')
const file = (name: string): string => temp.file(name)

describe('a regular file up to the limit is read whole, one byte more is too large', () => {
  it.each([
    ['empty', 0],
    ['smaller than one chunk', 10],
    ['exactly the limit, over several chunks', 200_000]
  ])('%s', async (_, size) => {
    const text = 'x'.repeat(size)
    await writeFile(file(`size-${size}`), text)
    const read = await readBoundedFile(file(`size-${size}`), 200_000)
    expect(read).toEqual({ outcome: 'read', bytes: Buffer.from(text) })
  })

  it('one byte over the limit', async () => {
    await writeFile(file('over'), 'x'.repeat(1001))
    expect(await readBoundedFile(file('over'), 1000)).toEqual({ outcome: 'too-large' })
  })

  it('no more than the limit and one byte is read, whatever the size the file gives', async () => {
    await writeFile(file('sparse'), '')
    await truncate(file('sparse'), 64 * 2 ** 30)
    const read = vi.spyOn(fs, 'readSync')
    syncBuiltinESMExports()
    try {
      expect(await readBoundedFile(file('sparse'), 100_000)).toEqual({ outcome: 'too-large' })
      const asked = read.mock.calls.map(
        (call) => (call as unknown as [number, Buffer, number, number])[3]
      )
      expect(asked.reduce((sum, length) => sum + length, 0)).toBe(100_001)
    } finally {
      read.mockRestore()
      syncBuiltinESMExports()
    }
  })
})

describe('anything else is an outcome the caller words', () => {
  it('a missing file', async () => {
    expect(await readBoundedFile(file('absent'), 1000)).toMatchObject({
      outcome: 'missing',
      error: { code: 'ENOENT' }
    })
  })

  it('a directory', async () => {
    await mkdir(file('a-directory'))
    expect(await readBoundedFile(file('a-directory'), 1000)).toEqual({
      outcome: 'not-a-file',
      kind: 'a directory'
    })
  })

  it.skipIf(!hasMkfifo)('a named pipe with no writer, at once', async () => {
    execFileSync('mkfifo', [file('pipe')])
    expect(await readBoundedFile(file('pipe'), 1000)).toEqual({
      outcome: 'not-a-file',
      kind: 'a named pipe (FIFO)'
    })
  })

  it.skipIf(!existsSync('/dev/zero'))('an endless device', async () => {
    expect(await readBoundedFile('/dev/zero', 1000)).toEqual({
      outcome: 'not-a-file',
      kind: 'a device'
    })
  })

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'a file that may not be read',
    async () => {
      await writeFile(file('secret'), 'x')
      await chmod(file('secret'), 0o000)
      expect(await readBoundedFile(file('secret'), 1000)).toMatchObject({
        outcome: 'unreadable',
        error: { code: 'EACCES' }
      })
    }
  )
})
