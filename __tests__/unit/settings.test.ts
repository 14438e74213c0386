import { describe, expect, it } from 'vitest'
import { SettingsError } from '../../src/errors.js'
import { readActionSettings } from '../../src/action/settings.js'
import { thrownInWords } from '../../__fixtures__/sinks.js'

const inputs =
  (values: Record<string, string>) =>
  (name: string): string =>
    values[name] ?? ''

const readSettings = readActionSettings

/** The error the settings are refused with, its message in the action's words. */
const refusal = (values: Record<string, string>): Error =>
  thrownInWords(() => readActionSettings(inputs(values), {}))

describe('defaults apply in code, since the bundle can run without the runner filling them in', () => {
  it('uses the spec defaults when no input is set', () => {
    const settings = readSettings(inputs({}), {})
    expect(settings).toEqual({
      reportFiles: [],
      token: undefined,
      hostUrl: undefined,
      rootCert: undefined,
      timeoutMs: 60_000,
      initialWaitMs: 3000,
      intervalMs: 1000,
      adaptivePolling: true,
      failStep: true,
      policy: new Set(['ERROR']),
      taskId: undefined,
      analysisId: undefined,
      projectKeys: [],
      branch: undefined,
      pullRequest: undefined,
      commits: [],
      comment: undefined,
      gitHubToken: undefined,
      annotate: true,
      checkRun: false,
      sarifFile: undefined
    })
  })

  it('a pollingIntervalMs given, even 1000, is honoured exactly: no polls around a predicted end', () => {
    expect(readSettings((name) => (name === 'pollingIntervalMs' ? '1000' : ''), {})).toMatchObject({
      intervalMs: 1000,
      adaptivePolling: false
    })
  })
})

describe('token, host and CA come from inputs, else from the SonarSource environment variables', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'
  const env = {
    SONAR_TOKEN: 'env-token',
    SONAR_HOST_URL: 'https://env.example',
    SONAR_ROOT_CERT: pem
  }

  it('reads the environment when the inputs are empty', () => {
    const settings = readSettings(inputs({}), env)
    expect(settings.token).toBe('env-token')
    expect(settings.hostUrl?.href).toBe('https://env.example/')
    expect(settings.rootCert).toBe(pem)
  })

  it('prefers the inputs', () => {
    const settings = readSettings(
      inputs({ sonarToken: 'input-token', sonarHostUrl: 'https://input.example/sonar' }),
      env
    )
    expect(settings.token).toBe('input-token')
    expect(settings.hostUrl?.href).toBe('https://input.example/sonar')
  })

  it('trims a token pasted with a trailing newline', () => {
    expect(readSettings(inputs({}), { SONAR_TOKEN: 'squ_abc\n' }).token).toBe('squ_abc')
  })
})

