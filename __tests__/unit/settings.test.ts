import { describe, expect, it } from 'vitest'
import { SettingsError } from '../../src/errors.js'
import { readSettings } from '../../src/settings.js'

const inputs =
  (values: Record<string, string>) =>
  (name: string): string =>
    values[name] ?? ''

describe('defaults apply in code, since the bundle can run without the runner filling them in', () => {
  it('uses the spec defaults when no input is set', () => {
    const settings = readSettings(inputs({}), {})
    expect(settings).toEqual({
      scanMetadataReportFile: [],
      sonarToken: undefined,
      sonarHostUrl: undefined,
      sonarRootCert: undefined,
      pollingTimeoutMs: 60_000,
      initialDelayMs: 3000,
      pollingIntervalMs: 1000,
      adaptivePolling: true,
      failOnError: true,
      failOn: new Set(['ERROR']),
      taskId: undefined,
      analysisId: undefined,
      pullRequestComment: false,
      githubToken: undefined,
      annotateIssues: true,
      issuesCheckRun: false,
      sarifFile: undefined
    })
  })

  it('a pollingIntervalMs given, even 1000, is honoured exactly: no polls around a predicted end', () => {
    expect(readSettings((name) => (name === 'pollingIntervalMs' ? '1000' : ''), {})).toMatchObject({
      pollingIntervalMs: 1000,
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
    expect(settings.sonarToken).toBe('env-token')
    expect(settings.sonarHostUrl?.href).toBe('https://env.example/')
    expect(settings.sonarRootCert).toBe(pem)
  })

  it('prefers the inputs', () => {
    const settings = readSettings(
      inputs({ sonarToken: 'input-token', sonarHostUrl: 'https://input.example/sonar' }),
      env
    )
    expect(settings.sonarToken).toBe('input-token')
    expect(settings.sonarHostUrl?.href).toBe('https://input.example/sonar')
  })

  it('trims a token pasted with a trailing newline', () => {
    expect(readSettings(inputs({}), { SONAR_TOKEN: 'squ_abc\n' }).sonarToken).toBe('squ_abc')
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
      /taskId needs the server address: set the sonarHostUrl input or the SONAR_HOST_URL/
    ],
    [{ analysisId: 'AY2' }, /analysisId needs the server address/],
    [
      { taskId: 'AY1', analysisId: 'AY2', sonarHostUrl: 'https://s.example' },
      /taskId and analysisId are both set/
    ]
  ])('%j', (values, message) => {
    expect(() => readSettings(inputs(values), {})).toThrow(SettingsError)
    expect(() => readSettings(inputs(values), {})).toThrow(message)
  })

  it('accepts booleans in any case and whole numbers with spaces around', () => {
    const settings = readSettings(
      inputs({ failOnError: ' FALSE ', pollingTimeoutSec: ' 120 ', initialDelayMs: '0' }),
      {}
    )
    expect(settings.failOnError).toBe(false)
    expect(settings.pollingTimeoutMs).toBe(120_000)
    expect(settings.initialDelayMs).toBe(0)
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
    expect(() => readSettings(inputs({ sonarHostUrl: url }), {})).toThrow(
      new SettingsError(
        "sonarHostUrl (or SONAR_HOST_URL) must not have a query (?...) or a fragment (#...): give the server's address only, e.g. https://sonar.example.com or https://sonar.example.com/sonar."
      )
    )
  })

  it('a value that is not a URL is quoted with any credentials hidden', () => {
    expect(() =>
      readSettings(inputs({ sonarHostUrl: 'https://alice:s3cret@sonar example' }), {})
    ).toThrow('sonarHostUrl (or SONAR_HOST_URL) "https://***@sonar example" is not a URL')
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
    expect(() => readSettings(inputs(values), {})).toThrow(SettingsError)
    expect(() => readSettings(inputs(values), {})).toThrow(message)
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
    expect(settings.scanMetadataReportFile).toEqual([
      'target/sonar/report-task.txt',
      'frontend/**/report-task.txt'
    ])
  })

  it('refuses an exclusion, which @actions/glob would read as "everything else"', () => {
    expect(() =>
      readSettings(inputs({ scanMetadataReportFile: '**/report-task.txt\n!node_modules/**' }), {})
    ).toThrow(/line "!node_modules\/\*\*": exclusions \(!\) are not supported/)
  })

  it('refuses more than 100 lines, naming the count', () => {
    const lines = Array.from({ length: 101 }, (_, index) => `p${index}/report-task.txt`)
    expect(() => readSettings(inputs({ scanMetadataReportFile: lines.join('\n') }), {})).toThrow(
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
    expect(settings).toMatchObject({ pullRequestComment: true, githubToken: 'ghs_abc' })
  })

  it('refuses a pullRequestComment that is not true or false', () => {
    expect(() => readSettings(inputs({ pullRequestComment: 'yes' }), {})).toThrow(
      /Input pullRequestComment is "yes": it must be true or false/
    )
  })
})
