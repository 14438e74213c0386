import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { EXIT, EXIT_CODE_OF, exitCodeOfError } from '../../src/cli/exit-codes.js'
import { parseCommandLine, UsageError } from '../../src/cli/options.js'
import { ResultFileError, writeResultFiles } from '../../src/cli/result-files.js'
import { readRootCertFile } from '../../src/cli/root-cert-file.js'
import {
  ExplainedError,
  asError,
  codeOf,
  messageOf,
  ReportFileError,
  ServerRequestError,
  SettingsError,
  TaskFailedError,
  TimeoutError,
  UnsafeRequestError,
  type ErrorCode
} from '../../src/errors.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'

const CLASSES = [
  SettingsError,
  UsageError,
  ReportFileError,
  ResultFileError,
  UnsafeRequestError,
  ServerRequestError,
  TaskFailedError,
  TimeoutError
] as const

/** One of each, made as the code makes it, wrapping `cause`. */
function made(Class: (typeof CLASSES)[number], cause: Error): ExplainedError {
  return Class === ServerRequestError
    ? new ServerRequestError('what went wrong', undefined, { cause })
    : new (Class as typeof SettingsError)('what went wrong', { cause })
}

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'error-family-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

describe('every error of the project is one family with a stable code', () => {
  it.each(CLASSES.map((Class) => [Class.name, Class] as const))(
    '%s is an ExplainedError whose code is its class’s',
    (name, Class) => {
      const cause = new Error('underneath')
      const error = made(Class, cause)
      expect(error).toBeInstanceOf(ExplainedError)
      expect(error.name).toBe(name)
      expect(error.code).toBe(Class.code)
      expect(codeOf(error)).toBe(Class.code)
      expect(error.message).toBe('what went wrong')
      expect(error.cause).toBe(cause)
    }
  )

  it('each class has a code of its own', () => {
    const codes = CLASSES.map((Class) => Class.code)
    expect(new Set(codes).size).toBe(codes.length)
  })

  it('anything outside the family is ERR_UNEXPECTED', () => {
    expect(codeOf(new TypeError('x'))).toBe('ERR_UNEXPECTED')
    expect(codeOf('a string thrown')).toBe('ERR_UNEXPECTED')
    expect(codeOf(undefined)).toBe('ERR_UNEXPECTED')
  })
})

describe('the command’s exit code is chosen by the error’s code', () => {
  it('2 for the command line, the settings, a report file or a result file', () => {
    const usage: ErrorCode[] = ['ERR_USAGE', 'ERR_SETTINGS', 'ERR_REPORT_FILE', 'ERR_RESULT_FILE']
    for (const code of usage) expect(EXIT_CODE_OF[code]).toBe(EXIT.usage)
    expect(exitCodeOfError(new ResultFileError('x'))).toBe(EXIT.usage)
  })

  it('3 when the gate is unknown: the server, the task, the time-out, the unforeseen', () => {
    const noVerdict: ErrorCode[] = [
      'ERR_UNSAFE_REQUEST',
      'ERR_SERVER_REQUEST',
      'ERR_TASK_FAILED',
      'ERR_TIMEOUT',
      'ERR_UNEXPECTED'
    ]
    for (const code of noVerdict) expect(EXIT_CODE_OF[code]).toBe(EXIT.noVerdict)
    expect(exitCodeOfError(new RangeError('x'))).toBe(EXIT.noVerdict)
    expect(exitCodeOfError('thrown text')).toBe(EXIT.noVerdict)
  })

  it('the table has a row for every class’s code', () => {
    for (const Class of CLASSES) expect(Object.keys(EXIT_CODE_OF)).toContain(Class.code)
  })
})

describe('a wrapped failure stays the cause', () => {
  it('an option parseArgs refuses: a UsageError whose cause is Node’s error', () => {
    let thrown: unknown
    try {
      parseCommandLine(['--bogus'])
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(UsageError)
    expect(codeOf(thrown)).toBe('ERR_USAGE')
    expect((thrown as UsageError).cause).toMatchObject({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })
  })

  it('a result file under a file: a ResultFileError whose cause is the system’s', async () => {
    const dir = await folder()
    await writeFile(path.join(dir, 'a-file'), '')
    const unread: AnalysisOutcome = {
      read: false,
      source: 'report-task.txt',
      projectKey: undefined,
      message: 'Timed out',
      error: new TimeoutError('Timed out')
    }
    const writing = writeResultFiles(
      {
        json: 'a-file/results.json',
        junit: undefined,
        markdown: undefined,
        sarif: undefined,
        codequality: undefined
      },
      {
        outcomes: [unread],
        context: { startedAt: new Date(0), hostname: 'localhost', secrets: [], elapsedMs: 0 },
        policy: FAIL_ON_ERROR
      },
      { cwd: dir, stdout: { write: () => true } }
    )
    const error = await writing.then(
      () => undefined,
      (error: unknown) => error
    )
    expect(error).toBeInstanceOf(ResultFileError)
    expect((error as ResultFileError).message).toMatch(
      /^Could not write the JSON results to "a-file\/results.json": /
    )
    expect((error as ResultFileError).cause).toMatchObject({ code: expect.stringMatching(/^E/) })
    expect(exitCodeOfError(error)).toBe(EXIT.usage)
  })

  it('a CA file that cannot be opened: a SettingsError whose cause is the system’s', async () => {
    const dir = await folder()
    await writeFile(path.join(dir, 'a-file'), '')
    const error = await readRootCertFile('a-file/ca.pem', dir).then(
      () => undefined,
      (error: unknown) => error
    )
    expect(error).toBeInstanceOf(SettingsError)
    expect((error as SettingsError).cause).toMatchObject({ code: 'ENOTDIR' })
    expect(messageOf(error)).toContain('ENOTDIR')
  })
})

describe('messageOf and asError take anything thrown', () => {
  it('an Error: its message, itself', () => {
    const error = new Error('no such file')
    expect(messageOf(error)).toBe('no such file')
    expect(asError(error)).toBe(error)
  })

  it('anything else: as text, an Error whose cause is the value', () => {
    expect(messageOf(42)).toBe('42')
    expect(messageOf(undefined)).toBe('undefined')
    const thrown = { toString: () => 'odd' }
    const wrapped = asError(thrown)
    expect(wrapped).toBeInstanceOf(Error)
    expect(wrapped.message).toBe('odd')
    expect(wrapped.cause).toBe(thrown)
  })
})
