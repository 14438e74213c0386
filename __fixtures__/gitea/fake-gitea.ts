/**
 * A Gitea (or Forgejo) API on loopback for the decoration's tests, its requests and replies
 * shaped from Gitea's API description (templates/swagger/v1_json.tmpl; routers/api/v1/api.go)
 * and Forgejo's: under `/api/v1`, one repository (acme/shop) and its pull request 7; the token's
 * user (`GET /user`); commit statuses (`POST /repos/{o}/{r}/statuses/{sha}`); the pull request's
 * comments (`GET`, not paged, `POST .../issues/7/comments`; `PATCH .../issues/comments/{id}`, its
 * author's only); its diff as text (`GET .../pulls/7.diff`); reviews (`POST .../pulls/7/reviews`
 * with `comments[]` of `path`, `body`, `new_position`, `old_position`; `GET .../reviews`, paged
 * by `page` and `limit`; `GET .../reviews/{id}/comments` with `resolver`); resolving a review
 * comment (`POST .../pulls/comments/{id}/resolve`, 204; Gitea 1.26 and later: `forgejo` answers
 * 404, as Forgejo has no such route); and on demand a refusal of every write (403).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const GITEA_REPOSITORY = 'acme/shop'
export const GITEA_PULL_REQUEST = 7
export const GITEA_BOT = { id: 31, login: 'sonar-bot' }
export const GITEA_SOMEONE = { id: 5, login: 'mallory' }

interface User {
  id: number
  login: string
}

export interface GiteaComment {
  id: number
  body: string
  user: User
}

export interface GiteaReviewComment {
  id: number
  body: string
  user: User
  path: string
  position: number
  resolver: User | null
}

export interface GiteaReview {
  id: number
  body: string
  user: User
  state: string
  comments: GiteaReviewComment[]
}

export interface GiteaRequest {
  method: string
  path: string
  authorization: string | undefined
  body: string
}

export interface FakeGiteaOptions {
  /** The pull request's unified diff, as `.diff` gives it. */
  diff?: string
  /** Forgejo: no route resolves a review comment. */
  forgejo?: boolean
}

export class FakeGitea {
  readonly comments: GiteaComment[] = []
  readonly reviews: GiteaReview[] = []
  readonly statuses: Array<{ sha: string; body: Record<string, unknown> }> = []
  readonly requests: GiteaRequest[] = []
  refuseWrites = false
  user: User = GITEA_BOT
  private next = 100
  private server!: Server

