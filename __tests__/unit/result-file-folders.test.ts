/**
 * The folders of the files we write (the command's result files, the action's SARIF file) are
 * created one level at a time: a path from an input never becomes a hot loop (Node's recursive
 * mkdir spins forever under /proc), and every refusal is the system's, at once.
 */
import { existsSync } from 'node:fs'
import { readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeSarifFile } from '../../src/action/sarif-file.js'
import { ACTION_NAMES } from '../../src/action/names.js'
import { EXIT, exitCodeOfError } from '../../src/cli/exit-codes.js'
import { ResultFileError, writeResultFiles } from '../../src/cli/result-files.js'
import { TimeoutError } from '../../src/errors.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import { makeFolders } from '../../src/folders.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import type { Log } from '../../src/log.js'
import { createSink } from '../../src/sink.js'
import { tempFolder } from '../support/temp-files.js'
import { inWords } from '../../src/words.js'

const temp = tempFolder('result-file-folders-')

/** A folder /proc does not have: a level there is refused with ENOENT while /proc exists. */
const UNDER_PROC = `/proc/no-such-folder-${process.pid}/deeper`

/** Skipped where there is no /proc (macOS, Windows): the case it reproduces is Linux's. */
const NO_PROC = !existsSync('/proc/self')

const UNREAD: AnalysisOutcome = {
  read: false,
  source: 'report-task.txt',
  projectKey: undefined,
  message: 'Timed out',
  error: new TimeoutError('Timed out')
}

/** Writes the JSON results to `json`, relative to the temporary folder: the error, if any. */
async function writeJson(json: string): Promise<unknown> {
  return writeResultFiles(
    { json, junit: undefined, markdown: undefined, sarif: undefined, codequality: undefined },
    {
      outcomes: [UNREAD],
      context: { startedAt: new Date(0), hostname: 'localhost', secrets: [], elapsedMs: 0 },
      policy: FAIL_ON_ERROR
    },
    { cwd: temp.dir, stdout: { write: () => true } }
  ).then(
    () => undefined,
    (error: unknown) => error
  )
}

describe('a result file whose folder cannot be created', () => {
  it.skipIf(NO_PROC)(
    'under /proc: exit 2 at once, naming the path and the reason (skipped without /proc)',
    { timeout: 5_000 },
    async () => {
      const file = `${UNDER_PROC}/x.json`
      const started = performance.now()
      const error = await writeJson(file)
      expect(performance.now() - started).toBeLessThan(1_000)
      expect(error).toBeInstanceOf(ResultFileError)
      expect((error as ResultFileError).message).toBe(
        `Could not write the JSON results to "${file}": ENOENT: no such file or directory, mkdir '${path.dirname(UNDER_PROC)}'.`
      )
      expect(exitCodeOfError(error)).toBe(EXIT.usage)
    }
  )

  it('under a file: the system’s ENOTDIR, naming the level', async () => {
    await writeFile(temp.file('a-file'), '')
    const error = await writeJson('a-file/sub/x.json')
    expect((error as ResultFileError).message).toBe(
      `Could not write the JSON results to "a-file/sub/x.json": ENOTDIR: not a directory, mkdir '${temp.file('a-file/sub')}'.`
    )
  })

  it('a file where the folder should be: the system’s EEXIST, as before', async () => {
    await writeFile(temp.file('b-file'), '')
    const error = await writeJson('b-file/x.json')
    expect((error as ResultFileError).message).toBe(
      `Could not write the JSON results to "b-file/x.json": EEXIST: file already exists, mkdir '${temp.file('b-file')}'.`
    )
  })

  it('the missing folders are created, and existing ones are used as they are', async () => {
    expect(await writeJson('new/a/b/x.json')).toBeUndefined()
    expect(await writeJson('new/a/b/y.json')).toBeUndefined()
    expect(JSON.parse(await readFile(temp.file('new/a/b/y.json'), 'utf8'))).toBeTruthy()
    await makeFolders('/')
    await makeFolders(temp.dir)
    expect((await stat(temp.dir)).isDirectory()).toBe(true)
  })
})

describe('the action’s SARIF file', () => {
  it.skipIf(NO_PROC)(
    'under /proc: a warning at once, naming the path (skipped without /proc)',
    { timeout: 5_000 },
    async () => {
      const warnings: string[] = []
      const log: Log = {
        info: () => undefined,
        warning: (message) => warnings.push(inWords(message, ACTION_NAMES)),
        notice: () => undefined,
        startGroup: () => undefined,
        endGroup: () => undefined
      }
      const sink = createSink({ names: ACTION_NAMES, secrets: [] })
      const file = `${UNDER_PROC}/issues.sarif`
      const started = performance.now()
      await writeSarifFile(file, [UNREAD], { log, sink })
      expect(performance.now() - started).toBeLessThan(1_000)
      expect(warnings).toEqual([
        `The SARIF file was not written to ${file}: ENOENT: no such file or directory, mkdir '${path.dirname(UNDER_PROC)}'. Check the sarifFile input.`
      ])
    }
  )
})
