/**
 * The SARIF log as Microsoft's SARIF validator judges it: `Sarif.Multitool validate` with GitHub's
 * ingestion rules (what GitHub code scanning needs on top of the specification), and the SDK's
 * own reader (`Sarif.Multitool rewrite`), over a realistic set of findings written to a file.
 *
 * The validator comes from @microsoft/sarif-multitool-linux, an optional dependency built for
 * Linux x64 only: elsewhere these tests are reported skipped with the reason, and with CI set
 * they fail instead. Two facts about the tool shape the checks:
 * - `validate` fetches every URI in the log (rule SARIF2006) unless told not to: the policy file
 *   turns that rule off, so nothing leaves the machine.
 * - A value outside one of SARIF's enumerations (a result `level` of "fatal") makes `validate`
 *   drop everything it found in the file and report success; `rewrite` reads the log into the
 *   SDK's object model, which refuses such a value. Both run, and either one's complaint fails.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { actionSink } from '../../__fixtures__/sinks.js'
import { multitool, problemsOf, ROOT } from '../support/sarif-validator.js'
import { renderSarif } from '../../src/findings/sarif.js'
import {
  scenario,
  Simulator,
  writeSampleFiles
} from '../../__fixtures__/simulator/sonar-simulator.js'
import { analysis, HOSTILE_MESSAGES, serverIssue } from '../support/findings.js'

/**
 * Findings of three analyses as a real step could read them: located code smells with columns,
 * ranges over lines, file-level and line-only issues, vulnerabilities of one rule at two
 * severities, a bug, a finding outside the checkout, a file name to percent-encode, the server's
 * worst text, a server under a base path with credentials in its address, a project read twice
 * and a project without new issues.
 */
function realisticLog(): string {
  const shop = analysis({
    projectKey: 'shop',
    total: 14,
    rules: [
      { key: 'java:S1144', name: 'Unused "private" methods should be removed' },
      {
        key: 'javasecurity:S3649',
        name: 'Database queries should not be vulnerable to injection attacks'
      },
      { key: 'java:S2259', name: 'Null pointers should not be dereferenced' }
    ],
    notInCheckout: ['generated/Parser.java'],
    issues: [
      serverIssue('AY-smell'),
      serverIssue('AY-range', {
        textRange: { startLine: 10, endLine: 14, startOffset: 4, endOffset: 1 }
      }),
      serverIssue('AY-file', { textRange: undefined, line: undefined }),
      serverIssue('AY-line', { textRange: undefined, line: 7 }),
      serverIssue('AY-sqli-1', {
        rule: 'javasecurity:S3649',
        type: 'VULNERABILITY',
        severity: 'BLOCKER',
        impacts: [{ softwareQuality: 'SECURITY', severity: 'BLOCKER' }],
        component: 'shop:src/main/java/shop/Orders.java'
      }),
      serverIssue('AY-sqli-2', {
        rule: 'javasecurity:S3649',
        type: 'VULNERABILITY',
        severity: 'CRITICAL',
        impacts: [{ softwareQuality: 'SECURITY', severity: 'HIGH' }],
        component: 'shop:src/main/java/shop/Orders.java'
      }),
      serverIssue('AY-npe', {
        rule: 'java:S2259',
        type: 'BUG',
        severity: 'MAJOR',
        impacts: [{ softwareQuality: 'RELIABILITY', severity: 'MEDIUM' }]
      }),
      serverIssue('AY-generated', { component: 'shop:generated/Parser.java' }),
      serverIssue('AY-odd-name', {
        component: 'shop:docs/a b#1%.md',
        textRange: undefined,
        line: 1
      }),
      ...Object.values(HOSTILE_MESSAGES).map((message, index) =>
        serverIssue(`AY-hostile-${index}`, { message, rule: `java:S${index}\n::error::x` })
      )
    ]
  })
  const billing = analysis({
    projectKey: 'billing',
    serverUrl: 'https://ci:secret@sonar.example.com/sonar',
    total: 6000,
    issues: [
      serverIssue('BL-1', { project: 'billing', component: 'billing:src/Invoice.ts' }),
      serverIssue('BL-2', {
        project: 'billing',
        component: 'billing:src/Invoice.ts',
        severity: 'INFO',
        impacts: [{ softwareQuality: 'MAINTAINABILITY', severity: 'INFO' }]
      })
    ]
  })
  const quiet = analysis({ projectKey: 'quiet', issues: [] })
  return renderSarif(
    [shop, billing, quiet, shop],
    {
      name: 'SonarQube',
      informationUri: 'https://www.sonarsource.com/products/sonarqube/',
      version: '10.7.0.96327'
    },
    actionSink()
  ).json
}

