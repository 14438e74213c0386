import { describe, expect, it } from 'vitest'
import { actionHtmlSink, inActionWords } from '../../__fixtures__/sinks.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import { annotateGate, gateFailureMessage } from '../../src/report/gate-messages.js'
import { renderSummary, SUMMARY_LIMITS } from '../../src/report/summary.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { taskExample } from '../../__fixtures__/sonarqube/index.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import { condition, gateResult as result } from './summary-gate-result.js'

/** The job summary's sink, as the action builds it. */
const sink = actionHtmlSink({ limit: SUMMARY_LIMITS.bytes })

/** The table as a reader sees it: one array of cell texts per row, the header first. */
function rowsOf(summary: string): string[][] {
  const rows: string[][] = []
  for (const element of renderAsGitHub(summary).elements) {
    if (element.tag === 'tr') rows.push([])
    else if (element.tag === 'td' || element.tag === 'th') rows.at(-1)!.push(element.text)
  }
  return rows
}

describe('an ERROR gate fails with "Quality Gate Failure" and each failing condition in words', () => {
  it("words the server's own example", () => {
    expect(inActionWords(gateFailureMessage(result()))).toBe(
      [
        'Quality Gate Failure for my-project: 4 of 7 conditions failed.',
        '- Coverage on New Code is 82.51% (fails when less than 85%) (https://sonar.example.com/component_measures?id=my-project&metric=new_coverage)',
        '- Blocker Issues on New Code is 14 (fails when greater than 0) (https://sonar.example.com/project/issues?id=my-project&resolved=false&inNewCodePeriod=true&severities=BLOCKER)',
        '- Critical Issues on New Code is 1 (fails when greater than 0) (https://sonar.example.com/project/issues?id=my-project&resolved=false&inNewCodePeriod=true&severities=CRITICAL)',
        '- Open Issues is 17 (ERROR by the server, which sent no threshold) (https://sonar.example.com/component_measures?id=my-project&metric=open_issues)',
        'Details: https://sonar.example.com/dashboard?id=my-project'
      ].join('\n')
    )
  })

  it('words ratings as letters, worse or better', () => {
    const rating = condition({ metricKey: 'new_reliability_rating', comparator: 'GT' })
    const message = inActionWords(
      gateFailureMessage(
        result({
          conditions: evaluateConditions([{ ...rating, errorThreshold: '1', actualValue: '3' }]),
          dashboardUrl: undefined,
          projectKey: undefined
        })
      )
    )
    expect(message).toBe(
      'Quality Gate Failure: 1 of 1 conditions failed.\n- Reliability Rating on New Code is C (fails when worse than A)'
    )
  })

  it('lists the first 20 failing conditions, then says how many more', () => {
    const many = evaluateConditions(Array.from({ length: 25 }, () => condition()))
    // The message names where the details are; the action's log says it in its words.
    const lines = inActionWords(gateFailureMessage(result({ conditions: many }))).split('\n')
    expect(lines[0]).toBe('Quality Gate Failure for my-project: 25 of 25 conditions failed.')
    expect(lines.filter((line) => line.startsWith('- Coverage'))).toHaveLength(20)
    expect(lines).toContain('- … and 5 more: see the job summary')
  })

  it('shows the dashboard without credentials, and no address that is not http(s)', () => {
    const withCredentials = 'https://admin:secret@sonar.example.com/dashboard?id=my-project'
    expect(inActionWords(gateFailureMessage(result({ dashboardUrl: withCredentials })))).toContain(
      'Details: https://sonar.example.com/dashboard?id=my-project'
    )
    expect(
      inActionWords(gateFailureMessage(result({ dashboardUrl: 'javascript:alert(1)' })))
    ).not.toMatch(/Details/)
  })
})

