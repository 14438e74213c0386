import { describe, expect, it } from 'vitest'
import { actionSink } from '../../__fixtures__/sinks.js'
import { toQualityGateStatus } from '../../src/gate/check.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import { conditionsOutput, gateOutputs, OUTPUT_BYTES } from '../../src/report/outputs.js'
import { condition, gateResult } from './summary-gate-result.js'

/** The outputs' sink, as the action builds it. */
const sink = actionSink({ limit: OUTPUT_BYTES })

describe('the outputs of a gate', () => {
  it("are the gate's values, the conditions decoded under the server's key names", () => {
    expect(gateOutputs(gateResult(), sink).values).toMatchObject({
      status: 'ERROR',
      'quality-gate-status': 'FAILED',
      analysisId: 'AYAnalysis1',
      taskId: 'AYTask1',
      dashboardUrl: 'https://sonar.example.com/dashboard?id=my-project'
    })
    const conditions = JSON.parse(gateOutputs(gateResult(), sink).values.conditions)
    expect(conditions[0]).toEqual({
      status: 'ERROR',
      metricKey: 'new_coverage',
      comparator: 'LT',
      errorThreshold: '85',
      actualValue: '82.50562381034781'
    })
    expect(conditions[4]).toEqual({
      status: 'OK',
      metricKey: 'reopened_issues',
      comparator: 'GT',
      actualValue: '0'
    })
  })

  it('keeps warningThreshold and periodIndex when the server sends them', () => {
    const old = condition({ warningThreshold: '90', periodIndex: 1 })
    expect(JSON.parse(conditionsOutput([old], sink).json)).toEqual([
      {
        status: 'ERROR',
        metricKey: 'new_coverage',
        comparator: 'LT',
        errorThreshold: '85',
        warningThreshold: '90',
        actualValue: '82.5',
        periodIndex: 1
      }
    ])
  })

  it('put each value on one line, cut to 1,000 characters before its escapes', () => {
    const { values } = gateOutputs(gateResult({ analysisId: `a\nb${'c'.repeat(5000)}` }), sink)
    expect(values.analysisId).toBe(`a\\nb${'c'.repeat(996)}…`)
  })

  it('give the dashboard only as an http(s) address without credentials', () => {
    const dashboardUrl = (url: string) =>
      gateOutputs(gateResult({ dashboardUrl: url }), sink).values.dashboardUrl
    expect(dashboardUrl('https://u:p@sonar.example.com/dashboard?id=a')).toBe(
      'https://sonar.example.com/dashboard?id=a'
    )
    expect(dashboardUrl('javascript:alert(1)')).toBe('')
  })
})

describe('the conditions output stays under 1 MB, always valid JSON', () => {
  const many = Array.from({ length: 100_000 }, (_, index) =>
    condition({ metricKey: `metric_${index}`, actualValue: '"\u2028'.repeat(10_000) })
  )

  it('cuts each string to 200 characters', () => {
    const [first] = JSON.parse(conditionsOutput(many.slice(0, 1), sink).json)
    expect(first.actualValue).toBe(`${'"\u2028'.repeat(99)}"…`)
  })

  it('holds as many conditions as fit, and says how many were left out', () => {
    const { json, leftOut } = conditionsOutput(many, sink)
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(OUTPUT_BYTES)
    const kept = JSON.parse(json)
    expect(kept.length + leftOut).toBe(100_000)
    expect(leftOut).toBeGreaterThan(0)
    expect(kept[0].metricKey).toBe('metric_0')
  })

  it('is [] with no conditions, and when not even one fits', () => {
    expect(conditionsOutput([], sink)).toEqual({ json: '[]', leftOut: 0 })
    expect(conditionsOutput([condition()], sink, 10)).toEqual({ json: '[]', leftOut: 1 })
  })
})

describe('an unknown gate status passes, as NONE', () => {
  it.each([
    ['OK', 'PASSED'],
    ['WARN', 'WARN'],
    ['ERROR', 'FAILED'],
    ['NONE', 'NONE'],
    ['FAILED', 'NONE']
  ])('%s → quality-gate-status %s', (status, qualityGateStatus) => {
    expect(toQualityGateStatus(status)).toBe(qualityGateStatus)
  })

  it('gives status FAILED and quality-gate-status NONE as outputs', () => {
    const unknown = gateResult({
      status: 'FAILED',
      qualityGateStatus: toQualityGateStatus('FAILED'),
      conditions: evaluateConditions([])
    })
    expect(gateOutputs(unknown, sink).values).toMatchObject({
      status: 'FAILED',
      'quality-gate-status': 'NONE'
    })
  })
})

describe('the branch and the pull request the task names are outputs', () => {
  it('a branch', () => {
    expect(
      gateOutputs(gateResult({ branch: 'main', branchType: 'BRANCH' }), sink).values
    ).toMatchObject({
      branch: 'main',
      pullRequest: ''
    })
  })

  it('a pull request', () => {
    expect(gateOutputs(gateResult({ pullRequest: '42' }), sink).values).toMatchObject({
      branch: '',
      pullRequest: '42'
    })
  })
})
