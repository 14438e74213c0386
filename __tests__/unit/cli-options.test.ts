import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  EXIT,
  exitCodeOfError,
  exitCodeOfVerdict,
  worstExitCode
} from '../../src/cli/exit-codes.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { commandSettings, parseCommandLine, USAGE, UsageError } from '../../src/cli/options.js'
import {
  ReportFileError,
  ServerRequestError,
  SettingsError,
  TaskFailedError,
  TimeoutError,
  UnsafeRequestError
} from '../../src/errors.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { stepVerdict } from '../../src/report/verdict.js'
import { readRootCertFile } from '../../src/cli/root-cert-file.js'
import { readSettings, withVariables } from '../../src/settings.js'
import { inCommandWords, thrownInWords } from '../../__fixtures__/sinks.js'
import { gateResult } from './summary-gate-result.js'

const SHA = 'a'.repeat(40)

function check(argv: string[]) {
  const line = parseCommandLine(argv)
  if (line.kind !== 'check') throw new Error(`expected a check, got ${line.kind}`)
  return line
}

function settingsOf(argv: string[], env: NodeJS.ProcessEnv = {}) {
  return readSettings(withVariables(commandSettings(check(argv), undefined), COMMAND_NAMES, env))
}

/** The error the settings are refused with, its message in the command's words. */
const refusal = (argv: string[], env: NodeJS.ProcessEnv = {}): Error =>
  thrownInWords(() => settingsOf(argv, env), inCommandWords)

describe('the command line maps onto the action’s settings', () => {
  it('repeated --report lines become the report patterns, in order', () => {
    expect(
      settingsOf([
        '--report',
        'api/target/sonar/report-task.txt',
        '-r',
        '*/.scannerwork/report-task.txt'
      ]).reportFiles
    ).toEqual(['api/target/sonar/report-task.txt', '*/.scannerwork/report-task.txt'])
  })

  it('every option reaches its setting, in the action’s units', () => {
    const settings = settingsOf([
      '--host=https://sonar.example.com',
      '--task-id',
      'AYTask1',
      '--timeout',
      '300',
      '--initial-delay',
      '0',
      '--interval',
      '500',
      '--no-fail'
    ])
    expect(settings).toMatchObject({
      hostUrl: new URL('https://sonar.example.com'),
      taskId: 'AYTask1',
      timeoutMs: 300_000,
      initialWaitMs: 0,
      intervalMs: 500,
      adaptivePolling: false,
      failStep: false
    })
    // The action's settings (the pull-request comment…) are not the command's.
    expect(settings).not.toHaveProperty('comment')
  })

  it('without options: the action’s defaults, the token and the host from the environment', () => {
    const settings = settingsOf([], {
      SONAR_TOKEN: ' squ_x \n',
      SONAR_HOST_URL: 'https://sonar.example.com'
    })
    expect(settings).toMatchObject({
      reportFiles: [],
      token: 'squ_x',
      hostUrl: new URL('https://sonar.example.com'),
      timeoutMs: 60_000,
      initialWaitMs: 3000,
      intervalMs: 1000,
      adaptivePolling: true,
      failStep: true
    })
  })

  it('--host wins over SONAR_HOST_URL', () => {
    expect(
      settingsOf(['--host', 'https://a.example.com'], { SONAR_HOST_URL: 'https://b.example.com' })
        .hostUrl?.href
    ).toBe('https://a.example.com/')
  })
})

