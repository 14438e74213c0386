import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { actionHtmlSink } from '../../__fixtures__/sinks.js'
import { createCheckRuns } from '../../src/action/check-run.js'
import type { GitHubContext } from '../../src/action/github-context.js'
import type { Finding } from '../../src/findings/finding.js'
import type { GateResult } from '../../src/gate/check.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { summaryForms } from '../../src/report/summary-text.js'
import { tokenForms } from '../../src/secrets.js'
import { FAIL_ON_ERROR } from '../../src/fail-policy.js'

const API = 'https://api.github.test'
const SONAR_TOKEN = 'squ_sonarsecret456'
const GITHUB_TOKEN = 'ghs_jobtoken123'

const server = useMockServer()

const github: GitHubContext = {
  event: 'push',
  pullRequest: undefined,
  pullRequestProblem: undefined,
  headSha: 'abcdef0123456789abcdef0123456789abcdef01',
  repository: { owner: 'octo', repo: 'app' },
  fileLink: undefined
}

const finding = (n: number, fields: Partial<Finding> = {}): Finding => ({
  key: `AYIssue${n}`,
  rule: 'typescript:S2068',
  ruleName: 'Credentials should not be hard-coded',
  message: `issue ${n}`,
  severity: 'high',
  severityWord: 'CRITICAL',
  type: 'VULNERABILITY',
  file: 'src/app.ts',
  serverPath: 'src/app.ts',
  region: { startLine: n, endLine: n, startColumn: undefined, endColumn: undefined },
  url: `https://sonar.example.com/project/issues?id=shop&open=AYIssue${n}`,
  ...fields
})

const outcome = (findings: Finding[]): AnalysisOutcome => ({
  read: true,
  source: 'report-task.txt',
  result: {
    status: 'ERROR',
    projectKey: 'shop',
    conditions: [],
    taskWarnings: [],
    newIssues: {
      read: true,
      scope: { kind: 'new-code', branch: undefined },
      findings,
      total: findings.length,
      requests: 1
    }
  } as unknown as GateResult
})

interface Sent {
  method: string
  url: string
  body: {
    output: {
      title: string
      summary: string
      annotations: Array<{ title: string; message: string; path: string }>
    }
  }
}

/** The check runs as the action creates them, GitHub's API recording every request. */
async function checkRuns(outcomes: readonly AnalysisOutcome[]) {
  const sent: Sent[] = []
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const text = await request.text()
      sent.push({
        method: request.method,
        url: request.url,
        body: JSON.parse(text || '{}') as Sent['body']
      })
      return HttpResponse.json({ id: 42 }, { status: 201 })
    })
  )
  const log = new RecordingLog()
  await createCheckRuns(outcomes, {
    github,
    token: GITHUB_TOKEN,
    env: { GITHUB_API_URL: API },
    log,
    sink: actionHtmlSink({ token: SONAR_TOKEN, unit: 'characters' }),
    policy: FAIL_ON_ERROR,
    decorateBy: Date.now() + 30_000
  })
  return { sent, log }
}

describe('the check run sends every text through its sink', () => {
  it('a token the server quotes in an issue never reaches the check run: not in an annotation’s message or title, nor in the summary', async () => {
    const echoed = (value: string) => `${value} <${value}> ${encodeURIComponent(value)}`
    const findings = [
      finding(1, { message: `Remove the token ${echoed(SONAR_TOKEN)}` }),
      finding(2, { ruleName: `Rule ${echoed(GITHUB_TOKEN)}`, message: `uses ${GITHUB_TOKEN}` }),
      // Without a file: listed in the summary, not annotated.
      finding(3, { file: undefined, message: `in the summary: ${echoed(SONAR_TOKEN)}` })
    ]
    const { sent, log } = await checkRuns([outcome(findings)])

    expect(sent.map(({ method, url }) => `${method} ${url}`)).toEqual([
      `POST ${API}/repos/octo/app/check-runs`
    ])
    const { output } = sent[0]!.body
    expect(output.annotations.map(({ message }) => message.split('\n')[0])).toEqual([
      'Remove the token *** <***> ***',
      'uses ***'
    ])
    expect(output.annotations[1]!.title).toContain('Rule *** <***> ***')
    expect(output.summary).toContain('in the summary: ***')
    const everything = JSON.stringify(sent)
    for (const form of summaryForms([...tokenForms(SONAR_TOKEN), GITHUB_TOKEN])) {
      expect(everything).not.toContain(form)
    }
    expect(everything).not.toMatch(/squ_sonarsecret|ghs_jobtoken/)
    expect(log.of('info')).toEqual([
      'GitHub: the check run for shop is on commit abcdef012345, with 2 annotations.'
    ])
  })

  it('a file path stays as the checkout has it, for GitHub to place the annotation', async () => {
    const { sent } = await checkRuns([outcome([finding(1, { file: 'src/a b.ts' })])])
    expect(sent[0]!.body.output.annotations[0]!.path).toBe('src/a b.ts')
  })
})
