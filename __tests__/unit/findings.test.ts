import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { addedLines, onChangedLines } from '../../src/findings/changed-lines.js'
import { bySeverity, countBySeverity, toFinding, type Finding } from '../../src/findings/finding.js'
import { analysisBaseDir, locator } from '../../src/findings/locate.js'
import type { SonarIssue } from '../../src/sonar/issues.js'

const issue = (fields: Partial<SonarIssue> = {}): SonarIssue => ({
  key: 'AYIssue00001',
  rule: 'typescript:S2068',
  message: 'Review this hard-coded password.',
  component: 'shop:src/app.ts',
  path: 'src/app.ts',
  line: 12,
  textRange: { startLine: 12, endLine: 12, startOffset: 4, endOffset: 20 },
  severity: 'BLOCKER',
  type: 'VULNERABILITY',
  impacts: [],
  cleanCodeAttribute: undefined,
  ...fields
})

const context = {
  serverUrl: new URL('https://sonar.example.com/sonar'),
  projectKey: 'shop',
  locate: (p: string) => (p === 'src/app.ts' ? 'services/shop/src/app.ts' : undefined)
}

describe('one severity scale for every generation', () => {
  it.each([
    ['BLOCKER', 'blocker'],
    ['CRITICAL', 'high'],
    ['MAJOR', 'medium'],
    ['MINOR', 'low'],
    ['INFO', 'info']
  ])('the legacy %s is %s', (severity, scaled) => {
    expect(toFinding(issue({ severity }), new Map(), context).severity).toBe(scaled)
  })

  it('the most severe of the impacts (10.2+) and the deprecated severity counts', () => {
    const finding = toFinding(
      issue({
        severity: 'MINOR',
        impacts: [
          { softwareQuality: 'MAINTAINABILITY', severity: 'LOW' },
          { softwareQuality: 'SECURITY', severity: 'HIGH' }
        ]
      }),
      new Map(),
      context
    )
    expect(finding).toMatchObject({ severity: 'high', severityWord: 'HIGH' })
  })

  it('a 10.x BLOCKER, whose impact can only be HIGH, stays a blocker', () => {
    const finding = toFinding(
      issue({ severity: 'BLOCKER', impacts: [{ softwareQuality: 'SECURITY', severity: 'HIGH' }] }),
      new Map(),
      context
    )
    expect(finding).toMatchObject({ severity: 'blocker', severityWord: 'BLOCKER' })
  })

  it("2025.x's BLOCKER and INFO impacts keep their own level", () => {
    const blocker = issue({ impacts: [{ softwareQuality: 'SECURITY', severity: 'BLOCKER' }] })
    expect(toFinding(blocker, new Map(), context).severity).toBe('blocker')
  })

  it('an issue with neither is medium (MAJOR, the server’s default)', () => {
    const finding = toFinding(issue({ severity: undefined }), new Map(), context)
    expect(finding).toMatchObject({ severity: 'medium', severityWord: 'MAJOR' })
  })

  it('orders most severe first and counts every severity', () => {
    const findings = ['info', 'blocker', 'medium', 'high'].map(
      (severity) => ({ severity, key: severity }) as Finding
    )
    expect(bySeverity(findings).map(({ key }) => key)).toEqual([
      'blocker',
      'high',
      'medium',
      'info'
    ])
    expect(countBySeverity(findings)).toEqual({ blocker: 1, high: 1, medium: 1, low: 0, info: 1 })
  })
})

