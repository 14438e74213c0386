/**
 * The decoration of an Azure DevOps pull request through the command's edge, against a loopback
 * Azure DevOps shaped from its REST specification (__fixtures__/azure/fake-azure-devops.ts): a
 * re-run starts no second thread for an issue or a project, 429 waits Retry-After, a build that
 * is not a pull request's or a token not mapped is one warning, and the token goes as a Bearer to
 * Azure DevOps alone.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  AZURE_PROJECT,
  AZURE_PULL_REQUEST,
  AZURE_REPOSITORY,
  AZURE_TOKEN,
  BUILD_SERVICE,
  REVIEWER,
  startFakeAzureDevOps,
  type FakeAzureDevOps
} from '../../__fixtures__/azure/fake-azure-devops.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { decorate as decorateCommand } from '../../src/cli/decoration.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { terminalLog } from '../../src/cli/terminal-log.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { CommentWhen } from '../../src/report/comment-settings.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { analysis, serverIssue } from '../support/findings.js'
import { gateResult } from './summary-gate-result.js'

const running: FakeAzureDevOps[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((fake) => fake.stop()))
})

async function azureWith(options: Parameters<typeof startFakeAzureDevOps>[0] = {}) {
  const fake = await startFakeAzureDevOps({ changed: ['src/Cart.java'], ...options })
  running.push(fake)
  return fake
}

/** Project shop's failing gate with two new issues in src/Cart.java, of its pull request. */
function failing(status: 'ERROR' | 'OK' = 'ERROR'): AnalysisOutcome {
  const { findings, total } = analysis({
    issues: [
      serverIssue('AY-1', {
        component: 'shop:src/Cart.java',
        line: 3,
        textRange: { startLine: 3, endLine: 3, startOffset: 0, endOffset: 5 }
      }),
      serverIssue('AY-2')
    ],
    projectKey: 'shop'
  })
  return {
    read: true,
    source: 'report-task.txt',
    result: gateResult({
      projectKey: 'shop',
      status,
      ...(status === 'OK' ? { conditions: [] } : {}),
      pullRequest: '42',
      newIssues: {
        read: true,
        scope: { kind: 'pull-request', pullRequest: '42' },
        findings: findings.map((finding) => ({ ...finding, file: finding.serverPath })),
        total,
        requests: 1
      }
    })
  }
}

async function decorate(
  fake: FakeAzureDevOps,
  env: NodeJS.ProcessEnv = {},
  {
    commentWhen = 'always',
    status = 'ERROR'
  }: { commentWhen?: CommentWhen; status?: 'ERROR' | 'OK' } = {}
) {
  const written: string[] = []
  const log = terminalLog(
    { write: (text) => written.push(text) },
    { color: false, names: COMMAND_NAMES }
  )
  await decorateCommand([failing(status)], {
    env: {
      SYSTEM_COLLECTIONURI: fake.collection,
      SYSTEM_TEAMPROJECT: AZURE_PROJECT,
      BUILD_REPOSITORY_ID: AZURE_REPOSITORY,
      SYSTEM_PULLREQUEST_PULLREQUESTID: AZURE_PULL_REQUEST,
      BUILD_SOURCEVERSION: 'a'.repeat(40),
      SYSTEM_ACCESSTOKEN: AZURE_TOKEN,
      ...env
    },
    log,
    secrets: [],
    policy: FAIL_ON_ERROR,
    commentWhen,
    inlineLimit: 10,
    inlineSeverity: 'info',
    clock: new FakeClock(),
    deadline: 60_000,
    userAgent: 'test'
  })
  return { warnings: written.filter((line) => line.startsWith('warning:')).join('') }
}