describe('the job summary shows verdict, every condition, the dashboard, the analysis and the time taken', () => {
  it("renders the server's own example, failing conditions first", () => {
    const rendered = renderAsGitHub(renderSummary(result(), { sink }))
    expect(rendered.of('h2').map((h2) => h2.text)).toEqual(['❌ Quality Gate failed'])
    expect(rendered.of('p')[0]!.text).toBe(
      'Project my-project · analysis AYAnalysis1 · task AYTask1 · checked in 4.2 s'
    )
    expect(rowsOf(renderSummary(result(), { sink }))).toEqual([
      ['Metric', 'Status', 'Actual', 'Threshold'],
      ['Coverage on New Code', '❌ ERROR', '82.51%', 'fails when less than 85%'],
      ['Blocker Issues on New Code', '❌ ERROR', '14', 'fails when greater than 0'],
      ['Critical Issues on New Code', '❌ ERROR', '1', 'fails when greater than 0'],
      ['Open Issues', '❌ ERROR', '17', 'no threshold sent'],
      ['Technical Debt Ratio on New Code', '✅ OK', '0.66%', 'fails when greater than 5%'],
      ['Reopened Issues', '✅ OK', '0', 'no threshold sent'],
      ['Skipped Unit Tests', '✅ OK', '0', 'no threshold sent']
    ])
    expect(rendered.of('a').filter(({ text }) => text.startsWith('See '))).toEqual([
      {
        tag: 'a',
        attributes: { href: 'https://sonar.example.com/dashboard?id=my-project' },
        text: 'See the analysis on the dashboard',
        cells: []
      }
    ])
  })

  it('is HTML blocks GitHub shows as they are, ending with a blank line once written', () => {
    const summary = renderSummary(result(), { sink })
    expect(summary.startsWith('<h2>')).toBe(true)
    expect(summary).not.toMatch(/\n\n./)
    expect(renderAsGitHub(summary).html.startsWith('<h2>')).toBe(true)
  })

  it.each([
    ['OK', '✅ Quality Gate passed'],
    ['WARN', '⚠️ Quality Gate passed with warnings'],
    ['NONE', '➖ No Quality Gate']
  ])('headline for %s', (status, headline) => {
    expect(renderAsGitHub(renderSummary(result({ status }), { sink })).of('h2')[0]!.text).toBe(
      headline
    )
  })

  it('says so when there are no conditions', () => {
    expect(renderAsGitHub(renderSummary(result({ conditions: [] }), { sink })).text).toContain(
      'The server returned no conditions for this analysis.'
    )
  })

  it('shows the analysis warnings as text, their links as "text (address)"', () => {
    const rendered = renderAsGitHub(
      renderSummary(result({ taskWarnings: taskExample.task.warnings }), { sink })
    )
    expect(rendered.of('h3').map((h3) => h3.text)).toEqual(['Analysis warnings'])
    expect(rendered.of('li').map((li) => li.text)).toEqual([
      "The properties 'sonar.login' and 'sonar.password' are deprecated and will be removed in the future. Please pass a token with the 'sonar.token' property instead.",
      'Missing blame information for 2 files. This may lead to some features not working correctly. Please check the analysis logs and refer to the documentation (https://docs.sonarqube.org/latest/analyzing-source-code/scm-integration/).'
    ])
    expect(rendered.of('a').filter(({ text }) => text.startsWith('See '))).toHaveLength(1)
  })
})

describe('an analysis found by project says which one it is', () => {
  const about = (analysis: { date: string; revision: string | undefined; newest: boolean }) =>
    renderAsGitHub(renderSummary(result({ taskId: undefined, analysis }), { sink })).of('p')[0]!
      .text

  it('its commit and date; that a newer one landed since, when one did', () => {
    const revision = 'be6c75b85da526349c44e3978374c95e0b80a96d'
    expect(about({ date: '2016-12-12T17:12:45+0100', revision, newest: true })).toBe(
      'Project my-project · analysis AYAnalysis1 (of commit be6c75b, 2016-12-12T17:12:45+0100) · checked in 4.2 s'
    )
    expect(about({ date: '2016-12-12T17:12:45+0100', revision, newest: false })).toContain(
      '(of commit be6c75b, 2016-12-12T17:12:45+0100, a newer one has landed since)'
    )
  })

  it('a scan without SCM data records no commit, and says so', () => {
    expect(
      about({ date: '2016-12-12T17:12:45+0100', revision: undefined, newest: true })
    ).toContain('(of no recorded commit, 2016-12-12T17:12:45+0100)')
  })
})

