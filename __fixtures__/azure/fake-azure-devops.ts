/**
 * Azure DevOps's Git REST API on loopback for the decoration's tests, shaped from its
 * specification (api-version 7.1, which every request must name): one repository of project
 * `shop` and its pull request 42; statuses appended (`state` from its enum, `context.name`
 * required); threads (`GET` as `{value, count}`, `POST` with `comments`, `status`,
 * `threadContext`, `properties` kept as `{$type, $value}`, each comment's `author` an
 * IdentityRef), a thread's status (`PATCH`), a comment's content (`PATCH`, its author's only);
 * the pull request's iterations and their changes (`$top`, `$skip`, `nextSkip`); the
 * collection's `_apis/connectionData` (a preview resource, `api-version=7.1-preview`), whose
 * `authenticatedUser` is the build service. The token is a Bearer; on demand every request is
 * refused, answered with a sign-in page (203), or the first get 429, and the connection data
 * refused or without an id.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const AZURE_PROJECT = 'shop'
export const AZURE_REPOSITORY = '4ffc1d7e-8f3a-4a5b-9c4e-2f6f0c1b2a3d'
export const AZURE_PULL_REQUEST = '42'
export const AZURE_TOKEN = 'azdo-fake-token'

/** An IdentityRef, as a comment's `author`. */
export interface FakeIdentity {
  id: string
  displayName: string
  uniqueName?: string
}

export interface FakeThread {
  id: number
  status: string
  comments: { id: number; content: string; author: FakeIdentity }[]
  threadContext?: Record<string, unknown>
  properties?: Record<string, { $type: string; $value: string }>
}

const STATES = ['notSet', 'pending', 'succeeded', 'failed', 'error', 'notApplicable']
/** The identity SYSTEM_ACCESSTOKEN authenticates as: the project's build service. */
export const BUILD_SERVICE: FakeIdentity = {
  id: '5c3a7e2b-9d41-4f6a-8b0c-1d2e3f4a5b6c',
  displayName: 'shop Build Service (org)',
  uniqueName: 'Build\\5c3a7e2b-9d41-4f6a-8b0c-1d2e3f4a5b6c'
}

/** A reviewer of the pull request. */
export const REVIEWER: FakeIdentity = {
  id: 'b7e1c2d3-4f5a-4b6c-9d7e-8f9a0b1c2d3e',
  displayName: 'Mallory',
  uniqueName: 'mallory@example.com'
}

/**
 * Starts the fake; `collection` is the collection's address (as SYSTEM_COLLECTIONURI, with its
 * trailing slash).
 *
 * @example const azure = await startFakeAzureDevOps({ changed: ['src/app.ts'] })
 */