  constructor(private readonly options: FakeGiteaOptions = {}) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void read(request).then((text) => {
        const url = new URL(request.url ?? '/', 'http://x')
        const path = url.pathname
        this.requests.push({
          method: request.method ?? '',
          path: path + url.search,
          authorization: request.headers.authorization,
          body: text
        })
        const reply = (status: number, json?: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' })
          response.end(json === undefined ? '' : JSON.stringify(json))
        }
        const method = request.method ?? ''
        const repo = `/api/v1/repos/${GITEA_REPOSITORY}`
        const pull = `${repo}/pulls/${GITEA_PULL_REQUEST}`
        const input = () => (text ? (JSON.parse(text) as Record<string, unknown>) : {})
        if (method === 'GET' && path === '/api/v1/user') return reply(200, this.user)
        if (method === 'GET' && path === `${repo}/issues/${GITEA_PULL_REQUEST}/comments`) {
          return reply(200, this.comments)
        }
        if (method === 'GET' && path === `${pull}.diff`) {
          response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
          response.end(this.options.diff ?? '')
          return
        }
        if (method === 'GET' && path === `${pull}/reviews`) {
          const page = Number(url.searchParams.get('page') ?? '1')
          const limit = Math.min(50, Number(url.searchParams.get('limit') ?? '30'))
          const shown = this.reviews.map(({ comments, ...review }) => ({
            ...review,
            comments_count: comments.length
          }))
          return reply(200, shown.slice((page - 1) * limit, page * limit))
        }
        const reviewComments = new RegExp(`^${pull}/reviews/(\\d+)/comments$`).exec(path)
        if (method === 'GET' && reviewComments) {
          const review = this.reviews.find(({ id }) => id === Number(reviewComments[1]))
          return review ? reply(200, review.comments) : reply(404, { message: 'Not Found' })
        }
        if (this.refuseWrites) return reply(403, { message: 'token does not have required scope' })
        const status = new RegExp(`^${repo}/statuses/([0-9a-f]{40})$`).exec(path)
        if (method === 'POST' && status) {
          this.statuses.push({ sha: status[1]!, body: input() })
          return reply(201, { id: this.next++, ...input() })
        }
        if (method === 'POST' && path === `${repo}/issues/${GITEA_PULL_REQUEST}/comments`) {
          const comment = { id: this.next++, body: String(input()['body']), user: this.user }
          this.comments.push(comment)
          return reply(201, comment)
        }
        const edit = new RegExp(`^${repo}/issues/comments/(\\d+)$`).exec(path)
        if (method === 'PATCH' && edit) {
          const comment = this.comments.find(({ id }) => id === Number(edit[1]))
          if (!comment) return reply(404, { message: 'Not Found' })
          if (comment.user.id !== this.user.id) return reply(403, { message: 'Forbidden' })
          comment.body = String(input()['body'])
          return reply(200, comment)
        }
        if (method === 'POST' && path === `${pull}/reviews`) {
          const { body, event, comments } = input() as {
            body?: string
            event?: string
            comments?: Array<{ path: string; body: string; new_position: number }>
          }
          if (event === 'COMMENT' && !body && !comments?.length) {
            return reply(422, { message: 'review event COMMENT requires a body or a comment' })
          }
          const review: GiteaReview = {
            id: this.next++,
            body: body ?? '',
            user: this.user,
            state: 'COMMENT',
            comments: (comments ?? []).map((comment) => ({
              id: this.next++,
              body: comment.body,
              user: this.user,
              path: comment.path,
              position: comment.new_position,
              resolver: null
            }))
          }
          this.reviews.push(review)
          return reply(200, {
            id: review.id,
            body: review.body,
            user: review.user,
            state: review.state,
            comments_count: review.comments.length
          })
        }
        const resolve = new RegExp(`^${repo}/pulls/comments/(\\d+)/resolve$`).exec(path)
        if (method === 'POST' && resolve && !this.options.forgejo) {
          const comment = this.reviews
            .flatMap(({ comments }) => comments)
            .find(({ id }) => id === Number(resolve[1]))
          if (!comment) return reply(404, { message: 'Not Found' })
          comment.resolver = this.user
          return reply(204)
        }
        reply(404, { message: 'Not Found' })
      })
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
  }

  /** The server's address; its API is under `/api/v1`. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  /** Every review comment, in the order written. */
  get reviewComments(): GiteaReviewComment[] {
    return this.reviews.flatMap(({ comments }) => comments)
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

function read(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (text += chunk))
    request.on('end', () => resolve(text))
  })
}

/** The command's options naming the fake's repository and pull request, from any CI. */
export function giteaOptions(fake: FakeGitea): string[] {
  return [
    '--gitea-url',
    fake.url,
    '--gitea-repository',
    GITEA_REPOSITORY,
    '--pull-request',
    String(GITEA_PULL_REQUEST)
  ]
}

/**
 * A unified diff adding `count` lines after line `after` of each file, as git writes it.
 *
 * @example diffAdding({ 'src/Cart.java': [40, 5] })
 */
export function diffAdding(files: Record<string, [after: number, count: number]>): string {
  return Object.entries(files)
    .map(([path, [after, count]]) =>
      [
        `diff --git a/${path} b/${path}`,
        'index 0000001..0000002 100644',
        `--- a/${path}`,
        `+++ b/${path}`,
        `@@ -${after},0 +${after + 1},${count} @@`,
        ...Array.from({ length: count }, (_, i) => `+line ${i}`)
      ].join('\n')
    )
    .join('\n')
    .concat('\n')
}
