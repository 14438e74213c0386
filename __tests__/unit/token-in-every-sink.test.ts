/**
 * A token the server (or a report file) quotes never reaches any destination, over every sink.
 *
 * The server can quote the token anywhere: in a project key, a condition, an issue's message, an
 * error reply. Here it does, in each of the token's forms (`tokenForms`), and the token has HTML's
 * and JSON's special characters, so its escaped forms matter too.
 *
 * The first part plants the forms where the check reads them: in the report files and in every
 * reply of the server (the task, the gate, the metrics, the issues, an error reply), and in
 * failures the server causes. The outcomes are the real check's (`checkQualityGates`, with the
 * token set), so every value the check derives from the server's text (an issue's link, the
 * dashboard's, a condition's, a value cut to a length) is derived as it is in a run. They are
 * then written through every destination of the action and of the command, each with the sink
 * its edge builds, and nothing written may hold any form of the token: as written, as the
 * destination escapes it (HTML, XML, JSON: a JSON-escaped form escaped again is found once the
 * JSON is read), nor in a link once its percent-encoding is undone. A link holds the token only
 * when the token reached it unremoved, which no sink can see afterwards: the token must be
 * removed where the server's text comes in.
 *
 * The second part writes hand-built outcomes whose values hold the forms as they are (nothing
 * derived from them by the check) through the same destinations: what a sink alone guarantees,
 * no form as written or escaped. Links the writers build are not looked into there.
 *
 * Each destination must also have written the server's text around the token, with the token
 * removed (`***`), so no row passes by writing nothing; and in the first part the check must
 * have come to what each planted reply says (a gate with its conditions and issues read, each
 * failure the server caused), so no row passes because the replies were never read.
 *
 * A new destination is one row of DESTINATIONS, and one key where its edge's writes are kept.
 */
import { overallDeadline } from '../../src/deadline.js'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { http, HttpResponse, passthrough } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../../__fixtures__/clock.js'
import { RecordingLog } from '../../__fixtures__/log.js'
import { useMockServer } from '../../__fixtures__/msw.js'
import { createCheckRuns } from '../../src/action/check-run.js'
import { githubContext } from '../../src/action/github-context.js'
import { annotateNewIssues } from '../../src/action/issue-annotations.js'
import { ACTION_NAMES } from '../../src/action/names.js'
import { commentOnPullRequest } from '../../src/action/pull-request-comment.js'
import { writeSarifFile } from '../../src/action/sarif-file.js'
import { readActionSettings } from '../../src/action/settings.js'
import { actionSinks } from '../../src/action/sinks.js'
import { stepEnd } from '../../src/action/step-end.js'
import { escapeXml } from '../../src/cli/junit.js'
import { COMMAND_NAMES } from '../../src/cli/names.js'
import type { ResultFiles } from '../../src/cli/options.js'
import {
  addingLines,
  GITLAB_PROJECT,
  MERGE_REQUEST_IID,
  startFakeGitLab
} from '../../__fixtures__/gitlab/fake-gitlab.js'
import {
  BITBUCKET_TOKEN,
  PULL_REQUEST,
  REPOSITORY,
  startFakeBitbucketCloud
} from '../../__fixtures__/bitbucket/fake-bitbucket-cloud.js'
import {
  AZURE_PROJECT,
  AZURE_PULL_REQUEST,
  AZURE_REPOSITORY,
  AZURE_TOKEN,
  startFakeAzureDevOps
} from '../../__fixtures__/azure/fake-azure-devops.js'
import {
  FakeGitea,
  GITEA_PULL_REQUEST,
  GITEA_REPOSITORY
} from '../../__fixtures__/gitea/fake-gitea.js'
import { FakeGitHub, NUMBER as GITHUB_PULL_REQUEST } from '../../__fixtures__/github/fake-github.js'
import { decorate } from '../../src/cli/decoration.js'
import { endCommand, reportOutcomes } from '../../src/cli/report.js'
import { terminalLog } from '../../src/cli/terminal-log.js'
import type { Finding } from '../../src/findings/finding.js'
import { checkQualityGates } from '../../src/gate/check-analyses.js'
import type { GateResult } from '../../src/gate/check.js'
import { evaluateConditions } from '../../src/gate/evaluate.js'
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { runnerLog, type Log } from '../../src/log.js'
import { analysesOutputs } from '../../src/report/outputs.js'
import { annotateAll, renderOverviewSummary } from '../../src/report/overview.js'
import { renderFailureSummary, renderSummary } from '../../src/report/summary.js'
import { summaryForms, summaryText } from '../../src/report/summary-text.js'
import { stepVerdict } from '../../src/report/verdict.js'
import { REDACTED, tokenForms } from '../../src/secrets.js'
import type { Settings } from '../../src/settings.js'
import { tempFolder } from '../support/temp-files.js'
import { condition, gateResult, SERVER } from './summary-gate-result.js'
import { inActionWords } from '../../__fixtures__/sinks.js'

/** A token with HTML's and JSON's special characters: each of its forms differs once escaped. */
const TOKEN = `squ_<a&"'>_0123456789abcdef`
const FORMS = tokenForms(TOKEN)
/** The job's GitHub token, which the pull-request comment and the check run also hide. */
const GITHUB_TOKEN = 'ghs_jobtoken_for_the_comment_1234'
const API = 'https://api.github.test'
const HEAD_SHA = 'fedcba9876543210fedcba9876543210fedcba98'
/** Every status fails the step: the verdict then quotes every gate, whatever its status. */
const FAIL_ON = 'ERROR,WARN,NONE'

