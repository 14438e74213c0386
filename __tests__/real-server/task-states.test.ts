/**
 * The states a real analysis task ends in other than SUCCESS, and what the product says of each:
 * CANCELED through `api/ce/cancel` while the command waits on the task, PENDING while the compute
 * engine is paused (`api/ce/pause`); the project deleted while it waits. (PENDING, IN_PROGRESS
 * and SUCCESS, with the server stopped on the way: server-outage.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { ceTask, runCommandOn } from './support/checks.js'
import { sampleRepository, type SampleRepository } from './support/sample-projects.js'
import { pendingScan } from './support/scanners.js'
import { realServers } from './support/servers.js'
import { administrator, generateToken, type WebApi, unique } from './support/web-api.js'

describe.each(realServers())('SonarQube $version: the task', (server) => {
  let admin: WebApi
  let token: string
  let repository: SampleRepository
  beforeAll(async () => {
    admin = await administrator(server.url)
    token = await generateToken(admin, 'tasks', 'GLOBAL_ANALYSIS_TOKEN')
    repository = sampleRepository('cli-python')
  })
  afterAll(async () => {
    await admin?.post('api/ce/resume').catch(() => undefined)
    repository?.remove()
  })

  /** An analysis submitted while the compute engine is paused: its task waits, PENDING. */
  async function pendingTask(projectKey: string) {
    const taskId = await pendingScan(admin, {
      cwd: repository.root,
      serverUrl: server.url,
      version: server.version,
      token,
      projectKey
    })
    expect((await ceTask(admin, taskId)).status).toBe('PENDING')
    return taskId
  }

  it('CANCELED through api/ce/cancel: the command exits 3 saying the task was canceled', async () => {
    const taskId = await pendingTask(unique('tasks-canceled'))
    const command = runCommandOn(
      repository.root,
      ['--initial-delay', '0', '--timeout', '300'],
      { SONAR_TOKEN: token },
      330_000
    )
    await sleep(3_000)
    await admin.post('api/ce/cancel', { id: taskId })
    const run = await command
    await admin.post('api/ce/resume')

    expect((await ceTask(admin, taskId)).status).toBe('CANCELED')
    expect(run.exitCode, run.stdout + run.stderr).toBe(3)
    expect(run.stdout + run.stderr).toMatch(/CANCELED|canceled/)
  })

  it('the project deleted while the command waits: it stops with what the server said', async () => {
    const projectKey = unique('tasks-deleted')
    const taskId = await pendingTask(projectKey)
    const command = runCommandOn(
      repository.root,
      ['--initial-delay', '0', '--timeout', '120'],
      { SONAR_TOKEN: token },
      150_000
    )
    await sleep(3_000)
    await admin.post('api/projects/delete', { project: projectKey })
    const task = await ceTask(admin, taskId).catch((error: unknown) => String(error))
    const run = await command
    await admin.post('api/ce/resume')

    console.info(
      `SonarQube ${server.version}, project deleted while its task waited: api/ce/task says ${JSON.stringify(task)}; the command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(run.exitCode).toBe(3)
  })
})
