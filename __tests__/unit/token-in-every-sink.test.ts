/**
 * A token planted in every server field never reaches any destination, over every sink.
 *
 * The server (or a report file) can quote the token anywhere: in a project key, a condition, an
 * issue's message, a failure. Every string the server supplies here holds the token in each of
 * its forms (`tokenForms`), and the token has HTML's special characters, so its escaped forms
 * matter too. The outcomes are then written through every destination of the action and of the
 * command, each with the sink its edge builds, and nothing written may hold any form of the
 * token, as written or escaped. Each destination must also have written the server's text
 * around the token, redacted, so no row passes by writing nothing.
 *
 * A new destination is one row of DESTINATIONS.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
import { createCheckRuns } from '../../src/action/check-run.js'
import { githubContext, type GitHubContext } from '../../src/action/github-context.js'
import { annotateNewIssues } from '../../src/action/issue-annotations.js'
import { ACTION_NAMES } from '../../src/action/names.js'
import { commentOnPullRequest } from '../../src/action/pull-request-comment.js'
import { writeSarifFile } from '../../src/action/sarif-file.js'
import { actionSinks } from '../../src/action/sinks.js'
import { stepEnd } from '../../src/action/step-end.js'
import { escapeXml } from '../../src/cli/junit.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import type { ResultFiles } from '../../src/cli/options.js'
import { endCommand, reportOutcomes } from '../../src/cli/report.js'
import { terminalLog } from '../../src/cli/terminal-log.js'
import type { FailPolicy } from '../../src/fail-policy.js'
import { toFinding, type Finding } from '../../src/findings/finding.js'
import type { GateResult } from '../../src/gate/check.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { runnerLog } from '../../src/log.js'
import { analysesOutputs } from '../../src/report/outputs.js'
import { annotateAll, renderOverviewSummary } from '../../src/report/overview.js'
import { renderFailureSummary, renderSummary } from '../../src/report/summary.js'
import { summaryForms } from '../../src/report/summary-text.js'
import { stepVerdict } from '../../src/report/verdict.js'
import { REDACTED, tokenForms } from '../../src/secrets.js'
import type { Settings } from '../../src/settings.js'
import type { SonarIssue } from '../../src/sonar/issues.js'
import { tempFolder } from '../support/temp-files.js'
import { condition, gateResult, SERVER } from './summary-gate-result.js'

/** A token with HTML's and JSON's special characters: each of its forms differs once escaped. */
const TOKEN = `squ_<a&"'>_0123456789abcdef`
const FORMS = tokenForms(TOKEN)
/** The job's GitHub token, which the pull-request comment and the check run also hide. */
const GITHUB_TOKEN = 'ghs_jobtoken_for_the_comment_1234'
const API = 'https://api.github.test'
const HEAD_SHA = 'fedcba9876543210fedcba9876543210fedcba98'
/** Every status fails the step: the verdict then quotes every gate, whatever its status. */
const POLICY: FailPolicy = new Set(['ERROR', 'WARN', 'NONE'])

/** What surrounds the token in every planted value: proof the server's text was written. */
const PLANTED = 'planted-in'

/** A server value: the field's name, then the token in each of its forms. */
const plant = (field: string): string => `${PLANTED}-${field} ${FORMS.join(' ')} end`

/** Every form of the token, as written and as each destination escapes it (HTML, XML). */
const FORBIDDEN = [...new Set([...summaryForms(FORMS), ...FORMS.map(escapeXml)])]

// --- The outcomes: every server-supplied string holds every form of the token. ---

/** An issue as the decoder hands it over, every string of it planted. */
const issue = (n: number, severity: string, fields: Partial<SonarIssue> = {}): SonarIssue => ({
  // The decoder refuses a key with white space (the Basic header has one): it is built here so
  // the key holds every form anyway.
  key: plant(`issue-key-${n}`),
  rule: plant(`rule-${n}`),
  message: plant(`issue-message-${n}`),
  component: plant(`component-${n}`),
  path: `src/${plant(`file-path-${n}`)}.ts`,
  line: 10 + n,
  textRange: { startLine: 10 + n, endLine: 10 + n, startOffset: 2, endOffset: 9 },
  severity,
  type: plant(`issue-type-${n}`),
  impacts: [{ softwareQuality: plant(`quality-${n}`), severity }],
  cleanCodeAttribute: plant(`attribute-${n}`),
  ...fields
})

