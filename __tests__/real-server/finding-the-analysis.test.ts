/**
 * Finding the analysis by project, branch and commit on a real server: the commit's analysis, the
 * check started before its scan is submitted (it waits for it), the newest analysis without a
 * commit, and what a Community server answers for a branch or pull request it cannot have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { runActionOn, runCommandOn, taskEnd } from './support/checks.js'
import { sampleRepository, type SampleRepository } from './support/sample-projects.js'
import { scanWithCli } from './support/scanners.js'
import { realServers } from './support/servers.js'
import {
  administrator,
  createProject,
  generateToken,
  type WebApi,
  unique
} from './support/web-api.js'

describe.each(realServers())('SonarQube $version: by project', (server) => {
  const projectKey = unique('find-by-commit')
  let admin: WebApi
  let token: string
  let repository: SampleRepository
  let firstAnalysis: string
  beforeAll(async () => {
    admin = await administrator(server.url)
    // A user token: an analysis token may not browse the project's analyses (403).
    token = await generateToken(admin, 'find', 'USER_TOKEN')
    await createProject(admin, projectKey)
    repository = sampleRepository('cli-python')
    const first = await scanWithCli({
      cwd: repository.root,
      serverUrl: server.url,
      token,
      projectKey
    })
    firstAnalysis = (await taskEnd(admin, first.report['ceTaskId'] ?? '')).task.analysisId ?? ''
  })
  afterAll(() => repository?.remove())

  const env = () => ({ SONAR_TOKEN: token, SONAR_HOST_URL: server.url })

  it('the analysis records its commit, and the command finds it by commit', async () => {
    const head = repository.head()
    const analyses = await admin.get<{ analyses: { key: string; revision?: string }[] }>(
      'api/project_analyses/search',
      { project: projectKey }
    )
    expect(analyses.analyses[0]).toMatchObject({ key: firstAnalysis, revision: head })

    const run = await runCommandOn(
      repository.root,
      ['--project', projectKey, '--commit', head, '--initial-delay', '0', '--json', '-'],
      env()
    )
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`"analysisId": "${firstAnalysis}"`)
  })

  it('started before the scan of a new commit is submitted, the command waits for that analysis', async () => {
    const second = repository.commitSecond()
    const command = runCommandOn(
      repository.root,
      [
        '--project',
        projectKey,
        '--commit',
        second,
        '--initial-delay',
        '0',
        '--timeout',
        '300',
        '--json',
        '-'
      ],
      env(),
      330_000
    )
    await sleep(2_000)
    const scan = await scanWithCli({
      cwd: repository.root,
      serverUrl: server.url,
      token,
      projectKey
    })
    const { task } = await taskEnd(admin, scan.report['ceTaskId'] ?? '')
    const run = await command

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`"analysisId": "${task.analysisId}"`)
  })

  it('the action by projectKey and commit finds the same analysis', async () => {
    const run = await runActionOn(repository.root, {
      sonarToken: token,
      sonarHostUrl: server.url,
      projectKey,
      commit: repository.head(),
      initialDelayMs: '0'
    })
    const analyses = await admin.get<{ analyses: { key: string }[] }>(
      'api/project_analyses/search',
      { project: projectKey }
    )

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.outputs['analysisId']).toBe(analyses.analyses[0]?.key)
  })

  it('without a commit, the newest analysis', async () => {
    const run = await runCommandOn(
      repository.root,
      ['--project', projectKey, '--initial-delay', '0', '--json', '-'],
      env()
    )
    const analyses = await admin.get<{ analyses: { key: string }[] }>(
      'api/project_analyses/search',
      { project: projectKey }
    )

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`"analysisId": "${analyses.analyses[0]?.key}"`)
  })

  it('a branch a Community server cannot have: a clear refusal, no verdict', async () => {
    const run = await runCommandOn(
      repository.root,
      ['--project', projectKey, '--branch', 'feature/x', '--initial-delay', '0', '--timeout', '30'],
      env()
    )
    const server404 = await fetch(
      `${server.url}/api/qualitygates/project_status?projectKey=${projectKey}&branch=feature%2Fx`,
      {
        headers: { authorization: admin.authorization }
      }
    )

    console.info(
      `SonarQube ${server.version}, branch on Community: project_status answers ${server404.status} ${await server404.text()}; the command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(run.exitCode).toBe(3)
  })

  it('a pull request a Community server cannot have: a clear refusal, no verdict', async () => {
    const run = await runCommandOn(
      repository.root,
      ['--project', projectKey, '--pull-request', '7', '--initial-delay', '0', '--timeout', '30'],
      env()
    )

    console.info(
      `SonarQube ${server.version}, pull request on Community: the command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(run.exitCode).toBe(3)
  })
})
