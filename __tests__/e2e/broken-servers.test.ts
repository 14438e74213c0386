/**
 * The built action against real servers that misbehave the way networks and proxies do: an
 * http:// address that redirects to https:// behind a private CA, connections cut mid-body,
 * IPv6 literal addresses.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { taskExample, projectStatusExample } from '../../__fixtures__/sonarqube/index.js'
import { testCertificates } from '../fault-kit/certificates.js'
import { brokenReplies, replyJson } from '../fault-kit/faults.js'
import { json, startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import { startRawServer, type RawServer } from '../fault-kit/raw-server.js'
import { RUNTIMES, runAction, TOKEN, workspace } from '../support/action-runs.js'

/** The server's own examples: task SUCCESS for the analysis whose gate is ERROR. */
function sonarReplies(url: string | undefined): unknown {
  if (url?.startsWith('/api/issues/search')) return { paging: { total: 0 }, issues: [] }
  return url?.startsWith('/api/ce/task') ? taskExample : projectStatusExample
}

/** The new issues' request, after the gate's: the task's project, its new code. */
const ISSUES_REQUEST = `/api/issues/search?componentKeys=sonarsource_test_AYhCAUXoEy1XQQcbVndf&resolved=false&ps=500&p=1&additionalFields=rules&inNewCodePeriod=true`

describe.each(RUNTIMES)('broken and odd servers, on $runtime', ({ node }) => {
  const servers: (LoopbackServer | RawServer)[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  const inputs = (host: string) => ({ sonarToken: TOKEN, taskId: 'AYTask1', sonarHostUrl: host })

  it('http:// that answers 301 to https:// on the same host, trusted through SONAR_ROOT_CERT', async () => {
    const secure = await startLoopbackServer(
      (request, response) => json(response, sonarReplies(request.url)),
      {
        tls: true
      }
    )
    const plain = await startLoopbackServer((request, response) => {
      response.writeHead(301, { location: new URL(request.url ?? '/', secure.url).href })
      response.end()
    })
    servers.push(secure, plain)

    const run = await runAction(await workspace(), {
      node,
      inputs: inputs(plain.url),
      env: { SONAR_ROOT_CERT: testCertificates().caPem }
    })

    expect(run.stdout).not.toMatch(/ERR_INVALID_PROTOCOL|trying again/)
    expect(run.outputs['status']).toBe('ERROR') // the example gate: a verdict was reached
    expect(secure.received.map((request) => request.url)).toEqual([
      '/api/ce/task?id=AYTask1',
      `/api/qualitygates/project_status?analysisId=${taskExample.task.analysisId}`,
      ISSUES_REQUEST
    ])
  })

  it('a reply cut off mid-body is tried again at once, not after the 10 s request time-out', async () => {
    const server = await startRawServer((socket, line, count) =>
      count === 1
        ? brokenReplies.closeMidBody(socket)
        : replyJson(socket, sonarReplies(line.split(' ')[1]))
    )
    servers.push(server)

    const run = await runAction(await workspace(), { node, inputs: inputs(server.url) })

    expect(run.outputs['status']).toBe('ERROR')
    // Its own cause, once: not the request time-out's "no reply within".
    expect(run.stdout.match(/^.*; trying again .*$/gm)).toEqual([
      expect.stringMatching(
        /^the connection closed after 10 bytes of the reply body, before its end for task AYTask1; trying again/
      )
    ])
    expect(run.stdout).not.toMatch(/no reply within/)
  })

  it('an IPv6 literal address: http://[::1]:port', async () => {
    const server = await startLoopbackServer(
      (request, response) => json(response, sonarReplies(request.url)),
      {
        host: '::1'
      }
    )
    servers.push(server)

    const run = await runAction(await workspace(), { node, inputs: inputs(server.url) })

    expect(run.outputs['status']).toBe('ERROR')
    expect(server.received.map((request) => request.url)).toEqual([
      '/api/ce/task?id=AYTask1',
      `/api/qualitygates/project_status?analysisId=${taskExample.task.analysisId}`,
      ISSUES_REQUEST
    ])
  })
})