describe('settings errors name the option, not the action’s input', () => {
  it.each([
    [
      ['--interval', 'fast'],
      'Option --interval is "fast": it must be a whole number from 1 to 432000000 (at most 5 days, the longest a job may run on a self-hosted runner); default 1000.'
    ],
    [['--timeout', '0'], 'Option --timeout is "0": it must be a whole number from 1 to 432000'],
    [['--initial-delay=-1'], 'Option --initial-delay is "-1"'],
    [
      ['--task-id', 'AY1', '--analysis-id', 'AY2', '--host', 'https://s.example.com'],
      'Options --task-id and --analysis-id are both set: set one of them (--analysis-id skips the task).'
    ],
    [
      ['--task-id', 'AY1'],
      'Option --task-id needs the server address: set the --host option or the SONAR_HOST_URL environment variable.'
    ],
    [
      ['--host', 'https://user:pw@sonar.example.com'],
      '--host (or SONAR_HOST_URL) must not contain credentials: pass the token in SONAR_TOKEN.'
    ],
    [['--host', 'ftp://sonar.example.com'], '--host (or SONAR_HOST_URL) must start with https://'],
    [
      ['--report', '!secret/report-task.txt'],
      'Option --report has the line "!secret/report-task.txt"'
    ]
  ])('%j', (argv, message) => {
    const error = refusal(argv)
    expect(error).toBeInstanceOf(SettingsError)
    expect(error.message).toContain(message)
  })

  it('SONAR_ROOT_CERT that is not PEM is named as the variable', () => {
    expect(refusal([], { SONAR_ROOT_CERT: '/etc/ca.pem' }).message).toMatch(
      /^SONAR_ROOT_CERT is not a PEM certificate/
    )
  })
})

describe('usage errors', () => {
  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['report-task.txt'], 'Unexpected argument "report-task.txt": every value follows its option'],
    [['--host', 'https://a', '--host', 'https://b'], '--host is given twice: give it once.'],
    [['--timeout='], '--timeout is empty'],
    [['--no-fail=yes'], "Option '--no-fail' does not take an argument."],
    [['--junit', '-', '--json', '-'], '--json and --junit both write to standard output (-)'],
    [
      ['--token', 'squ_x'],
      'Unknown option --token: the token is never an option (it would show in process lists). Set the SONAR_TOKEN environment variable instead'
    ],
    [['--login=squ_x'], 'Unknown option --login: the token is never an option'],
    [['--sonar.token', 'squ_x'], 'Unknown option --sonar.token: the token is never an option'],
    [['--tokens'], "Unknown option '--tokens'."],
    [
      ['--comment-when', 'failed'],
      '--comment-when is given without --decorate: it shapes the decoration, and only --decorate decorates.'
    ],
    [['--inline-limit', '5'], '--inline-limit is given without --decorate'],
    [
      ['--decorate', '--comment-when', 'sometimes'],
      '--comment-when "sometimes" is not one of always, failed, changed.'
    ],
    [
      ['--decorate', '--inline-limit', '101'],
      '--inline-limit "101" is not a whole number from 0 to 100'
    ],
    [
      ['--decorate', '--inline-limit=-1'],
      '--inline-limit "-1" is not a whole number from 0 to 100'
    ],
    [
      ['--bitbucket-server', 'https://bb.example.com'],
      '--bitbucket-server is given without --decorate'
    ],
    [
      ['--decorate', '--bitbucket-server', 'https://bb.example.com', '--bitbucket-repo', 'web'],
      "--bitbucket-server and --bitbucket-repo are given without --bitbucket-project: Bitbucket Data Center's repository needs all three."
    ],
    [
      ['--decorate', '--inline-severity', 'CRITICAL'],
      '--inline-severity "CRITICAL" is not one of blocker, high, medium, low, info'
    ],
    [['--all-projects', 'web'], '--all-projects is given without --decorate'],
    [
      ['--decorate', '--all-projects', 'web,my project'],
      '--all-projects names "my project", which holds white space: give project keys as the server shows them, separated by commas.'
    ],
    [
      ['--decorate', '--all-projects', Array.from({ length: 101 }, (_, i) => `p${i}`).join(',')],
      '--all-projects names 101 projects: give at most 100.'
    ]
  ])('%j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError)
    expect(() => parseCommandLine(argv)).toThrow(message)
  })

  it('--all-projects: comma-separated and repeatable, each key once', () => {
    expect(check([]).allProjects).toEqual([])
    expect(
      check(['--decorate', '--all-projects', 'web, api,', '--all-projects', 'shop,web']).allProjects
    ).toEqual(['web', 'api', 'shop'])
  })

  it('--decorate and its options: the defaults, and the values given', () => {
    expect(check([])).toMatchObject({
      decorate: false,
      commentWhen: 'always',
      inlineLimit: 10,
      inlineSeverity: 'info'
    })
    expect(
      check([
        '--decorate',
        '--comment-when',
        'Changed',
        '--inline-limit',
        '0',
        '--inline-severity',
        'high'
      ])
    ).toMatchObject({
      decorate: true,
      commentWhen: 'changed',
      inlineLimit: 0,
      inlineSeverity: 'high'
    })
  })

  it.each([
    [
      ['--commit', SHA],
      "--commit is given without --project or --decorate: with --project it says which commit's analysis to check; without, which commit --decorate decorates (the analysis checked is the report file's). Give --project, or --decorate, or leave --commit out."
    ],
    [['--decorate', '--commit', 'abc1234'], '--commit "abc1234" is not one full commit SHA'],
    [['--decorate', '--commit', `${SHA},${SHA.replace(/a/g, 'b')}`], 'is not one full commit SHA']
  ])('--commit without --project: %j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError)
    expect(() => parseCommandLine(argv)).toThrow(message)
  })

  it('--commit with a report file and --decorate: the commit decorated, not the analysis checked', () => {
    const line = check([
      '--report',
      'a/report-task.txt',
      '--decorate',
      '--commit',
      SHA.toUpperCase()
    ])
    expect(line.commit).toBe(SHA)
    // The settings ask for no commit's analysis: the report file's task decides which is checked.
    const settings = settingsOf(['--report', 'a/report-task.txt', '--decorate', '--commit', SHA])
    expect(settings).toMatchObject({
      reportFiles: ['a/report-task.txt'],
      commits: [],
      projectKeys: []
    })
  })

  it('--commit with --project keeps its meaning: the commit whose analysis to check', () => {
    const argv = ['--host', 'https://s.example.com', '--project', 'shop', '--commit', SHA]
    expect(settingsOf(argv)).toMatchObject({ projectKeys: ['shop'], commits: [SHA] })
    expect(settingsOf([...argv, '--decorate'])).toMatchObject({ commits: [SHA] })
  })

  it('--help and --version win over everything else', () => {
    expect(parseCommandLine(['--report', 'x', '--help'])).toEqual({ kind: 'help' })
    expect(parseCommandLine(['-v'])).toEqual({ kind: 'version' })
  })
})

