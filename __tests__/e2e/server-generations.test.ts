/**
 * The built action against each server generation the simulator plays (SonarQube 8.9 LTS, 9.9 LTS,
 * 10.x, 2025.x and SonarQube Cloud): its auth scheme, its reply shapes, its report file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import {
  scenario,
  Simulator,
  writeSampleFiles
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { multitool, problemsOf } from '../support/sarif-validator.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import {
  annotationCommands,
  annotations,
  RUNTIMES,
  runAction,
  TOKEN,
  workspace
} from '../support/action-runs.js'

const BEARER = `Bearer ${TOKEN}`
const BASIC = `Basic ${Buffer.from(`${TOKEN}:`).toString('base64')}`

const GENERATIONS = [
  {
    name: 'sonarqube-8.9',
    newCode: 'sinceLeakPeriod',
    auth: BASIC,
    warningsAsked: true,
    exitCode: 0,
    about: /^Project demo-project · branch main · analysis/,
    details: ['New code: since the previous version (2025-01-15T10:00:00+0000)'],
    outputs: { branch: 'main', pullRequest: '' },
    warnings: 1
  },
  {
    name: 'sonarqube-9.9',
    newCode: 'inNewCodePeriod',
    auth: BASIC,
    warningsAsked: true,
    exitCode: 1,
    about: /^Project demo-project · branch release-2\.x · analysis/,
    details: [
      'New code: since the previous version (2025-01-15T10:00:00+0000)',
      'Clean as You Code: not compliant'
    ],
    outputs: { branch: 'release-2.x', pullRequest: '' },
    warnings: 0
  },
  {
    name: 'sonarqube-10',
    newCode: 'inNewCodePeriod',
    auth: BEARER,
    warningsAsked: false,
    exitCode: 0,
    about: /^Project demo-project · analysis/,
    // 10.x writes caycStatus on every gate (recorded from 10.7).
    details: [
      'New code: since the previous version (2025-01-15T10:00:00+0000)',
      'Clean as You Code: compliant'
    ],
    outputs: { branch: '', pullRequest: '' },
    warnings: 2
  },
  {
    name: 'sonarqube-2025',
    newCode: 'inNewCodePeriod',
    auth: BEARER,
    warningsAsked: false,
    exitCode: 0,
    about: /^Project demo-project · analysis/,
    details: [
      'New code: since the previous version (2025-01-15T10:00:00+0000)',
      'Clean as You Code: compliant'
    ],
    outputs: { branch: '', pullRequest: '' },
    warnings: 0
  },
  {
    name: 'sonarcloud',
    newCode: 'pullRequest',
    auth: BEARER,
    warningsAsked: true,
    exitCode: 0,
    about: /^Project demo-project · pull request 42 · analysis/,
    details: [
      'New code: since the previous version (2025-01-15T10:00:00+0000)',
      'Clean as You Code: compliant'
    ],
    outputs: { branch: '', pullRequest: '42' },
    warnings: 1
  }
]

describe.each(RUNTIMES)('each server generation, on $runtime', ({ node }) => {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())
  const issueRequests = () =>
    simulator.requests.filter((request) => request.url.startsWith('/api/issues/search'))
  const metricRequests = () =>
    simulator.requests.filter((request) => request.url.startsWith('/api/metrics/search')).length

  it.for(GENERATIONS)('$name', async (generation, context) => {
    const analysis = simulator.addAnalysis({
      ...(await scenario(generation.name)),
      finishAfterMs: 0
    })
    const ws = await workspace()
    await simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))

    const metricRequestsBefore = metricRequests()
    const issueRequestsBefore = issueRequests().length
    await writeSampleFiles(ws.file('.'))
    const run = await runAction(ws, {
      node,
      inputs: { sonarToken: TOKEN, sarifFile: 'out/issues.sarif' }
    })

    expect(run.exitCode).toBe(generation.exitCode)
    const requests = simulator.requests.filter(
      (request) =>
        request.url.includes(analysis.taskId) || request.url.includes(analysis.analysisId)
    )
    // The scheme the generation documents, first time: no 401, no second try.
    expect(new Set(requests.map((request) => request.authorization))).toEqual(
      new Set([generation.auth])
    )
    expect(run.stdout).not.toMatch(/HTTP 401/)
    // The new issues in the parameters the generation reads: the simulator, like the servers,
    // ignores the others and would send the two older issues (or every project's) too.
    const issueSearches = issueRequests().slice(issueRequestsBefore)
    expect(issueSearches.map((request) => request.authorization)).toEqual([generation.auth])
    expect(run.outputs['newIssues']).toBe('4')
    // The generation's issue shapes, located in the checkout, as SARIF Microsoft's validator
    // finds no error in.
    const sarif = await readFile(ws.file('out/issues.sarif'), 'utf8')
    const results = (JSON.parse(sarif) as { runs: Array<{ results: unknown[] }> }).runs[0]!.results
    expect(results).toHaveLength(4)
    expect(
      annotationCommands(run.stdout, 'error').filter(({ properties }) => properties['file'])
    ).not.toEqual([])
    if (node === RUNTIMES[0]!.node) expect(await problemsOf(multitool(context), sarif)).toEqual([])
    expect(new URL(issueSearches[0]!.url, simulator.url).searchParams.get(generation.newCode)).toBe(
      generation.newCode === 'pullRequest' ? '42' : 'true'
    )
    const taskRequest = requests.find((request) => request.url.startsWith('/api/ce/task'))
    expect(taskRequest?.url.includes('additionalFields=warnings')).toBe(generation.warningsAsked)
    expect(
      annotations(run.stdout, 'warning').filter((line) => line.startsWith('Analysis warning:'))
    ).toHaveLength(generation.warnings)

    const summary = renderAsGitHub(run.summary)
    const paragraphs = summary.of('p').map((p) => p.text)
    expect(paragraphs[0]).toMatch(generation.about)
    expect(paragraphs[1]?.split(/(?=New code|Clean as You Code)/)).toEqual(generation.details)
    expect(run.outputs).toMatchObject(generation.outputs)
    // What changed, read in the generation's shape (new code under periods and period before
    // 10.0, under period alone since); the accepted issues counted from 10.4 only.
    expect(summary.text).toContain('Coverage on new code: 91.3%')
    expect(summary.text).toContain('Duplicated lines on new code: 0.4%')
    expect(summary.text.includes('1 accepted')).toBe(
      !['sonarqube-8.9', 'sonarqube-9.9'].includes(generation.name)
    )
    const names = summary
      .of('tr')
      .slice(1)
      .map((row) => row.cells[0])
    // Only the 2025 gate has a metric the action has no words for: named as the server defines
    // it, from one page of api/metrics/search; no other generation asks.
    expect(metricRequests() - metricRequestsBefore).toBe(
      generation.name === 'sonarqube-2025' ? 1 : 0
    )
    if (generation.name === 'sonarqube-2025') {
      expect(names).toContain('New Maintainability Issues')
      expect(names).toContain('Reliability Rating on New Code')
    }
  })

  it('warns when the server says the token expires within 7 days', async () => {
    const expiring = await Simulator.start({
      token: TOKEN,
      tokenExpiresAt: new Date(Date.now() + 3 * 24 * 3600_000 + 3600_000)
        .toISOString()
        .replace(/\.\d+Z$/, '+0000')
    })
    try {
      const analysis = expiring.addAnalysis({
        ...(await scenario('sonarqube-10')),
        finishAfterMs: 0
      })
      const ws = await workspace()
      await expiring.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
      const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })
      expect(run.exitCode).toBe(0)
      expect(annotations(run.stdout, 'warning')).toContainEqual(
        expect.stringMatching(
          /^The token expires in 3 days \(\d{4}-\d{2}-\d{2}\): checks with it will fail from then on\./
        )
      )
    } finally {
      await expiring.stop()
    }
  })
})
