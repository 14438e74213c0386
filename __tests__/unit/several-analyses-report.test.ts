import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { actionHtmlSink, actionSink } from '../../__fixtures__/sinks.js'
import { ReportFileError } from '../../src/errors.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { analysesOutputs, OUTPUT_BYTES, resultsOutput } from '../../src/report/outputs.js'
import { renderOverviewSummary } from '../../src/report/overview.js'
import { SUMMARY_LIMITS } from '../../src/report/summary.js'
import { expectOnlyOurMarkup, HOSTILE, hostileResult } from '../support/hostile-summary.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import { condition, gateResult } from './summary-gate-result.js'

/** The job summary's and the outputs' sinks, as the action builds them. */
const summarySink = actionHtmlSink({ limit: SUMMARY_LIMITS.bytes })
const outputsSink = actionSink({ limit: OUTPUT_BYTES })

const read = (fields: Parameters<typeof gateResult>[0] = {}): AnalysisOutcome => ({
  read: true,
  source: `${fields.projectKey ?? 'p'}/report-task.txt`,
  result: gateResult(fields)
})

const unread = (message: string, source = 'gone/report-task.txt'): AnalysisOutcome => {
  const error = new ReportFileError(message)
  return { read: false, source, projectKey: undefined, message, error }
}

describe('the summary of several analyses: an overview, then one section per project', () => {
  it('the overview names each project with its verdict, failing conditions and link', () => {
    const outcomes = [
      read({ projectKey: 'api', status: 'OK', conditions: [] }),
      read({ projectKey: 'web' }),
      unread('Task X was not found.')
    ]

    const rendered = renderAsGitHub(renderOverviewSummary(outcomes, { sink: summarySink }))

    expect(rendered.of('h2').map(({ text }) => text)).toEqual([
      '❌ 1 of 3 analyses could not be read'
    ])
    expect(rendered.of('tr').map(({ cells }) => cells)).toContainEqual([
      'web',
      '❌ failed',
      'Coverage on New Code, Blocker Issues on New Code, Critical Issues on New Code, 1 more',
      'dashboard'
    ])
    expect(rendered.of('h3').map(({ text }) => text)).toEqual([
      '✅ Quality Gate passed · api',
      '❌ Quality Gate failed · web',
      '❗ Not read · gone/report-task.txt'
    ])
    expect(rendered.text).toContain('Task X was not found.')
  })

  it.each(HOSTILE.map((text) => [JSON.stringify(text).slice(0, 60), text]))(
    'with %s in every server value and message: one heading, our elements only',
    (_, text) => {
      const summary = renderOverviewSummary(
        [
          { read: true, source: text, result: hostileResult(text) },
          { ...(unread(text, text) as AnalysisOutcome & { read: false }), projectKey: text }
        ],
        { sink: summarySink }
      )
      const rendered = renderAsGitHub(summary)
      expect(rendered.html).toBe(summary)
      expectOnlyOurMarkup(rendered)
      expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_LIMITS.bytes)
    }
  )

  it('50 analyses of 1,000 long conditions each stay within the summary limit', () => {
    const long = condition({ metricKey: 'm'.repeat(5000), actualValue: '<'.repeat(5000) })
    const conditions = evaluateConditions(Array.from({ length: 1000 }, () => long))
    const outcomes = Array.from({ length: 50 }, (_, index) =>
      read({ projectKey: `p${index}`, conditions })
    )

    const summary = renderOverviewSummary(outcomes, { sink: summarySink })

    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_LIMITS.bytes)
    expect(renderAsGitHub(summary).of('h3')).toHaveLength(50)
  })
})

describe('a setting the overview names is said in the edge’s words', () => {
  it('a WARN gate that failOn fails: its row says the input, never its key', () => {
    const outcomes = [
      read({ projectKey: 'api', status: 'WARN', conditions: [] }),
      read({ projectKey: 'web' })
    ]
    const policy = new Set(['ERROR', 'WARN'] as const)
    const summary = renderOverviewSummary(outcomes, { sink: summarySink, policy })
    expect(summary).toContain('fails (failOn)')
    expect(summary).not.toContain('failingStatuses')
  })
})

