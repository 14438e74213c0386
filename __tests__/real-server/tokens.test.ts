/**
 * Tokens on a real server: a user token, a global analysis token and a project analysis token,
 * each reading one analysis of a private project; a user without Browse (the server's refusal and
 * our message); the Authorization schemes each server takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCommandOn, taskEnd } from './support/checks.js'
import { sampleRepository, type SampleRepository } from './support/sample-projects.js'
import { scanWithCli } from './support/scanners.js'
import { realServers } from './support/servers.js'
import {
  administrator,
  createProject,
  createUser,
  generateToken,
  WebApi,
  type TokenType,
  unique
} from './support/web-api.js'

describe.each(realServers())('SonarQube $version: tokens', (server) => {
  const projectKey = unique('tokens-private')
  let admin: WebApi
  let repository: SampleRepository
  beforeAll(async () => {
    admin = await administrator(server.url)
    await createProject(admin, projectKey, 'private')
    repository = sampleRepository('cli-python')
    const token = await generateToken(admin, 'scan', 'GLOBAL_ANALYSIS_TOKEN')
    const scan = await scanWithCli({
      cwd: repository.root,
      serverUrl: server.url,
      token,
      projectKey
    })
    await taskEnd(admin, scan.report['ceTaskId'] ?? '')
  })
  afterAll(() => repository?.remove())

  const check = (token: string) =>
    runCommandOn(repository.root, ['--initial-delay', '0', '--timeout', '60'], {
      SONAR_TOKEN: token
    })

  it.each<TokenType>(['USER_TOKEN', 'GLOBAL_ANALYSIS_TOKEN', 'PROJECT_ANALYSIS_TOKEN'])(
    'a %s of the administrator reads the verdict',
    async (type) => {
      const token = await generateToken(
        admin,
        type.toLowerCase(),
        type,
        type === 'PROJECT_ANALYSIS_TOKEN' ? { projectKey } : {}
      )
      const run = await check(token)

      expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    }
  )

  it.each<TokenType>(['GLOBAL_ANALYSIS_TOKEN', 'PROJECT_ANALYSIS_TOKEN'])(
    'a %s may not check by project: the server refuses it what needs Browse, and the command says to use a user token',
    async (type) => {
      const token = await generateToken(
        admin,
        `${type.toLowerCase()}-by-project`,
        type,
        type === 'PROJECT_ANALYSIS_TOKEN' ? { projectKey } : {}
      )
      const run = await runCommandOn(
        repository.root,
        ['--project', projectKey, '--initial-delay', '0', '--timeout', '60'],
        { SONAR_TOKEN: token, SONAR_HOST_URL: server.url }
      )

      expect(run.exitCode, run.stdout + run.stderr).toBe(3)
      expect(run.stdout + run.stderr).toContain('Use a user token (squ_…')
    }
  )

  it('a user without Browse on the private project: the server refuses, and the command says what to do', async () => {
    const login = unique('no-browse')
    await createUser(admin, login, 'No-Browse-Password-1')
    const user = new WebApi(server.url, { login, password: 'No-Browse-Password-1' })
    const token = await generateToken(user, 'no-browse', 'USER_TOKEN')
    const run = await check(token)

    console.info(
      `SonarQube ${server.version}, a token without Browse: the command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(run.exitCode).toBe(3)
    expect(run.stdout + run.stderr).not.toContain(token)
  })

  it('which Authorization schemes the server takes for a token', async () => {
    const token = await generateToken(admin, 'schemes', 'USER_TOKEN')
    const answer = async (authorization: string) =>
      (
        await fetch(`${server.url}/api/authentication/validate`, { headers: { authorization } })
      ).json()
    const basic = await answer(`Basic ${Buffer.from(`${token}:`).toString('base64')}`)
    const bearer = await answer(`Bearer ${token}`)

    console.info(
      `SonarQube ${server.version}: Basic ${JSON.stringify(basic)}, Bearer ${JSON.stringify(bearer)}`
    )
    expect(basic).toEqual({ valid: true })
    expect(bearer).toEqual({ valid: Number(server.version.split('.')[0]) >= 10 })
  })
})
