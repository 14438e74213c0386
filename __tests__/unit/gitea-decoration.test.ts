/**
 * The decoration of a Gitea or Forgejo pull request through the one driver and the Gitea
 * platform, against a loopback Gitea shaped from its API description
 * (__fixtures__/gitea/fake-gitea.ts): a commit status per project, the project's comment in
 * Markdown (edited in place, another's copy of the marker never ours), the issues on the lines
 * the diff adds as one review, none twice, resolved once gone where the server can (Gitea 1.26
 * and later; Forgejo cannot: none counted, never a failure), and a refusal one warning.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  diffAdding,
  FakeGitea,
  GITEA_PULL_REQUEST,
  GITEA_SOMEONE,
  type FakeGiteaOptions
} from '../../__fixtures__/gitea/fake-gitea.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { commandSink, inCommandWords } from '../../__fixtures__/sinks.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { RestApi } from '../../src/http/rest-api.js'
import { decorate as decoratePlatform } from '../../src/platforms/decorate.js'
import { giteaPlatform, type GiteaTarget } from '../../src/platforms/gitea/gitea.js'
import { markdownForms } from '../../src/report/markup.js'
import { tokenForms } from '../../src/secrets.js'
import { lineIssue, shopOutcome } from '../support/review-outcomes.js'
import { renderAsMarkdown } from '../support/summary-as-github.js'

const TOKEN = 'gitea-token-0123456789abcdef0123456789abcdef'
const SHA = 'c'.repeat(40)

const running: FakeGitea[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((fake) => fake.stop()))
})

async function giteaWith(options: FakeGiteaOptions = {}) {
  const fake = new FakeGitea({ diff: diffAdding({ 'src/Cart.java': [40, 5] }), ...options })
  await fake.start()
  running.push(fake)
  return fake
}

const issue = lineIssue
const outcome = (status: 'OK' | 'ERROR', issues: Record<string, unknown>[]) =>
  shopOutcome(status, issues, { pullRequest: String(GITEA_PULL_REQUEST) })

const failing = () =>
  outcome('ERROR', [
    issue('AY-minor', 'src/Cart.java', 41, 'MINOR'),
    issue('AY-blocker', 'src/Cart.java', 43, 'BLOCKER'),
    issue('AY-unchanged', 'src/Cart.java', 12, 'BLOCKER')
  ])

async function decorate(
  fake: FakeGitea,
  outcomes: AnalysisOutcome[],
  target: Partial<GiteaTarget> = {}
) {
  const log = new RecordingLog(COMMAND_NAMES)
  const rest = new RestApi({
    platform: 'Gitea',
    apiUrl: new URL(`${fake.url}/api/v1`),
    token: TOKEN,
    headers: { authorization: `token ${TOKEN}` },
    redirectAdvice: 'Set --gitea-url.',
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000
  })
  const platform = giteaPlatform(rest, {
    kind: 'Gitea',
    owner: 'acme',
    repo: 'shop',
    commit: SHA,
    pullRequest: GITEA_PULL_REQUEST,
    names: {
      repository: 'GITHUB_REPOSITORY',
      pullRequest: 'the event file',
      api: 'GITHUB_API_URL'
    },
    ...target
  })
  await decoratePlatform(platform, outcomes, {
    sink: commandSink({
      secrets: tokenForms(TOKEN),
      escapedForms: markdownForms,
      limit: 65_536,
      unit: 'characters'
    }),
    policy: FAIL_ON_ERROR,
    commentWhen: 'always',
    inlineLimit: 10,
    inlineSeverity: 'info',
    log
  })
  platform.close()
  return { of: (kind: 'info' | 'warning') => log.of(kind).map(inCommandWords) }
}

const reviewPosts = (fake: FakeGitea) =>
  fake.requests.filter(({ method, path }) => method === 'POST' && path.endsWith('/reviews'))

describe('Gitea: a failing gate, then a re-run after the fix', () => {
  it('a failure status, one Markdown comment, the added lines in one review; then success, edited, resolved', async () => {
    const fake = await giteaWith()
    const first = await decorate(fake, [failing()])
    expect(fake.statuses).toEqual([
      {
        sha: SHA,
        body: expect.objectContaining({
          state: 'failure',
          context: 'sonarqube/shop',
          target_url: 'https://sonar.example.com/dashboard?id=my-project'
        })
      }
    ])
    expect(fake.comments).toHaveLength(1)
    expect(renderAsMarkdown(fake.comments[0]!.body).text).toContain('Quality Gate failed')
    expect(reviewPosts(fake)).toHaveLength(1)
    expect(fake.reviewComments.map(({ path, position }) => [path, position])).toEqual([
      ['src/Cart.java', 43],
      ['src/Cart.java', 41]
    ])
    expect(first.of('info')).toContain(
      'Gitea: 2 comments started in one review, 0 resolved (their issues are gone).'
    )

    const second = await decorate(fake, [
      outcome('OK', [issue('AY-minor', 'src/Cart.java', 41, 'MINOR')])
    ])
    expect(fake.comments).toHaveLength(1)
    expect(renderAsMarkdown(fake.comments[0]!.body).text).toContain('Quality Gate passed')
    expect(fake.statuses.at(-1)?.body).toMatchObject({ state: 'success' })
    expect(reviewPosts(fake)).toHaveLength(1)
    expect(
      fake.reviewComments.map(({ position, resolver }) => [position, resolver !== null])
    ).toEqual([
      [43, true],
      [41, false]
    ])
    expect(second.of('info')).toContain(
      'Gitea: 0 comments started in one review, 1 resolved (their issues are gone).'
    )
    expect(second.of('warning')).toEqual([])
  })

  it('Forgejo, which cannot resolve a comment: none counted, nothing failed', async () => {
    const fake = await giteaWith({ forgejo: true })
    await decorate(fake, [failing()], { kind: 'Forgejo' })
    const log = await decorate(fake, [outcome('OK', [])], { kind: 'Forgejo' })
    expect(log.of('info')).toContain(
      'Forgejo: 0 comments started in one review, 0 resolved (their issues are gone).'
    )
    expect(log.of('warning')).toEqual([])
  })
})

describe('only our own comment, and never a failure', () => {
  it("another's copy of the marker is left alone: ours is written beside it", async () => {
    const fake = await giteaWith()
    await decorate(fake, [failing()])
    const copied = fake.comments[0]!.body
    fake.comments.unshift({ id: 1, body: copied, user: GITEA_SOMEONE })
    await decorate(fake, [outcome('OK', [])])
    expect(fake.comments[0]).toEqual({ id: 1, body: copied, user: GITEA_SOMEONE })
    expect(renderAsMarkdown(fake.comments[1]!.body).text).toContain('Quality Gate passed')
  })

  it('a token that may not write: one warning, nothing thrown; the token to the API alone', async () => {
    const fake = await giteaWith()
    fake.refuseWrites = true
    const log = await decorate(fake, [failing()])
    expect(log.of('warning')).toEqual([
      expect.stringMatching(
        /^Gitea refused the decoration; the verdict and the exit code are unchanged\. The token in GITEA_TOKEN may not write to acme\/shop \(403\)/
      )
    ])
    expect(new Set(fake.requests.map(({ authorization }) => authorization))).toEqual(
      new Set([`token ${TOKEN}`])
    )
  })
})