/** What surrounds the token in every planted value: proof the server's text was written. */
const PLANTED = 'planted-in'

/**
 * Which forms each kind of field holds, so that every value is still one the check reads:
 * - free text (messages, names, conditions, the branch, warnings, error replies, the report's
 *   dashboardUrl and serverVersion): every form;
 * - an id or key the decoders refuse with white space in it (the report's projectKey, the task's
 *   analysisId, an issue's key): every form but the Basic header, whose space it may not have;
 *   the header's base64 part is there;
 * - the report's ceTaskId: the token as written only. ceTaskUrl holds the same id URL-encoded
 *   (as a scanner writes a query value), and the two must agree once the file's text has lost the
 *   token: the token's URL-encoding is one of its forms, lost alike, but any other form
 *   URL-encoded is no form, and the file would be refused;
 * - a file path the check places in the checkout: every form but the JSON-escaped one, whose
 *   backslash no path of the checkout has; one more issue's path holds every form (placed only
 *   when the token has left it before the check looks);
 * - one string of the task's reply spells the token in JSON's \u escapes: it is the token only
 *   once parsed.
 * Statuses, severities, types, qualities and attributes are words: the decoders refuse or drop
 * any other, so they hold none (but the garbled analysis's task status, refused and quoted).
 */
const ID_FORMS = FORMS.filter((form) => !/\s/.test(form))
const PATH_FORMS = FORMS.filter((form) => !form.includes('\\'))

/** A value: the field's name, then each form of the token. */
const plant = (field: string, forms: readonly string[] = FORMS): string =>
  `${PLANTED}-${field} ${forms.join(' ')} end`

/** An id or key: the field's name, then each form an id can hold, without white space. */
const plantId = (field: string): string => `${PLANTED}-${field}~${ID_FORMS.join('~')}~end`

/** Every form of the token, as written and as each destination escapes it (HTML, XML). */
const FORBIDDEN = [...new Set([...summaryForms(FORMS), ...FORMS.map(escapeXml)])]

// --- Every destination, written as its edge writes it, through the sink the edge builds. ---

/** Every destination: a new one is one more row here, and one more key where it is written. */
const DESTINATIONS = [
  'action: runner log and annotations',
  'action: job summary',
  'action: outputs',
  'action: pull-request comment',
  'action: Gitea pull-request comment',
  'action: check run',
  'action: SARIF file',
  'command: terminal log',
  'command: --json file',
  'command: --junit file',
  'command: --markdown file',
  'command: --sarif file',
  'command: --codequality file',
  'command: GitLab note, discussions and statuses',
  'command: Bitbucket comment, report and statuses',
  'command: Azure DevOps threads and statuses',
  'command: GitHub comment, review and statuses',
  'command: Gitea comment, review and statuses'
] as const

type Destination = (typeof DESTINATIONS)[number]

/** What each destination received over every scenario: each piece as it was written. */
type Written = Record<Destination, string[]>

/** The outcomes of a scenario, made with the edge's log (the check writes to it as it goes). */
type OutcomesOf = (scenario: string, log: Log) => Promise<AnalysisOutcome[]>

/** How a part makes its outcomes, and the settings the edges write them with. */
interface Part {
  name: string
  scenarios: readonly string[]
  outcomes: OutcomesOf
  settings: Settings
}

/** The settings of a step given these inputs (and the token), as the action reads them. */
const actionSettings = (inputs: Record<string, string> = {}) =>
  readActionSettings((name) => ({ failOn: FAIL_ON, ...inputs })[name] ?? '', {
    SONAR_TOKEN: TOKEN
  })

const temp = tempFolder('token-in-every-sink-')

/**
 * GitHub's API at `apiUrl`, recording every request it receives (method, address, body), and
 * answering it; returns the environment that points the action at it.
 */