describe('the outputs of several analyses', () => {
  it('status is the worst verdict; the single-analysis outputs are empty; results lists each', () => {
    const outcomes = [
      read({ projectKey: 'a', status: 'OK', qualityGateStatus: 'PASSED' }),
      read({ projectKey: 'b', status: 'WARN', qualityGateStatus: 'WARN' })
    ]

    const { values } = analysesOutputs(outcomes, FAIL_ON_ERROR, outputsSink)

    expect(values).toMatchObject({
      status: 'WARN',
      'quality-gate-status': 'WARN',
      analysisId: '',
      conditions: '[]'
    })
    const results = JSON.parse(values.results) as Array<Record<string, unknown>>
    expect(results.map(({ projectKey, status }) => [projectKey, status])).toEqual([
      ['a', 'OK'],
      ['b', 'WARN']
    ])
    expect(results[0]).toMatchObject({
      source: 'a/report-task.txt',
      qualityGateStatus: 'PASSED',
      analysisId: 'AYAnalysis1',
      taskId: 'AYTask1',
      dashboardUrl: 'https://sonar.example.com/dashboard?id=my-project'
    })
    expect(results[0]!['conditions']).toEqual(
      gateResult().conditions.map(({ condition: c }) => JSON.parse(JSON.stringify(c)) as unknown)
    )
  })

  it('one that could not be read is in results with its error and the error’s code', () => {
    const results = JSON.parse(
      resultsOutput([unread('Task X was not found.')], { sink: outputsSink })
    ) as unknown[]
    expect(results).toEqual([
      {
        projectKey: '',
        source: 'gone/report-task.txt',
        error: 'Task X was not found.',
        errorCode: 'ERR_REPORT_FILE'
      }
    ])
  })

  it('results stays valid JSON within 1 MB whatever the conditions', () => {
    const long = condition({ metricKey: 'm'.repeat(5000), actualValue: '"'.repeat(5000) })
    const conditions = evaluateConditions(Array.from({ length: 2000 }, () => long))
    const outcomes = Array.from({ length: 50 }, (_, index) =>
      read({ projectKey: `p${index}`, conditions })
    )

    const json = resultsOutput(outcomes, { sink: outputsSink })

    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(OUTPUT_BYTES)
    const results = JSON.parse(json) as Array<{ conditions: unknown[] }>
    expect(results).toHaveLength(50)
    expect(results.every(({ conditions: kept }) => kept.length > 0)).toBe(true)
  })
})

describe("the README's outputs table names every field of each `results` entry", () => {
  it('a read analysis (with its new issues and what changed) and one that could not be read', () => {
    const read: AnalysisOutcome = {
      read: true,
      source: 'report-task.txt',
      result: gateResult({
        newIssues: {
          read: true,
          scope: { kind: 'new-code', branch: undefined },
          total: 0,
          findings: [],
          requests: 1
        },
        whatChanged: {
          newCode: { coverage: 85.5, duplication: 1.2 },
          hotspots: { hotspots: [], total: 0 },
          issues: { accepted: 1, fixed: undefined }
        }
      })
    }
    const unread: AnalysisOutcome = {
      read: false,
      source: 'b/report-task.txt',
      projectKey: 'b',
      message: 'Not found',
      error: new ReportFileError('Not found')
    }
    const entries = JSON.parse(resultsOutput([read, unread], { sink: outputsSink })) as Record<
      string,
      unknown
    >[]
    const fields = [...new Set(entries.flatMap((entry) => Object.keys(entry)))]
    expect(fields).toContain('whatChanged')
    const readme = readFileSync(path.join(import.meta.dirname, '../../README.md'), 'utf8')
    const row = readme.split('\n').find((line) => line.startsWith('| `results`'))
    expect(row).toBeDefined()
    // The row, and the paragraph on the fields of an analysis that could not be read.
    const more = readme.slice(
      readme.indexOf('In `results`'),
      readme.indexOf('\n\n', readme.indexOf('In `results`'))
    )
    const named = new Set([...`${row}\n${more}`.matchAll(/`(\w+)`/g)].map(([, name]) => name))
    expect(fields.filter((field) => !named.has(field))).toEqual([])
  })
})
