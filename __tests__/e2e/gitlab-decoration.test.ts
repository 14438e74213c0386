/**
 * `--decorate` as a GitLab merge-request pipeline runs it: the bundle dist/cli.js against the
 * simulated server, with GitLab's predefined variables pointing at a loopback GitLab shaped from
 * its REST documentation. A failing gate (failed status, the note, discussions on the lines the
 * merge request adds, the branch analysis narrowed to them as Community Build needs), a re-run
 * after the fix (the note edited, the status success, the discussions resolved), a refusal and a
 * rate limit that change nothing else, and each token kept to its own server.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { CLI_ENTRY, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
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
import {
  sampleIssues,
  scenario,
  type AnalysisScript
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { RUNTIMES, TOKEN } from '../support/action-runs.js'
import { decorationServer, QUICK, stoppedAfterEach } from '../support/decoration-runs.js'
import { mentionsIn } from '../support/mentions.js'
import { renderAsGitHub } from '../support/summary-as-github.js'

const GITLAB_TOKEN = 'glpat-fake-token'

const server = decorationServer()
const checkout = (script: AnalysisScript) => server.checkout(script)

const started = stoppedAfterEach(startFakeGitLab)

/**
 * A GitLab whose merge request adds lines 4 to 9 of src/app.ts and 4 to 8 of src/db/query.ts:
 * four of the gate-error scenario's issues stand on them.
 */
async function gitlabWith(options: FakeGitLabOptions = {}) {
  const fake = await started({
    diffs: [
      { old_path: 'src/app.ts', new_path: 'src/app.ts', diff: addingLines(3, 6) },
      { old_path: 'src/db/query.ts', new_path: 'src/db/query.ts', diff: addingLines(3, 5) }
    ],
    ...options
  })
  return fake
}