describe('annotations: task warnings, WARN and NONE gates, and disagreements with the rule', () => {
  it("turns the task's warnings into plain-text warnings", () => {
    const log = new RecordingLog()
    annotateGate(result({ taskWarnings: taskExample.task.warnings }), log)
    expect(log.of('warning')).toEqual([
      "Analysis warning: The properties 'sonar.login' and 'sonar.password' are deprecated and will be removed in the future. Please pass a token with the 'sonar.token' property instead.",
      'Analysis warning: Missing blame information for 2 files. This may lead to some features not working correctly. Please check the analysis logs and refer to the documentation (https://docs.sonarqube.org/latest/analyzing-source-code/scm-integration/).'
    ])
  })

  it('shows at most 20 analysis warnings, each cut to 1,000 characters', () => {
    const log = new RecordingLog()
    annotateGate(result({ taskWarnings: Array.from({ length: 25 }, () => 'w'.repeat(5000)) }), log)
    expect(log.of('warning')).toHaveLength(20)
    expect(log.of('warning')[0]).toBe(`Analysis warning: ${'w'.repeat(999)}…`)
    expect(log.of('info')).toEqual(['5 more analysis warnings not shown.'])
  })

  it.each([
    ['WARN', /passed with warnings \(WARN\)/],
    ['NONE', /No Quality Gate is set for this project \(NONE\): the check passes/]
  ])('%s passes with a warning', (status, message) => {
    const log = new RecordingLog()
    annotateGate(result({ status, conditions: [] }), log)
    expect(log.of('warning')).toEqual([expect.stringMatching(message)])
  })

  it("logs a notice where the server's verdict differs from the rule, and nothing otherwise", () => {
    const log = new RecordingLog()
    annotateGate(result(), log)
    expect(log.of('notice')).toEqual([])
    const disagreeing = evaluateConditions([
      condition({ status: 'OK', errorThreshold: '80', actualValue: '75' })
    ])
    annotateGate(result({ status: 'OK', conditions: disagreeing }), log)
    expect(log.of('notice')).toEqual([
      "The server says OK for Coverage on New Code is 75% (fails when less than 80%), the rule says ERROR: the server's verdict is used."
    ])
  })
})

describe('an unknown gate status passes (only ERROR fails), with a warning that names it', () => {
  it('warns with the status quoted', () => {
    const log = new RecordingLog()
    annotateGate(result({ status: 'FAILED', qualityGateStatus: 'NONE', conditions: [] }), log)
    expect(log.of('warning').map(inActionWords)).toEqual([
      'Unknown Quality Gate status "FAILED": failOn does not name NONE, so the check passes (quality-gate-status NONE).'
    ])
  })

  it('shows the status in the headline, escaped', () => {
    const headline = (status: string) =>
      renderAsGitHub(renderSummary(result({ status, conditions: [] }), { sink })).of('h2')
    expect(headline('FAILED').map((h2) => h2.text)).toEqual([
      '❔ Unknown Quality Gate status FAILED: the check passes'
    ])
    expect(headline('<b>X</b>\r## OK').map((h2) => h2.text)).toEqual([
      '❔ Unknown Quality Gate status <b>X</b>\\r## OK: the check passes'
    ])
  })
})

