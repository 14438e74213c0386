import { describe, expect, it } from 'vitest'
import { ReportFileError } from '../../src/errors.js'
import { loadReportFile, parseReportFile } from '../../src/report-file.js'

const valid = [
  'projectKey=my-project',
  'serverUrl=https://sonar.example.com',
  'serverVersion=10.7.0.96327',
  'dashboardUrl=https://sonar.example.com/dashboard?id=my-project',
  'ceTaskId=AYTask1',
  'ceTaskUrl=https://sonar.example.com/api/ce/task?id=AYTask1'
]

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
    ['a trailing newline', `${valid.join('\n')}\n\n`]
  ])('%s', (_, text) => {
    const report = parseReportFile(text, 'r.txt')
    expect(report.serverUrl.href).toBe('https://sonar.example.com/')
    expect(report.ceTaskId).toBe('AYTask1')
    expect(report.ceTaskUrl.searchParams.get('id')).toBe('AYTask1')
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
    expect(withSlash.serverUrl.pathname).toBe('/sonar/')
    expect(without.serverUrl.pathname).toBe('/sonar')
  })

  it('keeps an = inside a value', () => {
    const report = parseReportFile(valid.join('\n'), 'r')
    expect(report.ceTaskUrl.search).toBe('?id=AYTask1')
  })
})

describe('a report file that lacks what the action needs is an error naming the file and the key', () => {
  it.each(['serverUrl', 'ceTaskUrl', 'ceTaskId'])('missing %s', (key) => {
    const text = valid.filter((line) => !line.startsWith(`${key}=`)).join('\n')
    expect(() => parseReportFile(text, 'build/sonar/report-task.txt')).toThrow(
      new RegExp(`Report file build/sonar/report-task.txt has no ${key}`)
    )
  })

  it.each([
    ['serverUrl', 'sonar.example.com', /serverUrl "sonar.example.com" is not a URL/],
    ['ceTaskUrl', 'file:///etc/passwd', /ceTaskUrl "file:\/\/\/etc\/passwd" must be an http/],
    ['dashboardUrl', 'not a url', /dashboardUrl "not a url" is not a URL/]
  ])('a bad %s', (key, value, message) => {
    const text = valid.map((line) => (line.startsWith(`${key}=`) ? `${key}=${value}` : line))
    expect(() => parseReportFile(text.join('\n'), 'r.txt')).toThrow(message)
  })

  it('an empty value counts as missing', () => {
    const text = valid.map((line) => (line.startsWith('ceTaskId=') ? 'ceTaskId=' : line))
    expect(() => parseReportFile(text.join('\n'), 'r.txt')).toThrow(/has no ceTaskId/)
  })

  it('a line that is not key=value (another file given by mistake) says so', () => {
    expect(() => parseReportFile('<html>\n', 'index.html')).toThrow(
      /Report file index.html has a line that is not key=value: "<html>"/
    )
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
