/**
 * Bitbucket Cloud's REST API (2.0) on loopback for the decoration's tests, shaped from its
 * OpenAPI description: one repository (`acme/shop`) and its pull request 7; Code Insights
 * reports (`PUT`, `DELETE .../commit/{commit}/reports/{id}`; `data` at most 10 fields, `result`
 * PASSED/FAILED/PENDING) and their annotations (`POST` a JSON array of at most 100, at most 1,000
 * a report, `summary` at most 450 characters, `annotation_type` and `severity` from their enums;
 * a report PUT again keeps its annotations, as Bitbucket does); build statuses (`key` at most 40
 * characters, `state` SUCCESSFUL/FAILED/INPROGRESS/STOPPED, `url` required; the same key
 * replaces); pull-request comments (`content.raw`, `user`, listed `pagelen` at most 100 with an
 * absolute `next`; edited and deleted by their author only, a deleted one listed `deleted`); the
 * current account (`GET /user`). The token is a Bearer: by default a repository access token,
 * which writes as a bot account of its own and which `GET /user` refuses (401, "Token is invalid
 * or not supported for this endpoint", as Bitbucket answers it), or a user's, whose account
 * `GET /user` answers. On demand every request is refused, or the first get 429.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const REPOSITORY = 'acme/shop'
export const PULL_REQUEST = '7'
export const COMMIT = 'e'.repeat(40)
export const BITBUCKET_TOKEN = 'bbat-fake-token'

export interface FakeReport {
  body: Record<string, unknown>
  annotations: Record<string, unknown>[]
}

/** An account as a comment's `user` and `GET /user` give it. */
export interface FakeAccount {
  type: string
  uuid: string
  display_name: string
  account_id?: string
  nickname?: string
}

/** The bot account the repository access token writes as. */
export const TOKEN_BOT: FakeAccount = {
  type: 'user',
  uuid: '{6f1a8c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b}',
  display_name: 'shop-token',
  nickname: 'shop-token'
}

/** The account of a user's token (an OAuth access token), which `GET /user` answers. */
export const TOKEN_USER: FakeAccount = {
  type: 'user',
  uuid: '{2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d}',
  account_id: '557058:1a2b3c4d-5e6f-7a8b-9c0d-e1f2a3b4c5d6',
  display_name: 'Sonar bot',
  nickname: 'sonar-bot'
}

/** A person who may comment on the pull request. */
export const SOMEONE: FakeAccount = {
  type: 'user',
  uuid: '{b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e}',
  account_id: '557058:0f1e2d3c-4b5a-6978-8a9b-c0d1e2f3a4b5',
  display_name: 'Mallory',
  nickname: 'mallory'
}

export interface FakeComment {
  id: number
  content: { raw: string }
  deleted?: boolean
  user?: FakeAccount
}

export interface RecordedBitbucketRequest {
  method: string
  path: string
  /** The request's target as sent: a path, or through a proxy the absolute address. */
  target: string
  authorization: string | undefined
  body: unknown
}

const ANNOTATION_TYPES = ['VULNERABILITY', 'CODE_SMELL', 'BUG']
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']

/**
 * Starts the fake; `url` is its API address (as BITBUCKET_API_URL).
 *
 * @example const bitbucket = await startFakeBitbucketCloud()
 */
