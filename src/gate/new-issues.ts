import { saidOf, ServerRequestError } from '../errors.js'
import { toFinding, type Finding, type FindingContext } from '../findings/finding.js'
import type { SonarClient } from '../sonar/client.js'
import {
  ISSUES_PAGE_SIZE,
  ISSUES_RESULT_WINDOW,
  type IssueScope,
  type SonarIssue
} from '../sonar/issues.js'
import { msg, type Said } from '../words.js'

/**
 * How many issues are read per analysis: 10 pages of 500, well inside the server's own window
 * of 10,000. Past them the count still says how many there are.
 */
export const NEW_ISSUE_LIMITS = { pages: 10, issues: 10 * ISSUES_PAGE_SIZE } as const

/** The analysis's new issues, or why they could not be read. */
export type NewIssues =
  | {
      read: true
      /** Which issues they are: a pull request's, or a branch's new code. */
      scope: IssueScope
      /** The findings read, in the server's order: at most NEW_ISSUE_LIMITS.issues. */
      findings: Finding[]
      /** How many open new issues the server counts in all. */
      total: number
      /** Requests made to read them. */
      requests: number
      /**
       * Set when the findings were narrowed to the lines a pull or merge request changes (a
       * branch analysis on it, as Community Edition makes): which, in words ("pull request #12").
       */
      onLinesOf?: string
    }
  | {
      read: false
      /** One line that says why, and what to do. */
      reason: Said
    }

/**
 * The open new issues of an analysis (see IssueScope), page by page, at most
 * NEW_ISSUE_LIMITS.pages pages: one request per 500 issues. Never throws: a token without the
 * Browse permission (403) or any other failure is a reason, and the verdict stays as it is.
 *
 * @example const issues = await readNewIssues(client, 'shop', { kind: 'new-code', branch: undefined }, context)
 */
export async function readNewIssues(
  client: SonarClient,
  projectKey: string,
  scope: IssueScope,
  context: Omit<FindingContext, 'projectKey'>
): Promise<NewIssues> {
  const issues: SonarIssue[] = []
  const ruleNames = new Map<string, string>()
  let total = 0
  let requests = 0
  try {
    for (let page = 1; page <= NEW_ISSUE_LIMITS.pages; page++) {
      requests++
      const reply = await client.getIssuesPage(projectKey, scope, page)
      issues.push(...reply.issues.slice(0, NEW_ISSUE_LIMITS.issues - issues.length))
      for (const [key, name] of reply.ruleNames) ruleNames.set(key, name)
      total = Math.max(reply.total, issues.length)
      const served = page * ISSUES_PAGE_SIZE
      if (reply.issues.length < ISSUES_PAGE_SIZE || served >= total) break
      if (served >= ISSUES_RESULT_WINDOW || issues.length >= NEW_ISSUE_LIMITS.issues) break
    }
  } catch (error) {
    return { read: false, reason: failureReason(error, issues.length) }
  }
  const full = { ...context, projectKey }
  return {
    read: true,
    scope,
    findings: issues.map((issue) => toFinding(issue, ruleNames, full)),
    total,
    requests
  }
}

function failureReason(error: unknown, readSoFar: number): Said {
  const partly = readSoFar > 0 ? ` (after ${readSoFar} of them)` : ''
  if (error instanceof ServerRequestError && error.status === 403) {
    return `The token may not browse the project's issues (HTTP 403)${partly}: new issues are not shown. Give the token's user the Browse permission on the project to see them.`
  }
  return msg`The new issues could not be read${partly}: ${saidOf(error)}`
}
