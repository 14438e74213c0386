/**
 * The decoration of a GitLab merge request against a loopback GitLab shaped from its REST
 * documentation (__fixtures__/gitlab/fake-gitlab.ts): the commit status, the project's note
 * (edited in place), discussions on the lines the merge request adds (at most --inline-limit,
 * never two for one issue, resolved once the issue is gone), Community Build's branch analysis
 * narrowed to the merge request's lines, and every refusal one warning that changes nothing else.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  addingLines,
  BOT,
  DIFF_REFS,
  GITLAB_PROJECT,
  MERGE_REQUEST_IID,
  SOMEONE,
  startFakeGitLab,
  type FakeGitLab,
  type FakeGitLabOptions
} from '../../__fixtures__/gitlab/fake-gitlab.js'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { commandSink, inCommandWords } from '../../__fixtures__/sinks.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { GitLabApi } from '../../src/platforms/gitlab/gitlab-api.js'
import {
  decorate as decoratePlatform,
  type DecorationOptions
} from '../../src/platforms/decorate.js'
import { gitlabPlatform, type GitLabTarget } from '../../src/platforms/gitlab/gitlab.js'
import type { FileLink } from '../../src/report/new-issues-block.js'

type GitLabPipeline = GitLabTarget & { fileLink: FileLink | undefined }
import { summaryForms } from '../../src/report/summary-text.js'
import { tokenForms } from '../../src/secrets.js'
import { lineIssue, shopOutcome } from '../support/review-outcomes.js'
import { mentionsIn } from '../support/mentions.js'
import { renderAsGitHub } from '../support/summary-as-github.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'

const TOKEN = 'glpat-fake-token'
const SONAR_TOKEN = 'squ_0123456789abcdef0123456789abcdef01234567'
const SHA = DIFF_REFS.head_sha

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.stop()))
})

async function gitlabWith(options: FakeGitLabOptions = {}) {
  const fake = await startFakeGitLab({
    diffs: [
      // src/Cart.java gains lines 41 to 45; src/Old.java is renamed src/New.java, gaining 10 to 11.
      { old_path: 'src/Cart.java', new_path: 'src/Cart.java', diff: addingLines(40, 5) },
      {
        old_path: 'src/Old.java',
        new_path: 'src/New.java',
        diff: addingLines(9, 2),
        renamed_file: true
      },
      { old_path: 'src/Huge.java', new_path: 'src/Huge.java', diff: '', too_large: true }
    ],
    ...options
  })
  running.push(fake)
  return fake
}

const issue = lineIssue
const outcome = (
  status: 'OK' | 'ERROR',
  issues: Record<string, unknown>[],
  scope: 'pull-request' | 'new-code' = 'pull-request'
) => shopOutcome(status, issues, { scope })

function pipeline(fields: Partial<GitLabPipeline> = {}): GitLabPipeline {
  return {
    projectId: GITLAB_PROJECT,
    sha: SHA,
    mergeRequestIid: MERGE_REQUEST_IID,
    pipelineId: '812',
    fileLink: undefined,
    names: {
      project: 'CI_PROJECT_ID',
      mergeRequest: 'CI_MERGE_REQUEST_IID',
      api: 'CI_API_V4_URL'
    },
    ...fields
  }
}

async function decorate(
  fake: FakeGitLab,
  outcomes: AnalysisOutcome[],
  options: Partial<DecorationOptions> & { pipeline?: Partial<GitLabPipeline> } = {}
) {
  const log = new RecordingLog(COMMAND_NAMES)
  const gitlab = new GitLabApi({
    apiUrl: new URL(fake.url),
    token: TOKEN,
    userAgent: 'test',
    clock: new FakeClock(),
    deadline: 60_000
  })
  const target = pipeline(options.pipeline)
  await decoratePlatform(gitlabPlatform(gitlab, target), outcomes, {
    fileLink: target.fileLink,
    sink: commandSink({
      secrets: [...tokenForms(SONAR_TOKEN), ...tokenForms(TOKEN)],
      escapedForms: summaryForms,
      limit: 1_000_000,
      unit: 'characters'
    }),
    policy: FAIL_ON_ERROR,
    commentWhen: 'always',
    inlineLimit: 10,
    inlineSeverity: 'info',
    log,
    ...options
  })
  // The log's lines as the command says them (its option names).
  return { of: (kind: 'info' | 'warning') => log.of(kind).map(inCommandWords) }
}

/** Our discussion of an issue that is gone (AY-gone), not resolved yet. */
const ourStaleDiscussion = () => ({
  id: 'e'.repeat(40),
  individual_note: false,
  notes: [
    {
      id: 2,
      body: '<!-- sonar-issue: AY-gone -->\nold',
      author: BOT,
      system: false,
      resolved: false
    }
  ]
})

