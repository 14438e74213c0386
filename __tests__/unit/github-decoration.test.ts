/**
 * The decoration of a GitHub pull request from any CI, through the one driver and the GitHub
 * platform, against a loopback GitHub shaped from its REST description
 * (__fixtures__/github/fake-github.ts): a commit status per project, the project's comment (found
 * again by its marker and its author, edited in place), the issues on the lines the pull request
 * adds as **one** review (one request, however many issues), no second comment for an issue on
 * a re-run, threads of issues gone resolved, another's copy of a marker never ours, and a
 * refusal one warning that changes nothing else.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { commandSink, inCommandWords } from '../../__fixtures__/sinks.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import {
  decorate as decoratePlatform,
  type DecorationOptions
} from '../../src/platforms/decorate.js'
import { GitHubApi } from '../../src/platforms/github/github-api.js'
import type { CheckRunStyle } from '../../src/platforms/github/check-run.js'
import {
  GATE_CHECK_RUN,
  githubPlatform,
  type GitHubTarget
} from '../../src/platforms/github/github.js'
import { summaryForms } from '../../src/report/summary-text.js'
import { tokenForms } from '../../src/secrets.js'
import {
  FakeGitHub,
  HEAD_SHA,
  NUMBER,
  type GitHubAccount
} from '../../__fixtures__/github/fake-github.js'
import { lineIssue, patchAdding, shopOutcome } from '../support/review-outcomes.js'
import { renderAsGitHub } from '../support/summary-as-github.js'

const TOKEN = 'ghp_fakeToken0123456789abcdefghijklmnopqrs'
const BOT: GitHubAccount = { login: 'sonar-bot', id: 4242, type: 'User' }
const SOMEONE: GitHubAccount = { login: 'mallory', id: 5, type: 'User' }

const running: FakeGitHub[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((fake) => fake.stop()))
})

/** A GitHub whose pull request adds lines 41 to 45 of src/Cart.java; the token is sonar-bot's. */
async function githubWith(account: GitHubAccount | undefined = BOT) {
  const fake = new FakeGitHub()
  fake.account = account
  fake.files = [
    { filename: 'src/Cart.java', status: 'modified', patch: patchAdding(40, 5) },
    { filename: 'src/Huge.java', status: 'modified' }
  ]
  await fake.start()
  running.push(fake)
  return fake
}

const issue = lineIssue
const outcome = (status: 'OK' | 'ERROR', issues: Record<string, unknown>[]) =>
  shopOutcome(status, issues, { pullRequest: String(NUMBER) })

const failing = () =>
  outcome('ERROR', [
    issue('AY-minor', 'src/Cart.java', 41, 'MINOR'),
    issue('AY-blocker', 'src/Cart.java', 43, 'BLOCKER'),
    issue('AY-unchanged', 'src/Cart.java', 12, 'BLOCKER'),
    issue('AY-huge', 'src/Huge.java', 7, 'BLOCKER')
  ])

function target(fields: Partial<GitHubTarget> = {}): GitHubTarget {
  return {
    owner: 'octo',
    repo: 'shop',
    commit: HEAD_SHA,
    pullRequest: NUMBER,
    names: { repository: 'CHANGE_URL', pullRequest: 'CHANGE_ID', api: 'GITHUB_API_URL' },
    ...fields
  }
}

async function decorate(
  fake: FakeGitHub,
  outcomes: AnalysisOutcome[],
  options: Partial<DecorationOptions> & {
    target?: Partial<GitHubTarget>
    token?: string
    checkRuns?: CheckRunStyle
  } = {}
) {
  const log = new RecordingLog(COMMAND_NAMES)
  const api = new GitHubApi({
    token: options.token ?? TOKEN,
    apiUrl: fake.url,
    clock: new FakeClock(),
    deadline: 60_000
  })
  const platform = githubPlatform(api, target(options.target), { checkRuns: options.checkRuns })
  await decoratePlatform(platform, outcomes, {
    sink: commandSink({
      secrets: tokenForms(options.token ?? TOKEN),
      escapedForms: summaryForms,
      limit: 65_536,
      unit: 'characters'
    }),
    policy: FAIL_ON_ERROR,
    commentWhen: 'always',
    inlineLimit: 10,
    inlineSeverity: 'info',
    log,
    ...options
  })
  api.close()
  return { of: (kind: 'info' | 'warning') => log.of(kind).map(inCommandWords) }
}

