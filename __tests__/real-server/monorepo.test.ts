/**
 * A monorepo of two projects, each analysed by the scanner CLI in its own folder: the action and
 * the command read both report files through one glob and give one verdict per project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import path from 'node:path'
import { runActionOn, runCommandOn, taskEnd } from './support/checks.js'
import { sampleRepository, type SampleRepository } from './support/sample-projects.js'
import { scanWithCli } from './support/scanners.js'
import { realServers } from './support/servers.js'
import {
  administrator,
  createGate,
  createProject,
  generateToken,
  unique
} from './support/web-api.js'

describe.each(realServers())('SonarQube $version: a monorepo', (server) => {
  const folders = ['billing', 'shipping']
  const billing = unique('mono-billing')
  const shipping = unique('mono-shipping')
  let repository: SampleRepository
  let token: string
  beforeAll(async () => {
    const admin = await administrator(server.url)
    token = await generateToken(admin, 'monorepo', 'GLOBAL_ANALYSIS_TOKEN')
    repository = sampleRepository('cli-python', folders)
    // billing's gate fails on its 36 lines of code; shipping's allows 100,000. (The sample's
    // first revision has no issue for a gate to fail on: a real analysis found none.)
    await createProject(admin, billing)
    await createGate(
      admin,
      'Ten lines at most',
      [{ metric: 'ncloc', op: 'GT', error: '10' }],
      billing
    )
    await createProject(admin, shipping)
    await createGate(
      admin,
      'Many lines allowed',
      [{ metric: 'ncloc', op: 'GT', error: '100000' }],
      shipping
    )
    for (const folder of folders) {
      const scan = await scanWithCli({
        cwd: path.join(repository.root, folder),
        serverUrl: server.url,
        version: server.version,
        token,
        projectKey: folder === 'billing' ? billing : shipping
      })
      await taskEnd(admin, scan.report['ceTaskId'] ?? '')
    }
  })
  afterAll(() => repository?.remove())

  it('the action reads both through one glob: one fails, one passes', async () => {
    const run = await runActionOn(repository.root, {
      sonarToken: token,
      scanMetadataReportFile: '*/.scannerwork/report-task.txt',
      initialDelayMs: '0'
    })
    const results = JSON.parse(run.outputs['results'] ?? '[]') as {
      projectKey: string
      status: string
    }[]

    expect(run.exitCode, run.stdout + run.stderr).toBe(1)
    expect(results.map((result) => [result.projectKey, result.status]).sort()).toEqual([
      [billing, 'ERROR'],
      [shipping, 'OK']
    ])
  })

  it('the command the same', async () => {
    const run = await runCommandOn(
      repository.root,
      ['--report', '*/.scannerwork/report-task.txt', '--initial-delay', '0'],
      { SONAR_TOKEN: token }
    )

    expect(run.exitCode, run.stdout + run.stderr).toBe(1)
    expect(run.stdout + run.stderr).toContain(billing)
  })
})