describe('a finding’s place', () => {
  it('has its file located in the checkout, lines, and 1-based columns', () => {
    const finding = toFinding(
      issue(),
      new Map([['typescript:S2068', 'Hard-coded passwords']]),
      context
    )
    expect(finding).toMatchObject({
      file: 'services/shop/src/app.ts',
      serverPath: 'src/app.ts',
      ruleName: 'Hard-coded passwords',
      region: { startLine: 12, endLine: 12, startColumn: 5, endColumn: 21 }
    })
  })

  it('links the issue on the server, with the branch or pull request', () => {
    const onBranch = toFinding(issue(), new Map(), { ...context, branch: 'feature/x' })
    expect(onBranch.url).toBe(
      'https://sonar.example.com/sonar/project/issues?id=shop&open=AYIssue00001&branch=feature%2Fx'
    )
    const onPullRequest = toFinding(issue(), new Map(), { ...context, pullRequest: '42' })
    expect(onPullRequest.url).toContain('&pullRequest=42')
  })

  it('takes the line when there is no text range, and has no region without either', () => {
    expect(toFinding(issue({ textRange: undefined }), new Map(), context).region).toEqual({
      startLine: 12,
      endLine: 12,
      startColumn: undefined,
      endColumn: undefined
    })
    const none = toFinding(issue({ textRange: undefined, line: undefined }), new Map(), context)
    expect(none.region).toBeUndefined()
  })
})

describe('the analysis’s base directory, from where each scanner writes the report file', () => {
  const repo = path.resolve('/repo')
  it.each([
    ['.scannerwork/report-task.txt', '.'],
    ['services/api/.scannerwork/report-task.txt', 'services/api'],
    ['services/api/target/sonar/report-task.txt', 'services/api'],
    ['web/build/sonar/report-task.txt', 'web'],
    ['src/App/.sonarqube/out/.sonar/report-task.txt', 'src/App'],
    ['custom/work/report-task.txt', 'custom']
  ])('%s → %s', (file, base) => {
    expect(analysisBaseDir(file, repo)).toBe(path.resolve(repo, base))
  })

  it('is the working directory without a report file (taskId or analysisId input)', () => {
    expect(analysisBaseDir(undefined, repo)).toBe(repo)
  })
})

describe('a server path becomes a checkout path only when it is safe and there', () => {
  const repo = path.resolve('/repo')
  const there = new Set([path.resolve(repo, 'services/api/src/app.ts')])
  const locate = locator(path.resolve(repo, 'services/api'), repo, (file) => there.has(file))

  it("maps a monorepo project's path from its base directory", () => {
    expect(locate('src/app.ts')).toBe('services/api/src/app.ts')
  })

  it.each([
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/x.ts', 'a drive'],
    ['../../etc/passwd', 'a .. segment'],
    ['src/../../x.ts', 'a .. segment inside'],
    ['src/app.ts\n::error::x', 'a line break'],
    ['src\\app.ts', 'a backslash'],
    ['src//app.ts', 'an empty segment'],
    ['', 'empty'],
    ['src/missing.ts', 'not in the checkout']
  ])('refuses %j (%s)', (serverPath) => {
    expect(locate(serverPath)).toBeUndefined()
  })
})

describe('the lines a pull request changes', () => {
  it('counts the new side of every hunk, + lines only', () => {
    const patch = [
      '@@ -1,3 +1,4 @@',
      ' a',
      '+b',
      ' c',
      '-d',
      '+e',
      '@@ -20,2 +21,3 @@ function f() {',
      ' x',
      '+y',
      '\\ No newline at end of file'
    ].join('\n')
    expect([...addedLines(patch)]).toEqual([2, 4, 22])
  })

  it('ignores lines before a hunk header and malformed headers', () => {
    expect(addedLines('+not in a hunk\n@@ nonsense @@\n+x').size).toBe(0)
  })

  it('keeps the findings on changed lines, and every finding of a file without a patch', () => {
    const at = (file: string | undefined, startLine: number, endLine = startLine) =>
      ({ file, region: { startLine, endLine } }) as Finding
    const findings = [
      at('a.ts', 2),
      at('a.ts', 3),
      at('a.ts', 5, 9),
      at('b.ts', 1),
      at(undefined, 2),
      at('c.ts', 7)
    ]
    const changed = new Map<string, Set<number> | 'whole'>([
      ['a.ts', new Set([2, 7])],
      ['c.ts', 'whole']
    ])
    expect(onChangedLines(findings, changed)).toEqual([findings[0], findings[2], findings[5]])
  })
})