export async function startFakeBitbucketCloud(
  options: {
    comments?: FakeComment[]
    refuse?: 401 | 403 | 404
    tooManyFirst?: number
    /**
     * Play Bitbucket Pipelines' proxy too: a request in absolute form for
     * `http://api.bitbucket.org/2.0/…` needs no token, for Code Insights only.
     */
    pipelinesProxy?: boolean
    /** The token is this user's (GET /user answers it); by default an access token's bot. */
    account?: FakeAccount
  } = {}
) {
  const writer = options.account ?? TOKEN_BOT
  const requests: RecordedBitbucketRequest[] = []
  const reports = new Map<string, FakeReport>()
  const statuses = new Map<string, Record<string, unknown>>()
  const comments: FakeComment[] = options.comments ?? []
  let nextId = 500
  let tooMany = options.tooManyFirst ?? 0
  const repo = `/2.0/repositories/${REPOSITORY}`
  let base = ''

  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://bitbucket')
      let body: unknown
      try {
        body = raw ? (JSON.parse(raw) as unknown) : undefined
      } catch {
        return error(response, 400, 'body is not JSON')
      }
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        authorization: request.headers.authorization,
        body,
        target: request.url ?? ''
      })
      if (tooMany > 0) {
        tooMany--
        return send(
          response,
          429,
          { type: 'error', error: { message: 'Rate limit' } },
          {
            'retry-after': '1'
          }
        )
      }
      const proxied = (request.url ?? '').startsWith('http://api.bitbucket.org/2.0/')
      if (proxied) {
        if (!options.pipelinesProxy) return error(response, 404, 'Not a proxy')
        if (!url.pathname.includes('/reports/'))
          return error(response, 403, 'The proxy takes Code Insights only')
      } else if (request.headers.authorization !== `Bearer ${BITBUCKET_TOKEN}`) {
        return error(response, 401, 'Unauthorized')
      }
      if (options.refuse) return error(response, options.refuse, 'refused')
      route(request.method ?? 'GET', url, body, response)
    })
  })

  function route(method: string, url: URL, body: unknown, response: ServerResponse): void {
    const path = url.pathname
    const report = new RegExp(`^${repo}/commit/([0-9a-f]{40})/reports/([\\w.-]+)$`).exec(path)
    if (report) {
      const key = `${report[1]}/${report[2]}`
      if (method === 'DELETE') {
        if (!reports.delete(key)) return error(response, 404, 'No such report')
        return send(response, 204, undefined)
      }
      if (method === 'PUT') {
        const fields = (body ?? {}) as Record<string, unknown>
        const data = fields['data']
        if (!['PASSED', 'FAILED', 'PENDING'].includes(String(fields['result']))) {
          return error(response, 400, 'result is not valid')
        }
        if (Array.isArray(data) && data.length > 10) return error(response, 400, 'too many data')
        const kept = reports.get(key)?.annotations ?? []
        reports.set(key, { body: fields, annotations: kept })
        return send(response, 200, { uuid: '{r}', ...fields })
      }
    }
    const annotations = new RegExp(
      `^${repo}/commit/([0-9a-f]{40})/reports/([\\w.-]+)/annotations$`
    ).exec(path)
    if (annotations && method === 'POST') {
      const found = reports.get(`${annotations[1]}/${annotations[2]}`)
      if (!found) return error(response, 404, 'No such report')
      if (!Array.isArray(body) || body.length > 100) {
        return error(response, 400, 'at most 100 annotations a request')
      }
      for (const item of body as Record<string, unknown>[]) {
        if (String(item['summary'] ?? '').length > 450 || !item['summary']) {
          return error(response, 400, 'summary: at most 450 characters')
        }
        if (!ANNOTATION_TYPES.includes(String(item['annotation_type']))) {
          return error(response, 400, 'annotation_type is not valid')
        }
        if (!SEVERITIES.includes(String(item['severity']))) {
          return error(response, 400, 'severity is not valid')
        }
      }
      if (found.annotations.length + body.length > 1000) {
        return error(response, 400, 'at most 1000 annotations a report')
      }
      found.annotations.push(...(body as Record<string, unknown>[]))
      return send(response, 200, { values: body })
    }
    const status = new RegExp(`^${repo}/commit/([0-9a-f]{40})/statuses/build$`).exec(path)
    if (status && method === 'POST') {
      const fields = (body ?? {}) as Record<string, unknown>
      const key = String(fields['key'] ?? '')
      if (key.length === 0 || key.length > 40) return error(response, 400, 'key: at most 40')
      if (!['SUCCESSFUL', 'FAILED', 'INPROGRESS', 'STOPPED'].includes(String(fields['state']))) {
        return error(response, 400, 'state is not valid')
      }
      if (typeof fields['url'] !== 'string' || !URL.canParse(fields['url'])) {
        return error(response, 400, 'url is required')
      }
      statuses.set(`${status[1]}/${key}`, fields)
      return send(response, 201, fields)
    }
    if (path === '/2.0/user' && method === 'GET') {
      if (!options.account) {
        return error(response, 401, 'Token is invalid or not supported for this endpoint.')
      }
      return send(response, 200, { ...options.account, links: {}, created_on: '2024-01-01' })
    }
    const list = `${repo}/pullrequests/${PULL_REQUEST}/comments`
    if (path === list && method === 'GET') {
      const size = Math.min(100, Number(url.searchParams.get('pagelen') ?? '10'))
      const page = Number(url.searchParams.get('page') ?? '1')
      const values = comments.slice((page - 1) * size, page * size)
      const more = page * size < comments.length
      return send(response, 200, {
        pagelen: size,
        page,
        values,
        ...(more ? { next: `${base}${list}?pagelen=${size}&page=${page + 1}` } : {})
      })
    }
    if (path === list && method === 'POST') {
      const comment = {
        id: nextId++,
        content: { raw: String((body as { content?: { raw?: unknown } })?.content?.raw) },
        user: writer
      }
      comments.push(comment)
      return send(response, 201, comment)
    }
    const edit = new RegExp(`^${list}/(\\d+)$`).exec(path)
    const edited = edit && comments.find(({ id }) => id === Number(edit[1]))
    if (edit && !edited) return error(response, 404, 'No such comment')
    if (edited && edited.user?.uuid !== writer.uuid && (method === 'PUT' || method === 'DELETE')) {
      return error(response, 403, 'You can only edit or delete your own comments.')
    }
    if (edited && method === 'DELETE') {
      edited.deleted = true
      return send(response, 204, undefined)
    }
    if (edit && method === 'PUT') {
      const comment = edited!
      comment.content = { raw: String((body as { content?: { raw?: unknown } })?.content?.raw) }
      return send(response, 200, comment)
    }
    error(response, 404, 'Not found')
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  base = `http://127.0.0.1:${port}`
  return {
    url: `${base}/2.0`,
    requests,
    reports,
    statuses,
    comments,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type FakeBitbucketCloud = Awaited<ReturnType<typeof startFakeBitbucketCloud>>

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(body === undefined ? '' : JSON.stringify(body))
}

/** Bitbucket's error body: `{"type": "error", "error": {"message": …}}`. */
function error(response: ServerResponse, status: number, message: string): void {
  send(response, status, { type: 'error', error: { message } })
}
