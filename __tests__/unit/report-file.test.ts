import { describe, expect, it } from 'vitest'
import { ReportFileError } from '../../src/errors.js'
import { loadReportFile, parseReportFile, taskAddress } from '../../src/report-file.js'
import { inActionWords } from '../../__fixtures__/sinks.js'

/** `read`, the message of the error it throws in the action's words. */
const saidByTheAction =
  <T>(read: () => T) =>
  (): T => {
    try {
      return read()
    } catch (error) {
      throw Object.assign(error as Error, { message: inActionWords(error as Error) })
    }
  }

const valid = [
  'projectKey=my-project',
  'serverUrl=https://sonar.example.com',
  'serverVersion=10.7.0.96327',
  'dashboardUrl=https://sonar.example.com/dashboard?id=my-project',
  'ceTaskId=AYTask1',
  'ceTaskUrl=https://sonar.example.com/api/ce/task?id=AYTask1'
]

/** `valid` with `key` left out, or its value replaced. */
const withKey = (key: string, value?: string): string =>
  valid
    .flatMap((line) =>
      line.startsWith(`${key}=`) ? (value === undefined ? [] : [`${key}=${value}`]) : [line]
    )
    .join('\n')

const HOST = new URL('https://internal.example.com/sonar')

describe('the report file is key=value lines, read leniently where scanners differ', () => {
  it.each([
    ['LF line ends', valid.join('\n')],
    ['CRLF line ends', valid.join('\r\n')],
    ['a UTF-8 byte order mark', `\uFEFF${valid.join('\n')}`],
    [
      'blank lines and # comments',
      ['# written by the scanner', '', ...valid, '', '#end'].join('\n')
    ],
    ['spaces around keys and values', valid.map((line) => line.replace('=', ' = ')).join('\n')],
    ['a trailing newline', `${valid.join('\n')}\n\n`],
    ['tabs around keys and values', valid.map((line) => line.replace('=', '\t=\t')).join('\n')]
  ])('%s', (_, text) => {
    const report = parseReportFile(text, 'r.txt')
    expect(report.serverUrl?.href).toBe('https://sonar.example.com/')
    expect(report.ceTaskId).toBe('AYTask1')
    expect(report.ceTaskUrl?.searchParams.get('id')).toBe('AYTask1')
    expect(report.projectKey).toBe('my-project')
    expect(report.dashboardUrl?.searchParams.get('id')).toBe('my-project')
    expect(report.serverVersion).toBe('10.7.0.96327')
  })

  it('keeps a server path with or without a trailing slash', () => {
    const withSlash = parseReportFile(
      valid.join('\n').replace('example.com\n', 'example.com/sonar/\n'),
      'r'
    )
    const without = parseReportFile(
      valid.join('\n').replace('example.com\n', 'example.com/sonar\n'),
      'r'
    )
    expect(withSlash.serverUrl?.pathname).toBe('/sonar/')
    expect(without.serverUrl?.pathname).toBe('/sonar')
  })

  it('keeps an = inside a value', () => {
    const report = parseReportFile(valid.join('\n'), 'r')
    expect(report.ceTaskUrl?.search).toBe('?id=AYTask1')
  })

  it('a line that is not key=value (another file given by mistake) says so', () => {
    expect(() => parseReportFile('<html>\n', 'index.html')).toThrow(
      /Report file index.html has a line that is not key=value: "<html>"/
    )
  })
})

describe('the task id is ceTaskId, or else the id parameter of ceTaskUrl; when both are there they must agree', () => {
  it("a file with only serverUrl and ceTaskUrl (SonarSource's own test fixtures) is enough", () => {
    const report = parseReportFile(
      [
        'serverUrl=http://localhost:9000',
        'ceTaskUrl=http://localhost:9000/api/ce/task?id=AXDb9fURtYOKTs2UoK9L'
      ].join('\n'),
      'report-task.txt'
    )
    expect(report.ceTaskId).toBe('AXDb9fURtYOKTs2UoK9L')
    expect(taskAddress(report, undefined)).toEqual({
      serverUrl: new URL('http://localhost:9000'),
      taskUrl: new URL('http://localhost:9000/api/ce/task?id=AXDb9fURtYOKTs2UoK9L')
    })
  })

  it('an empty ceTaskId counts as missing: the id comes from ceTaskUrl', () => {
    expect(parseReportFile(withKey('ceTaskId', ''), 'r.txt').ceTaskId).toBe('AYTask1')
  })

  it('a ceTaskId that differs from the id in ceTaskUrl is refused, naming both', () => {
    const text = withKey('ceTaskUrl', 'https://sonar.example.com/api/ce/task?id=AYOther')
    expect(() => parseReportFile(text, 'r.txt')).toThrow(ReportFileError)
    expect(() => parseReportFile(text, 'r.txt')).toThrow(
      'Report file r.txt: ceTaskId "AYTask1" and the id in ceTaskUrl "AYOther" differ, so it is not clear which analysis task to wait for.'
    )
  })

  it.each([
    ['neither key', valid.filter((line) => !/^ceTask(Id|Url)=/.test(line)).join('\n')],
    ['empty values', withKey('ceTaskId', '').replace(/ceTaskUrl=.*/, 'ceTaskUrl=')],
    [
      'a ceTaskUrl without an id',
      withKey('ceTaskId').replace(/ceTaskUrl=.*/, 'ceTaskUrl=https://sonar.example.com/api/ce/task')
    ]
  ])('with %s, the message says which keys are needed', (_, text) => {
    expect(saidByTheAction(() => parseReportFile(text, 'build/sonar/report-task.txt'))).toThrow(
      /^Report file build\/sonar\/report-task.txt has no ceTaskId and no ceTaskUrl with an id parameter: the action needs serverUrl and ceTaskUrl \(…\/api\/ce\/task\?id=<task id>\), or ceTaskId with the sonarHostUrl input set\./
    )
  })
})

