import { writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The pull request the fake knows, in the repository octo/shop. */
export const NUMBER = 7
/** Its head commit. */
export const HEAD_SHA = '8f14e45fceea167a5a36dedd4bea2543b2c4d1a7'

/**
 * The runner's event file of a pull_request event on that pull request, written beside the
 * workspace's working directory; returns its path (GITHUB_EVENT_PATH).
 */
export async function writePullRequestEvent(ws: { file(name: string): string }): Promise<string> {
  const eventFile = ws.file('../event.json')
  await writeFile(
    eventFile,
    JSON.stringify({ pull_request: { number: NUMBER, head: { sha: HEAD_SHA } } })
  )
  return eventFile
}

/**
 * A started fake whose token is a user's (sonar-bot) and whose pull request adds lines 4 to 9 of
 * src/app.ts and 4 to 8 of src/db/query.ts: four of the gate-error scenario's issues stand on them.
 */
export async function startGitHubForSamples(): Promise<FakeGitHub> {
  const fake = new FakeGitHub()
  fake.account = { login: 'sonar-bot', id: 4242, type: 'User' }
  fake.files = [
    { filename: 'src/app.ts', status: 'modified', patch: patchAdding(3, 6) },
    { filename: 'src/db/query.ts', status: 'modified', patch: patchAdding(3, 5) }
  ]
  await fake.start()
  return fake
}

/** A patch's hunk adding `count` lines after line `after`, as GitHub's files API gives it. */
export function patchAdding(after: number, count: number): string {
  const lines = Array.from({ length: count }, (_, i) => `+line ${i}`)
  return [`@@ -${after},0 +${after + 1},${count} @@`, ...lines].join('\n')
}

/** An account, as a comment's `user` and `GET /user` give it. */
export interface GitHubAccount {
  login: string
  id: number
  type: string
}

/** The account the job's token (an installation token) comments as. */
export const ACTIONS_BOT: GitHubAccount = {
  login: 'github-actions[bot]',
  id: 41898282,
  type: 'Bot'
}

interface Comment {
  id: number
  body: string
  user: GitHubAccount
}

export interface SeenRequest {
  method: string
  url: string
  authorization: string | undefined
  body: string
}

/** A file of the pull request as GitHub's files API lists it. */
export interface PullRequestFile {
  filename: string
  status: string
  /** The unified diff; GitHub leaves it out for large diffs. */
  patch?: string
}

/** A review thread, as GraphQL's `reviewThreads` gives it, with its comments. */
export interface ReviewThread {
  id: string
  isResolved: boolean
  path: string
  line: number
  comments: Array<{ body: string; author: GitHubAccount }>
}

/**
 * A loopback stand-in for the parts of GitHub's API the action and the command use, shaped from
 * GitHub's REST description (api.github.com, 2022-11-28), for one pull request of octo/shop: its
 * issue comments (list, paged by `page` and `per_page` with a `Link` header; create; update: its
 * author's only), its files (one page of up to 100 per `page`), commit statuses (`POST
 * statuses/{sha}`), reviews (`POST pulls/7/reviews`: every comment on a line the files' patches
 * add, or the whole review is refused, 422, as GitHub refuses it), review threads through
 * GraphQL (`reviewThreads`, `resolveReviewThread`), check runs (create, update), and who the
 * token is: by default the
 * job's token, an installation token, which `GET /user` refuses (403, "Resource not accessible
 * by integration") and GraphQL's `viewer` names as github-actions[bot]; `account` makes it a
 * user's token, which `GET /user` answers. `refuseWrites` answers 403 to every write, as GitHub
 * does to a fork's token; `refuseFiles` answers 403 to the files list. Check runs are refused
 * (403) to any token but an installation token (`ghs_`), and to it too with `refuseChecks`.
 */
export class FakeGitHub {
  readonly comments: Comment[] = []
  readonly requests: SeenRequest[] = []
  /** Check runs created, with every update's output appended. */
  readonly checkRuns: Array<{
    id: number
    create: Record<string, unknown>
    updates: Record<string, unknown>[]
  }> = []
  files: PullRequestFile[] = []
  /** Commit statuses set, by commit. */
  readonly statuses: Array<{ sha: string; body: Record<string, unknown> }> = []
  /** Reviews submitted, as their requests' bodies. */
  readonly reviews: Record<string, unknown>[] = []
  readonly threads: ReviewThread[] = []
  refuseWrites = false
  refuseFiles = false
  /** Refuses check runs to an installation token too (an app without the checks permission). */
  refuseChecks = false
  /** The token's account when it is a user's; by default the job's token (github-actions[bot]). */
  account: GitHubAccount | undefined = undefined
  private next = 1000
  private server!: Server

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void body(request).then((text) => {
        const url = new URL(request.url ?? '/', 'http://x')
        this.requests.push({
          method: request.method ?? '',
          url: url.pathname + url.search,
          authorization: request.headers.authorization,
          body: text
        })
        const reply = (status: number, json: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' })
          response.end(JSON.stringify(json))
        }
        const list = `/repos/octo/shop/issues/${NUMBER}/comments`
        const one = /^\/repos\/octo\/shop\/issues\/comments\/(\d+)$/.exec(url.pathname)
        const writer = this.account ?? ACTIONS_BOT
        if (request.method === 'GET' && url.pathname === '/user') {
          if (this.account) return reply(200, { ...this.account, site_admin: false })
          return reply(403, {
            message: 'Resource not accessible by integration',
            documentation_url:
              'https://docs.github.com/rest/users/users#get-the-authenticated-user',
            status: '403'
          })
        }
        if (request.method === 'POST' && url.pathname === '/graphql') {
          return reply(200, this.graphql(text, writer))
        }
        if (request.method === 'GET' && url.pathname === list) {
          const page = Number(url.searchParams.get('page') ?? '1')
          const size = Number(url.searchParams.get('per_page') ?? '30')
          const more = page * size < this.comments.length
          response.writeHead(200, {
            'content-type': 'application/json',
            ...(more ? { link: `<${this.url}${list}?page=${page + 1}>; rel="next"` } : {})
          })
          response.end(JSON.stringify(this.comments.slice((page - 1) * size, page * size)))
          return
        }
        if (request.method === 'GET' && url.pathname === `/repos/octo/shop/pulls/${NUMBER}/files`) {
          if (this.refuseFiles)
            return reply(403, { message: 'Resource not accessible by integration' })
          const page = Number(url.searchParams.get('page') ?? '1')
          const size = Number(url.searchParams.get('per_page') ?? '30')
          return reply(200, this.files.slice((page - 1) * size, page * size))
        }
        if (this.refuseWrites) {
          return reply(403, { message: 'Resource not accessible by integration' })
        }
        if (request.method === 'POST' && url.pathname === list) {
          const comment = {
            id: this.next++,
            body: (JSON.parse(text) as { body: string }).body,
            user: writer
          }
          this.comments.push(comment)
          return reply(201, comment)
        }
        const existing = one && this.comments.find(({ id }) => id === Number(one[1]))
        if (request.method === 'PATCH' && existing && existing.user.id !== writer.id) {
          return reply(403, { message: 'Resource not accessible by integration' })
        }
        if (request.method === 'PATCH' && existing) {
          existing.body = (JSON.parse(text) as { body: string }).body
          return reply(200, existing)
        }
        const status = /^\/repos\/octo\/shop\/statuses\/([0-9a-f]{40})$/.exec(url.pathname)
        if (request.method === 'POST' && status) {
          this.statuses.push({ sha: status[1]!, body: JSON.parse(text) as Record<string, unknown> })
          return reply(201, { id: this.next++, ...(JSON.parse(text) as object) })
        }
        if (
          request.method === 'POST' &&
          url.pathname === `/repos/octo/shop/pulls/${NUMBER}/reviews`
        ) {
          const review = JSON.parse(text) as { comments?: Array<Record<string, unknown>> }
          const comments = review.comments ?? []
          const off = comments.find((comment) => !this.inDiff(comment))
          if (off) {
            return reply(422, {
              message: 'Unprocessable Entity',
              errors: ['Pull request review thread line must be part of the diff']
            })
          }
          this.reviews.push(review)
          for (const comment of comments) {
            this.threads.push({
              id: `PRRT_${this.next++}`,
              isResolved: false,
              path: String(comment['path']),
              line: Number(comment['line']),
              comments: [{ body: String(comment['body']), author: writer }]
            })
          }
          return reply(200, { id: this.next++, state: 'COMMENTED' })
        }
        if (request.method === 'POST' && url.pathname === '/repos/octo/shop/check-runs') {
          // Only a GitHub App's installation token may create one.
          if (!/^(token|Bearer) ghs_/.test(request.headers.authorization ?? '')) {
            return reply(403, { message: 'You must authenticate via a GitHub App.' })
          }
          if (this.refuseChecks) {
            return reply(403, { message: 'Resource not accessible by integration' })
          }
          const run = {
            id: this.next++,
            create: JSON.parse(text) as Record<string, unknown>,
            updates: []
          }
          this.checkRuns.push(run)
          return reply(201, { id: run.id })
        }
        const checkRun = /^\/repos\/octo\/shop\/check-runs\/(\d+)$/.exec(url.pathname)
        const run = checkRun && this.checkRuns.find(({ id }) => id === Number(checkRun[1]))
        if (request.method === 'PATCH' && run) {
          run.updates.push(JSON.parse(text) as Record<string, unknown>)
          return reply(200, { id: run.id })
        }
        reply(404, { message: 'Not Found' })
      })
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
  }

  /** Whether a review comment stands on a line the pull request's patches add, on the right. */
  private inDiff(comment: Record<string, unknown>): boolean {
    const file = this.files.find(({ filename }) => filename === comment['path'])
    if (!file?.patch || comment['side'] !== 'RIGHT') return false
    const added = new Set<number>()
    let line = 0
    for (const text of file.patch.split('\n')) {
      const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(text)
      if (hunk) line = Number(hunk[1])
      else if (text.startsWith('+')) added.add(line++)
      else if (!text.startsWith('-')) line++
    }
    return added.has(Number(comment['line']))
  }

  /** GraphQL: the token's account, the pull request's review threads, and resolving one. */
  private graphql(text: string, writer: GitHubAccount): unknown {
    const { query, variables } = JSON.parse(text) as {
      query?: string
      variables?: Record<string, unknown>
    }
    if (/viewer\s*\{\s*databaseId\s*\}/.test(query ?? '')) {
      return { data: { viewer: { databaseId: writer.id } } }
    }
    if (/reviewThreads/.test(query ?? '') && variables?.['number'] === NUMBER) {
      const nodes = this.threads.map((thread) => ({
        id: thread.id,
        isResolved: thread.isResolved,
        comments: {
          nodes: thread.comments.slice(0, 1).map(({ body, author }) => ({
            body,
            author: { databaseId: author.id }
          }))
        }
      }))
      const pageInfo = { hasNextPage: false, endCursor: null }
      return { data: { repository: { pullRequest: { reviewThreads: { nodes, pageInfo } } } } }
    }
    const resolving = /resolveReviewThread/.test(query ?? '')
    const thread = this.threads.find(({ id }) => id === variables?.['id'])
    if (resolving && thread && !this.refuseWrites) {
      thread.isResolved = true
      return { data: { resolveReviewThread: { thread: { id: thread.id } } } }
    }
    return { errors: [{ message: 'not a query this fake knows' }] }
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (text += chunk))
    request.on('end', () => resolve(text))
  })
}
