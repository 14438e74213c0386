import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  monorepoScenario,
  scenario,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import type { Workspace } from '../../__fixtures__/built-action.js'
import {
  annotations,
  RUNTIMES,
  runAction,
  simulatedServer,
  TOKEN,
  workspace
} from '../support/action-runs.js'

/** The monorepo's three projects, quicker: passing, failing, and the slow one last. */
async function quickMonorepo(): Promise<AnalysisScript[]> {
  const [api, web, reports] = await monorepoScenario()
  return [
    { ...api!, finishAfterMs: 200 },
    { ...web!, finishAfterMs: 200 },
    { ...reports!, finishAfterMs: 900 }
  ]
}

interface Result {
  projectKey: string
  source: string
  status?: string
  qualityGateStatus?: string
  analysisId?: string
  conditions?: unknown[]
  error?: string
}

describe.each(RUNTIMES)('several analyses in one step, on $runtime', ({ node }) => {
  const server = simulatedServer(node)

  /** Each script's analysis on the simulator, its report file in services/<n>/. */
  async function monorepo(ws: Workspace, scripts: AnalysisScript[]) {
    const added = []
    for (const [index, script] of scripts.entries()) {
      const analysis = server.simulator.addAnalysis(script)
      await server.simulator.writeReportFile(
        analysis,
        ws.file(`services/${index}/target/sonar/report-task.txt`)
      )
      added.push(analysis)
    }
    return added
  }

  const GLOB = {
    sonarToken: TOKEN,
    scanMetadataReportFile: 'services/*/target/sonar/report-task.txt'
  }

  it('one failing gate among three fails the step; every verdict is in the log, outputs and summary', async () => {
    const ws = await workspace()
    const added = await monorepo(ws, await quickMonorepo())

    const run = await runAction(ws, { node, inputs: GLOB })

    expect(run.exitCode).toBe(1)
    const [failure] = annotations(run.stdout, 'error')
    expect(failure).toMatch(/^Quality Gate Failure for shop-web: 4 of 7 conditions failed\./)
    expect(failure).not.toContain('shop-api')
    // One group per project, whole.
    expect(run.stdout.match(/^::group::.*$/gm)).toEqual([
      expect.stringMatching(/^::group::Analysis of shop-(api|web)$/),
      expect.stringMatching(/^::group::Analysis of shop-(api|web)$/),
      '::group::Analysis of shop-reports'
    ])
    expect(run.outputs['status']).toBe('ERROR')
    expect(run.outputs['quality-gate-status']).toBe('FAILED')
    expect(run.outputs['analysisId']).toBe('')
    expect(run.outputs['conditions']).toBe('[]')
    const results = JSON.parse(run.outputs['results'] ?? '') as Result[]
    expect(
      results.map(({ projectKey, status, qualityGateStatus, analysisId }) => ({
        projectKey,
        status,
        qualityGateStatus,
        analysisId
      }))
    ).toEqual([
      {
        projectKey: 'shop-api',
        status: 'OK',
        qualityGateStatus: 'PASSED',
        analysisId: added[0]!.analysisId
      },
      {
        projectKey: 'shop-web',
        status: 'ERROR',
        qualityGateStatus: 'FAILED',
        analysisId: added[1]!.analysisId
      },
      {
        projectKey: 'shop-reports',
        status: 'OK',
        qualityGateStatus: 'PASSED',
        analysisId: added[2]!.analysisId
      }
    ])
    expect(results[1]?.source).toBe('services/1/target/sonar/report-task.txt')

    const summary = renderAsGitHub(run.summary)
    expect(summary.of('h2').map(({ text }) => text)).toEqual([
      '❌ Quality Gate failed (3 analyses)'
    ])
    const overview = summary
      .of('tr')
      .slice(0, 4)
      .map(({ cells }) => cells.slice(0, 2))
    expect(overview).toEqual([
      ['Project', 'Verdict'],
      ['shop-api', '✅ passed'],
      ['shop-web', '❌ failed'],
      ['shop-reports', '✅ passed']
    ])
    expect(summary.of('h3').map(({ text }) => text)).toEqual([
      '✅ Quality Gate passed · shop-api',
      '❌ Quality Gate failed · shop-web',
      '✅ Quality Gate passed · shop-reports'
    ])
  })

  it('with failOnError false, the failing gate is a warning and the step passes', async () => {
    const ws = await workspace()
    await monorepo(ws, await quickMonorepo())

    const run = await runAction(ws, { node, inputs: { ...GLOB, failOnError: 'false' } })

    expect(run.exitCode).toBe(0)
    expect(annotations(run.stdout, 'warning').join('\n')).toMatch(
      /Quality Gate Failure for shop-web[\s\S]*failOnError is false: the job goes on\./
    )
  })

  it('an analysis that cannot be read fails the step, and the others’ verdicts are still given', async () => {
    const ws = await workspace()
    const done = await scenario('done')
    await monorepo(ws, [
      { ...done, projectKey: 'shop-api' },
      { ...done, projectKey: 'shop-web', taskStatus: 'FAILED', errorMessage: 'Out of memory' }
    ])

    const run = await runAction(ws, { node, inputs: GLOB })

    expect(run.exitCode).toBe(1)
    const [failure] = annotations(run.stdout, 'error')
    expect(failure).toMatch(
      /^1 of 2 analyses could not be read: their gates are unknown\.\n- shop-web: /
    )
    expect(failure).toContain('Out of memory')
    expect(run.outputs['status']).toBe('OK')
    const results = JSON.parse(run.outputs['results'] ?? '') as Result[]
    expect(results[0]).toMatchObject({ projectKey: 'shop-api', status: 'OK' })
    expect(results[1]).toMatchObject({ projectKey: 'shop-web' })
    expect(results[1]?.error).toContain('Out of memory')
    const summary = renderAsGitHub(run.summary)
    expect(summary.of('h2')[0]?.text).toBe('❌ 1 of 2 analyses could not be read')
    expect(summary.of('h3').map(({ text }) => text)).toEqual([
      '✅ Quality Gate passed · shop-api',
      '❗ Not read · shop-web'
    ])
  })

  it('all passing: the step passes, each project’s status logged', async () => {
    const ws = await workspace()
    const done = await scenario('done')
    await monorepo(ws, [
      { ...done, projectKey: 'lib' },
      { ...done, projectKey: 'app', projectStatus: { status: 'WARN', conditions: [] } }
    ])

    const run = await runAction(ws, { node, inputs: GLOB })

    expect(run.exitCode).toBe(0)
    expect(run.outputs['status']).toBe('WARN')
    expect(run.outputs['quality-gate-status']).toBe('WARN')
    expect(run.stdout).toMatch(/^lib Quality Gate status: OK$/m)
    expect(run.stdout).toMatch(/^app Quality Gate status: WARN$/m)
    expect(annotations(run.stdout, 'warning')).toContainEqual(
      expect.stringMatching(/^app: Quality Gate passed with warnings/)
    )
  })

  it('with one analysis, the outputs are as they always were, and results holds it too', async () => {
    const ws = await workspace()
    const [analysis] = await monorepo(ws, [await scenario('done')])

    const run = await runAction(ws, { node, inputs: GLOB })

    expect(run.exitCode).toBe(0)
    expect(run.outputs['analysisId']).toBe(analysis!.analysisId)
    expect(run.outputs['taskId']).toBe(analysis!.taskId)
    const results = JSON.parse(run.outputs['results'] ?? '') as Result[]
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ analysisId: analysis!.analysisId, status: 'OK' })
    expect(run.stdout).not.toMatch(/^::group::Analysis of/m)
  })

  it('no report file matches: one error naming every line', async () => {
    const ws = await workspace()
    await writeFile(ws.file('unrelated.txt'), 'x')

    const run = await runAction(ws, {
      node,
      inputs: {
        sonarToken: TOKEN,
        scanMetadataReportFile: 'a/**/report-task.txt\nb/report-task.txt'
      }
    })

    expect(run.exitCode).toBe(1)
    const [failure] = annotations(run.stdout, 'error')
    expect(failure).toMatch(
      /^No report file matches scanMetadataReportFile: "a\/\*\*\/report-task.txt", "b\/report-task.txt" \(relative to /
    )
  })
})