const reviewRequests = (fake: FakeGitHub) =>
  fake.requests.filter(({ method, url }) => method === 'POST' && url.endsWith('/reviews'))

describe('GitHub from any CI: a failing gate, then a re-run after the fix', () => {
  it('a failure status, one comment, the issues on added lines in one review; then success, the comment edited, the gone issue resolved', async () => {
    const fake = await githubWith()
    const first = await decorate(fake, [failing()])

    expect(fake.statuses).toEqual([
      {
        sha: HEAD_SHA,
        body: {
          state: 'failure',
          context: 'sonarqube/shop',
          description: expect.stringMatching(/^Quality Gate failed: \d+ of \d+ conditions failed$/),
          target_url: 'https://sonar.example.com/dashboard?id=my-project'
        }
      }
    ])
    expect(fake.comments).toHaveLength(1)
    expect(renderAsGitHub(fake.comments[0]!.body).of('h3')[0]!.text).toBe(
      '❌ Quality Gate failed · shop'
    )
    // One request for every issue: the most severe first, on lines the pull request adds only.
    expect(reviewRequests(fake)).toHaveLength(1)
    expect(fake.reviews[0]).toMatchObject({ event: 'COMMENT' })
    expect(fake.threads.map(({ path, line }) => [path, line])).toEqual([
      ['src/Cart.java', 43],
      ['src/Cart.java', 41]
    ])
    expect(first.of('info')).toContain(
      'GitHub: 2 comments started in one review, 0 resolved (their issues are gone).'
    )
    expect(first.of('warning')).toEqual([])

    // The fix: the blocker is gone and the gate passes.
    const second = await decorate(fake, [
      outcome('OK', [issue('AY-minor', 'src/Cart.java', 41, 'MINOR')])
    ])
    expect(fake.comments).toHaveLength(1)
    expect(renderAsGitHub(fake.comments[0]!.body).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · shop'
    )
    expect(fake.statuses.at(-1)?.body).toMatchObject({ state: 'success' })
    // No second review: the minor issue has its thread already; the blocker's is resolved.
    expect(reviewRequests(fake)).toHaveLength(1)
    expect(fake.threads.map(({ line, isResolved }) => [line, isResolved])).toEqual([
      [43, true],
      [41, false]
    ])
    expect(second.of('info')).toContain(
      'GitHub: 0 comments started in one review, 1 resolved (their issues are gone).'
    )
  })

  it('1,000 new issues on the changed lines: still one request, at most --inline-limit comments', async () => {
    const fake = await githubWith()
    fake.files = [{ filename: 'src/Cart.java', status: 'modified', patch: patchAdding(0, 1000) }]
    const many = Array.from({ length: 1000 }, (_, i) => issue(`AY-${i}`, 'src/Cart.java', i + 1))
    const log = await decorate(fake, [outcome('ERROR', many)], { inlineLimit: 100 })
    expect(reviewRequests(fake)).toHaveLength(1)
    expect(fake.threads).toHaveLength(100)
    expect(log.of('info')).toContain(
      'GitHub: 100 comments started in one review; 900 more past --inline-limit, 0 resolved (their issues are gone).'
    )
  })

  it('an installation token: its bot account found through GraphQL, and its comment edited', async () => {
    const fake = await githubWith(undefined)
    await decorate(fake, [failing()])
    await decorate(fake, [failing()])
    expect(fake.comments).toHaveLength(1)
    expect(reviewRequests(fake)).toHaveLength(1)
  })
})