const failing = () =>
  outcome('ERROR', [
    issue('AY-minor', 'src/Cart.java', 41, 'MINOR'),
    issue('AY-blocker', 'src/Cart.java', 43, 'BLOCKER'),
    issue('AY-renamed', 'src/New.java', 10, 'CRITICAL'),
    issue('AY-unchanged', 'src/Cart.java', 12, 'BLOCKER'),
    issue('AY-huge', 'src/Huge.java', 7, 'BLOCKER')
  ])

describe('a failing gate on a merge request, then a re-run after the fix', () => {
  it('status failed, one note, discussions on added lines only, most severe first; then edited, success, resolved', async () => {
    const fake = await gitlabWith()
    const first = await decorate(fake, [failing()])

    expect(fake.statuses).toEqual([
      expect.objectContaining({
        sha: SHA,
        state: 'failed',
        name: 'sonarqube/shop',
        pipeline_id: 812,
        target_url: 'https://sonar.example.com/dashboard?id=my-project'
      })
    ])
    expect(String(fake.statuses[0]!['description'])).toMatch(
      /^Quality Gate failed: \d+ of \d+ conditions failed$/
    )
    expect(fake.notes).toHaveLength(1)
    const note = renderAsGitHub(fake.notes[0]!.body)
    expect(note.of('h3')[0]!.text).toBe('❌ Quality Gate failed · shop')
    expect(note.text).toContain('New issues: 5')
    // Discussions: the issues on lines the merge request adds, most severe first; not the one on
    // an unchanged line, nor the one in a file whose diff GitLab left out.
    const positions = fake.discussions.map((discussion) => discussion.notes[0]!.position)
    expect(positions).toEqual([
      {
        position_type: 'text',
        ...DIFF_REFS,
        old_path: 'src/Cart.java',
        new_path: 'src/Cart.java',
        new_line: 43
      },
      {
        position_type: 'text',
        ...DIFF_REFS,
        old_path: 'src/Old.java',
        new_path: 'src/New.java',
        new_line: 10
      },
      {
        position_type: 'text',
        ...DIFF_REFS,
        old_path: 'src/Cart.java',
        new_path: 'src/Cart.java',
        new_line: 41
      }
    ])
    expect(first.of('info')).toContain(
      'GitLab: 3 discussions started on the diff, 0 resolved (their issues are gone).'
    )

    // The fix: the blocker is gone and the gate passes.
    const second = await decorate(fake, [
      outcome('OK', [
        issue('AY-minor', 'src/Cart.java', 41, 'MINOR'),
        issue('AY-renamed', 'src/New.java', 10, 'CRITICAL')
      ])
    ])
    expect(fake.notes).toHaveLength(1)
    expect(renderAsGitHub(fake.notes[0]!.body).of('h3')[0]!.text).toBe(
      '✅ Quality Gate passed · shop'
    )
    expect(fake.statuses.at(-1)).toMatchObject({
      state: 'success',
      description: 'Quality Gate passed'
    })
    expect(fake.discussions).toHaveLength(3)
    expect(
      fake.discussions.map((d) => [d.notes[0]!.position!['new_line'], d.notes[0]!.resolved])
    ).toEqual([
      [43, true],
      [10, false],
      [41, false]
    ])
    expect(second.of('info')).toContain(
      'GitLab: 0 discussions started on the diff, 1 resolved (their issues are gone).'
    )
    expect(second.of('warning')).toEqual([])
  })

  it('at most --inline-limit discussions, the most severe; the rest counted; --inline-severity leaves out the lesser', async () => {
    const fake = await gitlabWith()
    const log = await decorate(fake, [failing()], { inlineLimit: 1 })
    expect(fake.discussions.map((d) => d.notes[0]!.position!['new_line'])).toEqual([43])
    expect(log.of('info')).toContain(
      'GitLab: 1 discussions started on the diff; 2 more past --inline-limit, 0 resolved (their issues are gone).'
    )
    const severe = await gitlabWith()
    await decorate(severe, [failing()], { inlineSeverity: 'high' })
    expect(severe.discussions.map((d) => d.notes[0]!.position!['new_line'])).toEqual([43, 10])
    const none = await gitlabWith()
    await decorate(none, [failing()], { inlineLimit: 0 })
    // The one listing of the merge request's discussions finds its notes too.
    expect(
      none.requests.filter(
        ({ method, path }) =>
          (path.includes('/discussions') && method !== 'GET') || path.includes('/diffs')
      )
    ).toEqual([])
    expect(none.requests.filter(({ path }) => path.includes('/discussions'))).toHaveLength(1)
  })

  it("another's discussion carrying an issue's marker is not ours: ours is started, theirs never resolved", async () => {
    const theirs = {
      id: 'f'.repeat(40),
      individual_note: false,
      notes: [
        {
          id: 1,
          body: '<!-- sonar-issue: AY-blocker -->\nfake',
          author: SOMEONE,
          system: false,
          resolved: false
        }
      ]
    }
    const stale = ourStaleDiscussion()
    const fake = await gitlabWith({ discussions: [theirs, stale] })
    await decorate(fake, [failing()])
    expect(theirs.notes[0]!.resolved).toBe(false)
    expect(stale.notes[0]!.resolved).toBe(true)
    expect(fake.discussions.filter((d) => d.notes[0]!.body.includes('AY-blocker'))).toHaveLength(2)
  })

  it('issues not all read: no discussion is resolved (an issue not read is not gone)', async () => {
    const stale = ourStaleDiscussion()
    const fake = await gitlabWith({ discussions: [stale] })
    const partly = failing()
    if (partly.read && partly.result.newIssues?.read) partly.result.newIssues.total = 9000
    await decorate(fake, [partly])
    expect(stale.notes[0]!.resolved).toBe(false)
  })
})

