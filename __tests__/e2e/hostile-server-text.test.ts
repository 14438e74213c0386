/**
 * A hostile server against the built action: every text field it sends carries workflow
 * commands, a lone CR, Markdown, HTML, links and the token itself. Nothing of it may become a
 * runner command, a heading, an element or a link in the summary, or show the token. And against
 * the built command's decorations: issue messages, rule names and the project's key written to
 * make references and links (`#1`, `!2`, `~bug`, `&5`, another project's `group/project#3`, a
 * SHA, `https://…`) make none in GitLab's note, discussions and status, Bitbucket's comment and
 * status, Azure DevOps's threads and status, GitHub's comment, review and status, or Gitea's,
 * rendered as each platform renders them and searched with its own patterns.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { CLI_ENTRY, timeChild, type Workspace } from '../../__fixtures__/built-action.js'
import {
  AZURE_PROJECT,
  AZURE_PULL_REQUEST,
  AZURE_REPOSITORY,
  AZURE_TOKEN,
  startFakeAzureDevOps
} from '../../__fixtures__/azure/fake-azure-devops.js'
import {
  BITBUCKET_TOKEN,
  COMMIT,
  PULL_REQUEST,
  REPOSITORY,
  startFakeBitbucketCloud
} from '../../__fixtures__/bitbucket/fake-bitbucket-cloud.js'
import {
  addingLines,
  DIFF_REFS,
  GITLAB_PROJECT,
  MERGE_REQUEST_IID,
  startFakeGitLab
} from '../../__fixtures__/gitlab/fake-gitlab.js'
import {
  diffAdding,
  FakeGitea,
  giteaOptions,
  GITEA_PULL_REQUEST
} from '../../__fixtures__/gitea/fake-gitea.js'
import { HEAD_SHA, NUMBER, startGitHubForSamples } from '../../__fixtures__/github/fake-github.js'
import { sampleIssues, scenario } from '../../__fixtures__/simulator/sonar-simulator.js'
import { HOSTILE_STRINGS } from '../fault-kit/faults.js'
import { json, startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import { decorationServer, QUICK, stoppedAfterEach } from '../support/decoration-runs.js'
import { mentionsIn } from '../support/mentions.js'
import { bareLinksIn, HOSTILE_REFERENCES, referencesIn } from '../support/references.js'
import {
  renderAsGitHub,
  renderAsMarkdown,
  type RenderedSummary
} from '../support/summary-as-github.js'
import { foreignCommands } from '../support/runner-log.js'
import { annotations, RUNTIMES, runAction, TOKEN, workspace } from '../support/action-runs.js'

const EVERY_HOSTILE = HOSTILE_STRINGS.join(' ')
/** Elements the action's own summary is made of. */
const OWN_ELEMENTS = new Set([
  'h2',
  'h3',
  'p',
  'code',
  'br',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'ul',
  'li',
  'a'
])

