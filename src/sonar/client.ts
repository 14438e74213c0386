import { redactSecrets, tokenForms } from '../secrets.js'
import type { Clock } from '../clock.js'
import { ServerRequestError, TimeoutError, UnsafeRequestError } from '../errors.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import {
  analysisTokenKind,
  authorization,
  otherScheme,
  SCHEME_NAMES,
  type AuthScheme
} from './authorization.js'
import {
  statusFailure,
  transportFailure,
  type FailedTry,
  type ResourceWords
} from './failed-try.js'
import { BodyProblem, parseJsonBody } from './json-reply.js'
import { isAllowedRedirect, isSameOrigin, serverBase, shownUrl } from './origin.js'
import { afterLastTry, decideRetry } from '../http/retry-policy.js'
import { decodeIssuesPage, issuesQuery, type IssueScope, type IssuesPage } from './issues.js'
import { decodeHotspotsPage, hotspotsQuery, type HotspotsPage } from './hotspots.js'
import { decodeMeasureValues, type MeasureValues } from './measures.js'
import { asksForTaskWarnings, firstAuthScheme, type ServerKind } from './server-kind.js'
import { parseTokenExpiration, TOKEN_EXPIRATION_HEADER } from './token-expiration.js'
import { headerValue, HttpTransport, TransportFailure, type Reply } from '../http/transport.js'
import {
  decodeBranchNames,
  decodeComponentTasks,
  decodeGateMeasures,
  decodeLastProcessingMs,
  decodeProjectAnalyses,
  decodeMetricsPage,
  decodeProjectStatus,
  decodePullRequests,
  decodeSystemStatus,
  decodeTask,
  type MetricDefinition,
  UnexpectedShape,
  type ComponentTasks,
  type ProjectAnalysesPage,
  type ProjectStatus,
  type PullRequestOnServer,
  type Task
} from './types.js'
import { msg, setting, theSetting, type Said } from '../words.js'

export interface SonarClientOptions {
  /** The server the token belongs to: only its origin ever receives the token. */
  serverUrl: URL
  token: string | undefined
  /** Extra CA (PEM) trusted for these requests only, on top of the usual roots. */
  rootCert: string | undefined
  userAgent: string
  clock: Clock
  /** Clock time after which no request is started and no retry is waited for. */
  deadline: number
  /** Longest a single request may take, capped by the deadline. */
  requestTimeoutMs?: number
  /** Largest reply body read (default 10 MB). */
  maxBodyBytes?: number
  random?: () => number
  /** Where retries are reported (one line each). */
  onRetry?: (message: string) => void
  /** Which server it is: the auth scheme tried first and the task fields asked for depend on it. */
  kind?: ServerKind
  /** Called once, with the expiry the server gives for the token on its first reply that has one. */
  onTokenExpiration?: (expiresAt: Date) => void
  /**
   * What a message asks to check when the server knows no such project: by default the settings
   * that give the key (and branch or pull request); a report file's `projectKey` when none did.
   */
  projectKeyFrom?: Said
}

const UNKNOWN_SERVER: ServerKind = { cloud: false, version: undefined }

const MAX_REDIRECTS = 5

/**
 * The least time a request is given, even near or just past the deadline: a poll or gate read
 * that starts then must have a chance to bring a verdict that is there. Nothing runs past
 * deadline + DEADLINE_GRACE_MS: that is the exact bound of the overall time-out.
 */
const DEADLINE_GRACE_MS = 1000

/** What the caller wants to read: how messages name it, and how to decode it. */
interface Resource<T> extends ResourceWords {
  decode: (body: unknown) => T
  /** Read it once: a failure is not tried again (what the verdict does not need). */
  once?: boolean
}

/** The largest page api/metrics/search gives, and the most pages read (its own limit: 10,000). */
const METRICS_PAGE_SIZE = 500
const MAX_METRICS_PAGES = 20

/**
 * The one HTTP client of the action: the token sent as the server generation documents it
 * (Bearer or Basic, the other once after a 401) and only to the server's origin, per-request
 * time-outs, retries inside the overall deadline, JSON checks, and a message a user can act on for
 * every failure.
 */
