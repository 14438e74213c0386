import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  sampleIssues,
  SAMPLE_FILES,
  writeSampleFiles,
  scenario,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import {
  FakeGitHub,
  HEAD_SHA,
  NUMBER,
  writePullRequestEvent
} from '../../__fixtures__/github/fake-github.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import type { Workspace } from '../../__fixtures__/built-action.js'
import {
  annotationCommands,
  RUNTIMES,
  runAction,
  simulatedServer,
  TOKEN,
  workspace
} from '../support/action-runs.js'

const GITHUB_TOKEN = 'ghs_e2eIssuesToken0123456789abcdefABCDEF'

/** The files the sample issues are in, created under `base` in the workspace. */
const checkoutFiles = (ws: Workspace, base = '.') => writeSampleFiles(ws.file(base))

describe.each(RUNTIMES)('the new issues where the developer looks, on $runtime', ({ node }) => {
  const server = simulatedServer(node)
  const github = new FakeGitHub()
  beforeAll(() => github.start())
  afterAll(() => github.stop())

  /** One analysis, its report file under `base`, the files of its issues in the checkout. */
  async function analysed(script: AnalysisScript, base = '.', ws?: Workspace) {
    const space = ws ?? (await workspace())
    const analysis = server.simulator.addAnalysis(script)
    await server.simulator.writeReportFile(
      analysis,
      space.file(path.join(base, '.scannerwork/report-task.txt'))
    )
    await checkoutFiles(space, base)
    return { ws: space, analysis }
  }

  const issueRequests = (projectKey = 'demo-project') =>
    server.simulator.requests.filter(
      ({ url }) => url.startsWith('/api/issues/search') && url.includes(`=${projectKey}&`)
    )

  it('a failing gate: its most severe issues on the diff, within GitHub’s limits, then how many more', async () => {
    const { ws } = await analysed({
      ...(await scenario('gate-error')),
      finishAfterMs: 0,
      projectKey: 'shop-errors'
    })

    const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })

    expect(run.exitCode).toBe(1)
    const errors = annotationCommands(run.stdout, 'error')
    // Nine issue annotations and the failure: GitHub shows 10 errors per step.
    expect(errors).toHaveLength(10)
    const issueErrors = errors.filter(({ properties }) => properties['file'])
    expect(issueErrors).toHaveLength(9)
    expect(issueErrors[0]!.properties).toMatchObject({
      file: expect.stringMatching(/^src\//) as string,
      line: expect.stringMatching(/^\d+$/) as string,
      col: '3',
      endColumn: '15',
      title: expect.stringMatching(/^BLOCKER · .+ \(typescript:S\d+\)$/) as string
    })
    expect(issueErrors[0]!.message).toContain(
      `${server.simulator.url}/project/issues?id=shop-errors&open=AYIssue`
    )
    expect(errors.at(-1)!.message).toMatch(/^Quality Gate Failure for shop-errors/)
    const notices = annotationCommands(run.stdout, 'notice')
    expect(notices.at(-1)!.message).toMatch(/^\d+ more new issues are not annotated here/)
    expect(run.outputs['newIssues']).toBe('18')
    expect(run.summary).toContain('New issues: 18')
    expect(run.summary).toContain('🛑 14 blocker')
    expect(issueRequests('shop-errors')).toHaveLength(1)
    // What changed: the gate's own coverage, and the first of the 7 hotspots linked on the server.
    const summary = renderAsGitHub(run.summary)
    expect(summary.text).toContain('Coverage on new code: 82.5%')
    expect(summary.text).toContain('Security hotspots to review in the new code: 7')
    expect(summary.of('a').map(({ attributes }) => attributes['href'])).toContain(
      `${server.simulator.url}/security_hotspots?id=shop-errors&hotspots=AYHotspot0001`
    )
  })

  it('a branch with 1,200 new issues: three requests of 500, the older issues left out', async () => {
    const { ws } = await analysed({ ...(await scenario('many-issues')), projectKey: 'shop-many' })

    const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })

    expect(run.exitCode).toBe(0)
    expect(run.outputs['newIssues']).toBe('1200')
    const requests = issueRequests('shop-many').map(
      ({ url }) => new URL(url, 'http://x').searchParams
    )
    expect(requests.map((query) => query.get('p'))).toEqual(['1', '2', '3'])
    expect(requests[0]!.get('branch')).toBe('main')
    expect(run.stdout).toContain('New issues: 1200 (3 requests).')
    const all = ['error', 'warning', 'notice'] as const
    for (const level of all)
      expect(annotationCommands(run.stdout, level).length).toBeLessThanOrEqual(10)
  })

  it('an issue search refused with 403 (by a gateway; the server itself answers none): one line, no issue annotation, the verdict unchanged', async () => {
    const { ws } = await analysed({
      ...(await scenario('issues-forbidden')),
      projectKey: 'shop-forbidden'
    })

    const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })

    expect(run.exitCode).toBe(0)
    expect(run.stdout).toMatch(/^The token may not browse the project's issues \(HTTP 403\)/m)
    expect(annotationCommands(run.stdout, 'error')).toEqual([])
    expect(run.outputs['newIssues']).toBe('')
    expect(run.outputs['status']).toBe('OK')
  })

  it('annotateIssues: false turns off the annotations only: the summary and output still list them', async () => {
    const { ws } = await analysed({
      ...(await scenario('gate-error')),
      finishAfterMs: 0,
      projectKey: 'shop-quiet'
    })

    const run = await runAction(ws, {
      node,
      inputs: { sonarToken: TOKEN, annotateIssues: 'false' }
    })

    expect(
      annotationCommands(run.stdout, 'error').filter(({ properties }) => properties['file'])
    ).toEqual([])
    expect(run.outputs['newIssues']).toBe('18')
    expect(run.summary).toContain('New issues: 18')
  })

  it("a monorepo: each project's files from its own base directory, each title naming its project", async () => {
    const ws = await workspace()
    const base = {
      finishAfterMs: 0,
      taskStatus: 'SUCCESS' as const,
      projectStatus: { status: 'OK', conditions: [] }
    }
    await analysed(
      { ...base, projectKey: 'mono-api', issues: sampleIssues(2, ['BLOCKER']) },
      'services/api',
      ws
    )
    await analysed(
      { ...base, projectKey: 'mono-web', issues: sampleIssues(1, ['MAJOR'], 7) },
      'services/web',
      ws
    )

    const run = await runAction(ws, {
      node,
      inputs: {
        sonarToken: TOKEN,
        scanMetadataReportFile: 'services/*/.scannerwork/report-task.txt'
      }
    })

    const errors = annotationCommands(run.stdout, 'error').map(({ properties }) => properties)
    expect(errors.map(({ file }) => file)).toEqual([
      `services/api/${SAMPLE_FILES[1]}`,
      `services/api/${SAMPLE_FILES[2]}`
    ])
    expect(errors[0]!['title']).toMatch(/^mono-api: BLOCKER/)
    const warnings = annotationCommands(run.stdout, 'warning').map(({ properties }) => properties)
    expect(warnings).toEqual([expect.objectContaining({ file: `services/web/${SAMPLE_FILES[1]}` })])
    expect(warnings[0]!['title']).toMatch(/^mono-web: MEDIUM · /)
  })

  it('hostile issues: no runner command, no file outside the checkout, one line each', async () => {
    const hostile = sampleIssues(4, ['BLOCKER']).map((issue, index) => ({
      ...issue,
      message: [
        'x\n::error::fake',
        '%0A::warning::y',
        '<img src=x onerror=alert(1)>',
        'z'.repeat(50_000)
      ][index]!,
      path: ['../../etc/passwd', '/etc/passwd', 'src/app.ts\n::notice::n', 'src/app.ts'][index]!,
      ruleName: 'rule\r\n::error::title'
    }))
    const { ws } = await analysed({
      finishAfterMs: 0,
      taskStatus: 'SUCCESS',
      projectKey: 'shop-hostile',
      projectStatus: { status: 'OK', conditions: [] },
      issues: hostile
    })

    const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })

    expect(run.exitCode).toBe(0)
    const errors = annotationCommands(run.stdout, 'error')
    expect(errors).toHaveLength(4)
    expect(errors.map(({ properties }) => properties['file'])).toEqual([
      undefined,
      undefined,
      undefined,
      'src/app.ts'
    ])
    // Each message is one annotation whose first line is inert text.
    for (const { message, properties } of errors) {
      expect(message.split('\n')[0]).not.toMatch(/^::/)
      expect(properties['title']).not.toMatch(/[\r\n]/)
      expect(message.length).toBeLessThan(2000)
    }
    expect(
      run.stdout.split('\n').filter((line) => /^::(warning|notice)::(y|n)/.test(line))
    ).toEqual([])
    expect(run.summary).not.toContain('<img')
  })

  describe('Community Edition on a pull request: the branch’s new issues on the lines it changes', () => {
    async function onPullRequest(ws: Workspace, inputs: Record<string, string> = {}) {
      const eventFile = await writePullRequestEvent(ws)
      return runAction(ws, {
        node,
        inputs: { sonarToken: TOKEN, githubToken: GITHUB_TOKEN, ...inputs },
        env: {
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventFile,
          GITHUB_REPOSITORY: 'octo/shop',
          GITHUB_API_URL: github.url,
          GITHUB_SERVER_URL: 'https://github.example.com',
          GITHUB_SHA: 'a'.repeat(40)
        }
      })
    }

    // Issue n is on line 3 + (n % 40) of SAMPLE_FILES[n % 3].
    const branchScript = async (projectKey: string): Promise<AnalysisScript> => ({
      finishAfterMs: 0,
      taskStatus: 'SUCCESS',
      projectKey,
      projectStatus: { status: 'OK', conditions: [] },
      issues: sampleIssues(6, ['CRITICAL'])
    })

    it('keeps the issues on added lines, links files at the head commit, the GitHub token only to GitHub', async () => {
      github.files = [
        // Issue 1 (src/db/query.ts line 4) and issue 4 (line 7): only line 4 is added.
        { filename: SAMPLE_FILES[1], status: 'modified', patch: '@@ -1,3 +1,4 @@\n a\n b\n c\n+d' },
        // No patch (a large diff): every issue of the file counts (issues 3 and 6).
        { filename: SAMPLE_FILES[0], status: 'modified' }
      ]
      github.refuseFiles = false
      const { ws } = await analysed(await branchScript('ce-shop'))

      const run = await onPullRequest(ws)

      const files = annotationCommands(run.stdout, 'error').map(
        ({ properties }) => `${properties['file']}:${properties['line']}`
      )
      expect(files.sort()).toEqual(
        [`${SAMPLE_FILES[0]}:6`, `${SAMPLE_FILES[0]}:9`, `${SAMPLE_FILES[1]}:4`].sort()
      )
      expect(run.outputs['newIssues']).toBe('3')
      expect(run.stdout).toContain(
        `3 of the 6 new-code issues read are on the lines pull request #${NUMBER} changes.`
      )
      expect(run.summary).toContain(
        `https://github.example.com/octo/shop/blob/${HEAD_SHA}/src/db/query.ts#L4`
      )
      const filesRequests = github.requests.filter(({ url }) => url.includes('/files'))
      expect(filesRequests.length).toBeGreaterThan(0)
      for (const request of filesRequests)
        expect(request.authorization).toBe(`token ${GITHUB_TOKEN}`)
      expect(
        server.simulator.requests.filter(({ authorization }) =>
          authorization?.includes(GITHUB_TOKEN)
        )
      ).toEqual([])
    })

    it('when the lines cannot be read: one line, and the issues unfiltered', async () => {
      github.refuseFiles = true
      const { ws } = await analysed(await branchScript('ce-shop-2'))

      const run = await onPullRequest(ws)

      expect(run.stdout).toMatch(
        /The lines pull request #7 changes could not be read \(GitHub said: 403/
      )
      expect(run.outputs['newIssues']).toBe('6')
      github.refuseFiles = false
    })

    it('issuesCheckRun: every issue on the head commit in batches of 50, concluded by the gate', async () => {
      github.files = SAMPLE_FILES.map((filename) => ({ filename, status: 'modified' }))
      const before = github.checkRuns.length
      const { ws } = await analysed({
        finishAfterMs: 0,
        taskStatus: 'SUCCESS',
        projectKey: 'checked-shop',
        projectStatus: { status: 'ERROR', conditions: [] },
        issues: sampleIssues(120)
      })

      const run = await onPullRequest(ws, { issuesCheckRun: 'true' })

      expect(run.exitCode).toBe(1)
      const [checkRun] = github.checkRuns.slice(before)
      expect(checkRun!.create).toMatchObject({
        name: 'Sonar issues: checked-shop',
        head_sha: HEAD_SHA,
        status: 'completed',
        conclusion: 'failure'
      })
      const batches = [checkRun!.create, ...checkRun!.updates].map(
        (request) => (request['output'] as { annotations: unknown[] }).annotations.length
      )
      expect(batches).toEqual([50, 50, 20])
    })

    it("issuesCheckRun with a fork's token (403): one warning, the verdict unchanged", async () => {
      github.refuseWrites = true
      const { ws } = await analysed({ ...(await branchScript('forked-shop')) })

      const run = await onPullRequest(ws, { issuesCheckRun: 'true' })

      expect(run.exitCode).toBe(0)
      const warnings = annotationCommands(run.stdout, 'warning').map(({ message }) => message)
      expect(warnings.filter((message) => message.includes('checks: write'))).toHaveLength(1)
      github.refuseWrites = false
    })
  })
})
