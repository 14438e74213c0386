/**
 * Bitbucket Data Center's REST API on loopback for the decoration's tests, shaped from its REST
 * specification (9.2): Code Insights reports of repository `SHOP/web` (`PUT`, `DELETE
 * /rest/insights/1.0/projects/{p}/repos/{r}/commits/{c}/reports/{key}`: `title` at most 450,
 * `details` at most 2,000, `result` PASS/FAIL, `data` at most 6, the key at most 50 characters;
 * a report PUT again keeps its annotations) and their annotations (`POST .../annotations`,
 * `{"annotations": [...]}`, at most 1,000 a report, a request past it refused whole, `message`
 * at most 2,000, `severity` LOW/MEDIUM/HIGH); build statuses (`POST
 * /rest/api/latest/projects/{p}/repos/{r}/commits/{c}/builds`: `key`, `state`, `url` required;
 * or, as a server before that API, only `POST /rest/build-status/1.0/commits/{c}`). The token is
 * a Bearer; on demand every request is refused.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const SERVER_PROJECT = 'SHOP'
export const SERVER_REPOSITORY = 'web'
export const SERVER_TOKEN = 'bbdc-fake-token'

export async function startFakeBitbucketServer(
  options: { legacyBuildStatus?: boolean; refuse?: 401 | 403 | 404 } = {}
) {
  const requests: {
    method: string
    path: string
    authorization: string | undefined
    body: unknown
  }[] = []
  const reports = new Map<
    string,
    { body: Record<string, unknown>; annotations: Record<string, unknown>[] }
  >()
  const builds: Record<string, unknown>[] = []
  const repo = `/rest/insights/1.0/projects/${SERVER_PROJECT}/repos/${SERVER_REPOSITORY}/commits/([0-9a-f]{40})/reports/([^/]+)`

  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://bitbucket')
      const body = raw ? (JSON.parse(raw) as unknown) : undefined
      requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        authorization: request.headers.authorization,
        body
      })
      if (request.headers.authorization !== `Bearer ${SERVER_TOKEN}`)
        return error(response, 401, 'Authentication failed')
      if (options.refuse) return error(response, options.refuse, 'refused')
      const method = request.method ?? 'GET'
      const fields = (body ?? {}) as Record<string, unknown>
      const report = new RegExp(`^${repo}$`).exec(url.pathname)
      if (report) {
        const key = `${report[1]}/${report[2]}`
        if (report[2]!.length > 50)
          return error(response, 400, 'The key must be at most 50 characters')
        if (method === 'DELETE') {
          if (!reports.delete(key)) return error(response, 404, 'No such report')
          return send(response, 204, undefined)
        }
        if (method === 'PUT') {
          if (!['PASS', 'FAIL'].includes(String(fields['result'])))
            return error(response, 400, 'result')
          if (
            String(fields['title'] ?? '').length > 450 ||
            String(fields['details'] ?? '').length > 2000
          ) {
            return error(response, 400, 'too long')
          }
          if (!Array.isArray(fields['data']) || (fields['data'] as unknown[]).length > 6) {
            return error(response, 400, 'data: at most 6')
          }
          reports.set(key, { body: fields, annotations: reports.get(key)?.annotations ?? [] })
          return send(response, 200, fields)
        }
      }
      const annotations = new RegExp(`^${repo}/annotations$`).exec(url.pathname)
      if (annotations && method === 'POST') {
        const found = reports.get(`${annotations[1]}/${annotations[2]}`)
        if (!found) return error(response, 404, 'No such report')
        const list = fields['annotations']
        if (!Array.isArray(list)) return error(response, 400, 'annotations')
        if (found.annotations.length + list.length > 1000)
          return error(response, 400, 'at most 1000 annotations')
        for (const item of list as Record<string, unknown>[]) {
          if (String(item['message'] ?? '').length > 2000 || !item['message'])
            return error(response, 400, 'message')
          if (!['LOW', 'MEDIUM', 'HIGH'].includes(String(item['severity'])))
            return error(response, 400, 'severity')
        }
        found.annotations.push(...(list as Record<string, unknown>[]))
        return send(response, 204, undefined)
      }
      const build =
        !options.legacyBuildStatus &&
        new RegExp(
          `^/rest/api/latest/projects/${SERVER_PROJECT}/repos/${SERVER_REPOSITORY}/commits/[0-9a-f]{40}/builds$`
        ).test(url.pathname)
      const legacy = /^\/rest\/build-status\/1\.0\/commits\/[0-9a-f]{40}$/.test(url.pathname)
      if ((build || legacy) && method === 'POST') {
        if (
          !fields['key'] ||
          !['SUCCESSFUL', 'FAILED', 'INPROGRESS'].includes(String(fields['state']))
        ) {
          return error(response, 400, 'key and state')
        }
        if (typeof fields['url'] !== 'string' || !URL.canParse(fields['url']))
          return error(response, 400, 'url')
        builds.push({ ...fields, via: legacy ? 'build-status/1.0' : 'api/latest' })
        return send(response, 204, undefined)
      }
      error(response, 404, 'Not found')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reports,
    builds,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

export type FakeBitbucketServer = Awaited<ReturnType<typeof startFakeBitbucketServer>>

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(body === undefined ? '' : JSON.stringify(body))
}

/** Bitbucket Data Center's error body: `{"errors": [{"message": …}]}`. */
function error(response: ServerResponse, status: number, message: string): void {
  send(response, status, { errors: [{ context: null, message, exceptionName: null }] })
}