export class SonarClient {
  private readonly options: Required<
    Omit<SonarClientOptions, 'token' | 'rootCert' | 'maxBodyBytes' | 'projectKeyFrom'>
  > &
    Pick<SonarClientOptions, 'token' | 'projectKeyFrom'>
  /** The scheme the token is sent with; switched once after a 401. */
  private scheme: AuthScheme
  private schemeSwitched = false
  /** A 2xx reply came with the scheme: a later 401 is not the scheme's fault. */
  private schemeAccepted = false
  private expirationSeen = false
  private readonly serverBase: URL
  private readonly transport: HttpTransport
  private readonly rootCertGiven: boolean
  /** Every form of the token: removed from each reply before anything is made of it. */
  private readonly secrets: readonly string[]

  /** What to check about the project: `projectKeyFrom`, else its setting and `scope`'s. */
  private keysFrom(scope: Said = ''): Said {
    return this.options.projectKeyFrom ?? msg`${theSetting('project')}${scope}`
  }

  constructor(options: SonarClientOptions) {
    // Defaults by ??, not by spreading: an option passed as undefined still gets its default.
    this.options = {
      ...options,
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
      random: options.random ?? Math.random,
      onRetry: options.onRetry ?? (() => {}),
      kind: options.kind ?? UNKNOWN_SERVER,
      onTokenExpiration: options.onTokenExpiration ?? (() => {})
    }
    this.scheme = firstAuthScheme(this.options.kind)
    // The spec: make the server address end in '/' before appending the API path.
    this.serverBase = serverBase(options.serverUrl)
    this.rootCertGiven = options.rootCert !== undefined
    this.secrets = options.token === undefined ? [] : tokenForms(options.token)
    this.transport = new HttpTransport({
      userAgent: options.userAgent,
      rootCert: options.rootCert,
      maxBodyBytes: options.maxBodyBytes
    })
  }

  /**
   * `GET <taskUrl>`: the compute-engine task the analysis submitted. Servers that send a finished
   * task's warnings only when asked (the cloud, SonarQube before 10.1) are asked for them.
   */
  async getTask(taskUrl: URL, taskId: string): Promise<Task> {
    const task = oneLine(taskId)
    const url = new URL(taskUrl)
    if (asksForTaskWarnings(this.options.kind) && !url.searchParams.has('additionalFields')) {
      url.searchParams.set('additionalFields', 'warnings')
    }
    return this.getJson(url, {
      what: `task ${task}`,
      notFound: msg`Task ${task} was not found: the report file may come from another server or an earlier run, or ${theSetting('task')} is wrong. On SonarCloud, also check that the token belongs to the project's organization.`,
      badRequest: msg`The server refused the request for task ${task}: check ${theSetting('task')} or the report file's ceTaskId.`,
      decode: decodeTask
    })
  }

  /**
   * `GET <server>/api/system/status`'s `status`: UP, STARTING, DB_MIGRATION_NEEDED... (no
   * permission needed). Read once: it tells whether a server that stopped answering is starting
   * again.
   */
  async getSystemStatus(): Promise<string> {
    const reply = await this.getJson(this.apiUrl('api/system/status'), {
      what: "the server's status",
      notFound: 'The server has no api/system/status.',
      badRequest: 'The server refused the request for its status.',
      decode: decodeSystemStatus,
      once: true
    })
    return reply.status
  }

  /** `GET <server>/api/qualitygates/project_status?analysisId=`: the gate of one analysis. */
  async getProjectStatus(analysisId: string): Promise<ProjectStatus> {
    const url = new URL(
      `api/qualitygates/project_status?analysisId=${encodeURIComponent(analysisId)}`,
      this.serverBase
    )
    const analysis = oneLine(analysisId)
    return this.getJson(url, {
      what: `the quality gate status of analysis ${analysis}`,
      notFound: msg`Analysis ${analysis} was not found: check ${theSetting('analysis')}, or the analysis was deleted by the server's housekeeping.`,
      badRequest: msg`The server refused the request for analysis ${analysis}: check ${theSetting('analysis')}.`,
      decode: decodeProjectStatus
    })
  }

