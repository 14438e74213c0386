/**
 * The decoration of Bitbucket Cloud against a loopback Bitbucket shaped from its OpenAPI
 * description (__fixtures__/bitbucket/fake-bitbucket-cloud.ts): the build status and the Code
 * Insights report with its annotations on the commit (batches of 100, at most 1,000, replaced on
 * a re-run), and on a pull request one comment per project in Markdown, edited in place; every
 * refusal one warning that changes nothing else; server text inert; each token to its own
 * server only.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  BITBUCKET_TOKEN,
  COMMIT,
  PULL_REQUEST,
  REPOSITORY,
  startFakeBitbucketCloud,
  type FakeBitbucketCloud,
  type FakeComment,
  SOMEONE,
  TOKEN_BOT,
  TOKEN_USER
} from '../../__fixtures__/bitbucket/fake-bitbucket-cloud.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { commandSink, inCommandWords } from '../../__fixtures__/sinks.js'
import { BitbucketApi } from '../../src/platforms/bitbucket-cloud/bitbucket-api.js'
import {
  bitbucketCloud,
  BITBUCKET_LIMITS
} from '../../src/platforms/bitbucket-cloud/bitbucket-cloud.js'
import { decorate as decoratePlatform } from '../../src/platforms/decorate.js'
import { digestId as reportId } from '../../src/platforms/review-platform.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import type { CommentWhen } from '../../src/report/comment-settings.js'
import { markdownForms } from '../../src/report/markup.js'
import { tokenForms } from '../../src/secrets.js'
import { analysis, serverIssue } from '../support/findings.js'
import { mentionsIn } from '../support/mentions.js'
import { renderAsMarkdown } from '../support/summary-as-github.js'
import { gateResult } from './summary-gate-result.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'

const SONAR_TOKEN = 'squ_0123456789abcdef0123456789abcdef01234567'

const running: FakeBitbucketCloud[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((fake) => fake.stop()))
})

async function bitbucketWith(options: Parameters<typeof startFakeBitbucketCloud>[0] = {}) {
  const fake = await startFakeBitbucketCloud(options)
  running.push(fake)
  return fake
}

/** Project shop's outcome with `count` new issues (or those given), gate `status`. */
function outcome(status: 'OK' | 'ERROR', issues: Record<string, unknown>[]): AnalysisOutcome {
  const { findings, total } = analysis({ issues, projectKey: 'shop' })
  return {
    read: true,
    source: 'report-task.txt',
    result: gateResult({
      projectKey: 'shop',
      status,
      ...(status === 'OK' ? { conditions: [] } : {}),
      newIssues: {
        read: true,
        scope: { kind: 'new-code', branch: undefined },
        findings: findings.map((finding) => ({ ...finding, file: finding.serverPath })),
        total,
        requests: 1
      }
    })
  }
}

const issues = (count: number, message?: (n: number) => string) =>
  Array.from({ length: count }, (_, n) =>
    serverIssue(`AY-${n}`, {
      component: `shop:src/File${n % 7}.java`,
      line: 1 + n,
      textRange: { startLine: 1 + n, endLine: 1 + n, startOffset: 0, endOffset: 3 },
      severity: ['BLOCKER', 'CRITICAL', 'MAJOR', 'MINOR', 'INFO'][n % 5],
      impacts: [],
      ...(message ? { message: message(n) } : {})
    })
  )