describe('without sonarHostUrl the file must give serverUrl and ceTaskUrl; with it, ceTaskId alone is enough', () => {
  it.each(['serverUrl', 'ceTaskUrl'])(
    'without sonarHostUrl, a file with no %s is refused',
    (key) => {
      const report = parseReportFile(withKey(key), 'build/sonar/report-task.txt')
      expect(() => taskAddress(report, undefined)).toThrow(ReportFileError)
      expect(saidByTheAction(() => taskAddress(report, undefined))).toThrow(
        new RegExp(
          `^Report file build/sonar/report-task.txt has no ${key}\\. .*or set the sonarHostUrl input`
        )
      )
    }
  )

  it('without sonarHostUrl, a ceTaskUrl with no id parameter is refused even when ceTaskId is given', () => {
    const report = parseReportFile(
      withKey('ceTaskUrl', 'https://sonar.example.com/api/ce/task'),
      'r.txt'
    )
    expect(report.ceTaskId).toBe('AYTask1')
    expect(() => taskAddress(report, undefined)).toThrow(
      /^Report file r.txt: ceTaskUrl has no id parameter, so it does not say which task to ask for/
    )
  })

  it('with sonarHostUrl, ceTaskId alone is enough and the host replaces every address', () => {
    const report = parseReportFile('ceTaskId=AYTask1\n', 'r.txt')
    expect(report).toMatchObject({
      ceTaskId: 'AYTask1',
      serverUrl: undefined,
      ceTaskUrl: undefined
    })
    expect(taskAddress(report, HOST)).toEqual({ serverUrl: HOST, taskUrl: undefined })
  })

  it("with sonarHostUrl, the file's own addresses are never used", () => {
    const report = parseReportFile(valid.join('\n'), 'r.txt')
    expect(taskAddress(report, HOST)).toEqual({ serverUrl: HOST, taskUrl: undefined })
  })
})

describe('addresses in the file are http(s) URLs', () => {
  it.each([
    ['serverUrl', 'sonar.example.com', /serverUrl "sonar.example.com" is not a URL/],
    ['ceTaskUrl', 'file:///etc/passwd', /ceTaskUrl "file:\/\/\/etc\/passwd" must be an http/],
    ['dashboardUrl', 'not a url', /dashboardUrl "not a url" is not a URL/]
  ])('a bad %s', (key, value, message) => {
    expect(() => parseReportFile(withKey(key, value), 'r.txt')).toThrow(message)
  })
})

describe('an address with credentials is refused, naming the key but never the credentials', () => {
  it.each([
    ['serverUrl', 'https://alice:s3cret@sonar.example.com'],
    ['ceTaskUrl', 'https://alice:s3cret@sonar.example.com/api/ce/task?id=AYTask1'],
    ['dashboardUrl', 'https://alice:s3cret@sonar.example.com/dashboard?id=my-project'],
    ['serverUrl', 'https://alice@sonar.example.com'],
    ['serverUrl', 'ftp://alice:s3cret@sonar.example.com'],
    ['serverUrl', 'https://alice:s3 cret@sonar example com']
  ])('%s %s', (key, value) => {
    let message = ''
    try {
      parseReportFile(withKey(key, value), 'r.txt')
    } catch (error) {
      expect(error).toBeInstanceOf(ReportFileError)
      message = (error as Error).message
    }
    expect(message).toMatch(new RegExp(`^Report file r.txt: ${key} `))
    expect(message).not.toContain('alice')
    expect(message).not.toContain('s3')
  })

  it('the message says where the token goes instead', () => {
    expect(
      saidByTheAction(() =>
        parseReportFile(withKey('serverUrl', 'https://alice:s3cret@sonar.example.com'), 'r.txt')
      )
    ).toThrow(
      'Report file r.txt: serverUrl holds credentials (user:password@), which the action never sends anywhere. Remove them from the address; the token goes in sonarToken or SONAR_TOKEN.'
    )
  })
})

