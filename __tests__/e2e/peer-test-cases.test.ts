/**
 * The cases SonarSource's own action tests (test/check-quality-gate-test.bats in
 * sonarqube-quality-gate-action), played against the built action: report files with only
 * serverUrl and ceTaskUrl, replies as terse as its mocks, and the verdict this action gives.
 */
import { writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { json, startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import { annotations, RUNTIMES, runAction, TOKEN, workspace } from '../support/action-runs.js'

const TASK = 'AXlCe3gsFwOUsY8YKHTn'
const ANALYSIS = 'AXlCe3jz9LkwR9Gs0pBY'

describe.each(RUNTIMES)("SonarSource's own test cases, on $runtime", ({ node }) => {
  const servers: LoopbackServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  /** A server whose task and gate replies are exactly the peer's mocks. */
  async function peerServer(gate: unknown, taskStatus = 'SUCCESS'): Promise<LoopbackServer> {
    const server = await startLoopbackServer((request, response) => {
      if (request.url?.startsWith('/api/qualitygates/project_status?analysisId='))
        json(response, gate)
      else if (request.url === `/api/ce/task?id=${TASK}`)
        json(response, { task: { analysisId: ANALYSIS, status: taskStatus } })
      else json(response, { error: ['Not found'] }, 404)
    })
    servers.push(server)
    return server
  }

  /** The peer's metadata file: serverUrl and ceTaskUrl, nothing else. */
  async function check(
    server: LoopbackServer,
    inputs: Record<string, string> = {},
    lines?: string[]
  ) {
    const ws = await workspace()
    const file = ws.file('metadata_tmp')
    await writeFile(
      file,
      (lines ?? [`serverUrl=${server.url}`, `ceTaskUrl=${server.url}/api/ce/task?id=${TASK}`]).join(
        '\n'
      ) + '\n'
    )
    return runAction(ws, {
      node,
      inputs: { sonarToken: TOKEN, scanMetadataReportFile: file, ...inputs }
    })
  }

  it('pass when Quality Gate status OK: a report with only serverUrl and ceTaskUrl is enough', async () => {
    const server = await peerServer({ projectStatus: { status: 'OK' } })
    const run = await check(server)
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({
      'quality-gate-status': 'PASSED',
      taskId: TASK,
      analysisId: ANALYSIS
    })
    expect(server.received.map((request) => request.url)).toEqual([
      `/api/ce/task?id=${TASK}`,
      `/api/qualitygates/project_status?analysisId=${ANALYSIS}`
    ])
  })

  it('fail when Quality Gate status ERROR', async () => {
    const run = await check(await peerServer({ projectStatus: { status: 'ERROR' } }))
    expect(run.exitCode).toBe(1)
    expect(run.outputs['quality-gate-status']).toBe('FAILED')
    expect(annotations(run.stdout, 'error')[0]).toMatch(
      /^Quality Gate Failure: 0 of 0 conditions failed\./
    )
  })

  it('Quality Gate status WARN passes here, with a warning (the peer fails it)', async () => {
    const run = await check(await peerServer({ projectStatus: { status: 'WARN' } }))
    expect(run.exitCode).toBe(0)
    expect(run.outputs['quality-gate-status']).toBe('WARN')
    expect(annotations(run.stdout, 'warning')).toContainEqual(
      expect.stringMatching(/passed with warnings \(WARN\)/)
    )
  })

  it('fail when no Quality Gate status: the gate endpoint answers something else', async () => {
    const gateAsTask = { task: { analysisId: ANALYSIS, status: 'SUCCESS' } }
    const run = await check(await peerServer(gateAsTask))
    expect(run.exitCode).toBe(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(
      /expected \{"projectStatus": \{"status": \.\.\.\}\}/
    )
  })

  it('fail when polling timeout is reached', async () => {
    const run = await check(await peerServer({ projectStatus: { status: 'OK' } }, 'PENDING'), {
      pollingTimeoutSec: '2'
    })
    expect(run.exitCode).toBe(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(
      /^Timed out after 2\.\d s waiting for the analysis task/
    )
  })

  it('use URL from SONAR_HOST_URL instead of metadata file when it is provided', async () => {
    const wrong = await startLoopbackServer((_, response) =>
      json(response, { error: ['Not found'] }, 404)
    )
    servers.push(wrong)
    const right = await peerServer({ projectStatus: { status: 'OK' } })
    const run = await check(right, { sonarHostUrl: right.url }, [
      `serverUrl=${wrong.url}`,
      `ceTaskUrl=${wrong.url}/api/ce/task?id=${TASK}`
    ])
    expect(run.exitCode).toBe(0)
    expect(wrong.received).toEqual([])
  })

  it('fail when empty metadata file', async () => {
    const run = await check(await peerServer({ projectStatus: { status: 'OK' } }), {}, [])
    expect(run.exitCode).toBe(1)
    expect(annotations(run.stdout, 'error')[0]).toMatch(
      /has no ceTaskId and no ceTaskUrl with an id parameter/
    )
  })
})
