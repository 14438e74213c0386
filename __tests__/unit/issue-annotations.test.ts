import { describe, expect, it } from 'vitest'
import { annotateNewIssues } from '../../src/action/issue-annotations.js'
import { findingAnnotation, planAnnotations } from '../../src/findings/annotations.js'
import type { Finding, Severity } from '../../src/findings/finding.js'
import type { GateResult } from '../../src/gate/check.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { ACTION_NAMES } from '../../src/action/names.js'
import { ANNOTATION_LIMITS, runnerLog } from '../../src/log.js'
import { RecordingLog } from '../../__fixtures__/log.js'

let n = 0
const finding = (severity: Severity, fields: Partial<Finding> = {}): Finding => {
  n++
  return {
    key: `AYIssue${n}`,
    rule: 'typescript:S2068',
    ruleName: 'Credentials should not be hard-coded',
    message: `issue ${n}`,
    severity,
    severityWord: severity.toUpperCase(),
    type: 'VULNERABILITY',
    file: 'src/app.ts',
    serverPath: 'src/app.ts',
    region: { startLine: n, endLine: n, startColumn: 3, endColumn: 9 },
    url: `https://sonar.example.com/project/issues?id=shop&open=AYIssue${n}`,
    ...fields
  }
}

const outcome = (
  findings: Finding[],
  total = findings.length,
  projectKey = 'shop'
): AnalysisOutcome => ({
  read: true,
  source: 'report-task.txt',
  result: {
    status: 'ERROR',
    projectKey,
    conditions: [],
    taskWarnings: [],
    newIssues: {
      read: true,
      scope: { kind: 'new-code', branch: undefined },
      findings,
      total,
      requests: 1
    }
  } as unknown as GateResult
})

describe('levels: blocker and high are errors, medium warnings, low and info notices', () => {
  it.each([
    ['blocker', 'error'],
    ['high', 'error'],
    ['medium', 'warning'],
    ['low', 'notice'],
    ['info', 'notice']
  ] as const)('%s → %s', (severity, level) => {
    expect(findingAnnotation(finding(severity)).level).toBe(level)
  })
})

describe('an annotation points at the file and lines, columns only within one line', () => {
  it('carries file, lines, columns, a title with severity and rule, and the issue link', () => {
    const annotation = findingAnnotation(finding('high'))
    expect(annotation.where).toMatchObject({
      file: 'src/app.ts',
      startColumn: 3,
      endColumn: 9,
      title: 'HIGH · Credentials should not be hard-coded (typescript:S2068)'
    })
    expect(annotation.message).toMatch(
      /\nhttps:\/\/sonar\.example\.com\/project\/issues\?id=shop&open=/
    )
  })

  it('leaves columns out over several lines', () => {
    const where = findingAnnotation(
      finding('high', { region: { startLine: 3, endLine: 5, startColumn: 1, endColumn: 4 } })
    ).where
    expect(where).toMatchObject({ startLine: 3, endLine: 5 })
    expect(where).not.toHaveProperty('startColumn')
  })

  it('an issue not in the checkout stays, unlocated, naming the server’s path on one line', () => {
    const annotation = findingAnnotation(
      finding('medium', { file: undefined, serverPath: 'gen/x.ts\n::error::fake' })
    )
    expect(annotation.where).not.toHaveProperty('file')
    expect(annotation.message.split('\n')[0]).toBe(
      'gen/x.ts\\n::error::fake:' + `${n} (not in this checkout): issue ${n}`
    )
  })
})

describe('the budget: GitHub shows 10 errors, 10 warnings (and 10 notices) per step', () => {
  it('gives the most severe issues the room left, and keeps one slot for "N more"', () => {
    const findings = [
      ...Array.from({ length: 12 }, () => finding('info')),
      ...Array.from({ length: 15 }, () => finding('blocker'))
    ]
    const plan = planAnnotations(findings, { error: 9, warning: 10, notice: 10 })
    const levels = plan.annotations.map(({ level }) => level)
    expect(levels.filter((level) => level === 'error')).toHaveLength(9)
    // One notice slot is kept for the line that says how many more.
    expect(levels.filter((level) => level === 'notice')).toHaveLength(9)
    expect(plan.leftOut).toBe(27 - 18)
  })

  it('annotates everything, with no "more" slot, when everything fits', () => {
    const plan = planAnnotations([finding('blocker'), finding('low')], {
      error: 9,
      warning: 10,
      notice: 10
    })
    expect(plan).toMatchObject({ leftOut: 0 })
    expect(plan.annotations).toHaveLength(2)
  })

  it("counts the gate's own annotations: the step never goes past GitHub's limits, one error kept for the failure", () => {
    const runner = new RecordingLog()
    const log = runnerLog(runner, ACTION_NAMES)
    for (let i = 0; i < 4; i++) log.warning(`Analysis warning ${i}`)
    const findings = [
      ...Array.from({ length: 30 }, () => finding('blocker')),
      ...Array.from({ length: 30 }, () => finding('medium')),
      ...Array.from({ length: 30 }, () => finding('low'))
    ]
    annotateNewIssues([outcome(findings, 1200)], log, { checkRun: false })
    log.fail('Quality Gate Failure')
    expect(runner.of('error')).toHaveLength(ANNOTATION_LIMITS.error - 1)
    expect(runner.of('warning')).toHaveLength(ANNOTATION_LIMITS.warning)
    expect(runner.of('notice')).toHaveLength(ANNOTATION_LIMITS.notice)
    expect(runner.of('failed')).toHaveLength(1)
    const more = runner.of('notice').at(-1)
    // 1,200 in all: 90 read, 9 + 6 + 9 annotated.
    expect(more).toMatch(/^1176 more new issues are not annotated here/)
    expect(more).toContain('issuesCheckRun: true')
  })

  it('names each project in the title with several analyses', () => {
    const runner = new RecordingLog()
    annotateNewIssues(
      [outcome([finding('blocker')], 1, 'api'), outcome([finding('blocker')], 1, 'web')],
      runnerLog(runner, ACTION_NAMES),
      { checkRun: true }
    )
    expect(
      runner.lines.filter(({ kind }) => kind === 'error').map(({ where }) => where?.title)
    ).toEqual([
      'api: BLOCKER · Credentials should not be hard-coded (typescript:S2068)',
      'web: BLOCKER · Credentials should not be hard-coded (typescript:S2068)'
    ])
  })

  it('hostile text stays one annotation: no workflow command, no token', () => {
    const runner = new RecordingLog()
    const log = runnerLog(runner, ACTION_NAMES)
    log.hideSecrets(['squ_secret'])
    annotateNewIssues(
      [
        outcome([
          finding('blocker', {
            message: 'x\n::set-output name=a::b squ_secret',
            ruleName: 'r\r\n::error::title'
          })
        ])
      ],
      log,
      { checkRun: false }
    )
    const [line] = runner.lines.filter(({ kind }) => kind === 'error')
    expect(line!.text.split('\n')[0]).toBe('x\\n::set-output name=a::b ***')
    expect(line!.where?.title).not.toMatch(/[\r\n]/)
  })
})