describe("Community Build: a branch analysis, narrowed to the merge request's lines", () => {
  it('the note and the discussions hold the issues on the lines it adds, and say so', async () => {
    const fake = await gitlabWith()
    const log = await decorate(fake, [
      outcome(
        'ERROR',
        [
          issue('AY-on', 'src/Cart.java', 42, 'MAJOR'),
          issue('AY-off', 'src/Cart.java', 12, 'BLOCKER'),
          issue('AY-elsewhere', 'src/Other.java', 3, 'BLOCKER')
        ],
        'new-code'
      )
    ])
    expect(log.of('info')).toContain(
      '1 of the 3 new-code issues read are on the lines merge request !42 changes.'
    )
    const note = renderAsGitHub(fake.notes[0]!.body).text
    expect(note).toContain('New issues: 1')
    expect(note).toContain('on the lines merge request !42 changes')
    expect(fake.discussions).toHaveLength(1)
  })

  it('GitLab before 15.7 (no .../diffs): the lines come from .../changes', async () => {
    const fake = await gitlabWith({ before157: true })
    await decorate(fake, [outcome('ERROR', [issue('AY-on', 'src/Cart.java', 42)], 'new-code')])
    expect(fake.requests.map(({ path }) => path)).toContain(
      `/api/v4/projects/7/merge_requests/42/changes`
    )
    expect(fake.discussions).toHaveLength(1)
  })
})