async function decorate(
  fake: FakeBitbucketCloud,
  outcomes: AnalysisOutcome[],
  options: { pullRequest?: string | undefined; commentWhen?: CommentWhen } = {}
) {
  const log = new RecordingLog(COMMAND_NAMES)
  const bitbucket = new BitbucketApi({
    apiUrl: new URL(fake.url),
    token: BITBUCKET_TOKEN,
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000
  })
  try {
    await decoratePlatform(
      bitbucketCloud(bitbucket, {
        repository: REPOSITORY,
        commit: COMMIT,
        pullRequestId: 'pullRequest' in options ? options.pullRequest : PULL_REQUEST,
        reportsOnly: false
      }),
      outcomes,
      {
        sink: commandSink({
          secrets: [...tokenForms(SONAR_TOKEN), ...tokenForms(BITBUCKET_TOKEN)],
          escapedForms: markdownForms,
          limit: BITBUCKET_LIMITS.commentChars,
          unit: 'characters'
        }),
        policy: FAIL_ON_ERROR,
        commentWhen: options.commentWhen ?? 'always',
        inlineLimit: 0,
        inlineSeverity: 'info',
        log
      }
    )
  } finally {
    bitbucket.close()
  }
  return { of: (kind: 'info' | 'warning') => log.of(kind).map(inCommandWords) }
}

const theReport = (fake: FakeBitbucketCloud) => fake.reports.get(`${COMMIT}/${reportId('shop')}`)!

describe('a failing gate, then a re-run after the fix', () => {
  it('status FAILED, the report with its annotations, one Markdown comment; then SUCCESSFUL, the report replaced, the comment edited', async () => {
    const fake = await bitbucketWith({ account: TOKEN_USER })
    const first = await decorate(fake, [outcome('ERROR', issues(5))])

    expect([...fake.statuses.values()]).toEqual([
      {
        key: reportId('shop'),
        state: 'FAILED',
        name: 'sonarqube/shop',
        url: 'https://sonar.example.com/dashboard?id=my-project',
        description: expect.stringMatching(
          /^Quality Gate failed: \d+ of \d+ conditions failed$/
        ) as string
      }
    ])
    const report = theReport(fake)
    expect(report.body).toMatchObject({
      title: 'SonarQube: shop',
      result: 'FAILED',
      report_type: 'BUG',
      link: 'https://sonar.example.com/dashboard?id=my-project',
      data: [
        { title: 'Quality Gate', type: 'TEXT', value: 'ERROR' },
        { title: 'New issues', type: 'NUMBER', value: 5 }
      ]
    })
    // The most severe first, each with its place, our severity in Bitbucket's scale.
    expect(report.annotations.map(({ severity, path, line }) => [severity, path, line])).toEqual([
      ['CRITICAL', 'src/File0.java', 1],
      ['HIGH', 'src/File1.java', 2],
      ['MEDIUM', 'src/File2.java', 3],
      ['LOW', 'src/File3.java', 4],
      ['LOW', 'src/File4.java', 5]
    ])
    expect(fake.comments).toHaveLength(1)
    const comment = renderAsMarkdown(fake.comments[0]!.content.raw)
    expect(comment.of('h3')[0]!.text).toBe('❌ Quality Gate failed · shop')
    expect(comment.text).toContain('New issues: 5')
    expect(first.of('info')).toContain(
      'Bitbucket: the comment for shop is created on pull request #7.'
    )

    const second = await decorate(fake, [outcome('OK', issues(1))])
    expect([...fake.statuses.values()].map(({ state }) => state)).toEqual(['SUCCESSFUL'])
    expect(theReport(fake).annotations).toHaveLength(1)
    expect(theReport(fake).body['result']).toBe('PASSED')
    expect(fake.comments).toHaveLength(1)
    expect(renderAsMarkdown(fake.comments[0]!.content.raw).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · shop'
    )
    expect(second.of('warning')).toEqual([])
  })

  it('1,200 new issues: batches of 100, the 1,000 most severe kept', async () => {
    const fake = await bitbucketWith()
    const log = await decorate(fake, [outcome('ERROR', issues(1200))])
    const posts = fake.requests.filter(({ path }) => path.endsWith('/annotations'))
    expect(posts).toHaveLength(10)
    expect(posts.every(({ body }) => Array.isArray(body) && body.length === 100)).toBe(true)
    expect(theReport(fake).annotations).toHaveLength(1000)
    expect(log.of('info')).toContain(
      `Bitbucket: the report for shop is on commit ${COMMIT.slice(0, 12)}, with 1000 annotations.`
    )
  })

  it('a deleted comment that carries the marker is left alone: a new one is written', async () => {
    const deleted: FakeComment = {
      id: 1,
      content: { raw: '[//]: # "sonar-quality-gate: shop"\nold' },
      deleted: true
    }
    const fake = await bitbucketWith({ comments: [deleted] })
    await decorate(fake, [outcome('ERROR', issues(1))])
    expect(fake.comments).toHaveLength(2)
    expect(deleted.content.raw).toBe('[//]: # "sonar-quality-gate: shop"\nold')
  })

  it('outside a pull request: the status and the report, no comment, said in one line', async () => {
    const fake = await bitbucketWith()
    const log = await decorate(fake, [outcome('ERROR', issues(2))], { pullRequest: undefined })
    expect(fake.comments).toEqual([])
    expect(theReport(fake).annotations).toHaveLength(2)
    expect(log.of('info')).toContain(
      'Not a pull-request pipeline (no BITBUCKET_PR_ID): the build statuses and reports are set, and no comment is written.'
    )
  })

  it('--comment-when failed: no comment while the gate passes', async () => {
    const fake = await bitbucketWith()
    const log = await decorate(fake, [outcome('OK', [])], { commentWhen: 'failed' })
    expect(fake.comments).toEqual([])
    expect(log.of('info')).toContain(
      'Bitbucket: the comment for shop is left as it is (--comment-when failed).'
    )
  })
})