describe('--help lists every option with its default', () => {
  it.each([
    ['--report', '(default: the first of'],
    ['--host', 'default: SONAR_HOST_URL'],
    ['--task-id', ''],
    ['--analysis-id', ''],
    ['--timeout', 'default 60'],
    ['--initial-delay', 'default 3000'],
    ['--interval', 'default 1000'],
    ['--no-fail', 'default: exit 1'],
    ['--root-cert-file', 'default: the PEM text in SONAR_ROOT_CERT'],
    ['--json', ''],
    ['--junit', ''],
    ['--markdown', 'default: none'],
    ['--help', ''],
    ['--version', '']
  ])('%s', (option, fallback) => {
    expect(USAGE).toMatch(new RegExp(`^ +(-\\w, )?${option}\\b`, 'm'))
    expect(USAGE).toContain(fallback)
  })

  it('documents the exit codes and the token’s variable', () => {
    expect(USAGE).toMatch(/^ {2}0 {2}every gate passed/m)
    expect(USAGE).toMatch(/^ {2}1 {2}a quality gate failed/m)
    expect(USAGE).toMatch(/^ {2}2 {2}bad usage or settings/m)
    expect(USAGE).toMatch(/^ {2}3 {2}no verdict/m)
    expect(USAGE).toContain('SONAR_TOKEN       the token (never an option')
  })

  it('fits an 100-column terminal', () => {
    for (const line of USAGE.split('\n')) expect(line.length).toBeLessThanOrEqual(100)
  })
})