const PROJECT_KEY = plant('project-key')
const BRANCH = plant('branch')

/** The findings as the check makes them: each issue with its rule's name, located as it is. */
function findings(): Finding[] {
  const issues = [
    issue(1, 'BLOCKER'),
    issue(2, 'MAJOR'),
    issue(3, 'MINOR'),
    // Not in the checkout: listed, not annotated.
    issue(4, 'INFO', { path: undefined })
  ]
  const ruleNames = new Map(issues.map(({ rule }, n) => [rule, plant(`rule-name-${n + 1}`)]))
  return issues.map((each) =>
    toFinding(each, ruleNames, {
      serverUrl: new URL(SERVER),
      projectKey: PROJECT_KEY,
      branch: BRANCH,
      locate: (serverPath) => serverPath
    })
  )
}

/** Every condition field planted, under each status the server may send. */
function conditions() {
  const planted = (status: string, n: number) =>
    condition({
      status,
      metricKey: plant(`metric-key-${n}`),
      comparator: plant(`comparator-${n}`),
      errorThreshold: plant(`error-threshold-${n}`),
      warningThreshold: plant(`warning-threshold-${n}`),
      actualValue: plant(`actual-value-${n}`),
      metric: { key: plant(`metric-${n}`), name: plant(`metric-name-${n}`), type: plant('type') }
    })
  return evaluateConditions([
    planted('ERROR', 1),
    planted('WARN', 2),
    planted(plant('condition-status'), 3),
    // A condition the rule can judge, but whose value the server quoted the token in.
    condition({ actualValue: plant('actual-value-4') })
  ])
}

function readResult(): GateResult {
  const found = findings()
  return gateResult({
    status: plant('status'),
    analysisId: plant('analysis-id'),
    taskId: plant('task-id'),
    projectKey: PROJECT_KEY,
    dashboardUrl: `${SERVER}dashboard?id=${encodeURIComponent(PROJECT_KEY)}&x=${plant('dashboard-url')}`,
    branch: BRANCH,
    branchType: plant('branch-type'),
    pullRequest: plant('pull-request'),
    period: { mode: plant('period-mode'), date: plant('period-date'), parameter: plant('period') },
    caycStatus: plant('cayc-status'),
    ignoredConditions: true,
    conditions: conditions(),
    taskWarnings: [plant('task-warning'), `<a href="${plant('warning-link')}">x</a>`],
    newIssues: {
      read: true,
      scope: { kind: 'new-code', branch: BRANCH },
      findings: found,
      // More than were read: the "more" lines are written too.
      total: found.length + 3,
      requests: 1
    }
  })
}

const read = (): AnalysisOutcome => ({
  read: true,
  source: plant('report-file'),
  result: readResult()
})

const unread = (projectKey: string | undefined): AnalysisOutcome => {
  const message = `The task failed: ${plant('unread-message')}\nThe server said: ${plant('second-line')}`
  return {
    read: false,
    source: plant('unread-source'),
    projectKey,
    message,
    error: new Error(message)
  }
}

/** A read one and an unread one; a lone read one; a lone unread one (its failure alone). */
const SCENARIOS: Record<string, () => AnalysisOutcome[]> = {
  several: () => [read(), unread(plant('unread-project-key'))],
  'lone read': () => [read()],
  'lone unread': () => [unread(undefined)]
}

// --- The destinations, written as each edge writes them. ---

/** A fetch that records every request GitHub's API would receive, and answers it. */
function recordingFetch(sent: string[]): typeof globalThis.fetch {
  let id = 100
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    const method = init?.method ?? 'GET'
    sent.push(`${method} ${url}\n${String(init?.body ?? '')}`)
    const reply =
      method === 'GET' ? [] : { id: id++, body: '', user: { login: 'github-actions[bot]' } }
    return new Response(JSON.stringify(reply), {
      status: method === 'POST' ? 201 : 200,
      headers: { 'content-type': 'application/json' }
    })
  }
}

