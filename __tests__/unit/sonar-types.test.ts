import { describe, expect, it } from 'vitest'
import {
  decodeLastProcessingMs,
  decodeProjectStatus,
  decodeTask,
  UnexpectedShape
} from '../../src/sonar/types.js'
import { projectStatusExample, taskExample } from '../../__fixtures__/sonarqube/index.js'

describe('the task reply is read as real servers send it', () => {
  it("reads the server's own example: analysis id and warnings", () => {
    const task = decodeTask(taskExample)
    expect(task).toMatchObject({
      id: 'AYhSC2-LY0CHkWJxvNA9',
      status: 'SUCCESS',
      analysisId: 'AYhSC3WDE6ILQDIMAPIp',
      componentKey: 'sonarsource_test_AYhCAUXoEy1XQQcbVndf'
    })
    expect(task.warnings).toHaveLength(2)
  })

  it('a pending task has no analysis yet', () => {
    expect(decodeTask({ task: { id: 'T', status: 'PENDING' } })).toMatchObject({
      analysisId: undefined,
      warnings: []
    })
  })

  it.each([null, [], 'text', {}, { task: {} }, { task: { status: 3 } }, { errors: [] }])(
    'refuses %j',
    (body) => {
      expect(() => decodeTask(body)).toThrow(UnexpectedShape)
    }
  )
})

describe('the gate reply is read as real servers send it, unknown fields ignored', () => {
  it("reads the server's own example: period, caycStatus, conditions without errorThreshold", () => {
    const gate = decodeProjectStatus(projectStatusExample)
    expect(gate.status).toBe('ERROR')
    expect(gate.conditions).toHaveLength(7)
    expect(gate.conditions[5]).toEqual({
      status: 'ERROR',
      metricKey: 'open_issues',
      comparator: 'GT',
      errorThreshold: undefined,
      warningThreshold: undefined,
      actualValue: '17',
      periodIndex: undefined
    })
  })

  it('a gate with no conditions (NONE) has an empty list', () => {
    expect(decodeProjectStatus({ projectStatus: { status: 'NONE' } })).toEqual({
      status: 'NONE',
      conditions: []
    })
  })

  it('numbers where strings are expected and odd entries do not crash', () => {
    const gate = decodeProjectStatus({
      projectStatus: {
        status: 'OK',
        conditions: [
          { status: 'OK', metricKey: 'coverage', actualValue: 91, periodIndex: 1 },
          null,
          'x'
        ]
      }
    })
    expect(gate.conditions).toEqual([
      expect.objectContaining({ actualValue: '91', periodIndex: 1, comparator: undefined })
    ])
  })

  it.each([{}, { projectStatus: null }, { projectStatus: { conditions: [] } }])(
    'refuses %j',
    (body) => {
      expect(() => decodeProjectStatus(body)).toThrow(UnexpectedShape)
    }
  )
})

describe('statuses are status words: text that could smuggle workflow commands is refused', () => {
  const injected = 'PENDING\n::error::injected'
  it.each([
    ['task.status', () => decodeTask({ task: { status: injected } })],
    ['projectStatus.status', () => decodeProjectStatus({ projectStatus: { status: injected } })],
    [
      'a condition status',
      () =>
        decodeProjectStatus({
          projectStatus: { status: 'OK', conditions: [{ status: injected, metricKey: 'x' }] }
        })
    ],
    ['task.status', () => decodeTask({ task: { status: 'pending' } })],
    ['task.status', () => decodeTask({ task: { status: 42 } })]
  ])('%s', (where, decode) => {
    expect(decode).toThrow(UnexpectedShape)
    expect(decode).toThrow(new RegExp(`^${where.replace('.', '\\.')} is .*, not a status word`))
  })
})

describe('an analysis id goes back to the server and into messages: it must look like an id', () => {
  it.each([
    ['a new line and a command', 'AY1\n::error::x'],
    ['a space', 'AY 1'],
    ['a bidirectional override', 'AY\u202e1'],
    ['1,000 characters', 'A'.repeat(1000)]
  ])('refuses %s, quoting it visibly', (_, analysisId) => {
    const decoding = () => decodeTask({ task: { ...taskExample.task, analysisId } })
    expect(decoding).toThrow(UnexpectedShape)
    expect(decoding).toThrow(
      /^task\.analysisId ".*" (holds|is \d+ characters long).*: it is not an id$/
    )
    expect(decoding).not.toThrow(/\n/)
  })

  it.each(['AYhSC3WDE6ILQDIMAPIp', 'b5a0a7d2-8f4e-4a53-9c4d-3e2f1a0b9c8d', 'é-ünicode'])(
    'takes %s',
    (analysisId) => {
      expect(decodeTask({ task: { ...taskExample.task, analysisId } }).analysisId).toBe(analysisId)
    }
  )
})

describe('the fields each server generation adds are read when they are there', () => {
  it('a task of a branch, a pull request, a failure type and the processing time', () => {
    const task = decodeTask({
      task: {
        ...taskExample.task,
        branch: 'feature/x',
        branchType: 'BRANCH',
        pullRequest: '42',
        errorType: 'ANALYSIS_REPORT',
        executionTimeMs: 2840
      }
    })
    expect(task).toMatchObject({
      branch: 'feature/x',
      branchType: 'BRANCH',
      pullRequest: '42',
      errorType: 'ANALYSIS_REPORT',
      executionTimeMs: 2840
    })
  })

  it.each([
    [
      'period (10.0 and later)',
      { period: { mode: 'PREVIOUS_VERSION', date: '2024-01-02T10:00:00+0000' } }
    ],
    [
      'periods (9.9 and earlier, SonarCloud)',
      { periods: [{ index: 1, mode: 'PREVIOUS_VERSION', date: '2024-01-02T10:00:00+0000' }] }
    ]
  ])('the new code period from %s', (_, shape) => {
    const gate = decodeProjectStatus({ projectStatus: { status: 'OK', conditions: [], ...shape } })
    expect(gate.period).toEqual({
      mode: 'PREVIOUS_VERSION',
      date: '2024-01-02T10:00:00+0000',
      parameter: undefined
    })
  })

  it('caycStatus and ignoredConditions, and nothing when they are absent or odd', () => {
    expect(decodeProjectStatus(projectStatusExample)).toMatchObject({
      caycStatus: 'non-compliant',
      ignoredConditions: false
    })
    expect(
      decodeProjectStatus({
        projectStatus: {
          status: 'OK',
          ignoredConditions: 'yes',
          period: { date: 'x' },
          periods: 'x'
        }
      })
    ).toMatchObject({ caycStatus: undefined, ignoredConditions: undefined, period: undefined })
  })
})

describe("api/ce/component gives how long the project's last finished analysis took", () => {
  it.each([
    [{ queue: [], current: { status: 'SUCCESS', executionTimeMs: 2840 } }, 2840],
    [{ queue: [], current: { status: 'FAILED', executionTimeMs: 2840 } }, undefined],
    [{ queue: [] }, undefined],
    [{ queue: [], current: { status: 'SUCCESS', executionTimeMs: -1 } }, undefined]
  ])('%j → %s', (body, ms) => {
    expect(decodeLastProcessingMs(body)).toBe(ms)
  })

  it('another shape is refused', () => {
    expect(() => decodeLastProcessingMs({ current: {} })).toThrow(UnexpectedShape)
  })
})
