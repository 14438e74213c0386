/**
 * A real server that goes away while the check polls: stopped with the analysis's task PENDING
 * (the compute engine paused), started again (`api/system/status` STARTING meanwhile), the engine
 * resumed: the task goes IN_PROGRESS and SUCCESS, and the check keeps polling through the outage
 * within its time-out and gets the verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { ceTask, runCommandOn, taskEnd } from './support/checks.js'
import { sampleRepository, type SampleRepository } from './support/sample-projects.js'
import { pendingScan } from './support/scanners.js'
import { realServers } from './support/servers.js'
import { restartServer, stopServer } from './support/server.js'
import { administrator, generateToken, type WebApi, unique } from './support/web-api.js'

describe.each(realServers())('SonarQube $version stopped and started again', (server) => {
  const projectKey = unique('outage')
  let admin: WebApi
  let repository: SampleRepository
  beforeAll(async () => {
    admin = await administrator(server.url)
    repository = sampleRepository('cli-python')
  })
  afterAll(async () => {
    await admin?.post('api/ce/resume').catch(() => undefined)
    repository?.remove()
  })

  it('while the command polls a pending task: it polls through the outage and gets the verdict', async () => {
    const token = await generateToken(admin, 'outage', 'GLOBAL_ANALYSIS_TOKEN')
    const taskId = await pendingScan(admin, {
      cwd: repository.root,
      serverUrl: server.url,
      version: server.version,
      token,
      projectKey
    })
    const command = runCommandOn(
      repository.root,
      ['--initial-delay', '0', '--timeout', '900'],
      { SONAR_TOKEN: token },
      960_000
    )
    await sleep(3_000)

    await stopServer(server)
    const replies = new Set<string>()
    const restarted = restartServer(server, 600_000)
    // What the Web API answers while the server starts: api/system/status, and the task.
    while (!(await Promise.race([restarted.then(() => true), sleep(500).then(() => false)]))) {
      for (const path of ['api/system/status', `api/ce/task?id=${taskId}`]) {
        const reply = await fetch(`${server.url}/${path}`, {
          headers: { authorization: admin.authorization },
          signal: AbortSignal.timeout(5_000)
        })
          .then(
            async (response) =>
              `${path.split('?')[0]} ${response.status} ${(await response.text()).slice(0, 120)}`
          )
          .catch(() => `${path.split('?')[0]} no answer`)
        replies.add(reply.replace(/"id":"[^"]*"/, '"id":…'))
      }
    }
    await restarted
    await admin.post('api/ce/resume')
    const { task } = await taskEnd(admin, taskId)
    const run = await command

    console.info(
      `SonarQube ${server.version} while starting again answered:\n${[...replies].join('\n')}\nThe command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(task.status).toBe('SUCCESS')
    // The command saw the task PENDING, the server go and come back, then SUCCESS.
    expect(run.stdout + run.stderr).toMatch(
      /PENDING after [\s\S]*The server stopped answering [\s\S]*The server answers again after [\s\S]*SUCCESS after /
    )
    expect(
      [...replies].some((reply) => /^api\/system\/status (200|503) .*STARTING/.test(reply))
    ).toBe(true)
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect((await ceTask(admin, taskId)).analysisId).toBeTruthy()
  })
})
