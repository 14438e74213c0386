/**
 * A token planted in every server field never reaches any destination, over every sink.
 *
 * The server (or a report file) can quote the token anywhere: in a project key, a condition, an
 * issue's message, a failure. Every string the server supplies here holds the token in each of
 * its forms (`tokenForms`), and the token has HTML's special characters, so its escaped forms
 * matter too. The outcomes are then written through every destination of the action and of the
 * command, each with the sink its edge builds, and nothing written may hold any form of the
 * token: as written, as the destination escapes it (HTML, XML, JSON: a JSON-escaped form escaped
 * again is found once the JSON is read), nor in a link once its percent-encoding is undone. Each
 * destination must also have written the server's text around the token, with the token
 * removed (`***`), so no row passes by writing nothing.
 *
 * A new destination is one row of DESTINATIONS, and one key where its edge's writes are kept.
 */
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { RecordingLog } from '../../__fixtures__/log.js'
import { createCheckRuns } from '../../src/action/check-run.js'
import { githubContext } from '../../src/action/github-context.js'
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
    // As the server links a project: its key in the address, URL-encoded.
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

// --- Every destination, written as its edge writes it, through the sink the edge builds. ---

/** Every destination: a new one is one more row here, and one more key where it is written. */
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

type Destination = (typeof DESTINATIONS)[number]

/** What each destination received over every scenario: each piece as it was written. */
type Written = Record<Destination, string[]>

const temp = tempFolder('token-in-every-sink-')

/** A fetch that records every request GitHub's API receives (method, address, body), and answers it. */
function recordingFetch(sent: string[]): typeof globalThis.fetch {
  let id = 100
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    const method = init?.method ?? 'GET'
    sent.push(`${method} ${url}`)
    if (init?.body !== undefined && init.body !== null) sent.push(String(init.body))
    // No comment yet on the pull request; each one created or check run made gets an id.
    const reply = method === 'GET' ? [] : { id: id++ }
    return Promise.resolve(
      new Response(JSON.stringify(reply), {
        status: method === 'POST' ? 201 : 200,
        headers: { 'content-type': 'application/json' }
      })
    )
  }
}

