/**
 * Records each reply the product reads from a real SonarQube server, asked with the parameters the
 * product sends to that server's version (the same query builders), sanitised (sanitise.ts), as
 * one JSON file per reply under `--out`: `{request, status, body}`, where `request` names the
 * project, branch, task and analysis as `{project}`, `{branch}`, `{task}`, `{analysis}`, so the
 * simulator can be asked the same (__tests__/unit/simulator-conformance.test.ts).
 *
 * `tsx scripts/real-server/record-replies.ts --url http://127.0.0.1:9000 --project my-project --out __fixtures__/sonarqube/real/10.7`
 * with SONAR_TOKEN (a token that may browse the project and read its tasks) and, for the
 * `forbidden-*` replies, SONAR_FORBIDDEN_TOKEN (a token of a user with the server's default
 * permissions, Execute Analysis among them, but without Browse on the project, which must be
 * private). The project needs at least one finished analysis; `--branch` names its main branch
 * (default: the one api/project_branches/list marks main).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { authorization } from '../../src/sonar/authorization.js'
import { hotspotsQuery } from '../../src/sonar/hotspots.js'
import { issuesQuery, type IssueScope } from '../../src/sonar/issues.js'
import { ANALYSES_PAGE_SIZE } from '../../src/sonar/client.js'
import { firstAuthScheme, serverKind, type ServerKind } from '../../src/sonar/server-kind.js'
import {
  ISSUE_COUNT_MEASURES,
  NEW_CODE_MEASURES,
  OVERALL_MEASURES
} from '../../src/gate/what-changed.js'
import { Sanitiser } from './sanitise.js'

const USAGE = `Usage: SONAR_TOKEN=... [SONAR_FORBIDDEN_TOKEN=...] tsx scripts/real-server/record-replies.ts --url <server> --project <key> --out <folder> [--branch <main branch>]`

/** Longest a request may take. */
const REQUEST_TIMEOUT_MS = 30_000
/** Largest reply kept (a metrics page is the largest: some 100 kB). */
const MAX_BODY_CHARS = 2_000_000

/** One recorded reply, as written to its file. */
export interface RecordedReply {
  /** What was asked, relative to the server, with {project}, {branch}, {task}, {analysis}. */
  request: string
  /** The Authorization scheme and which token: the product's, another's, a wrong one. */
  auth: 'token' | 'forbidden-token' | 'wrong-token' | 'none'
  status: number
  body: unknown
}

interface Names {
  project: string
  branch: string
  task: string
  analysis: string
}

interface Asked {
  /** The request with the names as {placeholders}. */
  template: string
  auth?: RecordedReply['auth']
}

/** The request with the names filled in, each URL-encoded. */
function filled(template: string, names: Names): string {
  return template.replace(/\{(project|branch|task|analysis)\}/g, (_, name: keyof Names) =>
    encodeURIComponent(names[name])
  )
}

/** A query string with the names' values written back as their {placeholders}. */
function templateOf(query: URLSearchParams, names: Partial<Names>): string {
  return [...query.entries()]
    .map(([key, value]) => {
      const name = (Object.keys(names) as (keyof Names)[]).find((each) => names[each] === value)
      return `${key}=${name ? `{${name}}` : encodeURIComponent(value)}`
    })
    .join('&')
}