describe.each(RUNTIMES)(
  '--decorate in a GitLab merge-request pipeline, on $runtime',
  ({ node }) => {
    function decorate(ws: Workspace, fake: FakeGitLab, args: string[] = []) {
      return timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate', ...args], {
        cwd: ws.cwd,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          SONAR_TOKEN: TOKEN,
          GITLAB_TOKEN,
          GITLAB_CI: 'true',
          CI_API_V4_URL: fake.url,
          CI_PROJECT_ID: GITLAB_PROJECT,
          CI_PROJECT_URL: 'http://gitlab.example/acme/shop',
          CI_COMMIT_SHA: DIFF_REFS.head_sha,
          CI_MERGE_REQUEST_IID: MERGE_REQUEST_IID,
          CI_PIPELINE_ID: '812'
        },
        killAfterMs: 30_000
      })
    }

    it('a failing gate, then a re-run after the fix: the note edited, the status flipped, the discussions resolved', async () => {
      const fake = await gitlabWith()
      const failed = await decorate(
        await checkout({ ...(await scenario('gate-error')), finishAfterMs: 200 }),
        fake
      )

      expect(failed.exitCode).toBe(1)
      expect(failed.stderr).toContain(
        '4 of the 18 new-code issues read are on the lines merge request !42 changes.'
      )
      expect(failed.stderr).toContain(
        'GitLab: the note for demo-project is created on merge request !42.'
      )
      expect(failed.stderr).toContain(
        'GitLab: 4 discussions started on the diff, 0 resolved (their issues are gone).'
      )
      expect(fake.statuses).toEqual([
        expect.objectContaining({
          state: 'failed',
          name: 'sonarqube/demo-project',
          pipeline_id: 812
        })
      ])
      const note = renderAsGitHub(fake.notes[0]!.body)
      expect(note.of('h3')[0]!.text).toBe('❌ Quality Gate failed · demo-project')
      expect(note.text).toContain('New issues: 4')
      expect(note.text).toContain('What changed')
      expect(note.text).toContain('Security hotspots to review in the new code: 7')
      // The issues link to the file at the commit on GitLab.
      expect(note.of('a').map(({ attributes }) => attributes['href'])).toContain(
        `http://gitlab.example/acme/shop/-/blob/${DIFF_REFS.head_sha}/src/app.ts#L6`
      )
      expect(fake.discussions.map((d) => d.notes[0]!.position?.['new_path'])).toEqual([
        'src/db/query.ts',
        'src/app.ts',
        'src/db/query.ts',
        'src/app.ts'
      ])

      const fixed = await decorate(await checkout(await scenario('done')), fake)
      expect(fixed.exitCode).toBe(0)
      expect(fake.notes).toHaveLength(1)
      expect(renderAsGitHub(fake.notes[0]!.body).of('h3')[0]!.text).toBe(
        '✅ Quality Gate passed · demo-project'
      )
      expect(fake.statuses.at(-1)).toMatchObject({
        state: 'success',
        description: 'Quality Gate passed'
      })
      expect(fake.discussions.every((d) => d.notes[0]!.resolved === true)).toBe(true)
      expect(fixed.stderr).toContain(
        'GitLab: 0 discussions started on the diff, 4 resolved (their issues are gone).'
      )

      // Each token to its own server only, and in no log.
      for (const result of [failed, fixed]) {
        expect(result.stderr).not.toContain(GITLAB_TOKEN)
        expect(result.stderr).not.toContain(TOKEN)
      }
      expect(JSON.stringify(fake.requests)).not.toContain(TOKEN)
      expect(fake.requests.every(({ privateToken }) => privateToken === GITLAB_TOKEN)).toBe(true)
      expect(JSON.stringify(server.simulator.requests)).not.toContain(GITLAB_TOKEN)
    })

    it('hostile issue text: no mention, no quick action, no markup, no token in the note or the discussions', async () => {
      const fake = await gitlabWith()
      const hostile = [
        '@all @octo-org/security-team look',
        '/merge\n/approve',
        '--> <!-- sonar-quality-gate: other --> <img src=x onerror=alert(1)>',
        `the token ${TOKEN}`
      ]
      const issues = sampleIssues(4, ['BLOCKER'], 3).map((one, index) => ({
        ...one,
        message: hostile[index]!
      }))
      const result = await decorate(
        await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0, issues }),
        fake
      )
      expect(result.exitCode).toBe(1)
      const bodies = [fake.notes[0]!.body, ...fake.discussions.map((d) => d.notes[0]!.body)]
      expect(bodies.length).toBeGreaterThan(1)
      for (const body of bodies) {
        const rendered = renderAsGitHub(body)
        expect(mentionsIn(rendered.mentionable)).toEqual([])
        expect(body.split('\n').filter((line) => line.startsWith('/'))).toEqual([])
        expect(rendered.of('img')).toEqual([])
        expect(body).not.toContain(TOKEN)
      }
      expect(
        fake.notes[0]!.body.split('\n').filter((line) => line.startsWith('<!-- sonar-quality-gate'))
      ).toHaveLength(1)
    })

    it('another’s copies of our note and of a discussion are never edited nor resolved; ours are', async () => {
      const fake = await gitlabWith()
      const failed = await decorate(
        await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
        fake
      )
      expect(failed.exitCode).toBe(1)
      // Our first run's note and a discussion, made another's: exact copies of our markers.
      const copy = fake.notes[0]!
      copy.author = SOMEONE
      const theirs = fake.discussions[0]!.notes[0]!
      theirs.author = SOMEONE
      const copied = copy.body

      const fixed = await decorate(await checkout(await scenario('done')), fake, [
        '--comment-when',
        'changed'
      ])
      expect(fixed.exitCode).toBe(0)
      expect(fixed.stderr).toContain('Quality Gate status: OK')
      expect(fixed.stderr).not.toContain('warning')
      expect(copy.body).toBe(copied)
      expect(fake.notes.map(({ author }) => author.id)).toEqual([SOMEONE.id, BOT.id])
      expect(renderAsGitHub(fake.notes[1]!.body).of('h3')[0]!.text).toBe(
        '✅ Quality Gate passed · demo-project'
      )
      expect(theirs.resolved).toBe(false)
      expect(fake.discussions.slice(1).every((d) => d.notes[0]!.resolved === true)).toBe(true)
      expect(fixed.stderr).toContain(
        'GitLab: 0 discussions started on the diff, 3 resolved (their issues are gone).'
      )
    })

    it('--all-projects in a monorepo: each project the pipeline did not analyse gets a passing status that says so, in the pipeline', async () => {
      const fake = await gitlabWith()
      const ws = await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 })
      const run = await decorate(ws, fake, [
        '--all-projects',
        'billing,demo-project',
        '--all-projects',
        'search',
        '--markdown',
        'summary.md'
      ])
      expect(run.exitCode).toBe(1)
      expect(
        fake.statuses.map(({ name, state, description, pipeline_id }) => [
          name,
          state,
          description,
          pipeline_id
        ])
      ).toEqual([
        ['sonarqube/demo-project', 'failed', expect.stringMatching(/^Quality Gate failed/), 812],
        ['sonarqube/billing', 'success', 'Not analysed in this run', 812],
        ['sonarqube/search', 'success', 'Not analysed in this run', 812]
      ])
      expect(run.stderr).toContain(
        'GitLab: not analysed in this run, a passing commit status each: billing, search.'
      )
      // The summary names them too.
      const summary = await readFile(ws.file('summary.md'), 'utf8')
      expect(summary).toContain(
        '<p>➖ Not analysed in this run (a passing status each): <code>billing</code>, <code>search</code>.</p>'
      )
    })

    it('GET /user names no one: one warning, the note written anew, the exit code the verdict’s', async () => {
      const fake = await gitlabWith({ user: 'no-id' })
      const dir = await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 })
      // The first run finds no note of ours, so who the token is is not asked.
      const first = await decorate(dir, fake)
      expect(first.stderr).not.toContain("GitLab: the token's own identity")
      expect(fake.notes).toHaveLength(1)
      const result = await decorate(dir, fake)
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toContain('Quality Gate Failure')
      const warnings = result.stderr
        .split('\n')
        .filter((line) => line.startsWith('warning') && line.includes('GitLab'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("GitLab: the token's own identity could not be read")
      expect(fake.notes).toHaveLength(2)
    })

    it('403: one warning naming the scope, and the exit code is the verdict’s', async () => {
      const fake = await gitlabWith({ refuse: 403 })
      const result = await decorate(
        await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 }),
        fake
      )
      expect(result.exitCode).toBe(1)
      const warnings = result.stderr.split('\n').filter((line) => line.includes('GitLab refused'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain('(403): it needs the api scope')
      expect(fake.requests).toHaveLength(1)
    })

    it("429: GitLab's Retry-After is waited, then everything is written", async () => {
      const fake = await gitlabWith({ tooManyFirst: 1 })
      const result = await decorate(await checkout(await scenario('done')), fake)
      expect(result.exitCode).toBe(0)
      expect(fake.statuses).toHaveLength(1)
      expect(fake.notes).toHaveLength(1)
      expect(result.stderr).not.toContain('warning')
    })

    it('without GITLAB_TOKEN: one warning, nothing sent, the verdict unchanged', async () => {
      const fake = await gitlabWith()
      const ws = await checkout(await scenario('done'))
      const result = await timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate'], {
        cwd: ws.cwd,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          SONAR_TOKEN: TOKEN,
          CI_API_V4_URL: fake.url,
          CI_PROJECT_ID: GITLAB_PROJECT,
          CI_COMMIT_SHA: DIFF_REFS.head_sha
        },
        killAfterMs: 30_000
      })
      expect(result.exitCode).toBe(0)
      expect(result.stderr).toContain('--decorate: GITLAB_TOKEN is not set; nothing is decorated.')
      expect(fake.requests).toEqual([])
    })
  }
)