  /**
   * The gate of a branch's or pull request's newest analysis
   * (`GET api/qualitygates/project_status?projectKey=` with `branch` or `pullRequest`, Browse):
   * for a pull request, whose analyses the server lists by no key.
   */
  async getScopeStatus(projectKey: string, on: AnalysisScope): Promise<ProjectStatus> {
    const url = this.apiUrl('api/qualitygates/project_status', { projectKey, ...oneScope(on) })
    const where = `${oneLine(projectKey)}${scopeWords(on)}`
    return this.getJson(url, {
      what: `the quality gate status of ${where}`,
      notFound: msg`The server knows no analysis of ${where}: check ${this.keysFrom(msg` and ${theSetting('pullRequest')}`)}.`,
      badRequest: `The server refused the request for the quality gate of ${where}.`,
      decode: decodeProjectStatus
    })
  }

  /**
   * The project's pull requests and the date of each one's newest analysis
   * (`GET api/project_pull_requests/list`, Browse or Execute Analysis): the server lists a pull
   * request's analyses nowhere else.
   */
  async getPullRequests(projectKey: string): Promise<PullRequestOnServer[]> {
    const project = oneLine(projectKey)
    return this.getJson(this.apiUrl('api/project_pull_requests/list', { project: projectKey }), {
      what: `the pull requests of ${project}`,
      notFound: msg`The server knows no project ${project}: check ${this.keysFrom()}, and that the token may browse the project.`,
      unknownUrl:
        'The server has no pull requests at all: Community Edition analyses the main branch only.',
      badRequest: `The server refused the request for the pull requests of ${project}.`,
      decode: decodePullRequests
    })
  }

  /**
   * Every metric the server defines (`GET api/metrics/search`, page by page), for the names and
   * value types of metrics the action does not know. Read once.
   */
  async getMetrics(): Promise<MetricDefinition[]> {
    const metrics: MetricDefinition[] = []
    for (let page = 1; page <= MAX_METRICS_PAGES; page++) {
      const url = new URL(`api/metrics/search?ps=${METRICS_PAGE_SIZE}&p=${page}`, this.serverBase)
      const reply = await this.getJson(url, {
        what: 'the metric definitions',
        notFound: 'The server has no api/metrics/search.',
        badRequest: 'The server refused the metrics request.',
        decode: decodeMetricsPage,
        once: true
      })
      metrics.push(...reply.metrics)
      if (reply.metrics.length === 0 || page * METRICS_PAGE_SIZE >= reply.total) break
    }
    return metrics
  }

  /**
   * The newest analyses of a project's branch or pull request (`GET api/project_analyses/search`,
   * Browse permission), newest first: the main branch's without either.
   */
  async getProjectAnalyses(projectKey: string, on: AnalysisScope): Promise<ProjectAnalysesPage> {
    const url = this.apiUrl('api/project_analyses/search', {
      project: projectKey,
      branch: on.branch,
      pullRequest: on.pullRequest,
      ps: String(ANALYSES_PAGE_SIZE)
    })
    const project = oneLine(projectKey)
    const where = scopeWords(on)
    return this.getJson(url, {
      what: `the analyses of ${project}${where}`,
      notFound: msg`The server knows no project ${project}${where}: check ${this.keysFrom(on.branch !== undefined ? msg` and ${theSetting('branch')}` : on.pullRequest !== undefined ? msg` and ${theSetting('pullRequest')}` : '')}, and that the token may browse the project.`,
      badRequest: msg`The server refused the request for the analyses of ${project}${where}: check ${this.keysFrom()}${on.pullRequest !== undefined ? `; a server that analyses one branch only (Community Edition) has no pull requests` : ''}.`,
      decode: decodeProjectAnalyses
    })
  }

  /**
   * The gate of a branch's or pull request's latest analysis from its measures
   * (`GET api/measures/component`, `alert_status` and `quality_gate_details`, Browse): where
   * `project_status` is gone, and only while the analysis asked for is the newest. Read once.
   */
  async getGateMeasures(projectKey: string, on: AnalysisScope): Promise<ProjectStatus> {
    const project = oneLine(projectKey)
    return this.getJson(this.measuresUrl(projectKey, on, 'alert_status,quality_gate_details'), {
      what: `the quality gate measures of ${project}${scopeWords(on)}`,
      notFound: msg`The server knows no project ${project}${scopeWords(on)}: check ${this.keysFrom()}.`,
      badRequest: `The server refused the request for the quality gate measures of ${project}.`,
      decode: decodeGateMeasures,
      once: true
    })
  }