describe('--comment-when', () => {
  it('failed: no note while the gate passes; an existing note is still brought up to date', async () => {
    const fake = await gitlabWith()
    const log = await decorate(fake, [outcome('OK', [])], { commentWhen: 'failed' })
    expect(fake.notes).toEqual([])
    expect(log.of('info')).toContain(
      'GitLab: the note for shop is left as it is (--comment-when failed).'
    )
    await decorate(fake, [failing()], { commentWhen: 'failed' })
    await decorate(fake, [outcome('OK', [])], { commentWhen: 'failed' })
    expect(fake.notes).toHaveLength(1)
    expect(fake.notes[0]!.body).toContain('<!-- verdict: passed -->')
  })

  it('changed: the note is written again only when its verdict changed', async () => {
    const fake = await gitlabWith()
    await decorate(fake, [failing()], { commentWhen: 'changed' })
    const puts = () =>
      fake.requests.filter(({ method, path }) => method === 'PUT' && path.includes('/notes/'))
    await decorate(fake, [failing()], { commentWhen: 'changed' })
    expect(puts()).toHaveLength(0)
    await decorate(fake, [outcome('OK', [])], { commentWhen: 'changed' })
    expect(puts()).toHaveLength(1)
  })
})

describe('never a failure, never silent', () => {
  it.each([
    [401, 'is not valid (401)'],
    [403, 'may not write to project 7 (403): it needs the api scope'],
    [404, 'has no merge request !42 in project 7 for this token (404)']
  ] as const)(
    '%i: one warning naming what is missing, and nothing more is tried',
    async (status, words) => {
      const fake = await gitlabWith({ refuse: status })
      const log = await decorate(fake, [failing()])
      expect(log.of('warning')).toHaveLength(1)
      expect(log.of('warning')[0]).toContain(words)
      expect(log.of('warning')[0]).toContain('the verdict and the exit code are unchanged')
      expect(fake.requests).toHaveLength(1)
    }
  )

  it("429: GitLab's Retry-After is waited, then the decoration goes on", async () => {
    const fake = await gitlabWith({ tooManyFirst: 2 })
    const log = await decorate(fake, [failing()])
    expect(log.of('warning')).toEqual([])
    expect(fake.statuses).toHaveLength(1)
    expect(fake.notes).toHaveLength(1)
  })

  it('outside a merge-request pipeline: the commit status alone, said in one line', async () => {
    const fake = await gitlabWith()
    const log = await decorate(fake, [failing()], { pipeline: { mergeRequestIid: undefined } })
    expect(fake.statuses).toHaveLength(1)
    expect(fake.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      `POST /api/v4/projects/7/statuses/${SHA}`
    ])
    expect(log.of('info')).toContain(
      'Not a merge-request pipeline (no CI_MERGE_REQUEST_IID): the commit statuses are set, and no note is written.'
    )
  })

  it('diff_refs not computed yet: the note is written, no discussion, said in one line', async () => {
    const fake = await gitlabWith({ noDiffRefs: true })
    const log = await decorate(fake, [failing()])
    expect(fake.notes).toHaveLength(1)
    expect(fake.discussions).toEqual([])
    expect(log.of('info')).toContain(
      "GitLab has not computed merge request !42's diff yet (no diff_refs): no discussions this run."
    )
  })
})

describe('hostile issue text', () => {
  const HOSTILE = [
    '@all @octo-org/security-team please look',
    '/merge\n/approve\n/close',
    '--> <!-- sonar-quality-gate: other --> <img src=x onerror=alert(1)>',
    `the token ${SONAR_TOKEN} and ${TOKEN}`,
    '```\n/close\n```'
  ]

  it.each(HOSTILE)(
    '%j: no mention, no quick action, no markup, no token, one marker',
    async (text) => {
      const fake = await gitlabWith()
      await decorate(fake, [
        outcome('ERROR', [issue('AY-1', 'src/Cart.java', 42, 'BLOCKER', text)])
      ])
      const bodies = [fake.notes[0]!.body, ...fake.discussions.map((d) => d.notes[0]!.body)]
      expect(bodies).toHaveLength(2)
      for (const body of bodies) {
        const rendered = renderAsGitHub(body)
        expect(mentionsIn(rendered.mentionable)).toEqual([])
        // GitLab runs a line that starts with / as a quick action.
        expect(body.split('\n').filter((line) => line.startsWith('/'))).toEqual([])
        expect(
          rendered.elements.filter(({ tag }) => tag === '#comment').length
        ).toBeGreaterThanOrEqual(1)
        expect(rendered.of('img')).toEqual([])
        expect(body).not.toContain(SONAR_TOKEN)
        expect(body).not.toContain(TOKEN)
      }
      // One marker line: the hostile one is escaped text inside a paragraph.
      expect(
        fake.notes[0]!.body.split('\n').filter((line) => line.startsWith('<!-- sonar-quality-gate'))
      ).toHaveLength(1)
    }
  )

  it('the GitLab token goes in PRIVATE-TOKEN to GitLab alone; the Sonar token never goes to GitLab', async () => {
    const fake = await gitlabWith()
    await decorate(fake, [failing()])
    expect(fake.requests.every(({ privateToken }) => privateToken === TOKEN)).toBe(true)
    expect(JSON.stringify(fake.requests)).not.toContain(SONAR_TOKEN)
  })
})

