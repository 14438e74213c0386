/**
 * `api/issues/search` as the action reads it: which parameters each server generation takes for
 * "the open issues of this analysis's new code", and the decoder that checks a reply page.
 * Facts from the server's own web service changelog:
 * - `componentKeys` was renamed `components` in 10.2 (the old name stays a deprecated key), and
 *   a server before 10.2 ignores `components`, which would return every project's issues: the
 *   new name only to servers known to be 10.2 or later.
 * - `sinceLeakPeriod` was deprecated in 9.4 for `inNewCodePeriod` and removed in 10.0, where it
 *   would be ignored (all the branch's issues): the old name only to servers known to be older
 *   than 9.4, and to SonarQube Cloud, whose API keeps it.
 * - `resolved=false` (open issues) is in every generation; `statuses`/`resolutions` were
 *   deprecated in 10.4 for `issueStatuses`, which older servers do not know.
 * - `severity` and `type` are deprecated in 10.4 for `impacts` (10.2+): both are read.
 * - `ps` is at most 500, and no page past the 10,000th result is served.
 */
import { idProblem } from '../identifier.js'
import { atLeast, type ServerKind } from './server-kind.js'
import {
  expectList,
  isObject,
  lineNumber,
  optionalCount,
  safeInteger,
  text,
  WORD,
  type Json
} from './types.js'

/** The largest page api/issues/search serves, and the last result it serves at all. */
export const ISSUES_PAGE_SIZE = 500
export const ISSUES_RESULT_WINDOW = 10_000

/** Which issues of the project are the analysis's new ones. */
export type IssueScope =
  /** The analysis is of a pull request: all its open issues are new. */
  | { kind: 'pull-request'; pullRequest: string }
  /** Of a branch (undefined: the main branch): its open issues in the new code period. */
  | { kind: 'new-code'; branch: string | undefined }

/** A location inside a file, as the server gives it (1-based lines, 0-based offsets). */
interface TextRange {
  startLine: number
  endLine: number
  startOffset: number | undefined
  endOffset: number | undefined
}

/** One issue as the server sends it, its fields checked and bounded in kind (not in length). */
export interface SonarIssue {
  key: string
  /** `repository:rule`, e.g. `java:S1144`. */
  rule: string
  message: string
  /** The component (file) key, e.g. `my-project:src/main/Foo.java`. */
  component: string
  /** The file's path in the project, from the reply's `components` (or else the key). */
  path: string | undefined
  line: number | undefined
  textRange: TextRange | undefined
  /** BLOCKER, CRITICAL, MAJOR, MINOR, INFO (deprecated in 10.4, still sent). */
  severity: string | undefined
  /** BUG, VULNERABILITY, CODE_SMELL (deprecated in 10.4, still sent). */
  type: string | undefined
  /** 10.2+: each software quality it hurts, with a severity (HIGH, MEDIUM, LOW; BLOCKER, INFO from 10.8). */
  impacts: Array<{ softwareQuality: string; severity: string }>
  /** 10.2+: the clean code attribute (e.g. CONVENTIONAL). */
  cleanCodeAttribute: string | undefined
}

/** One page of the reply: its issues, the rules' names and how many issues match in all. */
export interface IssuesPage {
  issues: SonarIssue[]
  /** Rule names by key, from `additionalFields=rules`. */
  ruleNames: Map<string, string>
  total: number
}

/**
 * The query of one page: the project (and branch or pull request), open issues only, new ones
 * only, with the rules' names, in each generation's parameter names.
 *
 * @example issuesQuery('shop', { kind: 'new-code', branch: 'main' }, { cloud: false, version: [10, 7] }, 1).toString()
 * // 'components=shop&resolved=false&ps=500&p=1&additionalFields=rules&branch=main&inNewCodePeriod=true'
 */