describe('--decorate for a GitLab merge request built in Jenkins (the GitLab plugin)', () => {
  const { node } = RUNTIMES[0]!

  it("the plugin's variables name the project, the merge request and the commit: the status, the note and the discussions", async () => {
    const fake = await gitlabWith()
    const origin = new URL(fake.url).origin
    const ws = await checkout({ ...(await scenario('gate-error')), finishAfterMs: 0 })
    const run = await timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate'], {
      cwd: ws.cwd,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        SONAR_TOKEN: TOKEN,
        GITLAB_TOKEN,
        JENKINS_URL: 'https://jenkins.example.com/',
        EXECUTOR_NUMBER: '1',
        gitlabTargetRepoHttpUrl: `${origin}/acme/shop.git`,
        gitlabMergeRequestTargetProjectId: GITLAB_PROJECT,
        gitlabMergeRequestIid: MERGE_REQUEST_IID,
        gitlabMergeRequestLastCommit: DIFF_REFS.head_sha
      },
      killAfterMs: 30_000
    })
    expect(run.exitCode).toBe(1)
    // Outside GitLab CI there is no pipeline to join: the status stands on the commit alone.
    expect(fake.statuses).toEqual([
      expect.objectContaining({
        sha: DIFF_REFS.head_sha,
        state: 'failed',
        name: 'sonarqube/demo-project'
      })
    ])
    expect(fake.statuses[0]).not.toHaveProperty('pipeline_id')
    expect(run.stderr).toContain(
      `GitLab: the note for demo-project is created on merge request !${MERGE_REQUEST_IID}.`
    )
    expect(fake.discussions.length).toBeGreaterThan(0)
    expect(fake.requests.every(({ path }) => path.startsWith('/api/v4/'))).toBe(true)
    expect(run.stderr).not.toContain(GITLAB_TOKEN)
  })
})
