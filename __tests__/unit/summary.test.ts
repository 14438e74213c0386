import { describe, expect, it } from 'vitest'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { GateResult } from '../../src/gate/check.js'
import { annotate, gateFailureMessage, renderSummary } from '../../src/report/summary.js'
import { decodeProjectStatus, type Condition } from '../../src/sonar/types.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { projectStatusExample, taskExample } from '../../__fixtures__/sonarqube/index.js'

function result(fields: Partial<GateResult> = {}): GateResult {
  const gate = decodeProjectStatus(projectStatusExample)
  return {
    status: gate.status,
    qualityGateStatus: 'FAILED',
    analysisId: 'AYAnalysis1',
    taskId: 'AYTask1',
    dashboardUrl: 'https://sonar.example.com/dashboard?id=my-project',
    projectKey: 'my-project',
    conditions: evaluateConditions(gate.conditions),
    rawConditions: gate.rawConditions,
    taskWarnings: [],
    elapsedMs: 4200,
    ...fields
  }
}

describe('an ERROR gate fails with "Quality Gate Failure" and each failing condition in words', () => {
  it("words the server's own example", () => {
    expect(gateFailureMessage(result())).toBe(
      [
        'Quality Gate Failure for my-project: 4 of 7 conditions failed.',
        '- Coverage on New Code is 82.51% (fails when less than 85%)',
        '- Blocker Issues on New Code is 14 (fails when greater than 0)',
        '- Critical Issues on New Code is 1 (fails when greater than 0)',
        '- Open Issues is 17 (ERROR by the server, which sent no threshold)',
        'Details: https://sonar.example.com/dashboard?id=my-project'
      ].join('\n')
    )
  })

  it('words ratings as letters, worse or better', () => {
    const condition: Condition = {
      status: 'ERROR',
      metricKey: 'new_reliability_rating',
      comparator: 'GT',
      errorThreshold: '1',
      warningThreshold: undefined,
      actualValue: '3',
      periodIndex: undefined
    }
    const message = gateFailureMessage(
      result({
        conditions: evaluateConditions([condition]),
        dashboardUrl: undefined,
        projectKey: undefined
      })
    )
    expect(message).toBe(
      'Quality Gate Failure: 1 of 1 conditions failed.\n- Reliability Rating on New Code is C (fails when worse than A)'
    )
  })
})

describe('the job summary shows verdict, every condition, the dashboard, the analysis and the time taken', () => {
  it("renders the server's own example", () => {
    expect(renderSummary(result())).toBe(
      [
        '## ❌ Quality Gate failed',
        '',
        'Project `my-project` · analysis `AYAnalysis1` · task `AYTask1` · checked in 4.2 s',
        '',
        '| Metric | Status | Actual | Fails when |',
        '| --- | --- | --- | --- |',
        '| Coverage on New Code | ❌ ERROR | 82.51% | less than 85% |',
        '| Blocker Issues on New Code | ❌ ERROR | 14 | greater than 0 |',
        '| Critical Issues on New Code | ❌ ERROR | 1 | greater than 0 |',
        '| Technical Debt Ratio on New Code | ✅ OK | 0.66% | greater than 5% |',
        '| Reopened Issues | ✅ OK | 0 | no threshold sent |',
        '| Open Issues | ❌ ERROR | 17 | no threshold sent |',
        '| Skipped Unit Tests | ✅ OK | 0 | no threshold sent |',
        '',
        '[See the analysis on the dashboard](https://sonar.example.com/dashboard?id=my-project)',
        ''
      ].join('\n')
    )
  })

  it.each([
    ['OK', '## ✅ Quality Gate passed'],
    ['WARN', '## ⚠️ Quality Gate passed with warnings'],
    ['NONE', '## ➖ No Quality Gate']
  ])('headline for %s', (status, headline) => {
    expect(renderSummary(result({ status })).split('\n')[0]).toBe(headline)
  })

  it('says so when there are no conditions, and escapes table cells', () => {
    expect(renderSummary(result({ conditions: [] }))).toContain('The server returned no conditions')
    const odd = evaluateConditions([
      {
        status: 'OK',
        metricKey: 'a|b',
        comparator: 'GT',
        errorThreshold: '1',
        warningThreshold: undefined,
        actualValue: '0',
        periodIndex: undefined
      }
    ])
    expect(renderSummary(result({ conditions: odd }))).toContain('| A\\|b |')
  })
})

describe('annotations: task warnings, WARN and NONE gates, and disagreements with the rule', () => {
  it("turns the task's warnings into plain-text warnings", () => {
    const log = new RecordingLog()
    annotate(result({ taskWarnings: taskExample.task.warnings }), log)
    expect(log.of('warning')).toEqual([
      "Analysis warning: The properties 'sonar.login' and 'sonar.password' are deprecated and will be removed in the future. Please pass a token with the 'sonar.token' property instead.",
      'Analysis warning: Missing blame information for 2 files. This may lead to some features not working correctly. Please check the analysis logs and refer to the documentation (https://docs.sonarqube.org/latest/analyzing-source-code/scm-integration/).'
    ])
  })

  it.each([
    ['WARN', /passed with warnings \(WARN\)/],
    ['NONE', /No Quality Gate is set for this project \(NONE\): the check passes/]
  ])('%s passes with a warning', (status, message) => {
    const log = new RecordingLog()
    annotate(result({ status, conditions: [] }), log)
    expect(log.of('warning')).toEqual([expect.stringMatching(message)])
  })

  it("logs a notice where the server's verdict differs from the rule, and nothing otherwise", () => {
    const log = new RecordingLog()
    annotate(result(), log)
    expect(log.of('notice')).toEqual([])
    const disagreeing = evaluateConditions([
      {
        status: 'OK',
        metricKey: 'new_coverage',
        comparator: 'LT',
        errorThreshold: '80',
        warningThreshold: undefined,
        actualValue: '75',
        periodIndex: undefined
      }
    ])
    annotate(result({ status: 'OK', conditions: disagreeing }), log)
    expect(log.of('notice')).toEqual([
      "The server says OK for Coverage on New Code is 75% (fails when less than 80%), the rule says ERROR: the server's verdict is used."
    ])
  })
})