/** Everything each destination received, over every scenario. */
interface Written {
  [destination: string]: string
}

const temp = tempFolder('token-in-every-sink-')

/** The pull-request event the comment and the check run are for. */
async function pullRequestEnv(): Promise<NodeJS.ProcessEnv> {
  const event = temp.file('event.json')
  const { writeFile } = await import('node:fs/promises')
  await writeFile(
    event,
    JSON.stringify({ number: 7, pull_request: { number: 7, head: { sha: HEAD_SHA } } })
  )
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: 'octo/app',
    GITHUB_SHA: HEAD_SHA,
    GITHUB_API_URL: API,
    GITHUB_SERVER_URL: 'https://github.test'
  }
}

/**
 * The action's destinations, as `main.ts` and `reportOutcomes` write them: the runner log and
 * its annotations, the job summary, the outputs, the SARIF file, the check run and the
 * pull-request comment, each through its sink.
 */
async function actionWrites(): Promise<Written> {
  const env = await pullRequestEnv()
  const github: GitHubContext = await githubContext(env)
  const core = new RecordingLog()
  const summary: string[] = []
  const outputs: unknown[] = []
  const sarif: string[] = []
  const checkRun: string[] = []
  const comment: string[] = []
  for (const [name, outcomesOf] of Object.entries(SCENARIOS)) {
    const outcomes = outcomesOf()
    const log = runnerLog(core, ACTION_NAMES)
    log.hideSecrets(FORMS)
    const sinks = actionSinks(FORMS)
    const verdict = stepVerdict(outcomes, POLICY)
    if (verdict.kind === 'unread' && verdict.alone) {
      summary.push(renderFailureSummary(verdict.message, sinks.summary))
    } else {
      outputs.push(analysesOutputs(outcomes, POLICY, sinks.outputs).values)
      annotateAll(outcomes, log, POLICY)
      annotateNewIssues(outcomes, log, { checkRun: true })
      const [only] = outcomes
      summary.push(
        outcomes.length === 1 && only?.read
          ? renderSummary(only.result, { sink: sinks.summary, fileLink: github.fileLink, policy: POLICY })
          : renderOverviewSummary(outcomes, {
              sink: sinks.summary,
              fileLink: github.fileLink,
              policy: POLICY
            })
      )
      const file = temp.file(`action-${name.replace(/\W/g, '-')}.sarif`)
      await writeSarifFile(file, outcomes, { log, sink: sinks.sarif })
      sarif.push(await readFile(file, 'utf8'))
      await createCheckRuns(outcomes, {
        github,
        token: GITHUB_TOKEN,
        env,
        log,
        sink: sinks.checkRun,
        fetch: recordingFetch(checkRun)
      })
    }
    await commentOnPullRequest(outcomes, {
      token: GITHUB_TOKEN,
      env,
      log,
      sink: sinks.comment,
      fileLink: github.fileLink,
      policy: POLICY,
      fetch: recordingFetch(comment)
    })
    const failure = stepEnd(verdict, outcomes, { failStep: true, outputsProblem: undefined }, log)
    if (failure) log.fail(failure)
  }
  return {
    // Not what the runner is asked to mask (`setSecret`): what it writes.
    'action: runner log and annotations': JSON.stringify(
      core.lines.filter(({ kind }) => kind !== 'secret')
    ),
    'action: job summary': summary.join('\n'),
    'action: outputs': JSON.stringify(outputs),
    'action: SARIF file': sarif.join('\n'),
    'action: check run': checkRun.join('\n'),
    'action: pull-request comment': comment.join('\n')
  }
}

const COMMAND_FILES: ResultFiles = {
  json: 'results/results.json',
  junit: 'results/junit.xml',
  markdown: 'results/summary.md',
  sarif: 'results/issues.sarif',
  codequality: 'results/code-quality.json'
}

/**
 * The command's destinations, as `runCommand` writes them: the terminal log (with the verdict
 * line) and every result file, each through the sink `writeResultFiles` builds for it.
 */