describe('only our own comments', () => {
  it("another's copy of our marker and another's thread on our issue are never edited nor resolved", async () => {
    const fake = await githubWith()
    await decorate(fake, [failing()])
    const ours = fake.comments[0]!.body
    // Someone copies the comment, and starts a thread carrying the blocker's marker.
    fake.comments.unshift({ id: 1, body: ours, user: SOMEONE })
    fake.threads.push({
      id: 'PRRT_theirs',
      isResolved: false,
      path: 'src/Cart.java',
      line: 44,
      comments: [{ body: '<!-- sonar-issue: AY-gone -->\nfake', author: SOMEONE }]
    })
    await decorate(fake, [outcome('OK', [])])
    expect(fake.comments[0]).toMatchObject({ id: 1, body: ours, user: SOMEONE })
    expect(renderAsGitHub(fake.comments[1]!.body).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · shop'
    )
    expect(fake.threads.find(({ id }) => id === 'PRRT_theirs')?.isResolved).toBe(false)
  })
})

describe('never a failure, never silent', () => {
  it("a token that may not write: one warning in GitHub's words, nothing thrown", async () => {
    const fake = await githubWith()
    fake.refuseWrites = true
    const log = await decorate(fake, [failing()])
    expect(log.of('warning')).toEqual([
      expect.stringMatching(
        /^GitHub refused the decoration; the verdict and the exit code are unchanged\. The token in GITHUB_TOKEN may not write to octo\/shop \(403\)/
      )
    ])
  })

  it('outside a pull request: the statuses, no comment, said in one line', async () => {
    const fake = await githubWith()
    const log = await decorate(fake, [failing()], { target: { pullRequest: undefined } })
    expect(fake.statuses).toHaveLength(1)
    expect(fake.comments).toEqual([])
    expect(log.of('info')).toContain(
      'Not a pull request (no CHANGE_ID): the commit statuses are set, and no comment is written.'
    )
  })

  it('the token goes to the API alone, and never into what is written', async () => {
    const fake = await githubWith()
    await decorate(fake, [failing()])
    expect(new Set(fake.requests.map(({ authorization }) => authorization))).toEqual(
      new Set([`token ${TOKEN}`])
    )
    const written = fake.requests.map(({ body }) => body).join('\n')
    expect(written).not.toContain(TOKEN)
  })
})

describe('a check run where the token may: an installation token from any CI', () => {
  const APP_TOKEN = 'ghs_installationToken0123456789abcdefABCD'

  it('one check run per project stands for its status: the same name, the gate as conclusion, the issues as annotations', async () => {
    const fake = await githubWith(undefined)
    const log = await decorate(fake, [failing()], { token: APP_TOKEN, checkRuns: GATE_CHECK_RUN })
    expect(fake.statuses).toEqual([])
    expect(fake.checkRuns).toHaveLength(1)
    const { create } = fake.checkRuns[0]!
    expect(create).toMatchObject({
      name: 'sonarqube/shop',
      head_sha: HEAD_SHA,
      status: 'completed',
      conclusion: 'failure'
    })
    const output = create['output'] as {
      title: string
      summary: string
      annotations: Array<{ path: string; start_line: number; annotation_level: string }>
    }
    expect(output.title).toBe('4 new issues')
    expect(output.summary).toMatch(/^<p>❌ Quality Gate failed: \d+ of \d+ conditions failed<\/p>/)
    expect(output.annotations.map(({ path, start_line }) => `${path}:${start_line}`)).toEqual([
      'src/Cart.java:43',
      'src/Cart.java:12',
      'src/Huge.java:7',
      'src/Cart.java:41'
    ])
    expect(log.of('info')).toContain(
      `GitHub: the check run for shop is on commit ${HEAD_SHA.slice(0, 12)}, with 4 annotations.`
    )
    expect(log.of('warning')).toEqual([])
    // The comment and the review still follow.
    expect(fake.comments).toHaveLength(1)
    expect(reviewRequests(fake)).toHaveLength(1)

    await decorate(fake, [outcome('OK', [])], { token: APP_TOKEN, checkRuns: GATE_CHECK_RUN })
    expect(fake.checkRuns[1]!.create).toMatchObject({
      name: 'sonarqube/shop',
      conclusion: 'success'
    })
  })

  it('a token GitHub refuses check runs to: the commit status instead, said in one line, and the rest decorated', async () => {
    for (const [token, refuseChecks, said] of [
      [TOKEN, false, 'You must authenticate via a GitHub App.'],
      [APP_TOKEN, true, 'Resource not accessible by integration']
    ] as const) {
      const fake = await githubWith(token === TOKEN ? BOT : undefined)
      fake.refuseChecks = refuseChecks
      const log = await decorate(fake, [failing(), { ...failing() }], {
        token,
        checkRuns: GATE_CHECK_RUN
      })
      expect(fake.checkRuns).toEqual([])
      expect(fake.statuses.map(({ body }) => [body['context'], body['state']])).toEqual([
        ['sonarqube/shop', 'failure'],
        ['sonarqube/shop', 'failure']
      ])
      // Asked once: the second project goes straight to its status.
      const asked = fake.requests.filter(({ url }) => url.endsWith('/check-runs'))
      expect(asked).toHaveLength(1)
      expect(log.of('info')).toContain(
        `GitHub: the token may not create check runs (GitHub said: 403 ${said}); a GitHub App's installation token with the checks write permission may. The commit status for shop is set instead.`
      )
      expect(log.of('warning')).toEqual([])
      expect(fake.comments).toHaveLength(1)
    }
  })
})