  /**
   * Measures of a branch or pull request (`GET api/measures/component`, Browse), as numbers by
   * metric key, each generation's shape read (see measures.ts). Read once: they are never the
   * verdict.
   */
  async getMeasures(
    projectKey: string,
    on: AnalysisScope,
    metricKeys: readonly string[]
  ): Promise<MeasureValues> {
    const where = `${oneLine(projectKey)}${scopeWords(on)}`
    return this.getJson(this.measuresUrl(projectKey, on, metricKeys.join(',')), {
      what: `the measures of ${where}`,
      notFound: msg`The server knows no project ${where}: check ${this.keysFrom()}.`,
      badRequest: `The server refused the request for the measures of ${where}.`,
      decode: decodeMeasureValues,
      once: true
    })
  }

  /**
   * The first security hotspots to review of a branch's new code or a pull request, and how many
   * there are (`GET api/hotspots/search`, Browse), in the parameters of the server's generation
   * (see hotspots.ts). Read once.
   */
  async getHotspots(projectKey: string, scope: IssueScope): Promise<HotspotsPage> {
    const query = hotspotsQuery(projectKey, scope, this.options.kind)
    const project = oneLine(projectKey)
    return this.getJson(new URL(`api/hotspots/search?${query.toString()}`, this.serverBase), {
      what: `the security hotspots of ${project}`,
      notFound: `The server has no api/hotspots/search (before 8.1), or does not know the project ${project}.`,
      badRequest: `The server refused the hotspots request for ${project}.`,
      decode: decodeHotspotsPage,
      once: true
    })
  }

  /**
   * The names of the project's branches, main first (`GET api/project_branches/list`, Browse),
   * to say what the server has when a branch asked for is not among them. Read once.
   */
  async getBranchNames(projectKey: string): Promise<string[]> {
    const project = oneLine(projectKey)
    return this.getJson(this.apiUrl('api/project_branches/list', { project: projectKey }), {
      what: `the branches of ${project}`,
      notFound: msg`The server knows no project ${project}: check ${this.keysFrom()}.`,
      badRequest: `The server refused the request for the branches of ${project}.`,
      decode: decodeBranchNames,
      once: true
    })
  }

  /**
   * The project's background tasks: those queued or running, and the last one that ended
   * (`GET api/ce/component`, Browse permission).
   */
  async getComponentTasks(projectKey: string): Promise<ComponentTasks> {
    const project = oneLine(projectKey)
    return this.getJson(this.apiUrl('api/ce/component', { component: projectKey }), {
      what: `the background tasks of ${project}`,
      notFound: msg`The server knows no project ${project}: check ${this.keysFrom()}.`,
      badRequest: `The server refused the request for the background tasks of ${project}.`,
      decode: decodeComponentTasks
    })
  }

  /**
   * How long the project's last finished analysis took to process (`GET api/ce/component`,
   * Browse permission), or undefined when the server names none. Read once.
   */
  async getPreviousProcessingMs(projectKey: string): Promise<number | undefined> {
    const url = new URL(
      `api/ce/component?component=${encodeURIComponent(projectKey)}`,
      this.serverBase
    )
    return this.getJson(url, {
      what: `the last analysis of ${oneLine(projectKey)}`,
      notFound: `The server does not know the project ${oneLine(projectKey)}.`,
      badRequest: 'The server refused the request for the last analysis.',
      decode: decodeLastProcessingMs,
      once: true
    })
  }

  /**
   * One page of the project's open new issues (`GET api/issues/search`, Browse permission), in
   * the parameters the server's generation takes (see issuesQuery). Read once: the verdict never
   * waits on the issues.
   */
  async getIssuesPage(projectKey: string, scope: IssueScope, page: number): Promise<IssuesPage> {
    const query = issuesQuery(projectKey, scope, this.options.kind, page)
    const project = oneLine(projectKey)
    return this.getJson(new URL(`api/issues/search?${query.toString()}`, this.serverBase), {
      what: `the new issues of ${project}`,
      notFound: `The server has no api/issues/search, or does not know the project ${project}.`,
      badRequest: `The server refused the issues request for ${project}.`,
      decode: decodeIssuesPage,
      once: true
    })
  }