describe('never a failure, never silent', () => {
  it.each([
    [401, 'is not valid (401)'],
    [403, 'may not write to acme/shop (403): it needs the repository write scope'],
    [404, 'shows this token no repository acme/shop or pull request #7 (404)']
  ] as const)(
    '%i: one warning naming what is missing, and nothing more is tried',
    async (status, words) => {
      const fake = await bitbucketWith({ refuse: status })
      const log = await decorate(fake, [outcome('ERROR', issues(3))])
      expect(log.of('warning')).toHaveLength(1)
      expect(log.of('warning')[0]).toContain(words)
      expect(fake.requests).toHaveLength(1)
    }
  )

  it("429: Bitbucket's Retry-After is waited, then everything is written", async () => {
    const fake = await bitbucketWith({ tooManyFirst: 2 })
    const log = await decorate(fake, [outcome('ERROR', issues(3))])
    expect(log.of('warning')).toEqual([])
    expect(fake.comments).toHaveLength(1)
    expect(theReport(fake).annotations).toHaveLength(3)
  })
})

describe('hostile issue text', () => {
  it.each([
    '@all look',
    '[x](https://evil.example) <img src=x> **now**',
    `the tokens ${SONAR_TOKEN} and ${BITBUCKET_TOKEN}`,
    'x'.repeat(5000)
  ])('%j: the comment inert, the annotations bounded, no token', async (text) => {
    const fake = await bitbucketWith()
    await decorate(fake, [
      outcome(
        'ERROR',
        issues(2, () => text)
      )
    ])
    const raw = fake.comments[0]!.content.raw
    const rendered = renderAsMarkdown(raw)
    expect(mentionsIn(rendered.mentionable)).toEqual([])
    expect(rendered.of('img')).toEqual([])
    for (const link of rendered.of('a')) {
      expect(new URL(link.attributes['href']!).origin).toBe('https://sonar.example.com')
    }
    const sent = JSON.stringify(fake.requests.map(({ body }) => body))
    expect(sent).not.toContain(SONAR_TOKEN)
    expect(sent).not.toContain(BITBUCKET_TOKEN)
    for (const { summary } of theReport(fake).annotations) {
      expect(String(summary).length).toBeLessThanOrEqual(450)
    }
  })

  it('the Bitbucket token goes as a Bearer to Bitbucket alone', async () => {
    const fake = await bitbucketWith()
    await decorate(fake, [outcome('ERROR', issues(1))])
    expect(
      fake.requests.every(({ authorization }) => authorization === `Bearer ${BITBUCKET_TOKEN}`)
    ).toBe(true)
  })
})

