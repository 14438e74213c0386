import { describe, expect, it } from 'vitest'
import { evaluateConditions, isConditionBreached } from '../../src/gate/evaluate.js'
import { decodeProjectStatus, type Condition } from '../../src/sonar/types.js'
import { projectStatusExample } from '../../__fixtures__/sonarqube/index.js'

const condition = (fields: Partial<Condition>): Condition => ({
  status: 'OK',
  metricKey: 'new_coverage',
  comparator: 'GT',
  errorThreshold: '0',
  warningThreshold: undefined,
  actualValue: '0',
  periodIndex: undefined,
  ...fields
})

describe("a condition is ERROR when actualValue compares to errorThreshold in the comparator's direction", () => {
  it.each([
    ['GT', '14', '0', true],
    ['GT', '0', '0', false],
    ['GT', '0.5', '0.49', true],
    ['LT', '82.50562381034781', '85', true],
    ['LT', '85', '85', false],
    ['LT', '90', '85', false],
    // numbers, not strings: "9" > "10" as text, not as numbers
    ['GT', '9', '10', false],
    ['LT', '9', '10', true],
    // old servers
    ['EQ', '3', '3', true],
    ['EQ', '3.0', '3', true],
    ['EQ', '2', '3', false],
    ['NE', '2', '3', true],
    ['NE', '3', '3', false],
    ['EQ', 'ERROR', 'ERROR', true],
    ['NE', 'OK', 'ERROR', true]
  ])('%s: actual %s, threshold %s → %s', (comparator, actualValue, errorThreshold, breached) => {
    expect(isConditionBreached(condition({ comparator, actualValue, errorThreshold }))).toBe(
      breached
    )
  })

  it.each([
    ['no errorThreshold (old warning-only conditions)', { errorThreshold: undefined }],
    ['no actualValue', { actualValue: undefined }],
    ['an unknown comparator', { comparator: 'BETWEEN' }],
    ['GT on values that are not numbers', { comparator: 'GT', actualValue: 'abc' }],
    ['an empty threshold', { errorThreshold: '' }]
  ])('cannot be applied with %s', (_, fields) => {
    expect(isConditionBreached(condition(fields))).toBeUndefined()
  })
})

describe("where the rule and the server disagree, the server's verdict stands and the difference is marked", () => {
  it('marks a condition the server calls OK but the rule calls ERROR', () => {
    const [evaluated] = evaluateConditions([
      condition({ status: 'OK', comparator: 'GT', actualValue: '2', errorThreshold: '1' })
    ])
    expect(evaluated).toMatchObject({ recomputed: 'ERROR', agreesWithServer: false })
    expect(evaluated?.condition.status).toBe('OK')
  })

  it('counts WARN as not ERROR when comparing', () => {
    const [evaluated] = evaluateConditions([
      condition({ status: 'WARN', comparator: 'GT', actualValue: '0', errorThreshold: '1' })
    ])
    expect(evaluated).toMatchObject({ recomputed: 'OK', agreesWithServer: true })
  })

  it("agrees with every condition of the server's own example, thresholds or not", () => {
    const gate = decodeProjectStatus(projectStatusExample)
    const evaluated = evaluateConditions(gate.conditions)
    expect(evaluated.map((e) => e.agreesWithServer)).toEqual(gate.conditions.map(() => true))
    expect(evaluated.map((e) => e.recomputed)).toEqual([
      'ERROR',
      'ERROR',
      'ERROR',
      'OK',
      undefined,
      undefined,
      undefined
    ])
  })
})