describe.each(RUNTIMES)('a hostile server, on $runtime', ({ node }) => {
  const servers: LoopbackServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  async function hostile(task: object, gate: object, status = 200) {
    const server = await startLoopbackServer((request, response) => {
      if (request.url?.startsWith('/api/ce/task')) json(response, task)
      else json(response, gate, status)
    })
    servers.push(server)
    const run = await runAction(await workspace(), {
      node,
      inputs: { sonarToken: TOKEN, taskId: 'AYTask1', sonarHostUrl: server.url }
    })
    return { run, server, summary: renderAsGitHub(run.summary) }
  }

  /** What every run must hold, whatever the verdict. */
  function expectNothingInjected(
    { run, server, summary }: Awaited<ReturnType<typeof hostile>>,
    heading: string
  ) {
    expect(foreignCommands(run.stdout)).toEqual([])
    expect(run.stderr).toBe('')
    expect(summary.of('h2').map((element) => element.text)).toEqual([heading])
    expect(summary.elements.filter((element) => !OWN_ELEMENTS.has(element.tag))).toEqual([])
    for (const link of summary.of('a'))
      expect(link.attributes['href']).toMatch(new RegExp(`^${server.url}/`))
    expect(run.summary).not.toContain(TOKEN)
    expect(Object.values(run.outputs).join('\n')).not.toContain(TOKEN)
  }

  it('a FAILED task whose message holds commands, a CR heading, HTML and the token', async () => {
    const result = await hostile(
      {
        task: { id: 'AYTask1', status: 'FAILED', errorMessage: `${EVERY_HOSTILE} token ${TOKEN}` }
      },
      {}
    )
    expect(result.run.exitCode).toBe(1)
    expectNothingInjected(result, '❌ Quality Gate check failed')
    // Quoted on one line, its line breaks shown as \n and \r: the server's words stay readable.
    expect(annotations(result.run.stdout, 'error')[0]).toMatch(
      /^The analysis task AYTask1 ended FAILED: PENDING\\n::error::injected by the server x\\r::set-output/
    )
  })

  it('an ERROR gate whose conditions, warnings and component hold hostile text', async () => {
    const conditions = HOSTILE_STRINGS.map((text) => ({
      status: 'ERROR',
      metricKey: text,
      comparator: text,
      errorThreshold: text,
      actualValue: text
    }))
    const result = await hostile(
      {
        task: {
          id: 'AYTask1',
          status: 'SUCCESS',
          analysisId: 'AYAnalysis1',
          componentKey: EVERY_HOSTILE,
          warnings: [...HOSTILE_STRINGS, '<a href="javascript:alert(1)">click</a>', `echo ${TOKEN}`]
        }
      },
      { projectStatus: { status: 'ERROR', conditions } }
    )
    expect(result.run.exitCode).toBe(1)
    expectNothingInjected(result, '❌ Quality Gate failed')
    // Every hostile value is there to read, as text.
    const rows = result.summary.of('tr').slice(1)
    expect(rows).toHaveLength(HOSTILE_STRINGS.length)
    expect(result.summary.text).toContain('<img src=x onerror=alert(1)><script>alert(2)</script>')
    expect(result.summary.text).toContain('click (javascript:alert(1))')
  })

  it('a line break inside a metric key or project key never starts a line of its own', async () => {
    const fake = '✅ Quality Gate passed'
    const result = await hostile(
      {
        task: {
          id: 'AYTask1',
          status: 'SUCCESS',
          analysisId: 'AYAnalysis1',
          componentKey: `my-project\n${fake}`
        }
      },
      {
        projectStatus: {
          status: 'ERROR',
          conditions: [
            {
              status: 'ERROR',
              metricKey: `new_coverage\n${fake}`,
              comparator: 'LT',
              errorThreshold: '80',
              actualValue: '12'
            },
            { status: 'OK', metricKey: `bugs\r\n${fake}`, comparator: 'GT', errorThreshold: '0' }
          ]
        }
      }
    )
    expect(result.run.exitCode).toBe(1)
    const [failure] = annotations(result.run.stdout, 'error')
    expect(failure).toContain(`for my-project\\n${fake}:`)
    expect(failure).toContain(`- Coverage\\n${fake} on New Code is 12`)
    // Every line of every annotation and of the log is one of the action's own.
    const lines = [
      ...(['error', 'warning', 'notice'] as const).flatMap((command) =>
        annotations(result.run.stdout, command).flatMap((message) => message.split('\n'))
      ),
      ...result.run.stdout.split('\n')
    ]
    expect(lines.filter((line) => line.trimStart().startsWith(fake))).toEqual([])
  })

  it('a 404 whose message echoes the token: not in the summary, the outputs or the log', async () => {
    const result = await hostile(
      { task: { id: 'AYTask1', status: 'SUCCESS', analysisId: 'AYAnalysis1' } },
      { errors: [{ msg: `Analysis not found for token ${TOKEN}` }] },
      404
    )
    expect(result.run.exitCode).toBe(1)
    expectNothingInjected(result, '❌ Quality Gate check failed')
    expect(annotations(result.run.stdout, 'error')[0]).toMatch(
      /^The server says: "Analysis not found for token \*\*\*"/
    )
  })

  it('an unknown gate status passes, says so, and gives quality-gate-status NONE', async () => {
    const result = await hostile(
      { task: { id: 'AYTask1', status: 'SUCCESS', analysisId: 'AYAnalysis1' } },
      { projectStatus: { status: 'FAILED', conditions: [] } }
    )
    expect(result.run.exitCode).toBe(0)
    expect(result.run.outputs).toMatchObject({ status: 'FAILED', 'quality-gate-status': 'NONE' })
    expect(annotations(result.run.stdout, 'warning')).toContain(
      'Unknown Quality Gate status "FAILED": failOn does not name NONE, so the check passes (quality-gate-status NONE).'
    )
    expectNothingInjected(result, '❔ Unknown Quality Gate status FAILED: the check passes')
  })
})

const sonar = decorationServer()
const gitlab = stoppedAfterEach(startFakeGitLab)
const bitbucket = stoppedAfterEach(startFakeBitbucketCloud)
const azure = stoppedAfterEach(startFakeAzureDevOps)