  /** `GET <server>/api/ce/task?id=`: a task by its id on this server. */
  getTaskById(taskId: string): Promise<Task> {
    return this.getTask(this.taskUrl(taskId), taskId)
  }

  /** The task address for a task id on this server: `<server>/api/ce/task?id=<id>`. */
  taskUrl(taskId: string): URL {
    return new URL(`api/ce/task?id=${encodeURIComponent(taskId)}`, this.serverBase)
  }

  /** `<server>/<path>` with these query parameters, in order; one that is undefined is left out. */
  private apiUrl(path: string, query: Record<string, string | undefined> = {}): URL {
    const url = new URL(path, this.serverBase)
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, value)
    }
    return url
  }

  /** `api/measures/component` for these metrics (comma-separated) of a branch or pull request. */
  private measuresUrl(projectKey: string, on: AnalysisScope, metricKeys: string): URL {
    return this.apiUrl('api/measures/component', {
      component: projectKey,
      ...oneScope(on),
      metricKeys
    })
  }

  /** Ends the kept-alive connections; the client reconnects if used again. */
  close(): void {
    this.transport.close()
  }

  private async getJson<T>(url: URL, resource: Resource<T>): Promise<T> {
    if (!isSameOrigin(url, this.options.serverUrl)) {
      throw new UnsafeRequestError(
        msg`Refusing to send the token to ${shownUrl(url, 'origin')}: the task address is not on the server ${shownUrl(this.options.serverUrl, 'origin')}. The report file may be tampered with or from another server; set ${setting('host')} to the server you trust to build the task address from it.`
      )
    }
    const { clock, deadline } = this.options
    for (let attempt = 0; ; attempt++) {
      let failed: FailedTry
      try {
        const reply = await this.authenticated(url, resource)
        if (reply.status < 200 || reply.status >= 300) {
          failed = statusFailure(
            reply,
            url,
            resource,
            this.authTried(),
            analysisTokenKind(this.options.token)
          )
        } else {
          this.noteTokenExpiration(reply)
          const decoded = decodeJson(url, reply, resource)
          if (!('failed' in decoded)) return decoded.value
          failed = decoded.failed
        }
      } catch (error) {
        // The one failure that arises outside the family: the transport's, worded here.
        if (!(error instanceof TransportFailure)) throw error
        failed = transportFailure(error, url, resource, this.rootCertGiven)
      }
      if (resource.once) throw failed.error
      const decision = decideRetry(
        failed.fault,
        attempt,
        deadline - clock.now(),
        this.options.random,
        Date.now()
      )
      if (!decision.retry) {
        if (!decision.why) throw failed.error
        // Its Message, not its text: the setting it names is said in each edge's words.
        const { said, status, nodeCode, analysisToken, noReply, origin } = failed.error
        throw new ServerRequestError(afterLastTry(said, decision.why), status, {
          nodeCode,
          analysisToken,
          noReply,
          origin,
          cause: failed.error
        })
      }
      this.options.onRetry(
        `${failed.cause} for ${resource.what}; trying again in ${decision.delayMs} ms (try ${attempt + 2}).`
      )
      await clock.sleep(decision.delayMs)
    }
  }

  /**
   * One GET with the token; after a 401, the same GET once more with the other scheme (servers
   * before 10.0 take only Basic; some proxies and the cloud may take only Bearer). The scheme that
   * works is kept for every later request: once the server has taken it, a 401 (a server starting
   * again answers so before its sessions are ready) does not switch it.
   */
  private async authenticated(url: URL, resource: ResourceWords): Promise<Reply> {
    const reply = await this.followRedirects(url, resource)
    this.noteAccepted(reply)
    if (
      reply.status !== 401 ||
      this.options.token === undefined ||
      this.schemeSwitched ||
      this.schemeAccepted
    ) {
      return reply
    }
    const tried = this.scheme
    this.schemeSwitched = true
    this.scheme = otherScheme(tried)
    this.options.onRetry(
      `HTTP 401 with ${SCHEME_NAMES[tried]} authentication for ${resource.what}; trying ${SCHEME_NAMES[this.scheme]} once.`
    )
    return this.noteAccepted(await this.followRedirects(url, resource))
  }

  /** A 2xx reply: the server took the token with the scheme it was sent with. */
  private noteAccepted(reply: Reply): Reply {
    if (reply.status >= 200 && reply.status < 300) this.schemeAccepted = true
    return reply
  }

  /** Which schemes the token was sent with, for the 401 message; undefined without a token. */
  private authTried(): string | undefined {
    if (this.options.token === undefined) return undefined
    const schemes = this.schemeSwitched ? [otherScheme(this.scheme), this.scheme] : [this.scheme]
    return schemes.map((scheme) => SCHEME_NAMES[scheme]).join(' and ')
  }

  /** The token's expiry from the first reply that gives one. */
  private noteTokenExpiration(reply: Reply): void {
    if (this.expirationSeen) return
    const expiresAt = parseTokenExpiration(headerValue(reply, TOKEN_EXPIRATION_HEADER))
    if (!expiresAt) return
    this.expirationSeen = true
    this.options.onTokenExpiration(expiresAt)
  }

  /** One GET, following same-origin redirects by hand so the token never leaves the server. */
  private async followRedirects(start: URL, resource: ResourceWords): Promise<Reply> {
    let url = start
    for (let hop = 0; ; hop++) {
      const reply = await this.send(url, resource)
      const location = headerValue(reply, 'location')
      if (reply.status < 300 || reply.status >= 400 || reply.status === 304 || !location) {
        return reply
      }
      const next = redirectTarget(location, url, resource)
      if (!isAllowedRedirect(url, next)) {
        throw new UnsafeRequestError(
          msg`Refusing to follow a redirect from ${shownUrl(url, 'origin')} to ${shownUrl(next, 'origin')} with the token: redirects are followed only on the same server (or its https:// address). Set ${setting('host')} to the address the server really answers on.`
        )
      }
      if (hop + 1 >= MAX_REDIRECTS) {
        throw new ServerRequestError(
          msg`Too many redirects (${MAX_REDIRECTS}) starting at ${shownUrl(start)}: set ${setting('host')} to the address the server really answers on.`,
          reply.status
        )
      }
      url = next
    }
  }

  /** One request, body included, within its time-out and never past deadline + grace. */
  private async send(url: URL, resource: ResourceWords): Promise<Reply> {
    const { deadline, clock, requestTimeoutMs, token } = this.options
    // Up to the deadline, or 1 s if that is less, but never past deadline + grace.
    const now = clock.now()
    const hardLeftMs = deadline + DEADLINE_GRACE_MS - now
    if (hardLeftMs <= 0) throw deadlineReached(url, resource)
    const leftMs = Math.min(Math.max(deadline - now, DEADLINE_GRACE_MS), hardLeftMs)
    const cutByDeadline = leftMs < requestTimeoutMs
    const headers: Record<string, string> = { accept: 'application/json' }
    if (token !== undefined) headers['authorization'] = authorization(token, this.scheme)
    try {
      const timeoutMs = Math.min(leftMs, requestTimeoutMs)
      const reply = await this.transport.send('GET', url, headers, undefined, timeoutMs)
      return replyWithoutToken(reply, this.secrets)
    } catch (error) {
      if (cutByDeadline && error instanceof TransportFailure && error.reason === 'timeout') {
        throw deadlineReached(url, resource, error)
      }
      throw error
    }
  }
}