export async function startFakeAzureDevOps(
  options: {
    changed?: string[]
    threads?: FakeThread[]
    refuse?: 401 | 403 | 404
    signInPage?: boolean
    tooManyFirst?: number
    /** `_apis/connectionData` refused (403), or its `authenticatedUser` without an `id`. */
    connectionData?: 403 | 'no-id'
  } = {}
) {
  const requests: {
    method: string
    path: string
    query: string
    authorization: string | undefined
    body: unknown
  }[] = []
  const statuses: Record<string, unknown>[] = []
  const threads: FakeThread[] = options.threads ?? []
  const changed = options.changed ?? []
  let nextId = 100
  let tooMany = options.tooManyFirst ?? 0
  const base = `/org/${AZURE_PROJECT}/_apis/git/repositories/${AZURE_REPOSITORY}/pullRequests/${AZURE_PULL_REQUEST}`

  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://azure')
      let body: unknown
      try {
        body = raw ? (JSON.parse(raw) as unknown) : undefined
      } catch {
        return send(response, 400, { message: 'body is not JSON' })
      }
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.search,
        authorization: request.headers.authorization,
        body
      })
      if (tooMany > 0) {
        tooMany--
        return send(
          response,
          429,
          { message: 'TF400733: The request has been blocked' },
          { 'retry-after': '1' }
        )
      }
      if (options.signInPage) {
        response.writeHead(203, { 'content-type': 'text/html' })
        return void response.end('<html><body>Sign in</body></html>')
      }
      // The pipeline's token as a Bearer; a personal access token as Basic, its user empty.
      const basic = `Basic ${Buffer.from(`:${AZURE_TOKEN}`).toString('base64')}`
      if (![`Bearer ${AZURE_TOKEN}`, basic].includes(request.headers.authorization ?? '')) {
        return send(response, 401, { message: 'TF400813: not authorized' })
      }
      if (options.refuse) {
        return send(response, options.refuse, {
          message:
            "TF401027: You need the Git 'PullRequestContribute' permission to perform this action."
        })
      }
      if (url.pathname === '/org/_apis/connectionData') {
        return connectionData(request.method ?? 'GET', url, response)
      }
      if (url.searchParams.get('api-version') !== '7.1') {
        return send(response, 400, { message: 'No api-version was supplied for the request.' })
      }
      route(request.method ?? 'GET', url, body, response)
    })
  })

  function connectionData(method: string, url: URL, response: ServerResponse): void {
    if (method !== 'GET') return send(response, 405, { message: 'Method not allowed' })
    if (url.searchParams.get('api-version') !== '7.1-preview') {
      return send(response, 400, {
        message:
          'The requested REST API version of 7.1 is a preview version: include the -preview flag.'
      })
    }
    if (options.connectionData === 403) {
      return send(response, 403, { message: 'TF400813: not authorized to access this resource.' })
    }
    const { id, ...rest } = BUILD_SERVICE
    const user = {
      ...(options.connectionData === 'no-id' ? {} : { id }),
      descriptor: `Microsoft.TeamFoundation.ServiceIdentity;${id}`,
      providerDisplayName: rest.displayName,
      isActive: true
    }
    return send(response, 200, {
      authenticatedUser: user,
      authorizedUser: user,
      instanceId: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      deploymentType: 'hosted'
    })
  }

  function route(method: string, url: URL, body: unknown, response: ServerResponse): void {
    const path = url.pathname
    const fields = (body ?? {}) as Record<string, unknown>
    if (path === `${base}/statuses` && method === 'POST') {
      const context = fields['context'] as { name?: unknown } | undefined
      if (
        !STATES.includes(String(fields['state'])) ||
        typeof context?.name !== 'string' ||
        !context.name
      ) {
        return send(response, 400, { message: 'The status is not valid.' })
      }
      statuses.push(fields)
      return send(response, 200, { id: nextId++, ...fields })
    }
    if (path === `${base}/threads` && method === 'GET') {
      return send(response, 200, { value: threads, count: threads.length })
    }
    if (path === `${base}/threads` && method === 'POST') {
      const comments = Array.isArray(fields['comments'])
        ? (fields['comments'] as Record<string, unknown>[])
        : []
      if (comments.length === 0 || typeof comments[0]!['content'] !== 'string') {
        return send(response, 400, { message: 'A thread needs a comment.' })
      }
      const thread: FakeThread = {
        id: nextId++,
        status: String(fields['status'] ?? 'active'),
        comments: [{ id: 1, content: String(comments[0]!['content']), author: BUILD_SERVICE }],
        ...(fields['threadContext']
          ? { threadContext: fields['threadContext'] as Record<string, unknown> }
          : {}),
        ...(fields['properties']
          ? {
              properties: fields['properties'] as Record<string, { $type: string; $value: string }>
            }
          : {})
      }
      threads.push(thread)
      return send(response, 200, thread)
    }
    const thread = new RegExp(`^${base}/threads/(\\d+)$`).exec(path)
    if (thread && method === 'PATCH') {
      const found = threads.find(({ id }) => id === Number(thread[1]))
      if (!found) return send(response, 404, { message: 'No such thread' })
      if (typeof fields['status'] === 'string') found.status = fields['status']
      return send(response, 200, found)
    }
    const comment = new RegExp(`^${base}/threads/(\\d+)/comments/(\\d+)$`).exec(path)
    if (comment && method === 'PATCH') {
      const found = threads
        .find(({ id }) => id === Number(comment[1]))
        ?.comments.find(({ id }) => id === Number(comment[2]))
      if (!found) return send(response, 404, { message: 'No such comment' })
      if (found.author.id !== BUILD_SERVICE.id)
        return send(response, 403, { message: 'Not your comment' })
      found.content = String(fields['content'])
      return send(response, 200, found)
    }
    if (path === `${base}/iterations` && method === 'GET') {
      return send(response, 200, { value: [{ id: 1 }, { id: 2 }], count: 2 })
    }
    if (path === `${base}/iterations/2/changes` && method === 'GET') {
      const top = Number(url.searchParams.get('$top') ?? '100')
      const skip = Number(url.searchParams.get('$skip') ?? '0')
      const page = changed.slice(skip, skip + top)
      return send(response, 200, {
        changeEntries: page.map((file, index) => ({
          changeTrackingId: skip + index + 1,
          item: { path: `/${file}` },
          changeType: 'edit'
        })),
        nextSkip: skip + top < changed.length ? skip + top : 0,
        nextTop: skip + top < changed.length ? top : 0
      })
    }
    send(response, 404, { message: 'Not found' })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    collection: `http://127.0.0.1:${port}/org/`,
    requests,
    statuses,
    threads,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type FakeAzureDevOps = Awaited<ReturnType<typeof startFakeAzureDevOps>>

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}