describe('the summary says which branch or pull request, what new code is, and what the server ignored', () => {
  const paragraphs = (summary: string) =>
    renderAsGitHub(summary)
      .of('p')
      .map((p) => p.text)

  it('a pull request, then a branch (its type when it says more than BRANCH)', () => {
    expect(
      paragraphs(renderSummary(result({ pullRequest: '42', branch: 'feature' }), { sink }))[0]
    ).toMatch(/^Project my-project · pull request 42 · analysis/)
    expect(
      paragraphs(renderSummary(result({ branch: 'release', branchType: 'LONG' }), { sink }))[0]
    ).toMatch(/^Project my-project · branch release \(LONG\) · analysis/)
    expect(
      paragraphs(renderSummary(result({ branch: 'main', branchType: 'BRANCH' }), { sink }))[0]
    ).toMatch(/^Project my-project · branch main · analysis/)
  })

  it('the new code period, Clean as You Code compliance and ignored conditions', () => {
    const summary = renderSummary(
      result({
        period: { mode: 'days', parameter: '30', date: '2024-01-02' },
        caycStatus: 'compliant',
        ignoredConditions: true
      }),
      { sink }
    )
    expect(renderAsGitHub(summary).text).toContain(
      'New code: the last 30 days (2024-01-02)Clean as You Code: compliantSome conditions on new code were ignored: the new code has too few lines to judge.'
    )
  })

  it('none of them when the server says nothing of them', () => {
    const summary = renderSummary(
      result({ period: undefined, caycStatus: undefined, ignoredConditions: undefined }),
      { sink }
    )
    expect(renderAsGitHub(summary).text).not.toMatch(/New code|Clean as You Code|ignored/)
  })
})

describe('a condition of an old server that only warns shows its warning threshold', () => {
  it('"warns when", in the table and in words', () => {
    const warning = condition({
      status: 'WARN',
      metricKey: 'new_duplicated_lines_density',
      comparator: 'GT',
      errorThreshold: undefined,
      warningThreshold: '3',
      actualValue: '4.2'
    })
    const summary = renderSummary(
      result({ status: 'WARN', conditions: evaluateConditions([warning]) }),
      { sink }
    )
    expect(rowsOf(summary)[1]).toEqual([
      'Duplicated Lines (%) on New Code',
      '⚠️ WARN',
      '4.2%',
      'warns when greater than 3%'
    ])
  })
})

describe('quoted server text stays on one line in the failure message and every annotation', () => {
  const fake = '✅ Quality Gate passed'
  const hostile = result({
    status: 'ERROR',
    projectKey: `my-project\n${fake}`,
    conditions: evaluateConditions([
      condition({ metricKey: `new_coverage\n${fake}`, actualValue: `12\r\n${fake}` }),
      condition({
        status: 'OK',
        metricKey: 'bugs',
        comparator: `GT\u2028${fake}`,
        actualValue: '3'
      })
    ]),
    taskWarnings: [`Missing blame information\n${fake}`]
  })

  it('the failure message: each line is one of ours, the server’s line breaks shown as \\n', () => {
    const lines = inActionWords(gateFailureMessage(hostile)).split('\n')
    expect(lines[0]).toBe(
      `Quality Gate Failure for my-project\\n${fake}: 1 of 2 conditions failed.`
    )
    expect(lines[1]).toMatch(/^- Coverage\\n✅ Quality Gate passed on New Code is 12\\r\\n✅/)
    expect(lines.filter((line) => line.startsWith(fake))).toEqual([])
  })

  it('the annotations: warnings and disagreements quote the server on one line', () => {
    const log = new RecordingLog()
    annotateGate(hostile, log)
    const messages = [...log.of('warning'), ...log.of('notice'), ...log.of('info')]
    expect(messages).toContain(`Analysis warning: Missing blame information\\n${fake}`)
    expect(messages.flatMap((message) => message.split('\n'))).not.toContainEqual(
      expect.stringMatching(/^\s*✅/)
    )
  })
})