let folder: string

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'sarif-checkouts-'))
})

afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

describe("Microsoft's SARIF validator, with GitHub's ingestion rules", () => {
  it(
    "finds no error in the built command's --sarif file for a failing gate's 18 issues",
    { timeout: 120_000 },
    async (context) => {
      const binary = multitool(context)
      const simulator = await Simulator.start()
      try {
        const cwd = await mkdtemp(path.join(folder, 'checkout-'))
        const analysis = simulator.addAnalysis({
          ...(await scenario('gate-error')),
          finishAfterMs: 0
        })
        await simulator.writeReportFile(analysis, path.join(cwd, '.scannerwork/report-task.txt'))
        await writeSampleFiles(cwd)
        const exitCode = await new Promise<number | null>((resolve) => {
          execFile(
            process.execPath,
            [
              path.join(ROOT, 'dist/cli.js'),
              '--initial-delay',
              '0',
              '--sarif',
              'out/issues.sarif',
              '--codequality',
              'out/gl-code-quality.json'
            ],
            { cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, timeout: 30_000 },
            (error) => resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0)
          )
        })
        expect(exitCode).toBe(1) // the gate failed; the files are written all the same
        const sarif = await readFile(path.join(cwd, 'out/issues.sarif'), 'utf8')
        const results = (
          JSON.parse(sarif) as { runs: Array<{ results: Array<{ locations: unknown[] }> }> }
        ).runs[0]!.results
        expect(results).toHaveLength(18)
        expect(await problemsOf(binary, sarif)).toEqual([])
        const codeQuality = JSON.parse(
          await readFile(path.join(cwd, 'out/gl-code-quality.json'), 'utf8')
        ) as Array<Record<string, unknown>>
        expect(codeQuality).toHaveLength(18)
        expect(codeQuality[0]).toMatchObject({
          check_name: expect.stringMatching(/^typescript:S\d+$/) as string,
          severity: 'blocker',
          location: {
            path: expect.stringMatching(/^src\//) as string,
            lines: { begin: expect.any(Number) as number }
          }
        })
      } finally {
        await simulator.stop()
      }
    }
  )

  it(
    'finds no error in the log of a realistic set of findings',
    { timeout: 120_000 },
    async (context) => {
      const binary = multitool(context)
      const log = realisticLog()
      expect(JSON.parse(log).runs).toHaveLength(4)
      expect(await problemsOf(binary, log)).toEqual([])
    }
  )

  describe('and it can fail: the same log broken on purpose', () => {
    const broken = (
      change: (log: { runs: Array<{ results: Array<Record<string, unknown>> }> }) => void
    ) => {
      const log = JSON.parse(realisticLog()) as {
        runs: Array<{ results: Array<Record<string, unknown>> }>
      }
      change(log)
      return JSON.stringify(log, null, 2)
    }

    it('a region on line 0 is a schema error', { timeout: 120_000 }, async (context) => {
      const binary = multitool(context)
      const log = broken((sarif) => {
        const location = (
          sarif.runs[0]!.results[0]!['locations'] as Array<{
            physicalLocation: { region: { startLine: number } }
          }>
        )[0]!
        location.physicalLocation.region.startLine = 0
      })
      const problems = await problemsOf(binary, log)
      expect(problems.some((problem) => problem.startsWith('JSON1008'))).toBe(true)
    })

    it(
      'a result without a location is an error by GitHub rules: why unlocated findings are left out',
      { timeout: 120_000 },
      async (context) => {
        const binary = multitool(context)
        const log = broken((sarif) => {
          delete sarif.runs[0]!.results[0]!['locations']
        })
        const problems = await problemsOf(binary, log)
        expect(problems.some((problem) => problem.startsWith('GH1015'))).toBe(true)
      }
    )

    it(
      'a level outside error, warning, note and none is refused',
      { timeout: 120_000 },
      async (context) => {
        const binary = multitool(context)
        const log = broken((sarif) => {
          sarif.runs[1]!.results[0]!['level'] = 'fatal'
        })
        expect(await problemsOf(binary, log)).not.toEqual([])
      }
    )
  })
})