/** The requests of the product for this server's kind, each under the name of its file. */
function requests(kind: ServerKind, names: Partial<Names>): Record<string, Asked> {
  const scope: IssueScope = { kind: 'new-code', branch: names.branch }
  const measures = (keys: readonly string[]) =>
    `api/measures/component?component={project}&branch={branch}&metricKeys=${keys.join('%2C')}`
  const issues = issuesQuery(names.project ?? '', scope, kind, 1)
  const allIssues = new URLSearchParams(issues)
  allIssues.delete('inNewCodePeriod')
  allIssues.delete('sinceLeakPeriod')
  const hotspots = hotspotsQuery(names.project ?? '', scope, kind)
  const allHotspots = new URLSearchParams(hotspots)
  allHotspots.delete('inNewCodePeriod')
  allHotspots.delete('sinceLeakPeriod')
  const forbiddenAsked = {
    'issues-search': `api/issues/search?${templateOf(issues, names)}`,
    'project-status': 'api/qualitygates/project_status?projectKey={project}&branch={branch}',
    'ce-component': 'api/ce/component?component={project}',
    'ce-task': 'api/ce/task?id={task}',
    'project-analyses': `api/project_analyses/search?project={project}&ps=${ANALYSES_PAGE_SIZE}`,
    'project-branches': 'api/project_branches/list?project={project}',
    'measures-gate': measures(['alert_status', 'quality_gate_details']),
    'hotspots-search': `api/hotspots/search?${templateOf(hotspots, names)}`
  }
  return {
    'system-status': { template: 'api/system/status', auth: 'none' },
    'authentication-validate': { template: 'api/authentication/validate' },
    'ce-component': { template: 'api/ce/component?component={project}' },
    'ce-activity': { template: 'api/ce/activity?component={project}' },
    'ce-task': { template: 'api/ce/task?id={task}' },
    'ce-task-warnings': { template: 'api/ce/task?id={task}&additionalFields=warnings' },
    'project-status-analysis': {
      template: 'api/qualitygates/project_status?analysisId={analysis}'
    },
    'project-status-branch': {
      template: 'api/qualitygates/project_status?projectKey={project}&branch={branch}'
    },
    'project-status-pull-request': {
      template: 'api/qualitygates/project_status?projectKey={project}&pullRequest=1'
    },
    'project-pull-requests': { template: 'api/project_pull_requests/list?project={project}' },
    'project-branches': { template: 'api/project_branches/list?project={project}' },
    'project-analyses': {
      template: `api/project_analyses/search?project={project}&ps=${ANALYSES_PAGE_SIZE}`
    },
    'project-analyses-branch': {
      template: `api/project_analyses/search?project={project}&branch={branch}&ps=${ANALYSES_PAGE_SIZE}`
    },
    'metrics-search': { template: 'api/metrics/search?ps=500&p=1' },
    'measures-gate': { template: measures(['alert_status', 'quality_gate_details']) },
    'measures-new-code': { template: measures(NEW_CODE_MEASURES) },
    'measures-overall': { template: measures(OVERALL_MEASURES) },
    'measures-issue-counts': { template: measures(ISSUE_COUNT_MEASURES.branch) },
    'issues-search': { template: `api/issues/search?${templateOf(issues, names)}` },
    // The same without the new code's parameter: every open issue, old ones too.
    'issues-search-all': { template: `api/issues/search?${templateOf(allIssues, names)}` },
    'hotspots-search': { template: `api/hotspots/search?${templateOf(hotspots, names)}` },
    // The same without the new code's parameter: every hotspot to review, old ones too.
    'hotspots-search-all': { template: `api/hotspots/search?${templateOf(allHotspots, names)}` },
    'error-401-wrong-token': {
      template: 'api/ce/component?component={project}',
      auth: 'wrong-token'
    },
    // A token of a user who may run analyses (the server's default for every user) but may not
    // browse the project: what each request then gets.
    ...Object.fromEntries(
      Object.entries(forbiddenAsked).map(([name, template]) => [
        `forbidden-${name}`,
        { template, auth: 'forbidden-token' as const }
      ])
    ),
    'error-404-task': { template: 'api/ce/task?id=AYunknownTask0000001' },
    'error-404-analysis': {
      template: 'api/qualitygates/project_status?analysisId=AYunknownAnalysis001'
    },
    'error-404-ce-component': { template: 'api/ce/component?component=no-such-project' },
    'error-404-project-analyses': {
      template: `api/project_analyses/search?project=no-such-project&ps=${ANALYSES_PAGE_SIZE}`
    },
    'error-404-project-analyses-branch': {
      template: `api/project_analyses/search?project={project}&branch=no-such-branch&ps=${ANALYSES_PAGE_SIZE}`
    },
    'error-404-project-branches': {
      template: 'api/project_branches/list?project=no-such-project'
    },
    'error-404-project-status-branch': {
      template: 'api/qualitygates/project_status?projectKey={project}&branch=no-such-branch'
    }
  }
}

interface Server {
  url: URL
  token: string
  forbiddenToken: string | undefined
  scheme: 'bearer' | 'basic'
}

/** GET a path of the server with the auth asked for: its status and body (JSON, or text). */
async function get(
  server: Server,
  relative: string,
  auth: RecordedReply['auth']
): Promise<{ status: number; body: unknown }> {
  const token =
    auth === 'token'
      ? server.token
      : auth === 'forbidden-token'
        ? server.forbiddenToken
        : auth === 'wrong-token'
          ? 'squ_0000000000000000000000000000000000000000'
          : undefined
  const headers: Record<string, string> = { accept: 'application/json' }
  if (token !== undefined) headers['authorization'] = authorization(token, server.scheme)
  const base = new URL(server.url)
  if (!base.pathname.endsWith('/')) base.pathname += '/'
  const reply = await fetch(new URL(relative, base), {
    headers,
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS)
  })
  const text = (await reply.text()).slice(0, MAX_BODY_CHARS)
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON (api/server/version is text): kept as text.
  }
  return { status: reply.status, body }
}

/**
 * `--queued`: the project's task still queued or running, as api/ce/component and api/ce/task
 * show it (`ce-component-queued`, `ce-task-queued`): run it right after a scan is submitted.
 */