describe('every bad input is refused with a message that names it and says what to do', () => {
  it.each([
    [
      { pollingTimeoutSec: '0' },
      /pollingTimeoutSec is "0": it must be a whole number from 1 to 432000/
    ],
    [{ pollingTimeoutSec: '1.5' }, /pollingTimeoutSec/],
    [{ initialDelayMs: '-1' }, /initialDelayMs is "-1"/],
    [{ pollingIntervalMs: 'fast' }, /pollingIntervalMs is "fast"/],
    [{ pollingIntervalMs: '0' }, /from 1 to 432000000/],
    [{ failOnError: 'yes' }, /failOnError is "yes": it must be true or false/],
    [{ sonarHostUrl: 'sonar.example.com' }, /is not a URL: give the server's address/],
    [{ sonarHostUrl: 'ftp://sonar.example.com' }, /must start with https:\/\/ or http:\/\//],
    [{ sonarHostUrl: 'https://user:pw@sonar.example.com' }, /must not contain credentials/],
    [{ sonarHostUrl: 'https://sonar.example.com/?x=1' }, /must not have a query/],
    [{ sonarRootCert: '/etc/ssl/ca.pem' }, /is not a PEM certificate/],
    [
      { taskId: 'AY1' },
      /Input taskId needs the server address: set the sonarHostUrl input or the SONAR_HOST_URL environment variable/
    ],
    [{ analysisId: 'AY2' }, /analysisId needs the server address/],
    [
      { taskId: 'AY1', analysisId: 'AY2', sonarHostUrl: 'https://s.example' },
      /taskId and analysisId are both set/
    ]
  ])('%j', (values, message) => {
    const error = refusal(values)
    expect(error).toBeInstanceOf(SettingsError)
    expect(error.message).toMatch(message)
  })

  it('accepts booleans in any case and whole numbers with spaces around', () => {
    const settings = readSettings(
      inputs({ failOnError: ' FALSE ', pollingTimeoutSec: ' 120 ', initialDelayMs: '0' }),
      {}
    )
    expect(settings.failStep).toBe(false)
    expect(settings.timeoutMs).toBe(120_000)
    expect(settings.initialWaitMs).toBe(0)
  })

  it('never repeats the token in a message', () => {
    const token = 'squ_secret_value'
    try {
      readSettings(inputs({ sonarToken: token, failOnError: 'maybe' }), {})
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).not.toContain(token)
    }
  })
})

describe('sonarHostUrl is an address only: API paths are appended to it', () => {
  it.each([
    'https://sonar.example.com/?x=1',
    'https://sonar.example.com/sonar?token=squ_abc',
    'https://sonar.example.com/?',
    'https://sonar.example.com/#x',
    'https://sonar.example.com#'
  ])('a query or fragment is refused without quoting it: %s', (url) => {
    expect(refusal({ sonarHostUrl: url }).message).toBe(
      "sonarHostUrl (or SONAR_HOST_URL) must not have a query (?...) or a fragment (#...): give the server's address only, e.g. https://sonar.example.com or https://sonar.example.com/sonar."
    )
  })

  it('a value that is not a URL is quoted with any credentials hidden', () => {
    expect(refusal({ sonarHostUrl: 'https://alice:s3cret@sonar example' }).message).toContain(
      'sonarHostUrl (or SONAR_HOST_URL) "https://***@sonar example" is not a URL'
    )
  })
})

describe('taskId and analysisId are at most 400 characters, without control characters', () => {
  const host = 'https://sonar.example.com'

  it.each([
    [
      { taskId: 'AY\u001b[2J', sonarHostUrl: host },
      'Input taskId "AY\\x1B[2J" holds the control character \\x1B: give the ceTaskId of report-task.txt, or the id of the task on the server.'
    ],
    [
      { analysisId: 'AY\n::error::x', sonarHostUrl: host },
      'Input analysisId "AY\\n::error::x" holds the control character \\n: give the analysisId of a finished task'
    ],
    [
      { taskId: 'A'.repeat(401), sonarHostUrl: host },
      `Input taskId "${'A'.repeat(199)}…" is 401 characters long, more than the 400 an id may have`
    ]
  ])('%j', (values, message) => {
    const error = refusal(values)
    expect(error).toBeInstanceOf(SettingsError)
    expect(error.message).toMatch(message)
  })

  it('400 characters are accepted', () => {
    const taskId = 'A'.repeat(400)
    expect(readSettings(inputs({ taskId, sonarHostUrl: host }), {}).taskId).toBe(taskId)
  })
})

describe('scanMetadataReportFile: several lines, each a path or a glob', () => {
  it('keeps each non-empty line, trimmed, whatever the line ends', () => {
    const settings = readSettings(
      inputs({
        scanMetadataReportFile:
          ' target/sonar/report-task.txt \r\n\n  frontend/**/report-task.txt\r'
      }),
      {}
    )
    expect(settings.reportFiles).toEqual([
      'target/sonar/report-task.txt',
      'frontend/**/report-task.txt'
    ])
  })

  it('refuses an exclusion, which @actions/glob would read as "everything else"', () => {
    expect(
      refusal({ scanMetadataReportFile: '**/report-task.txt\n!node_modules/**' }).message
    ).toMatch(
      /Input scanMetadataReportFile has the line "!node_modules\/\*\*": exclusions \(!\) are not supported/
    )
  })

  it('refuses more than 100 lines, naming the count', () => {
    const lines = Array.from({ length: 101 }, (_, index) => `p${index}/report-task.txt`)
    expect(refusal({ scanMetadataReportFile: lines.join('\n') }).message).toMatch(
      /has 101 lines: give at most 100/
    )
  })
})

describe('the pull-request comment is opt-in', () => {
  it('takes pullRequestComment and githubToken, the token trimmed', () => {
    const settings = readSettings(
      inputs({ pullRequestComment: 'true', githubToken: ' ghs_abc\n' }),
      {}
    )
    expect(settings).toMatchObject({ comment: 'always', gitHubToken: 'ghs_abc' })
  })

  it.each([
    ['false', undefined],
    ['', undefined],
    ['always', 'always'],
    ['Failed', 'failed'],
    ['changed', 'changed']
  ])('pullRequestComment %j: %j', (value, when) => {
    expect(readSettings(inputs({ pullRequestComment: value }), {}).comment).toBe(when)
  })

  it('refuses a pullRequestComment that is none of them', () => {
    expect(refusal({ pullRequestComment: 'yes' }).message).toMatch(
      /Input pullRequestComment is "yes": it must be true, false, always, failed, changed/
    )
  })
})
