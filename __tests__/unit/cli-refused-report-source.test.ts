/**
 * The command with no --report, when the report file it finds at a default location is refused:
 * its --json entry names that file as `source`, as the entry of a file read does (and as
 * `--report <file>` does when that file is refused); with no file found, what was looked for.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../src/cli/exit-codes.js'
import { runCommand } from '../../src/cli/main.js'
import { tempFolder } from '../support/temp-files.js'

const temp = tempFolder('cli-refused-report-source-')

/** The command run in `folder` of the temporary folder: its exit code and JSON results. */
async function commandIn(folder: string, extra: string[] = []) {
  let stdout = ''
  const cwd = temp.file(folder)
  await mkdir(cwd, { recursive: true })
  const exitCode = await runCommand({
    argv: ['--json', '-', ...extra],
    env: {},
    cwd,
    stdout: { write: (text: string) => Boolean((stdout += text)) },
    stderr: { write: () => true },
    startedAt: Date.now()
  })
  return { exitCode, results: JSON.parse(stdout) as Record<string, unknown>[] }
}

describe('the source of a report file refused', () => {
  it('too large at .scannerwork/: that path', async () => {
    await mkdir(temp.file('large/.scannerwork'), { recursive: true })
    await writeFile(temp.file('large/.scannerwork/report-task.txt'), 'a'.repeat(70_000))
    const { exitCode, results } = await commandIn('large')
    expect(exitCode).toBe(EXIT.usage)
    expect(results).toEqual([
      expect.objectContaining({
        projectKey: '',
        source: '.scannerwork/report-task.txt',
        errorCode: 'ERR_REPORT_FILE'
      })
    ])
  })

  it('a folder at target/sonar/: that path', async () => {
    await mkdir(temp.file('folder/target/sonar/report-task.txt'), { recursive: true })
    const { results } = await commandIn('folder')
    expect(results[0]?.source).toBe('target/sonar/report-task.txt')
  })

  it('without a task at build/sonar/: that path, as --report gives the one it names', async () => {
    await mkdir(temp.file('no-task/build/sonar'), { recursive: true })
    await writeFile(temp.file('no-task/build/sonar/report-task.txt'), 'projectKey=shop\n')
    expect((await commandIn('no-task')).results[0]?.source).toBe('build/sonar/report-task.txt')
    const given = await commandIn('no-task', ['--report', 'build/sonar/report-task.txt'])
    expect(given.results[0]?.source).toBe('build/sonar/report-task.txt')
  })

  it('no report file anywhere: what was looked for, as before', async () => {
    const { exitCode, results } = await commandIn('empty')
    expect(exitCode).toBe(EXIT.usage)
    expect(results[0]).toMatchObject({ projectKey: '', source: 'report-task.txt' })
  })
})
