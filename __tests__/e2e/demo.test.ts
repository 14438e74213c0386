/**
 * The demo (`npm run demo`, scripts/demo.ts) is a newcomer's first run: it must show what the
 * product sells. Its runs happen in a checkout that holds the files the simulated issues are in,
 * so the failing analysis's new issues are annotated on their files, and the command writes them
 * to SARIF and GitLab Code Quality, none left out for want of a file.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** The demo as `npm run demo` runs it (tsx), to its end: exit code and standard output. */
function runDemo(): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit']
    })
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout }))
  })
}

/** The lines of one of the demo's sections (its title, then lines indented by two spaces). */
function sectionOf(stdout: string, title: string): string[] {
  const lines = stdout.split('\n')
  const start = lines.findIndex((line) => line.startsWith(title))
  expect(start, `the section "${title}"`).toBeGreaterThanOrEqual(0)
  const body = lines.slice(start + 1)
  const end = body.findIndex((line) => line !== '' && !line.startsWith('  '))
  return body
    .slice(0, end === -1 ? undefined : end)
    .filter((line) => line !== '')
    .map((line) => line.slice(2))
}

describe('npm run demo shows the new issues where a developer looks', () => {
  let demo: { code: number | null; stdout: string }
  beforeAll(async () => {
    demo = await runDemo()
  }, 180_000)

  it('ends 0, every run as expected', () => {
    expect(demo.code).toBe(0)
    expect(demo.stdout).toContain('Every run ended as expected.')
  })

  it("the failing analysis's new issues are annotated on their files in the checkout", () => {
    expect(demo.stdout).toMatch(/✗ Error: src\/(app|db\/query|routes\/orders)\.ts:\d+ \[BLOCKER/)
  })

  it.each([
    ['SARIF', 'reports/sonar-issues.sarif', 'SARIF (reports/sonar-issues.sarif)'],
    [
      'GitLab Code Quality',
      'reports/gl-code-quality-report.json',
      'GitLab Code Quality (reports/gl-code-quality-report.json)'
    ]
  ])(
    'the command writes every new issue as %s, none left out, each on a file of the checkout',
    (format, file, title) => {
      const wrote = new RegExp(`Wrote (\\d+) new issues as ${format} to ${file}(.*)$`, 'm').exec(
        demo.stdout
      )
      expect(wrote?.[0]).toBeDefined()
      expect(Number(wrote![1])).toBeGreaterThan(0)
      expect(wrote![2]).toBe('.')
      const [count, ...findings] = sectionOf(demo.stdout, title)
      expect(count).toBe(`${wrote![1]} new issues`)
      const shown = findings.filter((line) => !line.startsWith('…'))
      expect(shown.length).toBeGreaterThan(0)
      for (const line of shown) expect(line).toMatch(/^web\/src\/\S+\.ts:\d+ {2}\S/)
    }
  )
})
