import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Simulator } from '../../__fixtures__/simulator/sonar-simulator.js'
import {
  annotations,
  RUNTIMES,
  runAction,
  script,
  TOKEN,
  workspace
} from '../support/action-runs.js'
import { renderAsGitHub } from '../support/summary-as-github.js'

describe.each(RUNTIMES)('finding the analysis to check, on $runtime', ({ node }) => {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())

  const requestsFor = (id: string) =>
    simulator.requests.filter((request) => request.url.includes(id))

  describe('without scanMetadataReportFile, the report file is searched where scanners write it', () => {
    it("finds Maven's target/sonar/report-task.txt in the working directory", async () => {
      const analysis = simulator.addAnalysis(await script('done'))
      const ws = await workspace()
      await simulator.writeReportFile(analysis, ws.file('target/sonar/report-task.txt'))

      const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })

      expect(run.exitCode).toBe(0)
      expect(run.outputs['taskId']).toBe(analysis.taskId)
    })

    it('fails listing the four scanner locations when there is none', async () => {
      const ws = await workspace()

      const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })

      expect(run.exitCode).toBe(1)
      const [error] = annotations(run.stdout, 'error')
      expect(error).toMatch(/^No report file found: looked for /)
      for (const location of [
        '.scannerwork/report-task.txt (sonar-scanner CLI and the scan actions)',
        'target/sonar/report-task.txt (Maven)',
        'build/sonar/report-task.txt (Gradle)',
        '.sonarqube/out/.sonar/report-task.txt (SonarScanner for .NET)'
      ]) {
        expect(error).toContain(location)
      }
      expect(renderAsGitHub(run.summary).of('h2')[0]?.text).toBe('❌ Quality Gate check failed')
    })
  })

  describe('scanMetadataReportFile names the report file, relative to the working directory', () => {
    it('reads the file it names', async () => {
      const analysis = simulator.addAnalysis(await script('done'))
      const ws = await workspace()
      await simulator.writeReportFile(analysis, ws.file('sub/project/report-task.txt'))

      const run = await runAction(ws, {
        node,
        inputs: { sonarToken: TOKEN, scanMetadataReportFile: 'sub/project/report-task.txt' }
      })

      expect(run.exitCode).toBe(0)
      expect(run.outputs['analysisId']).toBe(analysis.analysisId)
    })
  })

  describe('taskId with sonarHostUrl checks a task without any report file', () => {
    it('waits for the task at <host>/api/ce/task and reads its gate', async () => {
      const analysis = simulator.addAnalysis(await script('done'))
      const ws = await workspace()

      const run = await runAction(ws, {
        node,
        inputs: { sonarToken: TOKEN, taskId: analysis.taskId, sonarHostUrl: simulator.url }
      })

      expect(run.exitCode).toBe(0)
      expect(run.outputs).toMatchObject({
        status: 'OK',
        taskId: analysis.taskId,
        analysisId: analysis.analysisId,
        dashboardUrl: `${simulator.url}/dashboard?id=demo-project`
      })
      expect(requestsFor(analysis.taskId)[0]?.url).toBe(`/api/ce/task?id=${analysis.taskId}`)
    })
  })

  describe('analysisId with sonarHostUrl reads the gate directly, without a task', () => {
    it('asks only for the gate and leaves the taskId output empty', async () => {
      const analysis = simulator.addAnalysis(await script('gate-warn'))
      const ws = await workspace()

      const run = await runAction(ws, {
        node,
        inputs: { sonarToken: TOKEN, analysisId: analysis.analysisId },
        env: { SONAR_HOST_URL: simulator.url }
      })

      expect(run.exitCode).toBe(0)
      expect(run.outputs).toMatchObject({
        status: 'WARN',
        analysisId: analysis.analysisId,
        taskId: ''
      })
      expect(requestsFor(analysis.analysisId).map((request) => request.url)).toEqual([
        `/api/qualitygates/project_status?analysisId=${analysis.analysisId}`
      ])
      expect(requestsFor(analysis.taskId)).toEqual([])
    })
  })
})