/** A request the overall deadline cut short: a time-out, not a server fault. */
function deadlineReached(url: URL, resource: ResourceWords, cause?: unknown): TimeoutError {
  return new TimeoutError(
    msg`The overall time-out (${setting('timeout')}) ran out while waiting for ${resource.what} from ${shownUrl(url)}.`,
    cause === undefined ? undefined : { cause }
  )
}

/** A redirect's Location as a URL, or a clear refusal: only http(s) addresses are followed. */
function redirectTarget(location: string, from: URL, resource: ResourceWords): URL {
  let next: URL | undefined
  try {
    next = new URL(location, from)
  } catch {
    next = undefined
  }
  const quoted = `"${oneLine(location, QUOTE_LIMITS.short)}"`
  if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
    throw new ServerRequestError(
      msg`The server redirected the request for ${resource.what} to ${next ? quoted : `${quoted}, which is not an address`}: only http:// and https:// addresses on the same server are followed. Set ${setting('host')} to the address the server really answers on.`
    )
  }
  if (next.username || next.password) {
    throw new UnsafeRequestError(
      `Refusing to follow a redirect to an address with credentials in it (${shownUrl(next, 'origin')}): the action sends only its own token.`
    )
  }
  return next
}

/**
 * A 2xx reply decoded, or why not: a body cut off mid-JSON is a failed try that may heal on
 * another; any other body or shape that is not the API's is thrown, as it will not.
 */