export function issuesQuery(
  projectKey: string,
  scope: IssueScope,
  kind: ServerKind,
  page: number
): URLSearchParams {
  const components = !kind.cloud && atLeast(kind, 10, 2) ? 'components' : 'componentKeys'
  const query = new URLSearchParams({
    [components]: projectKey,
    resolved: 'false',
    ps: String(ISSUES_PAGE_SIZE),
    p: String(page),
    additionalFields: 'rules'
  })
  const olderThan94 = kind.version !== undefined && !atLeast(kind, 9, 4)
  return withScope(query, scope, kind.cloud || olderThan94 ? 'sinceLeakPeriod' : 'inNewCodePeriod')
}

/**
 * The query narrowed to the scope: a pull request's own (all new by definition), or the
 * branch's new code, asked with `newCode`, the parameter the server's generation reads.
 */
export function withScope(
  query: URLSearchParams,
  scope: IssueScope,
  newCode: 'sinceLeakPeriod' | 'inNewCodePeriod'
): URLSearchParams {
  if (scope.kind === 'pull-request') {
    query.set('pullRequest', scope.pullRequest)
    return query
  }
  if (scope.branch !== undefined) query.set('branch', scope.branch)
  query.set(newCode, 'true')
  return query
}

/** Severity and type words: upper case, short; anything else is dropped. */
const word = (value: unknown): string | undefined => {
  const found = text(value)
  return found !== undefined && WORD.test(found) ? found : undefined
}

/**
 * Decodes one page of `GET api/issues/search`. An issue without a key, rule, message or
 * component is skipped (the reply is still used); a reply without `issues` is not the server's.
 * `total` is `paging.total` (9.8+) or the deprecated top-level `total`.
 */
export function decodeIssuesPage(body: unknown): IssuesPage {
  expectList(body, 'issues')
  const paths = byKey(body['components'], 'path')
  const ruleNames = byKey(body['rules'], 'name')
  const paging = isObject(body['paging']) ? body['paging'] : {}
  const total = safeInteger(paging['total']) ?? safeInteger(body['total'])
  const decoded = body.issues.filter(isObject).flatMap((issue) => decodeIssue(issue, paths))
  return { issues: decoded, ruleNames, total: Math.max(0, total ?? decoded.length) }
}

function decodeIssue(issue: Json, paths: Map<string, string>): SonarIssue[] {
  const [key, rule, message, component] = ['key', 'rule', 'message', 'component'].map((name) =>
    text(issue[name])
  )
  if (!key || idProblem(key) || !rule || message === undefined || !component) return []
  const project = text(issue['project'])
  const fromKey =
    project !== undefined && component.startsWith(`${project}:`)
      ? component.slice(project.length + 1)
      : undefined
  return [
    {
      key,
      rule,
      message,
      component,
      path: paths.get(component) ?? fromKey,
      line: lineNumber(issue['line']),
      textRange: decodeTextRange(issue['textRange']),
      severity: word(issue['severity']),
      type: word(issue['type']),
      impacts: arrayOf(issue['impacts']).flatMap((impact) => {
        const [quality, severity] = [word(impact['softwareQuality']), word(impact['severity'])]
        return quality && severity ? [{ softwareQuality: quality, severity }] : []
      }),
      cleanCodeAttribute: word(issue['cleanCodeAttribute'])
    }
  ]
}

function decodeTextRange(value: unknown): TextRange | undefined {
  if (!isObject(value)) return undefined
  const startLine = lineNumber(value['startLine'])
  const endLine = lineNumber(value['endLine'])
  if (startLine === undefined || endLine === undefined || endLine < startLine) return undefined
  return {
    startLine,
    endLine,
    startOffset: optionalCount(value['startOffset']),
    endOffset: optionalCount(value['endOffset'])
  }
}

function arrayOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : []
}

/** A list of `{key, <field>}` (components' paths, rules' names) by key; other entries skipped. */
export function byKey(list: unknown, field: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of arrayOf(list)) {
    const [key, value] = [text(entry['key']), text(entry[field])]
    if (key !== undefined && value !== undefined) found.set(key, value)
  }
  return found
}