describe('only our own note and discussions: the marker and the token’s own user', () => {
  /** Our note of a first run, made another's: an exact copy of our marker and verdict line. */
  async function withTheirCopy(commentWhen: 'always' | 'failed' | 'changed') {
    const fake = await gitlabWith()
    await decorate(fake, [failing()], { commentWhen })
    const copy = fake.notes[0]!
    copy.author = SOMEONE
    return { fake, copy, body: copy.body }
  }

  it.each(['always', 'failed', 'changed'] as const)(
    '--comment-when %s: another’s exact copy is never edited; ours is written, then found and edited',
    async (commentWhen) => {
      const { fake, copy, body } = await withTheirCopy(commentWhen)
      const log = await decorate(fake, [failing()], { commentWhen })
      expect(log.of('info')).toContain('GitLab: the note for shop is created on merge request !42.')
      const ours = fake.notes.filter(({ author }) => author.id === BOT.id)
      expect(ours).toHaveLength(1)
      expect(ours[0]!.body).toContain('<!-- verdict: failed -->')

      await decorate(fake, [outcome('OK', [])], { commentWhen })
      expect(copy.body).toBe(body)
      expect(ours[0]!.body).toContain('<!-- verdict: passed -->')
      const edits = fake.requests.filter(
        ({ method, path }) => method === 'PUT' && path.includes('/notes/')
      )
      expect(edits.map(({ path }) => path)).toEqual([
        `/api/v4/projects/7/merge_requests/42/notes/${ours[0]!.id}`
      ])
    }
  )

  it.each([
    [403, '403 Forbidden'],
    ['no-id', 'GitLab did not say who the token']
  ] as const)(
    'GET /user %s: one warning; the note is written anew, our old one not edited, no discussion resolved',
    async (user, why) => {
      const fake = await gitlabWith()
      await decorate(fake, [failing()])
      const stale = ourStaleDiscussion()
      const again = await gitlabWith({
        notes: fake.notes,
        discussions: [...fake.discussions, stale],
        user
      })
      const started = again.discussions.length
      const log = await decorate(again, [failing()])
      const warning = log.of('warning')
      expect(warning).toHaveLength(1)
      expect(warning[0]).toContain("GitLab: the token's own identity could not be read")
      expect(warning[0]).toContain(why)
      expect(warning[0]).toContain('nothing is edited, resolved or closed')
      expect(again.requests.filter(({ method }) => method === 'PUT')).toEqual([])
      expect(again.notes).toHaveLength(2)
      expect(stale.notes[0]!.resolved).toBe(false)
      // The issues a discussion already carries get no second one.
      expect(again.discussions).toHaveLength(started)
    }
  )
})