/** The runner's environment on a pull request: the comment and the check run are made for it. */
async function pullRequestEnv(): Promise<NodeJS.ProcessEnv> {
  const event = temp.file('event.json')
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

const fileName = (scenario: string) => scenario.replace(/\W/g, '-')

/**
 * The action's destinations, as `main.ts` and `reportOutcomes` write them, each through its
 * sink: the runner log (hiding the token's forms) with its annotations and the failure, the job
 * summary, the outputs, the SARIF file, the check run and the pull-request comment.
 */
async function actionWrites(): Promise<Partial<Written>> {
  const env = await pullRequestEnv()
  const github = await githubContext(env)
  const core = new RecordingLog()
  const written = {
    summary: [] as string[],
    outputs: [] as string[],
    sarif: [] as string[],
    checkRun: [] as string[],
    comment: [] as string[]
  }
  for (const [scenario, outcomesOf] of Object.entries(SCENARIOS)) {
    const outcomes = outcomesOf()
    const log = runnerLog(core, ACTION_NAMES)
    log.hideSecrets(FORMS)
    const sinks = actionSinks(FORMS)
    const verdict = stepVerdict(outcomes, POLICY)
    const { fileLink } = github
    if (verdict.kind === 'unread' && verdict.alone) {
      written.summary.push(renderFailureSummary(verdict.message, sinks.summary))
    } else {
      const { values } = analysesOutputs(outcomes, POLICY, sinks.outputs)
      written.outputs.push(...Object.values(values))
      annotateAll(outcomes, log, POLICY)
      annotateNewIssues(outcomes, log, { checkRun: true })
      const [only] = outcomes
      written.summary.push(
        outcomes.length === 1 && only?.read
          ? renderSummary(only.result, { sink: sinks.summary, fileLink, policy: POLICY })
          : renderOverviewSummary(outcomes, { sink: sinks.summary, fileLink, policy: POLICY })
      )
      const sarif = temp.file(`action-${fileName(scenario)}.sarif`)
      await writeSarifFile(sarif, outcomes, { log, sink: sinks.sarif })
      written.sarif.push(await readFile(sarif, 'utf8'))
      await createCheckRuns(outcomes, {
        github,
        token: GITHUB_TOKEN,
        env,
        log,
        sink: sinks.checkRun,
        fetch: recordingFetch(written.checkRun)
      })
    }
    await commentOnPullRequest(outcomes, {
      token: GITHUB_TOKEN,
      env,
      log,
      sink: sinks.comment,
      fileLink,
      policy: POLICY,
      fetch: recordingFetch(written.comment)
    })
    const failure = stepEnd(verdict, outcomes, { failStep: true, outputsProblem: undefined }, log)
    if (failure) log.fail(failure)
  }
  return {
    // What the runner writes: every line and annotation with its properties, and the failure;
    // not the forms it is asked to mask (`setSecret`).
    'action: runner log and annotations': core.lines
      .filter(({ kind }) => kind !== 'secret')
      .map((line) => JSON.stringify(line)),
    'action: job summary': written.summary,
    'action: outputs': written.outputs,
    'action: pull-request comment': written.comment,
    'action: check run': written.checkRun,
    'action: SARIF file': written.sarif
  }
}

const RESULT_FILES: Required<{ [kind in keyof ResultFiles]: string }> = {
  json: 'results/results.json',
  junit: 'results/junit.xml',
  markdown: 'results/summary.md',
  sarif: 'results/issues.sarif',
  codequality: 'results/code-quality.json'
}

const SETTINGS: Settings = {
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

/**
 * The command's destinations, as `runCommand` writes them: the terminal log (hiding the token's
 * forms) with the verdict last, and every result file, each through the sink
 * `writeResultFiles` builds for it from the token's forms.
 */
async function commandWrites(): Promise<Partial<Written>> {
  const terminal: string[] = []
  const files = { json: [], junit: [], markdown: [], sarif: [], codequality: [] } as Record<
    keyof ResultFiles,
    string[]
  >
  for (const [scenario, outcomesOf] of Object.entries(SCENARIOS)) {
    const outcomes = outcomesOf()
    const cwd = temp.file(`command-${fileName(scenario)}`)
    const out = { write: (text: string) => terminal.push(text) }
    const log = terminalLog(out, { color: false, names: COMMAND_NAMES })
    log.hideSecrets(FORMS)
    const verdict = stepVerdict(outcomes, POLICY)
    await reportOutcomes(outcomes, verdict, {
      settings: SETTINGS,
      log,
      secrets: FORMS,
      files: RESULT_FILES,
      cwd,
      stdout: out,
      startedAt: 0,
      now: 4200
    })
    endCommand(verdict, SETTINGS, log)
    for (const [kind, file] of Object.entries(RESULT_FILES)) {
      files[kind as keyof ResultFiles].push(await readFile(path.join(cwd, file), 'utf8'))
    }
  }
  return {
    'command: terminal log': terminal,
    'command: --json file': files.json,
    'command: --junit file': files.junit,
    'command: --markdown file': files.markdown,
    'command: --sarif file': files.sarif,
    'command: --codequality file': files.codequality
  }
}

// --- What counts as the token reaching a destination. ---

/**
 * Each piece as written and, where it is JSON, every string inside it (and inside those that
 * are JSON in turn): a JSON destination escapes what it writes, as the HTML ones do, so a form
 * the server sent is found once JSON's escaping is undone (the JSON-escaped form, escaped again).
 */
function decoded(piece: string): string[] {
  const found = [piece]
  const visit = (value: unknown): void => {
    if (typeof value === 'string') found.push(...decoded(value))
    else if (Array.isArray(value)) value.forEach(visit)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit)
  }
  if (/^\s*[[{]/.test(piece)) {
    try {
      visit(JSON.parse(piece))
    } catch {
      // Not JSON: the piece as written is all there is.
    }
  }
  return found
}

/** Each of `forms` found in `texts`, with the text around it. */
function found(texts: readonly string[], forms: readonly string[]): string[] {
  const seen = new Set<string>()
  for (const text of texts) {
    for (const form of forms) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
        seen.add(`${form}  in  …${text.slice(Math.max(0, at - 50), at + form.length + 10)}…`)
      }
    }
  }
  return [...seen]
}

/** The text with its character references (`&#60;`, `&lt;`) read as the characters they stand for. */
function unescapedHtml(text: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
  return text.replace(/&(?:#(\d+)|#x([\da-f]+)|(lt|gt|amp|quot|apos));/gi, (all, dec, hex, name) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(parseInt(hex, 16))
        : (named[String(name).toLowerCase()] ?? all)
  )
}

/** The text with each run of percent-escapes decoded, as a browser reads a link's address. */
function unescapedUrl(text: string, plusIsSpace: boolean): string {
  const spaced = plusIsSpace ? text.replaceAll('+', ' ') : text
  return spaced.replace(/(?:%[\da-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

describe('a token planted in every server field never reaches any destination, over every sink', () => {
  let written: Written
  beforeAll(async () => {
    written = { ...(await actionWrites()), ...(await commandWrites()) } as Written
  })

  it('every destination of the table was written to, and no other', () => {
    expect(Object.keys(written).sort()).toEqual([...DESTINATIONS].sort())
  })

  it.each(DESTINATIONS)('%s: no form of the token, as written or escaped', (destination) => {
    const pieces = written[destination]
    const texts = pieces.flatMap(decoded)
    expect
      .soft(found(texts, FORBIDDEN), 'a form, as written or as JSON, HTML or XML escapes it')
      .toEqual([])
    // A link the destination builds from a server value encodes the token its own way.
    const links = texts
      .map(unescapedHtml)
      .flatMap((text) => [unescapedUrl(text, true), unescapedUrl(text, false)])
    expect.soft(found(links, FORMS), 'a form, once a link’s percent-encoding is undone').toEqual([])
    // Not vacuous: the server's text around the token was written, with the token removed.
    expect.soft(pieces.join('\n'), 'the server’s text').toContain(PLANTED)
    expect.soft(pieces.join('\n'), 'the token removed').toContain(REDACTED)
  })
})
