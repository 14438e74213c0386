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

const PROJECT = 'sonarsource_test_AYhCAUXoEy1XQQcbVndf'

/**
 * The reads after the gate's, made at once in any order: the new issues, the new code's figures,
 * the accepted issues' count and the hotspots of the task's project, its new code.
 */
const AFTER_THE_GATE = [
  `/api/issues/search?componentKeys=${PROJECT}&resolved=false&ps=500&p=1&additionalFields=rules&inNewCodePeriod=true`,
  `/api/measures/component?component=${PROJECT}&metricKeys=new_coverage%2Cnew_duplicated_lines_density`,
  `/api/measures/component?component=${PROJECT}&metricKeys=new_accepted_issues`,
  `/api/hotspots/search?projectKey=${PROJECT}&status=TO_REVIEW&ps=5&p=1&inNewCodePeriod=true`
].sort()

/** The requests a check of task AYTask1 makes: its task, its gate, then the reads after it. */
function expectTheCheckOfTheTask(urls: readonly (string | undefined)[]): void {
  expect(urls.slice(0, 2)).toEqual([
    '/api/ce/task?id=AYTask1',
    `/api/qualitygates/project_status?analysisId=${taskExample.task.analysisId}`
  ])
  expect(urls.slice(2).sort()).toEqual(AFTER_THE_GATE)
}

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
    expectTheCheckOfTheTask(secure.received.map((request) => request.url))
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
    expectTheCheckOfTheTask(server.received.map((request) => request.url))
  })
})
