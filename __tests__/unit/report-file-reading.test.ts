import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import { mkdir, mkdtemp, symlink, truncate, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ReportFileError } from '../../src/errors.js'
import { loadReportFile, MAX_REPORT_BYTES, readTextFile } from '../../src/report-file.js'
import { hasMkfifo, tempFolder } from '../support/temp-files.js'

const report = [
  'serverUrl=https://sonar.example.com',
  'ceTaskUrl=https://sonar.example.com/api/ce/task?id=AYTask1'
].join('\n')

const temp = tempFolder('report-file-')
const file = (name: string): string => temp.file(name)

const readable = (name: string): boolean => {
  try {
    accessSync(name, constants.R_OK)
    return true
  } catch {
    return false
  }
}

describe('a regular text file is read; a missing one is not an error until every place was tried', () => {
  it('reads a regular file', async () => {
    await writeFile(file('plain.txt'), report)
    expect(await readTextFile(file('plain.txt'))).toBe(report)
  })

  it('a file that does not exist reads as undefined', async () => {
    expect(await readTextFile(file('absent.txt'))).toBeUndefined()
  })

  it('the default search goes past locations that do not exist', async () => {
    const cwd = await mkdtemp(path.join(temp.dir, 'ws-'))
    await mkdir(path.join(cwd, 'build/sonar'), { recursive: true })
    await writeFile(path.join(cwd, 'build/sonar/report-task.txt'), report)
    const found = await loadReportFile(undefined, cwd)
    expect(found).toMatchObject({ file: 'build/sonar/report-task.txt', ceTaskId: 'AYTask1' })
  })

  it('a given path that does not exist is named in the error', async () => {
    await expect(loadReportFile('out/report.txt', temp.dir)).rejects.toThrow(
      /^Report file not found at out\/report.txt\. Scanners write it to /
    )
  })

  it('follows a symbolic link to a regular file', async () => {
    await writeFile(file('target.txt'), report)
    await symlink(file('target.txt'), file('link.txt'))
    expect(await readTextFile(file('link.txt'))).toBe(report)
  })
})

describe('anything but a regular file is refused at once, without reading it', () => {
  it.skipIf(!hasMkfifo)(
    'a named pipe with no writer does not hang the step',
    async () => {
      execFileSync('mkfifo', [file('pipe')])
      const attempt = readTextFile(file('pipe'))
      await expect(attempt).rejects.toThrow(ReportFileError)
      await expect(attempt).rejects.toThrow(/pipe is a named pipe \(FIFO\), not a regular file\./)
    },
    5000
  )

  it.skipIf(!existsSync('/dev/zero'))('/dev/zero (endless) is refused as a device', async () => {
    await expect(readTextFile('/dev/zero')).rejects.toThrow(
      /^Report file \/dev\/zero is a device, not a regular file\. Scanners write /
    )
  })

  it.skipIf(!existsSync('/dev/zero'))('so is a symbolic link to a device', async () => {
    await symlink('/dev/zero', file('zero-link'))
    await expect(readTextFile(file('zero-link'))).rejects.toThrow(/is a device, not a regular/)
  })

  it('a directory is refused', async () => {
    await mkdir(file('a-directory'))
    await expect(readTextFile(file('a-directory'))).rejects.toThrow(
      /a-directory is a directory, not a regular file/
    )
  })
})

describe('a report file is at most 64 KiB; no more than that and one byte is ever read', () => {
  it('a file of exactly 64 KiB is read', async () => {
    const padded = `${report}\n#${'x'.repeat(MAX_REPORT_BYTES - report.length - 2)}`
    expect(Buffer.byteLength(padded)).toBe(MAX_REPORT_BYTES)
    await writeFile(file('at-limit.txt'), padded)
    expect(await readTextFile(file('at-limit.txt'))).toBe(padded)
  })

  it('one byte more is refused', async () => {
    await writeFile(file('over-limit.txt'), 'x'.repeat(MAX_REPORT_BYTES + 1))
    await expect(readTextFile(file('over-limit.txt'))).rejects.toThrow(
      /over-limit\.txt is larger than 64 KiB, so it is not a scanner's report-task\.txt \(those are under 1 KiB\)\./
    )
  })

  // Reading it whole would take minutes: the test's time-out is the guard.
  it('a 64 GiB sparse file is refused without being read', async () => {
    await writeFile(file('huge.txt'), '')
    await truncate(file('huge.txt'), 64 * 2 ** 30)
    await expect(readTextFile(file('huge.txt'))).rejects.toThrow(/is larger than 64 KiB/)
  })

  it.skipIf(!readable('/proc/kallsyms'))(
    'a /proc file (size 0 to stat, megabytes to read) is bounded by what is read',
    async () => {
      await expect(readTextFile('/proc/kallsyms')).rejects.toThrow(/is larger than 64 KiB/)
    }
  )
})

describe('a file that is not UTF-8 text is refused without echoing its bytes', () => {
  it('invalid UTF-8', async () => {
    await writeFile(file('latin1.txt'), Buffer.from([0x73, 0x65, 0x72, 0xe9, 0x0a]))
    await expect(readTextFile(file('latin1.txt'))).rejects.toThrow(
      /latin1\.txt is not a text report file: it is not UTF-8 text\. Scanners write /
    )
  })

  it('a binary file with NUL bytes, found by the default search', async () => {
    const cwd = await mkdtemp(path.join(temp.dir, 'ws-'))
    await mkdir(path.join(cwd, '.scannerwork'))
    await writeFile(
      path.join(cwd, '.scannerwork/report-task.txt'),
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])
    )
    await expect(loadReportFile(undefined, cwd)).rejects.toThrow(
      'Report file .scannerwork/report-task.txt is not a text report file: line 1 holds the control character \\x03.'
    )
  })
})