describe('--all-projects: a passing status for each project this run did not analyse', () => {
  it('each project not analysed gets a success status saying so; the analysed one its verdict', async () => {
    const fake = await githubWith()
    const log = await decorate(fake, [failing()], { allProjects: ['web', 'shop', 'api'] })
    expect(
      fake.statuses.map(({ body }) => [body['context'], body['state'], body['description']])
    ).toEqual([
      ['sonarqube/shop', 'failure', expect.stringMatching(/^Quality Gate failed/)],
      ['sonarqube/web', 'success', 'Not analysed in this run'],
      ['sonarqube/api', 'success', 'Not analysed in this run']
    ])
    expect(log.of('info')).toContain(
      'GitHub: not analysed in this run, a passing commit status each: web, api.'
    )
    // Their statuses only: no comment, no report of their own.
    expect(fake.comments).toHaveLength(1)
  })

  it('with a check run standing for the status: a neutral one, which a required check takes as passing', async () => {
    const fake = await githubWith(undefined)
    await decorate(fake, [failing()], {
      token: 'ghs_installationToken0123456789abcdefABCD',
      checkRuns: GATE_CHECK_RUN,
      allProjects: ['web']
    })
    expect(fake.checkRuns.map(({ create }) => [create['name'], create['conclusion']])).toEqual([
      ['sonarqube/shop', 'failure'],
      ['sonarqube/web', 'neutral']
    ])
    const output = fake.checkRuns[1]!.create['output'] as { title: string; annotations: unknown[] }
    expect(output).toMatchObject({ title: 'Not analysed in this run', annotations: [] })
  })

  it('an analysis whose project is unknown: no status for any, said in one line', async () => {
    const fake = await githubWith()
    const unknown: AnalysisOutcome = {
      read: false,
      source: 'web/.scannerwork/report-task.txt',
      projectKey: undefined,
      message: 'The report file could not be read.',
      error: new Error('x')
    }
    const log = await decorate(fake, [failing(), unknown], { allProjects: ['web', 'api'] })
    expect(fake.statuses.map(({ body }) => body['context'])).toEqual([
      'sonarqube/shop',
      'sonarqube/web/.scannerwork/report-task.txt'
    ])
    expect(log.of('info')).toContain(
      "GitHub: no status for the projects of --all-projects not analysed: an analysis's project is unknown, and may be one of them."
    )
  })
})