function decodeJson<T>(
  url: URL,
  reply: Reply,
  resource: Resource<T>
): { value: T } | { failed: FailedTry } {
  const from = `for ${resource.what} from ${shownUrl(url)}`
  let json: unknown
  try {
    json = parseJsonBody(reply.body, reply.headers)
  } catch (error) {
    if (!(error instanceof BodyProblem)) throw error
    const failure = new ServerRequestError(msg`The reply ${from} ${error.said}.`, reply.status, {
      cause: error
    })
    if (!error.truncated) throw failure
    return { failed: { error: failure, fault: { kind: 'transient' }, cause: 'truncated body' } }
  }
  try {
    return { value: resource.decode(json) }
  } catch (error) {
    if (!(error instanceof UnexpectedShape)) throw error
    throw new ServerRequestError(
      `Unexpected reply ${from}: ${error.message}. Is this a SonarQube or SonarCloud server?`,
      reply.status,
      { cause: error }
    )
  }
}

/**
 * The reply with every form of the token removed from its headers and its body, so that nothing
 * made of the server's text (a link, a value cut to a length, a quoted error) can hold it: a
 * sink recognises the token's forms, not what is made of them. The one place the server's
 * replies lose the token (docs/security.md). A body is decoded only when it holds one of them,
 * or escapes (`\u0073`, `\"`) that could spell one once parsed (a binary body stays as it is).
 */
function replyWithoutToken(reply: Reply, secrets: readonly string[]): Reply {
  if (secrets.length === 0) return reply
  const headers: Reply['headers'] = {}
  for (const [name, value] of Object.entries(reply.headers)) {
    headers[name] = Array.isArray(value)
      ? value.map((each) => redactSecrets(each, secrets))
      : value === undefined
        ? undefined
        : redactSecrets(value, secrets)
  }
  const body = secrets.some((secret) => secret !== '' && reply.body.includes(secret))
    ? Buffer.from(redactSecrets(reply.body.toString('utf8'), secrets))
    : reply.body
  return { ...reply, headers, body: body.includes('\\') ? escapedTokenOut(body, secrets) : body }
}

/**
 * A JSON body whose strings spell a form of the token with escapes, written again without it;
 * any other body (one that is not JSON included) as it is, for the reader to judge.
 */
function escapedTokenOut(body: Buffer, secrets: readonly string[]): Buffer {
  let changed = false
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''), (_, value: unknown) => {
      if (typeof value !== 'string') return value
      const without = redactSecrets(value, secrets)
      changed ||= without !== value
      return without
    })
  } catch {
    return body
  }
  return changed ? Buffer.from(JSON.stringify(json)) : body
}

/** Which analyses of a project: a branch's, a pull request's, or the main branch's (neither). */
export interface AnalysisScope {
  branch?: string | undefined
  pullRequest?: string | undefined
}

/** How many analyses one request lists: the newest are the ones a step waits for. */
export const ANALYSES_PAGE_SIZE = 100

/** The branch, else the pull request: the one scope a gate or measures request names. */
function oneScope(on: AnalysisScope): AnalysisScope {
  return on.branch !== undefined ? { branch: on.branch } : { pullRequest: on.pullRequest }
}

/** ` on branch release/2.4`, ` on pull request 42`, or nothing for the main branch. */
export function scopeWords(on: AnalysisScope): string {
  if (on.branch !== undefined) return ` on branch ${oneLine(on.branch)}`
  if (on.pullRequest !== undefined) return ` on pull request ${oneLine(on.pullRequest)}`
  return ''
}