function recordingGitHub(apiUrl: string, sent: string[], env: NodeJS.ProcessEnv) {
  let id = 100
  server.use(
    http.all(`${apiUrl}/*`, async ({ request }) => {
      sent.push(`${request.method} ${request.url}`)
      const body = await request.text()
      if (body) sent.push(body)
      // No comment yet on the pull request; each one created or check run made gets an id.
      const reply = request.method === 'GET' ? [] : { id: id++ }
      return HttpResponse.json(reply, { status: request.method === 'POST' ? 201 : 200 })
    })
  )
  return { ...env, GITHUB_API_URL: apiUrl }
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

const fileName = (text: string) => text.replace(/\W/g, '-')

/**
 * The action's destinations, as `main.ts` and `reportOutcomes` write them, each through its
 * sink: the runner log (hiding the token's forms, and holding what the check logged) with its
 * annotations and the failure, the job summary, the outputs, the SARIF file, the check run and
 * the pull-request comment.
 */
async function actionWrites({ name, scenarios, outcomes: outcomesOf, settings }: Part) {
  const env = await pullRequestEnv()
  const github = await githubContext(env)
  const { policy } = settings
  const core = new RecordingLog()
  const written = {
    summary: [] as string[],
    outputs: [] as string[],
    sarif: [] as string[],
    checkRun: [] as string[],
    comment: [] as string[],
    giteaComment: [] as string[]
  }
  for (const scenario of scenarios) {
    const log = runnerLog(core, ACTION_NAMES)
    log.hideSecrets(FORMS)
    const sinks = actionSinks(FORMS)
    const outcomes = await outcomesOf(scenario, log)
    const verdict = stepVerdict(outcomes, policy)
    const { fileLink } = github
    if (verdict.kind === 'unread' && verdict.alone) {
      written.summary.push(renderFailureSummary(verdict.message, sinks.summary))
    } else {
      const { values } = analysesOutputs(outcomes, policy, sinks.outputs)
      written.outputs.push(...Object.values(values))
      annotateAll(outcomes, log, policy)
      annotateNewIssues(outcomes, log, { checkRun: true })
      const [only] = outcomes
      written.summary.push(
        outcomes.length === 1 && only?.read
          ? renderSummary(only.result, { sink: sinks.summary, fileLink, policy })
          : renderOverviewSummary(outcomes, { sink: sinks.summary, fileLink, policy })
      )
      const sarif = temp.file(`${name}-action-${fileName(scenario)}.sarif`)
      await writeSarifFile(sarif, outcomes, { log, sink: sinks.sarif })
      written.sarif.push(await readFile(sarif, 'utf8'))
      await createCheckRuns(outcomes, {
        github,
        token: GITHUB_TOKEN,
        env: recordingGitHub('https://checks.github.test', written.checkRun, env),
        log,
        sink: sinks.checkRun,
        policy,
        decorateBy: Date.now() + 30_000
      })
    }
    await commentOnPullRequest(outcomes, {
      token: GITHUB_TOKEN,
      env: recordingGitHub('https://comments.github.test', written.comment, env),
      log,
      sinks: { html: sinks.comment, markdown: sinks.markdownComment },
      fileLink,
      policy,
      decorateBy: Date.now() + 30_000
    })
    // Gitea Actions: the same comment, in Markdown, to Gitea's own API.
    const gitea = recordingGitHub('https://gitea.test/api/v1', written.giteaComment, env)
    await commentOnPullRequest(outcomes, {
      when: 'always',
      token: GITHUB_TOKEN,
      env: { ...gitea, GITEA_ACTIONS: 'true', GITHUB_ACTIONS: 'true' },
      log,
      sinks: { html: sinks.comment, markdown: sinks.markdownComment },
      policy,
      decorateBy: Date.now() + 30_000
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
    'action: Gitea pull-request comment': written.giteaComment,
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

/**
 * The command's destinations, as `runCommand` writes them: the terminal log (hiding the token's
 * forms, and holding what the check logged) with the verdict last, and every result file, each
 * through the sink `writeResultFiles` builds for it from the token's forms.
 */
/**
 * GitLab's discussions go as draft notes published at once when there are two or more: requests
 * to `.../draft_notes` over every part, so the last test can tell that destination was reached.
 */
let gitlabDraftsSent = 0

async function commandWrites({ name, scenarios, outcomes: outcomesOf, settings }: Part) {
  const terminal: string[] = []
  const gitlab: string[] = []
  const bitbucket: string[] = []
  const azure: string[] = []
  const github: string[] = []
  const gitea: string[] = []
  const files = { json: [], junit: [], markdown: [], sarif: [], codequality: [] } as Record<
    keyof ResultFiles,
    string[]
  >
  for (const scenario of scenarios) {
    const cwd = temp.file(`${name}-command-${fileName(scenario)}`)
    const out = { write: (text: string) => terminal.push(text) }
    const log = terminalLog(out, { color: false, names: COMMAND_NAMES })
    log.hideSecrets(FORMS)
    const outcomes = await outcomesOf(scenario, log)
    const verdict = stepVerdict(outcomes, settings.policy)
    await reportOutcomes(outcomes, verdict, {
      settings,
      log,
      secrets: FORMS,
      files: RESULT_FILES,
      cwd,
      stdout: out,
      startedAt: 0,
      now: 4200
    })
    endCommand(verdict, settings, log)
    const fake = await gitlabFor(outcomes)
    try {
      await decorate(outcomes, {
        env: {
          CI_API_V4_URL: fake.url,
          CI_PROJECT_ID: GITLAB_PROJECT,
          CI_COMMIT_SHA: HEAD_SHA,
          CI_MERGE_REQUEST_IID: MERGE_REQUEST_IID,
          GITLAB_TOKEN: 'glpat-fake-token'
        },
        ...decorationContext(log, settings)
      })
      for (const { body } of fake.requests) if (body) gitlab.push(JSON.stringify(body))
      gitlabDraftsSent += fake.requests.filter(({ path }) => path.endsWith('/draft_notes')).length
    } finally {
      await fake.stop()
    }
    const cloud = await startFakeBitbucketCloud()
    server.use(http.all(`${new URL(cloud.url).origin}/*`, () => passthrough()))
    try {
      await decorate(outcomes, {
        env: {
          BITBUCKET_API_URL: cloud.url,
          BITBUCKET_REPO_FULL_NAME: REPOSITORY,
          BITBUCKET_COMMIT: HEAD_SHA,
          BITBUCKET_PR_ID: PULL_REQUEST,
          BITBUCKET_TOKEN
        },
        ...decorationContext(log, settings)
      })
      for (const { body } of cloud.requests) if (body) bitbucket.push(JSON.stringify(body))
    } finally {
      await cloud.stop()
    }
    const devops = await startFakeAzureDevOps({ changed: changedFiles(outcomes) })
    server.use(http.all(`${new URL(devops.collection).origin}/*`, () => passthrough()))
    try {
      await decorate(outcomes, {
        env: {
          SYSTEM_COLLECTIONURI: devops.collection,
          SYSTEM_TEAMPROJECT: AZURE_PROJECT,
          BUILD_REPOSITORY_ID: AZURE_REPOSITORY,
          SYSTEM_PULLREQUEST_PULLREQUESTID: AZURE_PULL_REQUEST,
          BUILD_SOURCEVERSION: HEAD_SHA,
          SYSTEM_ACCESSTOKEN: AZURE_TOKEN
        },
        ...decorationContext(log, settings)
      })
      for (const { body } of devops.requests) if (body) azure.push(JSON.stringify(body))
      // The same pull request from Jenkins: a personal access token, the repository's address.
      const before = devops.requests.length
      await decorate(outcomes, {
        env: {
          JENKINS_URL: 'https://jenkins.example.com/',
          GIT_URL: `${devops.collection}${AZURE_PROJECT}/_git/${AZURE_REPOSITORY}`,
          GIT_COMMIT: HEAD_SHA,
          AZURE_DEVOPS_TOKEN: AZURE_TOKEN
        },
        review: AZURE_PULL_REQUEST,
        ...decorationContext(log, settings)
      })
      const fromJenkins = devops.requests.slice(before)
      expect(fromJenkins.length).toBeGreaterThan(0)
      for (const { body } of fromJenkins) if (body) azure.push(JSON.stringify(body))
    } finally {
      await devops.stop()
    }
    const hub = new FakeGitHub()
    hub.account = { login: 'sonar-bot', id: 4242, type: 'User' }
    hub.files = [...linesOf(outcomes)].map(([filename, lines]) => ({
      filename,
      status: 'modified',
      patch: lines.map((line) => `@@ -${line - 1},0 +${line},1 @@\n+x`).join('\n')
    }))
    await hub.start()
    server.use(http.all(`${new URL(hub.url).origin}/*`, () => passthrough()))
    try {
      await decorate(outcomes, {
        env: {
          JENKINS_URL: 'https://jenkins.example.com/',
          CHANGE_URL: `https://github.com/octo/shop/pull/${GITHUB_PULL_REQUEST}`,
          CHANGE_ID: String(GITHUB_PULL_REQUEST),
          GIT_COMMIT: HEAD_SHA,
          GITHUB_API_URL: hub.url,
          GITHUB_TOKEN
        },
        ...decorationContext(log, settings)
      })
      for (const { body } of hub.requests) if (body) github.push(body)
    } finally {
      await hub.stop()
    }
    const forge = new FakeGitea({
      diff: [...linesOf(outcomes)]
        .map(([file, lines]) =>
          [
            `diff --git a/${file} b/${file}`,
            `--- a/${file}`,
            `+++ b/${file}`,
            ...lines.map((line) => `@@ -${line - 1},0 +${line},1 @@\n+x`)
          ].join('\n')
        )
        .join('\n')
    })
    await forge.start()
    server.use(http.all(`${new URL(forge.url).origin}/*`, () => passthrough()))
    try {
      const event = path.join(cwd, 'gitea-event.json')
      await writeFile(
        event,
        JSON.stringify({ pull_request: { number: GITEA_PULL_REQUEST, head: { sha: HEAD_SHA } } })
      )
      await decorate(outcomes, {
        env: {
          GITHUB_ACTIONS: 'true',
          GITEA_ACTIONS: 'true',
          GITHUB_API_URL: `${forge.url}/api/v1`,
          GITHUB_REPOSITORY: GITEA_REPOSITORY,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: event,
          GITEA_TOKEN: GITHUB_TOKEN
        },
        ...decorationContext(log, settings)
      })
      for (const { body } of forge.requests) if (body) gitea.push(body)
    } finally {
      await forge.stop()
    }
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
    'command: --codequality file': files.codequality,
    'command: GitLab note, discussions and statuses': gitlab,
    'command: Bitbucket comment, report and statuses': bitbucket,
    'command: Azure DevOps threads and statuses': azure,
    'command: GitHub comment, review and statuses': github,
    'command: Gitea comment, review and statuses': gitea
  }
}

/** The files of every issue read: the pull request changes them all, so each gets its thread. */
/** The lines of every issue read, by file. */
function linesOf(outcomes: readonly AnalysisOutcome[]): Map<string, number[]> {
  const lines = new Map<string, number[]>()
  for (const outcome of outcomes) {
    if (!outcome.read || !outcome.result.newIssues?.read) continue
    for (const { file, region } of outcome.result.newIssues.findings) {
      if (file && region)
        lines.set(
          file,
          [...new Set([...(lines.get(file) ?? []), region.startLine])].sort((a, b) => a - b)
        )
    }
  }
  return lines
}

/** What the command's decoration is given besides where it writes. */
function decorationContext(log: ReturnType<typeof terminalLog>, settings: Settings) {
  return {
    log,
    secrets: FORMS,
    policy: settings.policy,
    commentWhen: 'always' as const,
    inlineLimit: 10,
    inlineSeverity: 'info' as const,
    clock: new FakeClock(),
    deadline: 60_000,
    userAgent: 'test'
  }
}

function changedFiles(outcomes: readonly AnalysisOutcome[]): string[] {
  return outcomes.flatMap((outcome) =>
    outcome.read && outcome.result.newIssues?.read
      ? outcome.result.newIssues.findings.flatMap(({ file }) => (file ? [file] : []))
      : []
  )
}

/**
 * A loopback GitLab (shaped from its REST documentation) with no note or discussion yet, whose
 * merge request adds the line of every issue read, so each gets its discussion.
 */
function gitlabFor(outcomes: readonly AnalysisOutcome[]) {
  // One diff a file, a hunk for each issue's line: the discussions go as one review of drafts.
  const started = startFakeGitLab({
    diffs: [...linesOf(outcomes)].map(([file, lines]) => ({
      old_path: file,
      new_path: file,
      diff: lines.map((line) => addingLines(line - 1, 1)).join('\n')
    }))
  })
  // The loopback GitLab is a real server: its requests go through the mock server untouched.
  return started.then((fake) => {
    server.use(http.all(`${fake.url}/*`, () => passthrough()))
    return fake
  })
}

/** What every destination received from a part's outcomes, over its scenarios. */
async function everyDestination(part: Part): Promise<Written> {
  return { ...(await actionWrites(part)), ...(await commandWrites(part)) }
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

/** No form as written or escaped, in every piece and every JSON string inside it. */
function expectNoFormWrittenOrEscaped(texts: readonly string[]): void {
  expect
    .soft(found(texts, FORBIDDEN), 'a form, as written or as JSON, HTML or XML escapes it')
    .toEqual([])
}

/**
 * Not vacuous: the server's text around the token was written, with the token removed: `***`
 * as the sink writes it, or as the destination's markup escapes it when the reply lost the
 * token at the source (HTML writes `*` as `&#42;`).
 */
function expectTheServersTextWritten(pieces: readonly string[]): void {
  const text = pieces.join('\n')
  expect.soft(text, 'the server’s text').toContain(PLANTED)
  expect
    .soft(
      [REDACTED, summaryText(REDACTED, Infinity)].some((marker) => text.includes(marker)),
      'the token removed'
    )
    .toBe(true)
}

// --- Part one: the server's replies and the report files hold the token; the check reads them. ---

const server = useMockServer()
const SONAR = 'https://sonar.example.com'

/**
 * The analyses the server knows, each from its own report file: read (everything planted, read
 * in full); refused (its gate request answered 404 with an error reply quoting the token);
 * failed (its task FAILED, its message and type quoting the token); garbled (its task's status
 * is the token's text, refused by the decoder, which quotes it); unparsed (its gate read, its
 * issues' reply plain text quoting the token, which the reason they were not read quotes).
 */
const ANALYSES = ['read', 'refused', 'failed', 'garbled', 'unparsed'] as const
type Analysis = (typeof ANALYSES)[number]

/** The ids of an analysis: each holds its name, which the server's replies are chosen by. */
const idsOf = (analysis: Analysis) => ({
  taskId: `${PLANTED}-${analysis}-task-id~${TOKEN}~end`,
  analysisId: plantId(`${analysis}-analysis-id`),
  projectKey: plantId(`${analysis}-project-key`)
})

/** The analysis an id or key of a request is of (undefined: none of this server's). */
const analysisOf = (value: string | null): Analysis | undefined =>
  ANALYSES.find((analysis) => value?.startsWith(`${PLANTED}-${analysis}-`))

const reportFileOf = (analysis: Analysis) => `${analysis}/.scannerwork/report-task.txt`

/**
 * An analysis's report-task.txt: every field that is the scanner's text holds the token (see
 * ID_FORMS for which forms); serverUrl is the server's address, where the requests go, and
 * ceTaskUrl its task's address there. No organization: it would make the server SonarQube Cloud.
 */
function reportFile(analysis: Analysis): string {
  const { taskId, projectKey } = idsOf(analysis)
  return [
    `projectKey=${projectKey}`,
    `serverUrl=${SONAR}`,
    `serverVersion=10.7.${plant('server-version')}`,
    `dashboardUrl=${SONAR}/dashboard?id=${plant(`${analysis}-dashboard-url`)}`,
    `ceTaskId=${taskId}`,
    `ceTaskUrl=${SONAR}/api/ce/task?id=${encodeURIComponent(taskId)}`
  ].join('\n')
}

/** The forms a link's address can hold as written in a warning's HTML: those without `"`. */
const HREF_FORMS = FORMS.filter((form) => !form.includes('"'))

/** Where a reply's JSON spells the token in \u escapes (see `withUnicodeEscapes`). */
const UNICODE_ESCAPED = '@token-in-unicode-escapes@'

/** The reply's JSON, the token spelled in \u escapes where UNICODE_ESCAPED stands. */
const withUnicodeEscapes = (reply: unknown) =>
  new HttpResponse(
    JSON.stringify(reply).replaceAll(
      UNICODE_ESCAPED,
      [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
    ),
    { headers: { 'content-type': 'application/json' } }
  )

/** `api/ce/task`: the analysis's task, every string in it planted. */
function taskReply(analysis: Analysis) {
  const { analysisId } = idsOf(analysis)
  const planted = {
    id: plantId(`${analysis}-task-reply-id`),
    type: 'REPORT',
    componentKey: plant('component-key'),
    analysisId,
    warnings: [
      plant('task-warning'),
      `<a href="${SONAR}/documentation?${plant('warning-link', HREF_FORMS)}">${plant('warning-words')}</a>`
    ],
    branch: plant('branch'),
    branchType: `${PLANTED}-branch-type ${UNICODE_ESCAPED} end`,
    pullRequest: plant('pull-request'),
    executionTimeMs: 1200
  }
  switch (analysis) {
    case 'failed':
      return {
        task: {
          ...planted,
          status: 'FAILED',
          errorMessage: plant('task-error-message'),
          errorType: plant('task-error-type')
        }
      }
    case 'garbled':
      return { task: { ...planted, status: `${PLANTED}-task-status ${FORMS.join(' ')}` } }
    default:
      return { task: { ...planted, status: 'SUCCESS' } }
  }
}

/** Conditions on metrics the action does not know, so their names are the server's. */
const METRIC_KEYS = [1, 2, 3].map((n) => plant(`metric-key-${n}`))

/** `api/qualitygates/project_status` of the read analysis: every string planted. */
function gateReply() {
  const conditionOn = (n: number, status: string | undefined) => ({
    ...(status === undefined ? {} : { status }),
    metricKey: METRIC_KEYS[n - 1],
    comparator: plant(`comparator-${n}`),
    errorThreshold: plant(`error-threshold-${n}`),
    warningThreshold: plant(`warning-threshold-${n}`),
    actualValue: plant(`actual-value-${n}`),
    periodIndex: 1
  })
  return {
    projectStatus: {
      // Statuses are words: the decoder refuses any other (see the garbled analysis).
      status: 'ERROR',
      conditions: [
        conditionOn(1, 'ERROR'),
        conditionOn(2, 'WARN'),
        // No status: NONE.
        conditionOn(3, undefined),
        // A condition the rule can judge, but whose value quotes the token.
        {
          status: 'OK',
          metricKey: 'new_coverage',
          comparator: 'LT',
          errorThreshold: '80',
          actualValue: plant('actual-value-4')
        }
      ],
      period: {
        mode: plant('period-mode'),
        date: plant('period-date'),
        parameter: plant('period-parameter')
      },
      caycStatus: plant('cayc-status'),
      ignoredConditions: true
    }
  }
}

/** `api/metrics/search`: the conditions' metrics, their names and types planted. */
const metricsReply = () => ({
  metrics: METRIC_KEYS.map((key, n) => ({
    key,
    name: plant(`metric-name-${n + 1}`),
    type: plant(`metric-type-${n + 1}`)
  })),
  total: METRIC_KEYS.length,
  p: 1,
  ps: 500
})

/**
 * `api/issues/search` of the read analysis: every string planted but the severities, types,
 * qualities and attributes, which are words (the decoder drops any other). Three issues are
 * files of the checkout (two from `components`, one from its component key), one's path has a
 * backslash (a file only once the token has left it), one has no path; more match than were sent.
 */
function issuesReply() {
  const projectKey = idsOf('read').projectKey
  const issue = (n: number, severity: string, component: string) => ({
    key: plantId(`issue-key-${n}`),
    rule: plant(`rule-${n}`),
    message: plant(`issue-message-${n}`),
    component,
    project: projectKey,
    line: 10 + n,
    textRange: { startLine: 10 + n, endLine: 10 + n, startOffset: 2, endOffset: 9 },
    severity,
    type: 'CODE_SMELL',
    impacts: [{ softwareQuality: 'MAINTAINABILITY', severity: 'HIGH' }],
    cleanCodeAttribute: 'CONVENTIONAL'
  })
  const components = [
    { key: plant('component-1'), path: `src/${plant('file-path-1', PATH_FORMS)}.ts` },
    { key: plant('component-2'), path: `src/${plant('file-path-2', PATH_FORMS)}.ts` },
    { key: plant('component-4'), path: `src/${plant('file-path-4')}.ts` }
  ]
  const issues = [
    issue(1, 'BLOCKER', components[0]!.key),
    issue(2, 'MAJOR', components[1]!.key),
    issue(3, 'MINOR', `${projectKey}:src/${plant('file-path-3', PATH_FORMS)}.ts`),
    issue(4, 'INFO', components[2]!.key),
    issue(5, 'INFO', plant('component-5'))
  ]
  return {
    paging: { pageIndex: 1, pageSize: 500, total: issues.length + 3 },
    issues,
    components,
    rules: issues.map(({ rule }, n) => ({ key: rule, name: plant(`rule-name-${n + 1}`) }))
  }
}

/**
 * The server. Each request is answered by the analysis its id or key names; a request for none
 * is refused (a 400 whose message says so), which the outcomes would show.
 */
function theServer() {
  const unknown = (what: string | null) =>
    HttpResponse.json(
      { errors: [{ msg: `This test's server knows no ${String(what)}` }] },
      { status: 400 }
    )
  const query = (request: Request, name: string) => new URL(request.url).searchParams.get(name)
  server.use(
    http.get(`${SONAR}/api/ce/task`, ({ request }) => {
      const analysis = analysisOf(query(request, 'id'))
      return analysis ? withUnicodeEscapes(taskReply(analysis)) : unknown(query(request, 'id'))
    }),
    http.get(`${SONAR}/api/qualitygates/project_status`, ({ request }) => {
      const analysisId = query(request, 'analysisId')
      switch (analysisOf(analysisId)) {
        case 'read':
          return HttpResponse.json(gateReply())
        case 'unparsed':
          return HttpResponse.json({ projectStatus: { status: 'OK', conditions: [] } })
        case 'refused':
          return HttpResponse.json(
            { errors: [{ msg: plant('error-reply') }, { msg: plant('second-error-reply') }] },
            { status: 404 }
          )
        default:
          return unknown(analysisId)
      }
    }),
    http.get(`${SONAR}/api/metrics/search`, () => HttpResponse.json(metricsReply())),
    http.get(`${SONAR}/api/issues/search`, ({ request }) => {
      const project = query(request, 'components') ?? query(request, 'componentKeys')
      switch (analysisOf(project)) {
        case 'read':
          return HttpResponse.json(issuesReply())
        case 'unparsed':
          // Text, not JSON, whose quotes pair up whether the token has left it or not (no
          // backslash, the token twice), so it never reads as JSON cut off.
          return HttpResponse.text(`${plant('raw-reply', [...PATH_FORMS, TOKEN])}`)
        default:
          return unknown(project)
      }
    }),
    http.get(`${SONAR}/api/ce/component`, () => HttpResponse.json({ queue: [] })),
    // What changed, read once the gate is: the read analysis's, planted; the others' refused.
    http.get(`${SONAR}/api/measures/component`, ({ request }) => {
      const project = query(request, 'component')
      return analysisOf(project) === 'read'
        ? HttpResponse.json(measuresReply(project!))
        : unknown(project)
    }),
    http.get(`${SONAR}/api/hotspots/search`, ({ request }) => {
      const project = query(request, 'projectKey') ?? query(request, 'project')
      return analysisOf(project) === 'read' ? HttpResponse.json(hotspotsReply()) : unknown(project)
    }),
    http.get(`${SONAR}/api/project_pull_requests/list`, ({ request }) => {
      const project = query(request, 'project')
      return analysisOf(project) === 'read'
        ? HttpResponse.json(pullRequestsReply())
        : unknown(project)
    })
  )
}

/** `api/measures/component`: numbers only (the decoder reads no other), those of a 10.x server. */
function measuresReply(projectKey: string) {
  const values = { coverage: '78.2', duplicated_lines_density: '3', new_accepted_issues: '2' }
  return {
    component: {
      key: projectKey,
      measures: [
        ...Object.entries(values).map(([metric, value]) => ({ metric, value })),
        { metric: 'new_coverage', period: { index: 1, value: '85.5' } },
        { metric: 'new_duplicated_lines_density', period: { index: 1, value: '1.2' } }
      ]
    }
  }
}

/** `api/hotspots/search`: a hotspot to review, its key, message and file planted. */
const hotspotsReply = () => ({
  paging: { pageIndex: 1, pageSize: 5, total: 3 },
  hotspots: [
    {
      key: plantId('hotspot-key'),
      component: plant('hotspot-component'),
      message: plant('hotspot-message'),
      line: 7,
      vulnerabilityProbability: 'HIGH'
    }
  ],
  components: [{ key: plant('hotspot-component'), path: `src/${plant('hotspot-path')}.ts` }]
})

/**
 * `api/project_pull_requests/list`: the read analysis's pull request (the task's, so its key
 * loses the token as the task's does) and its target branch, planted.
 */
const pullRequestsReply = () => ({
  pullRequests: [
    {
      key: plant('pull-request'),
      branch: plant('pull-request-branch'),
      base: plant('target-branch'),
      analysisDate: '2026-11-24T10:00:00+0000'
    }
  ]
})

/** The checkout: each analysis's report file, and the files its issues are in. */
const checkout = () => temp.file('checkout')

/** The analyses each scenario checks: one of each; a lone read one; a lone unread one. */
const CHECKED: Record<string, readonly Analysis[]> = {
  several: ANALYSES,
  'lone read': ['read'],
  'lone unread': ['refused']
}

/** The settings of a step that checks these analyses' report files, with the token set. */
const settingsFor = (analyses: readonly Analysis[]) =>
  actionSettings({
    scanMetadataReportFile: analyses.map(reportFileOf).join('\n'),
    initialDelayMs: '0'
  })

/** The real check of a scenario's analyses, logging to the edge's log, as `main.ts` runs it. */
const checked: OutcomesOf = (scenario, log) => {
  const settings = settingsFor(CHECKED[scenario] ?? [])
  return checkQualityGates(settings, {
    cwd: checkout(),
    repoRoot: checkout(),
    // Every path the server names is a file of the checkout, unless it is not a path at all.
    fileExists: () => true,
    clock: new FakeClock(),
    startedAt: 0,
    deadline: overallDeadline(0, settings.timeoutMs),
    log,
    userAgent: 'token-in-every-sink',
    random: () => 0.5
  })
}

describe('a token the server quotes anywhere never reaches any destination (the check’s outcomes)', () => {
  let written: Written
  let several: AnalysisOutcome[]
  beforeAll(async () => {
    for (const analysis of ANALYSES) {
      const file = path.join(checkout(), reportFileOf(analysis))
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, reportFile(analysis))
    }
    theServer()
    written = await everyDestination({
      name: 'check',
      scenarios: Object.keys(CHECKED),
      outcomes: checked,
      settings: settingsFor(ANALYSES)
    })
    several = await checked('several', new RecordingLog())
  })

  it('every destination of the table was written to, and no other', () => {
    expect(Object.keys(written).sort()).toEqual([...DESTINATIONS].sort())
  })

  it('the check read every planted reply: each analysis came to what its server said', () => {
    const outcome = (analysis: Analysis) =>
      several.find(({ source }) => source === reportFileOf(analysis))
    const read = outcome('read')
    const newIssues = read?.read ? read.result.newIssues : undefined
    // The conditions on metrics it does not know have the server's names for them.
    expect(
      read?.read && read.result.conditions.map(({ condition }) => condition.metric?.name)
    ).toEqual([
      ...METRIC_KEYS.map((_, n) => expect.stringContaining(`${PLANTED}-metric-name-${n + 1}`)),
      undefined
    ])
    // Three are files of the checkout (the fourth only without its backslash); one has no path.
    expect(newIssues?.read && newIssues.findings.map(({ file }) => file !== undefined)).toEqual([
      true,
      true,
      true,
      expect.any(Boolean),
      false
    ])
    // What changed: the hotspot and the pull request's target branch as planted.
    expect(read?.read && read.result.whatChanged).toMatchObject({
      target: { branch: expect.stringContaining(`${PLANTED}-target-branch`) },
      hotspots: {
        total: 3,
        hotspots: [{ message: expect.stringContaining(`${PLANTED}-hotspot-message`) }]
      }
    })
    const unparsed = outcome('unparsed')
    const unparsedIssues = unparsed?.read ? unparsed.result.newIssues : undefined
    expect(unparsedIssues).toMatchObject({ read: false })
    // The reason names the host setting: a Message, said in the action's words here.
    expect(
      unparsedIssues && !unparsedIssues.read ? inActionWords(unparsedIssues.reason) : undefined
    ).toEqual(expect.stringContaining(`"${PLANTED}-raw-reply`))
    const failure = (analysis: Analysis) => {
      const unread = outcome(analysis)
      return unread?.read === false
        ? inActionWords(unread.message)
        : `${analysis}: ${String(unread?.read)}`
    }
    expect(failure('refused')).toMatch(/^The server says: "planted-in-error-reply .*HTTP 404/)
    expect(failure('failed')).toMatch(
      /ended FAILED \(planted-in-task-error-type .*planted-in-task-error-message/
    )
    expect(failure('garbled')).toMatch(/task\.status is "planted-in-task-status /)
  })

  it.each(DESTINATIONS)(
    '%s: no form of the token, as written, escaped or linked',
    (destination) => {
      const pieces = written[destination]
      const texts = pieces.flatMap(decoded)
      expectNoFormWrittenOrEscaped(texts)
      // A link built from a server value encodes the token its own way.
      const links = texts
        .map(unescapedHtml)
        .flatMap((text) => [unescapedUrl(text, true), unescapedUrl(text, false)])
      expect
        .soft(found(links, FORMS), 'a form, once a link’s percent-encoding is undone')
        .toEqual([])
      expectTheServersTextWritten(pieces)
    }
  )
})

// --- Part two: hand-built outcomes whose values hold the token as they are. ---

/** A finding whose every string holds each form; its link to the server is not derived from them. */
const finding = (n: number, severity: Finding['severity'], file: boolean): Finding => ({
  key: plant(`issue-key-${n}`),
  rule: plant(`rule-${n}`),
  ruleName: plant(`rule-name-${n}`),
  message: plant(`issue-message-${n}`),
  severity,
  severityWord: severity.toUpperCase(),
  type: plant(`issue-type-${n}`),
  file: file ? `src/${plant(`file-path-${n}`)}.ts` : undefined,
  serverPath: `src/${plant(`server-path-${n}`)}.ts`,
  region: { startLine: 10 + n, endLine: 10 + n, startColumn: 3, endColumn: 10 },
  url: `${SERVER}project/issues?id=my-project&open=AYIssue${n}`
})

/** A read outcome: every value the server supplies holds each form, its links none. */
function handBuiltRead(): AnalysisOutcome {
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
  const findings = [
    finding(1, 'blocker', true),
    finding(2, 'medium', true),
    finding(3, 'low', false)
  ]
  const result: GateResult = gateResult({
    status: plant('status'),
    analysisId: plant('analysis-id'),
    taskId: plant('task-id'),
    projectKey: plant('project-key'),
    branch: plant('branch'),
    branchType: plant('branch-type'),
    pullRequest: plant('pull-request'),
    period: { mode: plant('period-mode'), date: plant('period-date'), parameter: plant('period') },
    caycStatus: plant('cayc-status'),
    ignoredConditions: true,
    conditions: evaluateConditions([
      planted('ERROR', 1),
      planted('WARN', 2),
      planted(plant('condition-status'), 3),
      condition({ actualValue: plant('actual-value-4') })
    ]),
    taskWarnings: [plant('task-warning')],
    newIssues: {
      read: true,
      scope: { kind: 'new-code', branch: plant('branch') },
      findings,
      total: findings.length + 3,
      requests: 1
    }
  })
  return { read: true, source: plant('report-file'), result }
}

const handBuiltUnread = (projectKey: string | undefined): AnalysisOutcome => {
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
const HAND_BUILT: Record<string, () => AnalysisOutcome[]> = {
  several: () => [handBuiltRead(), handBuiltUnread(plant('unread-project-key'))],
  'lone read': () => [handBuiltRead()],
  'lone unread': () => [handBuiltUnread(undefined)]
}

describe('a token in any value of an outcome is written by no sink, as written or escaped', () => {
  let written: Written
  beforeAll(async () => {
    written = await everyDestination({
      name: 'hand-built',
      scenarios: Object.keys(HAND_BUILT),
      outcomes: (scenario) => Promise.resolve(HAND_BUILT[scenario]?.() ?? []),
      settings: actionSettings()
    })
  })

  it('every destination of the table was written to, and no other', () => {
    expect(Object.keys(written).sort()).toEqual([...DESTINATIONS].sort())
  })

  it.each(DESTINATIONS)('%s: no form of the token, as written or escaped', (destination) => {
    const pieces = written[destination]
    expectNoFormWrittenOrEscaped(pieces.flatMap(decoded))
    expectTheServersTextWritten(pieces)
  })
})

describe("GitLab's draft notes, a destination of their own", () => {
  it('were written to by the parts above: their bodies are among those searched for the token', () => {
    expect(gitlabDraftsSent).toBeGreaterThan(0)
  })
})