async function commandWrites(): Promise<Written> {
  const terminal: string[] = []
  const files: Record<keyof ResultFiles, string[]> = {
    json: [],
    junit: [],
    markdown: [],
    sarif: [],
    codequality: []
  }
  const settings: Settings = {
    reportFiles: [],
    token: TOKEN,
    hostUrl: undefined,
    rootCert: undefined,
    timeoutMs: 300_000,
    initialWaitMs: 0,
    intervalMs: 5_000,
    adaptivePolling: true,
    failStep: true,
    policy: POLICY,
    taskId: undefined,
    analysisId: undefined
  }
  for (const [name, outcomesOf] of Object.entries(SCENARIOS)) {
    const outcomes = outcomesOf()
    const cwd = temp.file(`command-${name.replace(/\W/g, '-')}`)
    const log = terminalLog({ write: (text: string) => terminal.push(text) }, {
      color: false,
      names: COMMAND_NAMES
    })
    log.hideSecrets(FORMS)
    const verdict = stepVerdict(outcomes, POLICY)
    const stdout = { write: (text: string) => terminal.push(`stdout: ${text}`) }
    await reportOutcomes(outcomes, verdict, {
      settings,
      log,
      secrets: FORMS,
      files: COMMAND_FILES,
      cwd,
      stdout,
      startedAt: 0,
      now: 4200
    })
    endCommand(verdict, settings, log)
    for (const kind of Object.keys(files) as Array<keyof ResultFiles>) {
      files[kind].push(await readFile(path.join(cwd, COMMAND_FILES[kind]!), 'utf8'))
    }
  }
  return {
    'command: terminal log': terminal.join(''),
    'command: --json file': files.json.join('\n'),
    'command: --junit file': files.junit.join('\n'),
    'command: --markdown file': files.markdown.join('\n'),
    'command: --sarif file': files.sarif.join('\n'),
    'command: --codequality file': files.codequality.join('\n')
  }
}

/**
 * The text and, where it is JSON, every string inside it (and inside those that are JSON in
 * turn): a form escaped by JSON once more is found decoded.
 */
function decoded(text: string): string[] {
  const found = [text]
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      found.push(value)
      if (/^\s*[[{]/.test(value)) found.push(...decoded(value).slice(1))
    } else if (Array.isArray(value)) value.forEach(visit)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit)
  }
  for (const piece of text.split('\n')) {
    try {
      visit(JSON.parse(piece))
    } catch {
      // Not JSON on its own line.
    }
  }
  try {
    visit(JSON.parse(text))
  } catch {
    // Not JSON as a whole.
  }
  return found
}

/** Each form of the token found in `text` (or in a string it holds as JSON), with its context. */
function leaks(text: string): string[] {
  const found = new Set<string>()
  for (const piece of decoded(text)) {
    for (const form of FORBIDDEN) {
      for (let at = piece.indexOf(form); at !== -1; at = piece.indexOf(form, at + 1)) {
        found.add(`${form}  in  …${piece.slice(Math.max(0, at - 60), at + form.length + 20)}…`)
      }
    }
  }
  return [...found]
}

const DESTINATIONS = [
  'action: runner log and annotations',
  'action: job summary',
  'action: outputs',
  'action: pull-request comment',
  'action: check run',
  'action: SARIF file',
  'command: terminal log',
  'command: --json file',
  'command: --junit file',
  'command: --markdown file',
  'command: --sarif file',
  'command: --codequality file'
] as const

describe('a token planted in every server field never reaches any destination, over every sink', () => {
  let written: Written
  beforeAll(async () => {
    written = { ...(await actionWrites()), ...(await commandWrites()) }
  })

  it('every destination is a row, and every row a destination written', () => {
    expect(Object.keys(written).sort()).toEqual([...DESTINATIONS].sort())
  })

  it.each(DESTINATIONS)('%s: no form of the token, as written or escaped', (destination) => {
    const text = written[destination]!
    // Not vacuous: the server's text around the token was written, the token removed from it.
    expect(text).toContain(PLANTED)
    expect(text).toContain(REDACTED)
    if (process.env['DUMP']) require('node:fs').writeFileSync(`/tmp/dump-${destination.replace(/\W/g, '_')}.txt`, text)
    expect(leaks(text)).toEqual([])
  })
})