describe('one review: the discussions written as draft notes and published at once', () => {
  const writes = (fake: FakeGitLab) =>
    fake.requests
      .filter(({ method }) => method !== 'GET')
      .map(({ method, path }) => `${method} ${path.replace(/^\/api\/v4\/projects\/7\//, '')}`)

  it('several: a draft each, then one bulk_publish (one notification); none started one by one', async () => {
    const fake = await gitlabWith()
    const log = await decorate(fake, [failing()])
    expect(writes(fake)).toEqual([
      `POST statuses/${SHA}`,
      'POST merge_requests/42/notes',
      'POST merge_requests/42/draft_notes',
      'POST merge_requests/42/draft_notes',
      'POST merge_requests/42/draft_notes',
      'POST merge_requests/42/draft_notes/bulk_publish'
    ])
    expect(fake.reviews).toEqual([3])
    expect(fake.drafts).toEqual([])
    expect(fake.discussions.map((d) => d.notes[0]!.position!['new_line'])).toEqual([43, 10, 41])
    expect(log.of('info')).toContain(
      'GitLab: 3 discussions started on the diff, 0 resolved (their issues are gone).'
    )
    expect(log.of('info').filter((line) => line.includes('one by one'))).toEqual([])
  })

  it('one: its discussion started at once, no draft, nothing said of a review', async () => {
    const fake = await gitlabWith()
    const log = await decorate(fake, [
      outcome('ERROR', [issue('AY-blocker', 'src/Cart.java', 43, 'BLOCKER')])
    ])
    expect(log.of('info').filter((line) => line.includes('one by one'))).toEqual([])
    expect(writes(fake).slice(2)).toEqual(['POST merge_requests/42/discussions'])
    expect(fake.requests.some(({ path }) => path.includes('draft_notes'))).toBe(false)
  })

  const pending = () => ({
    id: 3,
    author_id: BOT.id,
    note: 'a review half written',
    position: null
  })

  it.each([
    [
      'a GitLab without draft notes (404)',
      'absent' as const,
      [],
      'no draft notes for this token (404)'
    ],
    [
      'a GitLab that refuses the token draft notes (403)',
      'refused' as const,
      [],
      'no draft notes for this token (403)'
    ],
    [
      'a GitLab that keeps no position on a draft',
      'no-position' as const,
      ['DELETE'],
      'GitLab kept no position on a draft note (it is deleted)'
    ],
    [
      "the token's user with a draft of their own pending",
      [pending()],
      [],
      "the token's user has 1 draft note of their own pending on the merge request, which publishing would send too"
    ]
  ])(
    '%s: the discussions are started one by one, said in a line; no draft left, no one’s draft published',
    async (_, drafts, deleted, why) => {
      const fake = await gitlabWith({ drafts })
      const log = await decorate(fake, [failing()])
      expect(fake.reviews).toEqual([])
      expect(fake.drafts).toEqual(Array.isArray(drafts) ? [pending()] : [])
      expect(
        writes(fake)
          .filter((line) => line.startsWith('DELETE'))
          .map((l) => l.split(' ')[0])
      ).toEqual(deleted)
      expect(writes(fake).filter((line) => line.endsWith('/discussions'))).toHaveLength(3)
      expect(fake.discussions.map((d) => d.notes[0]!.position!['new_line'])).toEqual([43, 10, 41])
      expect(log.of('warning')).toEqual([])
      const said = log.of('info').filter((line) => line.includes('one by one'))
      expect(said).toHaveLength(1)
      expect(said[0]).toMatch(
        /^GitLab: the discussions are started one by one, not as one review: /
      )
      expect(said[0]).toContain(why)
    }
  )

  it('a draft refused half-way: the drafts made are deleted, nothing is published, one warning', async () => {
    const fake = await gitlabWith({ refuseDraft: 2 })
    const log = await decorate(fake, [failing()])
    expect(writes(fake).slice(2)).toEqual([
      'POST merge_requests/42/draft_notes',
      'POST merge_requests/42/draft_notes',
      `DELETE merge_requests/42/draft_notes/${fake.notes[0]!.id + 1}`
    ])
    expect(fake.drafts).toEqual([])
    expect(fake.reviews).toEqual([])
    expect(fake.discussions).toEqual([])
    const warning = log.of('warning')
    expect(warning).toHaveLength(1)
    expect(warning[0]).toContain('the discussions on the diff failed')
    expect(warning[0]).toContain('the verdict and the exit code are unchanged')
  })
})
