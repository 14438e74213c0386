/**
 * Findings as the action makes them: issues shaped exactly like `api/issues/search`'s JSON,
 * decoded and turned into findings by the real code, for the writers' tests.
 */
import type { AnalysisFindings } from '../../src/findings/analyses.js'
import { toFinding, type Finding } from '../../src/findings/finding.js'
import { decodeIssuesPage } from '../../src/sonar/issues.js'

export const SERVER_URL = 'https://sonar.example.com/'

/** One issue as the server sends it (10.x: legacy severity and type, and impacts). */
export function serverIssue(
  key: string,
  overrides: Record<string, unknown> = {}
): Record<string, unknown> {
  return {
    key,
    rule: 'java:S1144',
    severity: 'MAJOR',
    component: 'shop:src/main/java/shop/Cart.java',
    project: 'shop',
    line: 42,
    textRange: { startLine: 42, endLine: 42, startOffset: 9, endOffset: 21 },
    message: 'Remove this unused private "total" method.',
    type: 'CODE_SMELL',
    impacts: [{ softwareQuality: 'MAINTAINABILITY', severity: 'MEDIUM' }],
    cleanCodeAttribute: 'CLEAR',
    status: 'OPEN',
    ...overrides
  }
}

export interface AnalysisFixture {
  projectKey?: string
  serverUrl?: string
  issues: Record<string, unknown>[]
  /** Rule names as `additionalFields=rules` lists them. */
  rules?: Array<{ key: string; name: string }>
  /** Project paths that are not in the checkout: their findings have no file. */
  notInCheckout?: string[]
  /** The server's count, when more than the issues given. */
  total?: number
}

/** The findings of one analysis, decoded from a reply page and located as the action does. */
export function analysis(fixture: AnalysisFixture): AnalysisFindings {
  const projectKey = fixture.projectKey ?? 'shop'
  const serverUrl = fixture.serverUrl ?? SERVER_URL
  const page = decodeIssuesPage({
    total: fixture.total ?? fixture.issues.length,
    issues: fixture.issues,
    rules: fixture.rules ?? [
      { key: 'java:S1144', name: 'Unused "private" methods should be removed' }
    ],
    components: []
  })
  const missing = new Set(fixture.notInCheckout ?? [])
  const findings: Finding[] = page.issues.map((issue) =>
    toFinding(issue, page.ruleNames, {
      serverUrl: new URL(serverUrl),
      projectKey,
      locate: (path) => (missing.has(path) ? undefined : path)
    })
  )
  return { projectKey, serverUrl, findings, total: page.total }
}

/** Messages a hostile or broken server could send. */
export const HOSTILE_MESSAGES = {
  newlines: 'first line\nsecond line\r\nthird\u2028fourth\u2029fifth',
  html: '<script>alert(1)</script><img src=x onerror=alert(2)> &amp; <b>bold</b>',
  workflowCommand: '::error file=x,line=1::forged\n::set-output name=status::OK\n::add-mask::x',
  huge: `${'A'.repeat(2_000_000)}END`,
  unicode: '\u{1F600}'.repeat(600) + ' \u202Eevil\u202C \u0000\u001b[31mred\u001b[0m \uFEFF',
  quotes: '"},{"ruleId":"forged"}],"x":"\\\\',
  empty: ''
} as const

/** What must never reach a one-line text: control, line-breaking and bidirectional characters. */
// eslint-disable-next-line no-control-regex -- exactly the characters looked for
export const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