describe('ids and the project key are at most 400 characters, without control characters', () => {
  it.each([
    ['ceTaskId', withKey('ceTaskId', 'A'.repeat(401)), /ceTaskId "A+…" is 401 characters long/],
    [
      'the id in ceTaskUrl',
      withKey('ceTaskId').replace('?id=AYTask1', '?id=AY%1B%5B31m'),
      /the id in ceTaskUrl "AY\\x1B\[31m" holds the control character \\x1B/
    ],
    [
      'projectKey',
      withKey('projectKey', 'p'.repeat(401)),
      /projectKey "p+…" is 401 characters long/
    ],
    [
      'projectKey',
      withKey('projectKey', 'my\tproject'),
      /projectKey "my\\tproject" holds the control character \\t/
    ]
  ])('%s', (_, text, message) => {
    expect(() => parseReportFile(text, 'r.txt')).toThrow(ReportFileError)
    expect(() => parseReportFile(text, 'r.txt')).toThrow(message)
    expect(() => parseReportFile(text, 'r.txt')).toThrow(/The scanner never writes such a value/)
  })

  it('400 characters are accepted', () => {
    const key = 'k'.repeat(400)
    expect(parseReportFile(withKey('projectKey', key), 'r.txt').projectKey).toBe(key)
  })
})

describe('a file holding control characters is not a text report file, and the message does not echo them', () => {
  it.each([
    ['a NUL byte', '\u0000', '\\x00'],
    ['an escape sequence', '\u001b]8;;https://evil.example\u0007', '\\x1B'],
    ['a C1 control character', '\u009b', '\\x9B'],
    ['a form feed', '\f', '\\x0C']
  ])('%s', (_, control, shown) => {
    const text = [...valid.slice(0, 2), `serverVersion=10${control}`, ...valid.slice(3)].join('\n')
    let message = ''
    try {
      parseReportFile(text, 'r.txt')
    } catch (error) {
      expect(error).toBeInstanceOf(ReportFileError)
      message = (error as Error).message
    }
    expect(message).toContain(
      `Report file r.txt is not a text report file: line 3 holds the control character ${shown}.`
    )
    // eslint-disable-next-line no-control-regex
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
  })

  it('a file name with control characters is shown escaped', () => {
    expect(() => parseReportFile('<html>', 'a\nb.txt')).toThrow(/^Report file a\\nb.txt has a line/)
  })
})

describe('the file is looked for where each scanner writes it, in the spec order', () => {
  const files = (present: Record<string, string>) => async (file: string) =>
    Object.entries(present).find(([name]) => file.endsWith(name))?.[1]

  it('takes the first default location that exists', async () => {
    const read = files({
      'build/sonar/report-task.txt': valid.join('\n'),
      '.sonarqube/out/.sonar/report-task.txt': 'serverUrl=broken'
    })
    const report = await loadReportFile(undefined, '/repo', read)
    expect(report.file).toBe('build/sonar/report-task.txt')
  })

  it('prefers .scannerwork over Maven, Gradle and .NET', async () => {
    const read = files({
      '.scannerwork/report-task.txt': valid.join('\n'),
      'target/sonar/report-task.txt': 'broken'
    })
    expect((await loadReportFile(undefined, '/repo', read)).file).toBe(
      '.scannerwork/report-task.txt'
    )
  })

  it('with none present, lists every location and its scanner', async () => {
    const attempt = loadReportFile(undefined, '/repo', files({}))
    await expect(attempt).rejects.toThrow(ReportFileError)
    await expect(attempt).rejects.toThrow(
      /looked for \.scannerwork\/report-task\.txt \(sonar-scanner CLI.*target\/sonar\/report-task\.txt \(Maven\).*build\/sonar\/report-task\.txt \(Gradle\).*\.sonarqube\/out\/\.sonar\/report-task\.txt \(SonarScanner for \.NET\)/
    )
  })

  it('a given path that does not exist is named in the error, with the scanner locations', async () => {
    await expect(loadReportFile('out/report.txt', '/repo', files({}))).rejects.toThrow(
      /Report file not found at out\/report.txt. Scanners write it to .*Maven/
    )
  })

  it('reads a given path relative to the working directory', async () => {
    const seen: string[] = []
    await loadReportFile('sub/report-task.txt', '/repo', async (file) => {
      seen.push(file)
      return valid.join('\n')
    })
    expect(seen).toEqual(['/repo/sub/report-task.txt'])
  })
})