async function recordQueued(
  server: Server,
  project: string,
  out: string,
  component: unknown
): Promise<number> {
  const queued = (component as { queue?: { id?: unknown }[] }).queue?.[0]?.id
  if (typeof queued !== 'string') {
    throw new Error('api/ce/component shows no task queued or running: run it while a scan is.')
  }
  const names = { project, branch: '', task: queued, analysis: '' }
  const sanitiser = new Sanitiser(server.url, [server.token])
  await mkdir(out, { recursive: true })
  for (const [name, template] of [
    ['ce-component-queued', 'api/ce/component?component={project}'],
    ['ce-task-queued', 'api/ce/task?id={task}']
  ] as const) {
    const reply = await get(server, filled(template, names), 'token')
    const recorded: RecordedReply = {
      request: template,
      auth: 'token',
      status: reply.status,
      body: sanitiser.reply(reply.body)
    }
    await writeFile(path.join(out, `${name}.json`), `${JSON.stringify(recorded, null, 2)}\n`)
    console.log(`${name}: ${reply.status}`)
  }
  return 0
}

/** The project's last finished task and its analysis, from api/ce/component. */
function lastTask(body: unknown): { task: string; analysis: string } {
  const current = (body as { current?: { id?: unknown; analysisId?: unknown } }).current
  if (typeof current?.id !== 'string' || typeof current.analysisId !== 'string') {
    throw new Error(
      'api/ce/component names no finished task with an analysis: analyse the project first.'
    )
  }
  return { task: current.id, analysis: current.analysisId }
}

/** The main branch's name from api/project_branches/list. */
function mainBranch(body: unknown): string {
  const branches = (body as { branches?: { name?: unknown; isMain?: unknown }[] }).branches ?? []
  const main = branches.find((branch) => branch.isMain === true)?.name
  if (typeof main !== 'string') throw new Error('api/project_branches/list names no main branch.')
  return main
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      project: { type: 'string' },
      branch: { type: 'string' },
      out: { type: 'string' },
      queued: { type: 'boolean' },
      help: { type: 'boolean' }
    }
  })
  const token = process.env['SONAR_TOKEN']
  if (values.help || !values.url || !values.project || !values.out || !token) {
    console.error(
      `${USAGE}\n${token ? '' : 'SONAR_TOKEN is not set: give a token that may browse the project.\n'}`
    )
    return 2
  }
  const url = new URL(values.url)
  const forbiddenToken = process.env['SONAR_FORBIDDEN_TOKEN'] || undefined
  const probe: Server = { url, token, forbiddenToken, scheme: 'basic' }
  const version = await get(probe, 'api/server/version', 'none')
  if (version.status !== 200 || typeof version.body !== 'string') {
    throw new Error(
      `api/server/version answered ${version.status}: is ${url.origin} a SonarQube server?`
    )
  }
  const kind = serverKind(url, { serverVersion: version.body.trim() })
  const server: Server = { ...probe, scheme: firstAuthScheme(kind) }
  const branches = await get(
    server,
    `api/project_branches/list?project=${encodeURIComponent(values.project)}`,
    'token'
  )
  if (branches.status !== 200) {
    throw new Error(
      `api/project_branches/list answered ${branches.status}: check --project and SONAR_TOKEN.`
    )
  }
  const component = await get(
    server,
    `api/ce/component?component=${encodeURIComponent(values.project)}`,
    'token'
  )
  if (values.queued) return recordQueued(server, values.project, values.out, component.body)
  const names: Names = {
    project: values.project,
    branch: values.branch ?? mainBranch(branches.body),
    ...lastTask(component.body)
  }
  const sanitiser = new Sanitiser(url, [token, ...(forbiddenToken ? [forbiddenToken] : [])])
  await mkdir(values.out, { recursive: true })
  const write = async (name: string, reply: RecordedReply) =>
    writeFile(path.join(values.out!, `${name}.json`), `${JSON.stringify(reply, null, 2)}\n`)
  await write('server-version', {
    request: 'api/server/version',
    auth: 'none',
    status: version.status,
    body: version.body.trim()
  })
  for (const [name, asked] of Object.entries(requests(kind, names))) {
    const auth = asked.auth ?? 'token'
    if (auth === 'forbidden-token' && !forbiddenToken) {
      console.log(`${name}: skipped (no SONAR_FORBIDDEN_TOKEN)`)
      continue
    }
    const reply = await get(server, filled(asked.template, names), auth)
    await write(name, {
      request: sanitiser.text(asked.template),
      auth,
      status: reply.status,
      body: sanitiser.reply(reply.body)
    })
    console.log(`${name}: ${reply.status}`)
  }
  return 0
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`record-replies: ${error instanceof Error ? error.message : String(error)}`)
      process.exitCode = 1
    }
  )
}