describe('exit codes', () => {
  const passed: AnalysisOutcome = {
    read: true,
    source: 'a',
    result: gateResult({ status: 'OK', qualityGateStatus: 'PASSED', conditions: [] })
  }
  const failed: AnalysisOutcome = { read: true, source: 'b', result: gateResult() }
  const unread = (error: Error): AnalysisOutcome => ({
    read: false,
    source: 'c',
    projectKey: 'c',
    message: error.message,
    error
  })
  const codeOf = (outcomes: AnalysisOutcome[], failStep = true) =>
    exitCodeOfVerdict(stepVerdict(outcomes), { failStep })

  it('0 when every gate passed, WARN and NONE included', () => {
    expect(codeOf([passed])).toBe(EXIT.passed)
    expect(
      codeOf([{ ...passed, result: gateResult({ status: 'WARN', qualityGateStatus: 'WARN' }) }])
    ).toBe(0)
  })

  it('1 for an ERROR gate; 0 with --no-fail', () => {
    expect(codeOf([passed, failed])).toBe(EXIT.gateFailed)
    expect(codeOf([passed, failed], false)).toBe(EXIT.passed)
  })

  it('2 for usage, settings and report-file errors', () => {
    for (const error of [new UsageError('x'), new SettingsError('x'), new ReportFileError('x')]) {
      expect(exitCodeOfError(error)).toBe(EXIT.usage)
    }
  })

  it('3 when the server could not be read, the task failed, the time ran out, or the unforeseen', () => {
    for (const error of [
      new ServerRequestError('x', 503),
      new TaskFailedError('x'),
      new TimeoutError('x'),
      new UnsafeRequestError('x'),
      new TypeError('x')
    ]) {
      expect(exitCodeOfError(error)).toBe(EXIT.noVerdict)
    }
  })

  it('an analysis that could not be read wins over a failed gate: its gate is unknown', () => {
    expect(codeOf([failed, unread(new TimeoutError('t'))])).toBe(EXIT.noVerdict)
    expect(codeOf([failed, unread(new TimeoutError('t')), unread(new ReportFileError('r'))])).toBe(
      EXIT.usage
    )
  })

  it('precedence: usage, then no verdict, then a failed gate', () => {
    expect(worstExitCode([1, 3, 2])).toBe(2)
    expect(worstExitCode([1, 3])).toBe(3)
    expect(worstExitCode([0, 1])).toBe(1)
    expect(worstExitCode([])).toBe(0)
  })
})

describe('--root-cert-file is read bounded, with a clear error', () => {
  async function folder(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'gate-cert-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    return dir
  }

  it('a PEM file is read', async () => {
    const dir = await folder()
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
    await writeFile(path.join(dir, 'ca.pem'), pem)
    expect(await readRootCertFile('ca.pem', dir)).toBe(pem)
  })

  it.each([
    ['a missing file', 'missing.pem', '--root-cert-file "missing.pem": there is no such file.'],
    ['a folder', '.', '--root-cert-file "." is not a regular file'],
    ['a DER file', 'ca.der', '--root-cert-file "ca.der" holds no PEM certificate'],
    ['a file over 1 MiB', 'big.pem', '--root-cert-file "big.pem" is larger than 1 MiB']
  ])('%s', async (_, file, message) => {
    const dir = await folder()
    await writeFile(path.join(dir, 'ca.der'), Buffer.from([0x30, 0x82, 0x01, 0x0a]))
    await writeFile(path.join(dir, 'big.pem'), 'x'.repeat(1024 * 1024 + 1))
    await expect(readRootCertFile(file, dir)).rejects.toThrow(SettingsError)
    await expect(readRootCertFile(file, dir)).rejects.toThrow(message)
  })
})
