import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Simulator } from '../../__fixtures__/simulator/sonar-simulator.js'
import { json, startLoopbackServer, type LoopbackServer } from '../fault-kit/http-server.js'
import {
  annotations,
  RUNTIMES,
  runAction,
  script,
  TOKEN,
  workspace
} from '../support/action-runs.js'

describe.each(RUNTIMES)('the token, on $runtime', ({ node }) => {
  let simulator: Simulator
  beforeAll(async () => {
    simulator = await Simulator.start({ token: TOKEN })
  })
  afterAll(() => simulator.stop())

  async function check(options: { inputs?: Record<string, string>; env?: Record<string, string> }) {
    const analysis = simulator.addAnalysis(await script('done'))
    const ws = await workspace()
    await simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
    const run = await runAction(ws, { node, ...options })
    const requests = simulator.requests.filter((request) => request.url.includes(analysis.taskId))
    return { run, requests }
  }

  describe('the token goes to the server as its version documents: Bearer from 10.0', () => {
    it('sends it with every request, taken from the sonarToken input', async () => {
      const { run, requests } = await check({ inputs: { sonarToken: TOKEN } })

      expect(run.exitCode).toBe(0)
      expect(requests.length).toBeGreaterThan(0)
      // The simulator's default report says serverVersion=10.7.
      for (const request of requests) expect(request.authorization).toBe(`Bearer ${TOKEN}`)
    })

    it('takes it from the SONAR_TOKEN environment variable when the input is empty', async () => {
      const { run } = await check({ env: { SONAR_TOKEN: TOKEN } })

      expect(run.exitCode).toBe(0)
      expect(run.outputs['status']).toBe('OK')
    })
  })

  it('is masked before the inputs are read: a refused input never shows it unmasked', async () => {
    const ws = await workspace()
    const run = await runAction(ws, {
      node,
      inputs: { sonarToken: TOKEN, failOn: 'WARN' },
      env: { SONAR_TOKEN: '' }
    })
    expect(run.exitCode).toBe(1)
    const lines = run.stdout.split('\n')
    const mask = lines.findIndex((line) => line === `::add-mask::${TOKEN}`)
    const refusal = lines.findIndex((line) => line.startsWith('::error::Input failOn is "WARN"'))
    expect(mask).toBeGreaterThanOrEqual(0)
    expect(refusal).toBeGreaterThan(mask)
  })

  describe('a token the server rejects fails the job with the 401 explanation', () => {
    it('says the token is wrong, expired or revoked', async () => {
      const { run } = await check({
        inputs: { sonarToken: 'squ_wrong0000000000000000000000000000' }
      })

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        expect.stringMatching(
          /^The server rejected the token \(HTTP 401 at http:\/\/127\.0\.0\.1:\d+\/api\/ce\/task\?id=AYTask\d+\), sent with Bearer and Basic authentication: it is wrong, expired or revoked\./
        )
      ])
    })
  })

  describe('no token against a server that needs one fails the job saying none was given', () => {
    it('explains how to give one', async () => {
      const { run, requests } = await check({})

      expect(run.exitCode).toBe(1)
      expect(requests.every((request) => request.authorization === undefined)).toBe(true)
      expect(annotations(run.stdout, 'error')).toEqual([
        expect.stringMatching(
          /^The server requires a token \(HTTP 401 at .*\) and none was given: set the SONAR_TOKEN environment variable or the sonarToken input\.$/
        )
      ])
    })
  })

  describe('the token is never sent to a task address on another origin', () => {
    let other: LoopbackServer
    beforeAll(async () => {
      other = await startLoopbackServer((_, response) =>
        json(response, { task: { id: 'AYTask9999', status: 'PENDING' } })
      )
    })
    afterAll(() => other.close())

    it('refuses a tampered report whose ceTaskUrl points elsewhere, sending nothing there', async () => {
      const analysis = simulator.addAnalysis(await script('done'))
      const ws = await workspace()
      const tampered = simulator
        .reportFile(analysis)
        .replace(/^ceTaskUrl=.*$/m, `ceTaskUrl=${other.url}/api/ce/task?id=${analysis.taskId}`)
      await writeFile(ws.file('report-task.txt'), tampered)

      const run = await runAction(ws, {
        node,
        inputs: { sonarToken: TOKEN, scanMetadataReportFile: 'report-task.txt' }
      })

      expect(run.exitCode).toBe(1)
      expect(annotations(run.stdout, 'error')).toEqual([
        expect.stringMatching(
          `^Refusing to send the token to ${other.url}: the task address is not on the server ${simulator.url}\\.`
        )
      ])
      expect(other.received).toEqual([])
    })
  })
})