describe('only our own comment: the marker and the token’s own account', () => {
  const live = (fake: FakeBitbucketCloud) => fake.comments.filter(({ deleted }) => !deleted)
  const edits = (fake: FakeBitbucketCloud) =>
    fake.requests.filter(
      ({ method, path }) => (method === 'PUT' || method === 'DELETE') && path.includes('/comments/')
    )

  /** Our comment of a first run, made another's: an exact copy of our marker and verdict line. */
  async function withTheirCopy(commentWhen: CommentWhen, account?: typeof TOKEN_USER) {
    const fake = await bitbucketWith(account ? { account } : {})
    await decorate(fake, [outcome('ERROR', issues(2))], { commentWhen })
    const copy = fake.comments[0]!
    copy.user = SOMEONE
    return { fake, copy, raw: copy.content.raw }
  }

  it.each(['always', 'failed', 'changed'] as const)(
    'a user’s token, --comment-when %s: another’s exact copy is never edited; ours is written, then found and edited',
    async (commentWhen) => {
      const { fake, copy, raw } = await withTheirCopy(commentWhen, TOKEN_USER)
      const log = await decorate(fake, [outcome('ERROR', issues(2))], { commentWhen })
      expect(log.of('info')).toContain(
        'Bitbucket: the comment for shop is created on pull request #7.'
      )
      const ours = live(fake).filter(({ user }) => user?.uuid === TOKEN_USER.uuid)
      expect(ours).toHaveLength(1)
      await decorate(fake, [outcome('OK', [])], { commentWhen })
      expect(copy.content.raw).toBe(raw)
      expect(copy.deleted).toBeUndefined()
      expect(renderAsMarkdown(ours[0]!.content.raw).of('h3')[0]!.text).toBe(
        '✅ Quality Gate passed · shop'
      )
      expect(edits(fake).map(({ method, path }) => `${method} ${path}`)).toEqual([
        `PUT /2.0/repositories/acme/shop/pullrequests/7/comments/${ours[0]!.id}`
      ])
    }
  )

  it.each(['always', 'failed', 'changed'] as const)(
    'an access token (GET /user refused), --comment-when %s: written anew, our earlier one deleted, another’s copy untouched',
    async (commentWhen) => {
      const { fake, copy, raw } = await withTheirCopy(commentWhen)
      const first = await decorate(fake, [outcome('ERROR', issues(2))], { commentWhen })
      const second = await decorate(fake, [outcome('OK', [])], { commentWhen })
      expect(copy.content.raw).toBe(raw)
      expect(copy.deleted).toBeUndefined()
      const ours = live(fake).filter(({ user }) => user?.uuid === TOKEN_BOT.uuid)
      expect(ours).toHaveLength(1)
      expect(renderAsMarkdown(ours[0]!.content.raw).of('h3')[0]!.text).toBe(
        '✅ Quality Gate passed · shop'
      )
      // Never a request on the copy: only our own earlier comment is deleted.
      expect(edits(fake).map(({ method, path }) => `${method} ${path}`)).toEqual([
        `DELETE /2.0/repositories/acme/shop/pullrequests/7/comments/${ours[0]!.id - 1}`
      ])
      for (const log of [first, second]) {
        expect(log.of('warning')).toEqual([])
        expect(log.of('info')).toContain(
          'Bitbucket: the token\'s own identity could not be read (Bitbucket answered 401 to GET user: {"message":"Token is invalid or not supported for this endpoint."}), so no comment is known as ours: the comment is written anew, and the earlier ones by the account Bitbucket names as its author are deleted.'
        )
      }
    }
  )
})