/** The gate-error analysis, its project's key and every issue's message and rule name hostile. */
async function hostileCheckout(): Promise<Workspace> {
  const issues = sampleIssues(HOSTILE_REFERENCES.length, ['BLOCKER'], 3).map((issue, index) => ({
    ...issue,
    rule: `hostile:S${index}`,
    ruleName: HOSTILE_REFERENCES[index]!,
    message: HOSTILE_REFERENCES.at(-1 - index)!
  }))
  return sonar.checkout({
    ...(await scenario('gate-error')),
    finishAfterMs: 0,
    projectKey: 'other-group:other-proj#3',
    issues
  })
}

/**
 * Nothing a platform would link in a rendered body: no reference but `ours` (our own words name
 * the merge or pull request the body is on: `merge request !42`), no mention, no link but to
 * `origins`.
 */
function expectNoReferenceNorLink(
  rendered: RenderedSummary,
  { origins, ours, markdown }: { origins: string[]; ours: string; markdown: boolean }
) {
  const references = rendered.searched.flatMap(referencesIn)
  expect(references.filter((found) => !found.endsWith(`: ${ours}`))).toEqual([])
  expect(rendered.searched.flatMap(mentionsIn)).toEqual([])
  if (markdown) expect(rendered.searched.flatMap(bareLinksIn)).toEqual([])
  for (const link of rendered.of('a')) {
    expect(origins).toContain(new URL(link.attributes['href']!).origin)
  }
}

/**
 * A status's text: no reference, no mention. (Its name is the status's identity, which a branch
 * policy may require by name: kept as it is.)
 */
function expectInertStatus(status: Record<string, unknown>) {
  const text = String(status['description'])
  expect(referencesIn(text)).toEqual([])
  expect(mentionsIn(text)).toEqual([])
}

