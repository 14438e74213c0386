/**
 * A monorepo of two Python projects analysed by the scanner CLI in a git repository: `app/`, a
 * private project analysed twice, read every way a user reads it: by the report file and by
 * project and commit (the check started before its scan is submitted waits for it), the passing
 * gate as the scanner's own `sonar.qualitygate.wait` says it, what a Community server answers for
 * a branch or pull request it cannot have, and each kind of token with what it may and may not
 * read; `lib/`, analysed once, whose gate fails, read beside `app/` through one glob. Three
 * analyses serve every test: the tests run in order, and the last takes Browse away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { annotations } from '../support/action-runs.js'
import { linksTo, runActionOn, runCommandOn, statusesOf, taskEnd } from './support/checks.js'
import { sampleRepository, type SampleRepository } from './support/sample-projects.js'
import { scanWithCli, type Scan } from './support/scanners.js'
import { realServers } from './support/servers.js'
import {
  administrator,
  createGate,
  createProject,
  createUser,
  generateToken,
  removeGroupPermissions,
  WebApi,
  type TokenType,
  unique
} from './support/web-api.js'

describe.each(realServers())('SonarQube $version: a private Python project', (server) => {
  const projectKey = unique('python-app')
  const libKey = unique('python-lib')
  let admin: WebApi
  /** A user token of the administrator: an analysis token may not browse analyses (403). */
  let userToken: string
  /** The global analysis token the scanner submits with. */
  let analysisToken: string
  let repository: SampleRepository
  /** `app/`, where the private project's report file is. */
  let app: string
  let firstAnalysis: string
  /** The second analysis, by the scanner waiting for its gate (the peer). */
  let peer: Scan | undefined
  let secondAnalysis: string | undefined
  beforeAll(async () => {
    admin = await administrator(server.url)
    userToken = await generateToken(admin, 'python-user', 'USER_TOKEN')
    analysisToken = await generateToken(admin, 'python-scan', 'GLOBAL_ANALYSIS_TOKEN')
    await createProject(admin, projectKey, 'private')
    await createGate(
      admin,
      'Passes',
      [{ metric: 'new_violations', op: 'GT', error: '100' }],
      projectKey
    )
    // lib's gate fails on its 36 lines of code. (The sample's first revision has no issue for a
    // gate to fail on on every server: 10.7 and 26.9 found none.)
    await createProject(admin, libKey)
    await createGate(
      admin,
      'Ten lines at most',
      [{ metric: 'ncloc', op: 'GT', error: '10' }],
      libKey
    )
    repository = sampleRepository('cli-python', ['app', 'lib'])
    app = path.join(repository.root, 'app')
    const first = await scanWithCli({
      cwd: app,
      serverUrl: server.url,
      version: server.version,
      token: analysisToken,
      projectKey
    })
    const lib = await scanWithCli({
      cwd: path.join(repository.root, 'lib'),
      serverUrl: server.url,
      version: server.version,
      token: analysisToken,
      projectKey: libKey
    })
    firstAnalysis = (await taskEnd(admin, first.report['ceTaskId'] ?? '')).task.analysisId ?? ''
    await taskEnd(admin, lib.report['ceTaskId'] ?? '')
  })
  afterAll(() => repository?.remove())

  const byProject = () => ({ SONAR_TOKEN: userToken, SONAR_HOST_URL: server.url })
  /** The command on the report file, with `token`. */
  const checkReport = (token: string) =>
    runCommandOn(app, ['--initial-delay', '0', '--timeout', '60'], {
      SONAR_TOKEN: token
    })

  it('the analysis records its commit, and the command finds it by commit', async () => {
    const head = repository.head()
    const analyses = await admin.get<{ analyses: { key: string; revision?: string }[] }>(
      'api/project_analyses/search',
      { project: projectKey }
    )
    expect(analyses.analyses[0]).toMatchObject({ key: firstAnalysis, revision: head })

    const run = await runCommandOn(
      app,
      ['--project', projectKey, '--commit', head, '--initial-delay', '0', '--json', '-'],
      byProject()
    )
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`"analysisId": "${firstAnalysis}"`)
  })

  it('started before the scan of a new commit is submitted, the command waits for that analysis', async () => {
    const second = repository.commitSecond()
    const command = runCommandOn(
      app,
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
      byProject(),
      330_000
    )
    await sleep(2_000)
    peer = await scanWithCli({
      cwd: app,
      serverUrl: server.url,
      version: server.version,
      token: analysisToken,
      projectKey,
      properties: { 'sonar.qualitygate.wait': 'true', 'sonar.qualitygate.timeout': '300' }
    })
    const { task } = await taskEnd(admin, peer.report['ceTaskId'] ?? '')
    secondAnalysis = task.analysisId
    const run = await command

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`"analysisId": "${secondAnalysis}"`)
  })

  it("the scanner's own wait passes the gate", () => {
    expect(peer?.exitCode).toBe(0)
    expect(peer?.output).toContain('QUALITY GATE STATUS: PASSED')
  })

  it('the action on the report file exits 0 with status OK, as the scanner, and every link answered 200', async () => {
    const run = await runActionOn(app, {
      sonarToken: analysisToken,
      initialDelayMs: '0'
    })

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(annotations(run.stdout, 'error')).toEqual([])
    expect(run.outputs['status']).toBe('OK')
    expect(run.outputs['quality-gate-status']).toBe('PASSED')
    expect(run.outputs['analysisId']).toBe(secondAnalysis)
    expect(run.summary).toContain('Quality Gate passed')
    const links = linksTo(server.url, [run.summary, ...Object.values(run.outputs), run.stdout])
    expect(links.length).toBeGreaterThan(0)
    const statuses = await statusesOf(admin, links)
    expect(statuses).toEqual(Object.fromEntries(links.map((link) => [link, 200])))
  })

  it('the command on the report file exits 0', async () => {
    const run = await checkReport(analysisToken)

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout + run.stderr).toContain('Quality Gate status: OK')
  })

  it('the monorepo through one glob: the action reads both report files, lib fails, app passes', async () => {
    const run = await runActionOn(repository.root, {
      sonarToken: analysisToken,
      scanMetadataReportFile: '*/.scannerwork/report-task.txt',
      initialDelayMs: '0'
    })
    const results = JSON.parse(run.outputs['results'] ?? '[]') as {
      projectKey: string
      status: string
    }[]

    expect(run.exitCode, run.stdout + run.stderr).toBe(1)
    expect(results.map((result) => [result.projectKey, result.status]).sort()).toEqual([
      [projectKey, 'OK'],
      [libKey, 'ERROR']
    ])
  })

  it('the monorepo through one glob: the command the same', async () => {
    const run = await runCommandOn(
      repository.root,
      ['--report', '*/.scannerwork/report-task.txt', '--initial-delay', '0'],
      { SONAR_TOKEN: analysisToken }
    )

    expect(run.exitCode, run.stdout + run.stderr).toBe(1)
    expect(run.stdout + run.stderr).toContain(`Quality Gate Failure for ${libKey}`)
  })

  it('the action by projectKey and commit finds the same analysis', async () => {
    const run = await runActionOn(app, {
      sonarToken: userToken,
      sonarHostUrl: server.url,
      projectKey,
      commit: repository.head(),
      initialDelayMs: '0'
    })

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.outputs['analysisId']).toBe(secondAnalysis)
  })

  it('without a commit, the newest analysis', async () => {
    const run = await runCommandOn(
      app,
      ['--project', projectKey, '--initial-delay', '0', '--json', '-'],
      byProject()
    )

    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`"analysisId": "${secondAnalysis}"`)
  })

  it('a branch a Community server cannot have: a clear refusal, no verdict', async () => {
    const run = await runCommandOn(
      app,
      ['--project', projectKey, '--branch', 'feature/x', '--initial-delay', '0', '--timeout', '30'],
      byProject()
    )
    const answer = await fetch(
      `${server.url}/api/qualitygates/project_status?projectKey=${projectKey}&branch=feature%2Fx`,
      { headers: { authorization: admin.authorization } }
    )

    console.info(
      `SonarQube ${server.version}, branch on Community: project_status answers ${answer.status} ${await answer.text()}; the command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(run.exitCode).toBe(3)
  })

  it('a pull request a Community server cannot have: a clear refusal, no verdict', async () => {
    const run = await runCommandOn(
      app,
      ['--project', projectKey, '--pull-request', '7', '--initial-delay', '0', '--timeout', '30'],
      byProject()
    )

    console.info(
      `SonarQube ${server.version}, pull request on Community: the command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(run.exitCode).toBe(3)
  })

  it.each<TokenType>(['USER_TOKEN', 'GLOBAL_ANALYSIS_TOKEN', 'PROJECT_ANALYSIS_TOKEN'])(
    'a %s of the administrator reads the verdict of the report file',
    async (type) => {
      const token = await generateToken(
        admin,
        type.toLowerCase(),
        type,
        type === 'PROJECT_ANALYSIS_TOKEN' ? { projectKey } : {}
      )
      const run = await checkReport(token)

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
        app,
        ['--project', projectKey, '--initial-delay', '0', '--timeout', '60'],
        { SONAR_TOKEN: token, SONAR_HOST_URL: server.url }
      )

      expect(run.exitCode, run.stdout + run.stderr).toBe(3)
      expect(run.stdout + run.stderr).toContain('Use a user token (squ_…')
    }
  )

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

  // Last: it takes Browse on the project away from every user but the administrator.
  // The server gives such a user the task and the gate (every user holds Execute Analysis through
  // sonar-users), refuses it the measures or hotspots (403), and answers its issues search with
  // none: the command gives the verdict, and says the new issues are not known, not that there are
  // none.
  it('a user without Browse on the private project: the verdict, and new issues not known', async () => {
    const login = unique('no-browse')
    await createUser(admin, login, 'No-Browse-Password-1')
    // Every user is in sonar-users, which the default template gives Browse on new projects.
    await removeGroupPermissions(admin, 'sonar-users', projectKey, ['user', 'codeviewer'])
    const user = new WebApi(server.url, { login, password: 'No-Browse-Password-1' })
    const token = await generateToken(user, 'no-browse', 'USER_TOKEN')
    const run = await checkReport(token)

    console.info(
      `SonarQube ${server.version}, a token without Browse: the command exited ${run.exitCode}:\n${run.stdout}${run.stderr}`
    )
    expect(run.exitCode, run.stdout + run.stderr).toBe(0)
    expect(run.stdout + run.stderr).toContain('New issues: not known.')
    expect(run.stdout + run.stderr).not.toContain('New issues: 0')
    expect(run.stdout + run.stderr).not.toContain(token)
  })
})
