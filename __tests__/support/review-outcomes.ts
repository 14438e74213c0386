/**
 * What the platforms' decoration tests share: an issue on one line of a file, a project's
 * outcome on a pull request (or a branch) with its gate and its new issues, and a patch adding
 * (patchAdding, from the GitHub fake) lines.
 */
import type { AnalysisOutcome } from '../../src/gate/outcome.js'
import { gateResult } from '../unit/summary-gate-result.js'
import { analysis, serverIssue } from './findings.js'

export { patchAdding } from '../../__fixtures__/github/fake-github.js'

/** An issue of project shop of `severity` on `file` at `line`, as the server sends it. */
export function lineIssue(
  key: string,
  file: string,
  line: number,
  severity = 'MAJOR',
  message?: string
): Record<string, unknown> {
  return serverIssue(key, {
    component: `shop:${file}`,
    line,
    textRange: { startLine: line, endLine: line, startOffset: 0, endOffset: 5 },
    severity,
    impacts: [],
    ...(message === undefined ? {} : { message })
  })
}

/**
 * The outcome of project shop: its gate and its new issues, of pull request `pullRequest` or
 * of the branch feature/login.
 */
export function shopOutcome(
  status: 'OK' | 'ERROR',
  issues: Record<string, unknown>[],
  {
    scope = 'pull-request',
    pullRequest = '42'
  }: { scope?: 'pull-request' | 'new-code'; pullRequest?: string } = {}
): AnalysisOutcome {
  const { findings, total } = analysis({
    issues: issues.map((one) => ({ ...one, component: String(one['component']) })),
    projectKey: 'shop'
  })
  return {
    read: true,
    source: 'report-task.txt',
    result: gateResult({
      projectKey: 'shop',
      status,
      ...(status === 'OK' ? { conditions: [] } : {}),
      ...(scope === 'pull-request' ? { pullRequest } : { branch: 'feature/login' }),
      newIssues: {
        read: true,
        scope:
          scope === 'pull-request'
            ? { kind: 'pull-request', pullRequest }
            : { kind: 'new-code', branch: 'feature/login' },
        findings: findings.map((finding) => ({ ...finding, file: finding.serverPath })),
        total,
        requests: 1
      }
    })
  }
}
