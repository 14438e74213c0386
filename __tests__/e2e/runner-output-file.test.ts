import { mkdir, rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  annotations,
  RUNTIMES,
  runAction,
  script,
  TOKEN,
  workspace,
  simulatedServer
} from '../support/action-runs.js'

describe.each(RUNTIMES)("the runner's output file (GITHUB_OUTPUT), on $runtime", ({ node }) => {
  const server = simulatedServer(node)

  /** The action on a passing analysis, with GITHUB_OUTPUT made unusable by `spoil`. */
  async function passingGateWith(spoil: (outputFile: string) => Promise<unknown>) {
    const analysis = server.simulator.addAnalysis(await script('done'))
    const ws = await workspace()
    await server.simulator.writeReportFile(analysis, ws.file('.scannerwork/report-task.txt'))
    await spoil(ws.outputFile)
    const run = await runAction(ws, { node, inputs: { sonarToken: TOKEN } })
    return { run, outputFile: ws.outputFile }
  }

  it('naming a file that does not exist: the failure says it is GITHUB_OUTPUT, what is wrong, and that the gate passed', async () => {
    const { run, outputFile } = await passingGateWith((file) => rm(file))

    expect(run.exitCode).toBe(1)
    const [failure, ...more] = annotations(run.stdout, 'error')
    expect(more).toEqual([])
    expect(failure).toContain(
      `The runner's output file (GITHUB_OUTPUT) could not be written: ${outputFile} does not exist.`
    )
    expect(failure).toContain('The Quality Gate itself passed (OK)')
    expect(failure).not.toMatch(/^Missing file at path/)
    // The summary still tells the gate's own verdict.
    expect(run.summary).toContain('Quality Gate passed')
  })

  it('naming a directory: the failure says so', async () => {
    const { run, outputFile } = await passingGateWith((file) => rm(file).then(() => mkdir(file)))

    expect(run.exitCode).toBe(1)
    const [failure] = annotations(run.stdout, 'error')
    expect(failure).toContain(
      `The runner's output file (GITHUB_OUTPUT) could not be written: ${outputFile} is a directory.`
    )
    expect(failure).toContain('The Quality Gate itself passed (OK)')
  })
})