describe.each(RUNTIMES)(
  'hostile issue text through the built command’s decorations, on $runtime',
  ({ node }) => {
    const run = (ws: Workspace, env: Record<string, string>, args: string[] = []) =>
      timeChild(node, [CLI_ENTRY, ...QUICK, '--decorate', ...args], {
        cwd: ws.cwd,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', SONAR_TOKEN: TOKEN, ...env },
        killAfterMs: 30_000
      })

    it('GitLab: the note, the discussions and the status make no reference and no link', async () => {
      const fake = await gitlab({
        diffs: [
          { old_path: 'src/app.ts', new_path: 'src/app.ts', diff: addingLines(3, 6) },
          { old_path: 'src/db/query.ts', new_path: 'src/db/query.ts', diff: addingLines(3, 5) }
        ]
      })
      const result = await run(await hostileCheckout(), {
        GITLAB_TOKEN: 'glpat-fake-token',
        GITLAB_CI: 'true',
        CI_API_V4_URL: fake.url,
        CI_PROJECT_ID: GITLAB_PROJECT,
        CI_PROJECT_URL: 'http://gitlab.example/acme/shop',
        CI_COMMIT_SHA: DIFF_REFS.head_sha,
        CI_MERGE_REQUEST_IID: MERGE_REQUEST_IID,
        CI_PIPELINE_ID: '812'
      })
      expect(result.exitCode).toBe(1)
      const bodies = [fake.notes[0]!.body, ...fake.discussions.map((d) => d.notes[0]!.body)]
      expect(bodies.length).toBeGreaterThan(1)
      const origins = [new URL(sonar.simulator.url).origin, 'http://gitlab.example']
      const ours = `!${MERGE_REQUEST_IID}`
      for (const body of bodies) {
        expectNoReferenceNorLink(renderAsGitHub(body), { origins, ours, markdown: false })
      }
      // The messages of the issues on the lines the merge request changes are there to read.
      const shown = bodies.map((body) => renderAsGitHub(body).text).join('\n')
      expect(HOSTILE_REFERENCES.filter((text) => shown.includes(text)).length).toBeGreaterThan(3)
      expect(fake.statuses.length).toBeGreaterThan(0)
      for (const status of fake.statuses) expectInertStatus(status)
    })

    it('Bitbucket Cloud: the comment and the status make no reference and no link', async () => {
      const fake = await bitbucket({})
      const result = await run(await hostileCheckout(), {
        BITBUCKET_TOKEN,
        BITBUCKET_API_URL: fake.url,
        BITBUCKET_REPO_FULL_NAME: REPOSITORY,
        BITBUCKET_COMMIT: COMMIT,
        BITBUCKET_PR_ID: PULL_REQUEST,
        BITBUCKET_BRANCH: 'feature/login'
      })
      expect(result.exitCode).toBe(1)
      const rendered = renderAsMarkdown(fake.comments[0]!.content.raw)
      const origins = [new URL(sonar.simulator.url).origin]
      expectNoReferenceNorLink(rendered, { origins, ours: `#${PULL_REQUEST}`, markdown: true })
      for (const text of HOSTILE_REFERENCES) expect(rendered.text).toContain(text)
      expect(fake.statuses.size).toBeGreaterThan(0)
      for (const status of fake.statuses.values()) expectInertStatus(status)
    })

    it('Azure DevOps: the threads and the status make no reference and no link', async () => {
      const fake = await azure({ changed: ['src/app.ts', 'src/db/query.ts'] })
      const result = await run(
        await hostileCheckout(),
        {
          SYSTEM_ACCESSTOKEN: AZURE_TOKEN,
          TF_BUILD: 'True',
          SYSTEM_COLLECTIONURI: fake.collection,
          SYSTEM_TEAMPROJECT: AZURE_PROJECT,
          BUILD_REPOSITORY_ID: AZURE_REPOSITORY,
          SYSTEM_PULLREQUEST_PULLREQUESTID: AZURE_PULL_REQUEST,
          BUILD_SOURCEVERSION: 'a'.repeat(40)
        },
        ['--inline-limit', '3']
      )
      expect(result.exitCode).toBe(1)
      expect(fake.threads.length).toBeGreaterThan(1)
      const origins = [new URL(sonar.simulator.url).origin]
      const ours = `!${AZURE_PULL_REQUEST}`
      const shown: string[] = []
      for (const thread of fake.threads) {
        const rendered = renderAsMarkdown(thread.comments[0]!.content)
        expectNoReferenceNorLink(rendered, { origins, ours, markdown: true })
        shown.push(rendered.text)
      }
      for (const text of HOSTILE_REFERENCES) expect(shown.join('\n')).toContain(text)
      expect(fake.statuses.length).toBeGreaterThan(0)
      for (const status of fake.statuses) expectInertStatus(status)
    })

    it('GitHub from Jenkins: the comment, the review and the status make no reference and no link', async () => {
      const fake = await startGitHubForSamples()
      try {
        const result = await run(await hostileCheckout(), {
          GITHUB_TOKEN: 'ghp_fakeToken0123456789abcdefghijklmnopqrs',
          GITHUB_API_URL: fake.url,
          JENKINS_URL: 'https://jenkins.example.com/',
          CHANGE_URL: `https://github.com/octo/shop/pull/${NUMBER}`,
          CHANGE_ID: String(NUMBER),
          GIT_COMMIT: HEAD_SHA
        })
        expect(result.exitCode).toBe(1)
        const bodies = [
          fake.comments[0]!.body,
          ...fake.threads.map((thread) => thread.comments[0]!.body)
        ]
        expect(fake.threads.length).toBeGreaterThan(0)
        const origins = [new URL(sonar.simulator.url).origin]
        for (const body of bodies) {
          expectNoReferenceNorLink(renderAsGitHub(body), {
            origins,
            ours: `#${NUMBER}`,
            markdown: false
          })
        }
        const shown = bodies.map((body) => renderAsGitHub(body).text).join('\n')
        expect(HOSTILE_REFERENCES.filter((text) => shown.includes(text)).length).toBeGreaterThan(3)
        expect(fake.statuses.length).toBeGreaterThan(0)
        for (const { body } of fake.statuses) expectInertStatus(body)
      } finally {
        await fake.stop()
      }
    })

    it('Gitea: the comment, the review and the status make no reference and no link', async () => {
      const fake = new FakeGitea({
        diff: diffAdding({ 'src/app.ts': [3, 6], 'src/db/query.ts': [3, 5] })
      })
      await fake.start()
      try {
        const result = await run(
          await hostileCheckout(),
          {
            GITEA_TOKEN: 'gitea-token-0123456789abcdef0123456789abcdef',
            JENKINS_URL: 'https://jenkins.example.com/',
            EXECUTOR_NUMBER: '1',
            GIT_COMMIT: HEAD_SHA
          },
          giteaOptions(fake)
        )
        expect(result.exitCode, result.stderr).toBe(1)
        expect(fake.comments, result.stderr).toHaveLength(1)
        const bodies = [fake.comments[0]!.body, ...fake.reviewComments.map(({ body }) => body)]
        expect(fake.reviewComments.length).toBeGreaterThan(0)
        const origins = [new URL(sonar.simulator.url).origin]
        const ours = `#${GITEA_PULL_REQUEST}`
        for (const body of bodies) {
          expectNoReferenceNorLink(renderAsMarkdown(body), { origins, ours, markdown: true })
        }
        const shown = bodies.map((body) => renderAsMarkdown(body).text).join('\n')
        expect(HOSTILE_REFERENCES.filter((text) => shown.includes(text)).length).toBeGreaterThan(3)
        expect(fake.statuses.length).toBeGreaterThan(0)
        for (const { body } of fake.statuses) expectInertStatus(body)
      } finally {
        await fake.stop()
      }
    })
  }
)