describe('Azure DevOps: one thread per project and per issue, whatever the runs', () => {
  it('a re-run edits the verdict thread and starts no second thread for an issue; statuses are appended', async () => {
    const fake = await azureWith()
    await decorate(fake)
    await decorate(fake)
    expect(fake.threads.filter((t) => t.properties?.['sonarqube.project'])).toHaveLength(1)
    // Only the issue in a file the pull request changes gets a thread, once.
    expect(fake.threads.filter((t) => t.properties?.['sonarqube.issue'])).toHaveLength(1)
    expect(fake.threads.find((t) => t.properties?.['sonarqube.issue'])?.threadContext).toEqual({
      filePath: '/src/Cart.java',
      rightFileStart: { line: 3, offset: 1 },
      rightFileEnd: { line: 3, offset: 1 }
    })
    expect(fake.statuses.map(({ state }) => state)).toEqual(['failed', 'failed'])
    expect(
      fake.requests.every(({ authorization }) => authorization === `Bearer ${AZURE_TOKEN}`)
    ).toBe(true)
  })

  it("429: Azure DevOps's Retry-After is waited, then everything is written", async () => {
    const fake = await azureWith({ tooManyFirst: 2 })
    const log = await decorate(fake)
    expect(log.warnings).toBe('')
    expect(fake.statuses).toHaveLength(1)
    expect(fake.threads.length).toBeGreaterThan(0)
  })

  it('not a pull request build, or no token mapped: one warning, nothing sent', async () => {
    const fake = await azureWith()
    const notPullRequest = await decorate(fake, { SYSTEM_PULLREQUEST_PULLREQUESTID: '' })
    expect(notPullRequest.warnings).toContain('not a pull-request build')
    const noToken = await decorate(fake, { SYSTEM_ACCESSTOKEN: '' })
    expect(noToken.warnings).toContain('SYSTEM_ACCESSTOKEN is not set')
    expect(fake.requests).toEqual([])
  })
})

describe('only our own threads: the properties and the token’s own identity', () => {
  const verdictThreads = (fake: FakeAzureDevOps) =>
    fake.threads.filter((thread) => thread.properties?.['sonarqube.project'])
  const issueThread = (key: string, author = BUILD_SERVICE) => ({
    id: author === REVIEWER ? 7 : 8,
    status: 'active',
    comments: [{ id: 1, content: `<!-- sonar-issue: ${key} -->\nabout ${key}`, author }],
    properties: { 'sonarqube.issue': { $type: 'System.String', $value: key } }
  })
  const patches = (fake: FakeAzureDevOps) =>
    fake.requests
      .filter(({ method }) => method === 'PATCH')
      .map(({ path }) => path.split('/42/')[1])

  it.each(['always', 'failed', 'changed'] as const)(
    '--comment-when %s: a reviewer’s exact copy of the verdict thread is never edited; ours is started, then found and edited',
    async (commentWhen) => {
      const fake = await azureWith()
      await decorate(fake, {}, { commentWhen })
      const copy = verdictThreads(fake)[0]!
      copy.comments[0]!.author = REVIEWER
      const content = copy.comments[0]!.content

      await decorate(fake, {}, { commentWhen })
      const ours = verdictThreads(fake).filter((t) => t.comments[0]!.author === BUILD_SERVICE)
      expect(ours).toHaveLength(1)
      await decorate(fake, {}, { commentWhen, status: 'OK' })
      expect(copy.comments[0]!.content).toBe(content)
      expect(ours[0]!.comments[0]!.content).toContain('[//]: # "verdict: passed"')
      expect(patches(fake)).toEqual([`threads/${ours[0]!.id}/comments/1`])
    }
  )

  it('a reviewer’s active thread carrying our issue property is never closed, nor stands in for ours', async () => {
    const theirs = issueThread('AY-gone', REVIEWER)
    const theirsOnAnIssue = { ...issueThread('AY-1', REVIEWER), id: 9 }
    const stale = issueThread('AY-gone')
    const fake = await azureWith({ threads: [theirs, theirsOnAnIssue, stale] })
    await decorate(fake)
    expect(theirs.status).toBe('active')
    expect(theirsOnAnIssue.status).toBe('active')
    expect(stale.status).toBe('closed')
    expect(patches(fake)).toEqual([`threads/${stale.id}`])
    const onAY1 = fake.threads.filter((t) => t.properties?.['sonarqube.issue']?.$value === 'AY-1')
    expect(onAY1.map((t) => t.comments[0]!.author)).toEqual([REVIEWER, BUILD_SERVICE])
  })

  it.each([
    [403, 'TF400813'],
    ['no-id', 'the reply names none']
  ] as const)(
    'connection data %s: one warning; the verdict thread started anew, nothing edited or closed',
    async (connectionData, why) => {
      const first = await azureWith()
      await decorate(first)
      const stale = issueThread('AY-gone')
      const fake = await azureWith({ threads: [...first.threads, stale], connectionData })
      const log = await decorate(fake)
      expect(log.warnings).toContain("Azure DevOps: the token's own identity could not be read")
      expect(log.warnings).toContain(why)
      expect(log.warnings).toContain('nothing is edited, resolved or closed')
      expect(patches(fake)).toEqual([])
      expect(verdictThreads(fake)).toHaveLength(2)
      expect(stale.status).toBe('active')
      // An issue any thread carries gets no second one.
      expect(fake.threads.filter((t) => t.properties?.['sonarqube.issue'])).toHaveLength(2)
    }
  )
})
