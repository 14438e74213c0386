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
  startFakeAzureDevOps,
  type FakeAzureDevOps
} from '../../__fixtures__/azure/fake-azure-devops.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { decorateInAzure } from '../../src/cli/azure-decoration.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { terminalLog } from '../../src/cli/terminal-log.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
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
function failing(): AnalysisOutcome {
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

async function decorate(fake: FakeAzureDevOps, env: NodeJS.ProcessEnv = {}) {
  const written: string[] = []
  const log = terminalLog(
    { write: (text) => written.push(text) },
    { color: false, names: COMMAND_NAMES }
  )
  await decorateInAzure([failing()], {
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
    commentWhen: 'always',
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
