import type { Said } from '../../src/words.js'
import { describe, expect, it } from 'vitest'
import { FAIL_ON_ERROR, failsUnder, statusClass, type FailPolicy } from '../../src/fail-policy.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { analysesOutputs } from '../../src/report/outputs.js'
import { gateFailureMessage } from '../../src/report/gate-messages.js'
import { headline } from '../../src/report/summary.js'
import { stepVerdict } from '../../src/report/verdict.js'
import { readActionSettings } from '../../src/action/settings.js'
import { readSettings } from '../../src/settings.js'
import {
  actionSink,
  inActionWords,
  inCommandWords,
  thrownInWords
} from '../../__fixtures__/sinks.js'
import { condition, gateResult } from './summary-gate-result.js'

const policy = (...statuses: Array<'ERROR' | 'WARN' | 'NONE'>): FailPolicy => new Set(statuses)
const failOnInput = (value: string) => (name: string) => (name === 'failOn' ? value : '')

/** The message `read` is refused with, in the edge's words (`words`). */
const refusal = (read: () => unknown, words: (text: Said | Error) => string): string =>
  thrownInWords(read, words).message

describe('failOn is read as a set of ERROR, WARN and NONE that holds ERROR', () => {
  it.each([
    ['', ['ERROR']],
    ['ERROR', ['ERROR']],
    ['ERROR,WARN', ['ERROR', 'WARN']],
    ['error, warn\nnone', ['ERROR', 'WARN', 'NONE']],
    ['ERROR,,ERROR,', ['ERROR']]
  ])('"%s" → %j', (value, statuses) => {
    expect([...readActionSettings(failOnInput(value), {}).policy]).toEqual(statuses)
  })

  it('a word outside the set is refused, naming the input and the words it takes', () => {
    expect(
      refusal(() => readActionSettings(failOnInput('ERROR,FAILED'), {}), inActionWords)
    ).toContain(
      'Input failOn has "FAILED": give the gate statuses that fail the step, separated by commas, from ERROR, WARN, NONE'
    )
  })

  it('a set without ERROR is refused: it would let a failed gate pass', () => {
    expect(refusal(() => readActionSettings(failOnInput('WARN'), {}), inActionWords)).toContain(
      'Input failOn is "WARN": it must include ERROR, or a failed gate would pass (e.g. ERROR,WARN). To report a failed gate without failing, see failOnError.'
    )
  })

  it("the command's message names its options", () => {
    expect(refusal(() => readSettings({ failingStatuses: 'NONE' }), inCommandWords)).toContain(
      'Option --fail-on is "NONE": it must include ERROR, or a failed gate would pass (e.g. ERROR,WARN). To report a failed gate without failing, see --no-fail.'
    )
  })
})

describe('a status fails under the policy when its class is named', () => {
  it.each([
    ['OK', 'OK'],
    ['WARN', 'WARN'],
    ['ERROR', 'ERROR'],
    ['NONE', 'NONE'],
    ['FAILED', 'NONE'],
    ['', 'NONE']
  ])('%s is of class %s', (status, kind) => {
    expect(statusClass(status)).toBe(kind)
  })

  it('OK never fails, whatever the policy', () => {
    expect(failsUnder('OK', policy('ERROR', 'WARN', 'NONE'))).toBe(false)
  })

  it('by default only ERROR fails', () => {
    expect(
      ['OK', 'WARN', 'ERROR', 'NONE', 'FAILED'].filter((s) => failsUnder(s, FAIL_ON_ERROR))
    ).toEqual(['ERROR'])
  })
})

const read = (status: string, conditions = gateResult().conditions): AnalysisOutcome => ({
  read: true,
  source: 'report-task.txt',
  result: gateResult({ status, conditions })
})

describe("the step's verdict and its words under a policy", () => {
  it('a WARN gate passes by default, and fails with failOn WARN, listing the conditions that warned', () => {
    const conditions = evaluateConditions([
      condition({ status: 'WARN', errorThreshold: undefined, warningThreshold: '85' }),
      condition({
        status: 'OK',
        metricKey: 'new_bugs',
        comparator: 'GT',
        errorThreshold: '0',
        actualValue: '0'
      })
    ])
    const outcome = read('WARN', conditions)
    expect(stepVerdict([outcome]).kind).toBe('passed')
    const verdict = stepVerdict([outcome], policy('ERROR', 'WARN'))
    expect(verdict.kind).toBe('gate-failed')
    const lines = verdict.kind === 'gate-failed' ? inActionWords(verdict.message).split('\n') : []
    expect(lines[0]).toBe(
      'Quality Gate Failure for my-project: the gate is WARN, which failOn names: 1 of 2 conditions warned.'
    )
    expect(lines[1]).toMatch(/^- Coverage on New Code is 82\.5% \(warns when less than 85%\)/)
    expect(lines.at(-1)).toBe('Details: https://sonar.example.com/dashboard?id=my-project')
  })

  it('NONE fails with failOn NONE, saying the project has no gate and what to do', () => {
    const outcome = read('NONE', [])
    const verdict = stepVerdict([outcome], policy('ERROR', 'NONE'))
    expect({
      ...verdict,
      message: inActionWords(verdict.kind === 'gate-failed' ? verdict.message : '')
    }).toEqual({
      kind: 'gate-failed',
      message:
        'Quality Gate Failure for my-project: the project has no quality gate (NONE), which failOn names: assign a quality gate to the project on the server.\nDetails: https://sonar.example.com/dashboard?id=my-project'
    })
  })

  it('a status no server sends counts as NONE, and says which it was', () => {
    const message = inActionWords(
      gateFailureMessage(gateResult({ status: 'FAILED', conditions: [] }))
    )
    expect(message).toContain(
      'the gate\'s status is "FAILED", which no server sends for a gate; failOn names NONE, which covers it.'
    )
  })

  it('the headline says a WARN gate failed, and by which policy', () => {
    expect(headline('WARN')).toBe('⚠️ Quality Gate passed with warnings')
    expect(inActionWords(headline('WARN', policy('ERROR', 'WARN')))).toBe(
      '❌ Quality Gate failed: WARN, which failOn names (ERROR,WARN)'
    )
    expect(inActionWords(headline('FAILED', policy('ERROR', 'NONE')))).toBe(
      '❌ Quality Gate failed: FAILED (as NONE), which failOn names (ERROR,NONE)'
    )
  })

  it('the outputs say which statuses failed (failedOn) and, per analysis, whether it failed', () => {
    const outcomes = [read('WARN'), read('ERROR'), read('NONE', [])]
    const { values } = analysesOutputs(outcomes, policy('ERROR', 'WARN'), actionSink())
    expect(values.failedOn).toBe('ERROR,WARN')
    const results = JSON.parse(values.results) as { gateFailed: boolean }[]
    expect(results.map(({ gateFailed }) => gateFailed)).toEqual([true, true, false])
    expect(analysesOutputs([read('OK')], FAIL_ON_ERROR, actionSink()).values.failedOn).toBe('')
  })
})
