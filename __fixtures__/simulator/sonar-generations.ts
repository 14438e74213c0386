/**
 * How each server generation differs, as the simulator plays it: the auth schemes it takes, the
 * version its scanner writes in report-task.txt, whether a finished task's warnings come without
 * being asked, and the shape of its quality gate reply. Facts from SonarQube's own web service
 * changelogs (api/ce/task, api/qualitygates/project_status) and documentation.
 */

import { createHash } from 'node:crypto'

export type Generation = '8.9' | '9.9' | '10.x' | '2025.x' | 'cloud'

export interface GenerationTraits {
  /** What `serverVersion=` says in the report file. */
  serverVersion: string
  /** Auth schemes the server takes: Bearer from 10.0 and on the cloud; Basic everywhere but the cloud. */
  auth: readonly ('basic' | 'bearer')[]
  /** api/ce/task sends a finished task's warnings without additionalFields=warnings (10.1+). */
  warningsAlways: boolean
  /** A task's `infoMessages` beside its `warnings` (10.x and later, recorded from 10.7). */
  infoMessages: boolean
  /**
   * Whether api/measures/component answers a token that may run analyses but not browse the
   * project (the gate's measures: 26.9 does, 10.7 refuses; both recorded).
   */
  measuresWithoutBrowse: boolean
  /** `organization=` in the report file: the cloud's scanners write it. */
  organization?: string
  /** The gate reply in this generation's shape, from the simulator's generation-neutral one. */
  gateShape(projectStatus: Record<string, unknown>): Record<string, unknown>
}

const PERIOD = { mode: 'PREVIOUS_VERSION', date: '2025-01-15T10:00:00+0000' }

/** `periods` (deprecated in 8.5, removed in 10.0) and the `periodIndex` of new-code conditions. */
function withPeriods(projectStatus: Record<string, unknown>): Record<string, unknown> {
  const conditions = Array.isArray(projectStatus['conditions']) ? projectStatus['conditions'] : []
  return {
    ...projectStatus,
    periods: [{ index: 1, ...PERIOD }],
    conditions: conditions.map((condition: Record<string, unknown>) =>
      String(condition['metricKey']).startsWith('new_')
        ? { ...condition, periodIndex: 1 }
        : condition
    )
  }
}

/** `caycStatus`, which the server writes on every gate from 9.9 (recorded from 10.7). */
function withCayc(projectStatus: Record<string, unknown>): Record<string, unknown> {
  return { caycStatus: 'compliant', ...projectStatus }
}

/** The object without the fields named: those a generation or an analysis does not have. */
export function without(object: Record<string, unknown>, ...keys: string[]) {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)))
}

export const GENERATIONS: Record<Generation, GenerationTraits> = {
  '8.9': {
    serverVersion: '8.9.10.61524',
    auth: ['basic'],
    warningsAlways: false,
    infoMessages: false,
    measuresWithoutBrowse: false,
    // period from 8.5 beside periods; no caycStatus before 9.9.
    gateShape: (status) => withPeriods({ ...without(status, 'caycStatus'), period: PERIOD })
  },
  '9.9': {
    serverVersion: '9.9.4.87374',
    auth: ['basic'],
    warningsAlways: false,
    infoMessages: false,
    measuresWithoutBrowse: false,
    gateShape: (status) => withPeriods({ ...withCayc(status), period: PERIOD })
  },
  '10.x': {
    serverVersion: '10.7.0.96327',
    auth: ['basic', 'bearer'],
    warningsAlways: true,
    infoMessages: true,
    measuresWithoutBrowse: false,
    gateShape: (status) => ({ ...withCayc(status), period: PERIOD })
  },
  '2025.x': {
    serverVersion: '2025.1.0.102418',
    auth: ['basic', 'bearer'],
    warningsAlways: true,
    infoMessages: true,
    measuresWithoutBrowse: true,
    gateShape: (status) => ({
      ...withCayc(status),
      period: { ...PERIOD, mode: 'previous_version' }
    })
  },
  cloud: {
    serverVersion: '8.0.0.65736',
    auth: ['bearer'],
    warningsAlways: false,
    infoMessages: false,
    measuresWithoutBrowse: false,
    organization: 'demo-org',
    gateShape: (status) => withPeriods(without(status, 'period'))
  }
}

/** An issue as the simulator keeps it, whatever the generation that serves it. */
export interface SimulatedIssue {
  key: string
  rule: string
  ruleName: string
  message: string
  /** The file's path relative to the analysis's base directory. */
  path: string
  line?: number
  textRange?: { startLine: number; endLine: number; startOffset: number; endOffset: number }
  /** The legacy severity: BLOCKER, CRITICAL, MAJOR, MINOR, INFO. */
  severity: string
  /** BUG, VULNERABILITY, CODE_SMELL. */
  type: string
  /** The software quality impacts (10.2+, the cloud); derived from severity and type when absent. */
  impacts?: Array<{ softwareQuality: string; severity: string }>
  /** In the new code period (default true): older issues are left out only when asked right. */
  inNewCode?: boolean
}

const IMPACT_OF_SEVERITY: Record<string, string> = {
  BLOCKER: 'HIGH',
  CRITICAL: 'HIGH',
  MAJOR: 'MEDIUM',
  MINOR: 'LOW',
  INFO: 'LOW'
}
const QUALITY_OF_TYPE: Record<string, string> = {
  BUG: 'RELIABILITY',
  VULNERABILITY: 'SECURITY',
  CODE_SMELL: 'MAINTAINABILITY'
}

/** How one generation's api/issues/search differs: its parameters and its reply's shape. */
export interface IssueSearchTraits {
  /** The name of the project parameter it reads (the other is ignored, as real servers do). */
  componentsParameter: 'componentKeys' | 'components' | 'either'
  /** The new-code parameter it reads (the other is ignored, returning old issues too). */
  newCodeParameter: 'sinceLeakPeriod' | 'inNewCodePeriod' | 'either'
  /** The top-level `total`, `p`, `ps` beside `paging` (deprecated in 9.8). */
  topLevelTotal: boolean
  /** impacts and cleanCodeAttribute on each issue (10.2+, the cloud). */
  impacts: boolean
  /** Impact severities BLOCKER and INFO (10.8+, 2025.x). */
  fiveImpactSeverities: boolean
  /** `codeVariants` on each issue (recorded from 10.7). */
  codeVariants: boolean
  /** `prioritizedRule` on each issue (recorded from 10.7). */
  prioritizedRule: boolean
  /** `fromSonarQubeUpdate`, `internalTags` and `linkedTicketStatus` on each issue (recorded from 26.9). */
  ticketFields: boolean
}

export const ISSUE_SEARCH: Record<Generation, IssueSearchTraits> = {
  '8.9': {
    componentsParameter: 'componentKeys',
    newCodeParameter: 'sinceLeakPeriod',
    topLevelTotal: true,
    impacts: false,
    fiveImpactSeverities: false,
    codeVariants: false,
    prioritizedRule: false,
    ticketFields: false
  },
  '9.9': {
    componentsParameter: 'componentKeys',
    newCodeParameter: 'inNewCodePeriod',
    topLevelTotal: true,
    impacts: false,
    fiveImpactSeverities: false,
    codeVariants: false,
    prioritizedRule: false,
    ticketFields: false
  },
  '10.x': {
    componentsParameter: 'either',
    newCodeParameter: 'inNewCodePeriod',
    // Deprecated in 9.8, still sent by 10.7 (recorded).
    topLevelTotal: true,
    impacts: true,
    fiveImpactSeverities: false,
    codeVariants: true,
    prioritizedRule: true,
    ticketFields: false
  },
  '2025.x': {
    componentsParameter: 'either',
    newCodeParameter: 'inNewCodePeriod',
    // Still sent by 26.9 (recorded).
    topLevelTotal: true,
    impacts: true,
    fiveImpactSeverities: true,
    codeVariants: true,
    prioritizedRule: true,
    ticketFields: true
  },
  cloud: {
    componentsParameter: 'componentKeys',
    newCodeParameter: 'either',
    topLevelTotal: true,
    impacts: true,
    fiveImpactSeverities: false,
    codeVariants: false,
    prioritizedRule: false,
    ticketFields: false
  }
}

/** The issue as the generation's api/issues/search writes it. */
export function issueShape(
  issue: SimulatedIssue,
  projectKey: string,
  generation: Generation
): Record<string, unknown> {
  const traits = ISSUE_SEARCH[generation]
  const impacts = issue.impacts ?? [
    {
      softwareQuality: QUALITY_OF_TYPE[issue.type] ?? 'MAINTAINABILITY',
      severity:
        traits.fiveImpactSeverities && (issue.severity === 'BLOCKER' || issue.severity === 'INFO')
          ? issue.severity
          : (IMPACT_OF_SEVERITY[issue.severity] ?? 'MEDIUM')
    }
  ]
  // Every field the server writes (recorded from 10.7), in its order; dates and author fixed.
  return {
    key: issue.key,
    rule: issue.rule,
    severity: issue.severity,
    component: `${projectKey}:${issue.path}`,
    project: projectKey,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    hash: createHash('md5').update(issue.key).digest('hex'),
    ...(issue.textRange ? { textRange: issue.textRange } : {}),
    flows: [],
    status: 'OPEN',
    message: issue.message,
    effort: '5min',
    debt: '5min',
    author: 'dev@example.com',
    tags: [],
    creationDate: ISSUE_DATE,
    updateDate: ISSUE_DATE,
    type: issue.type,
    ...(generation === 'cloud' ? { organization: 'demo-org' } : {}),
    scope: 'MAIN',
    quickFixAvailable: false,
    messageFormattings: [],
    ...(traits.codeVariants ? { codeVariants: [] } : {}),
    ...(traits.impacts
      ? { cleanCodeAttribute: 'CONVENTIONAL', cleanCodeAttributeCategory: 'CONSISTENT', impacts }
      : {}),
    ...(generation === '10.x' || generation === '2025.x' ? { issueStatus: 'OPEN' } : {}),
    ...(traits.prioritizedRule ? { prioritizedRule: false } : {}),
    ...(traits.ticketFields
      ? { fromSonarQubeUpdate: false, internalTags: [], linkedTicketStatus: 'NOT_LINKED' }
      : {})
  }
}

/** When the simulated issues were found, as the server writes dates. */
const ISSUE_DATE = '2026-11-24T10:00:00+0000'

/**
 * How one generation finds a project's analyses: `api/project_analyses/search`,
 * `api/project_branches/list` and the 404 of `api/ce/component`. Checked against the server's sources (docs/server-generations.md); SonarQube
 * Cloud's are not public, and are played here as guesses, marked so.
 */
export interface ProjectAnalysesTraits {
  /**
   * Whether api/project_analyses/search reads `pullRequest`. No SonarQube Server version defines
   * the parameter (its SearchAction never reads it): it is ignored like any unknown parameter, and
   * the main branch's analyses come back. SonarQube Cloud's: unverified, played as read.
   */
  pullRequestParameter: boolean
  /** `analyses[].detectedCI`, the CI the scanner ran on (9.0+). */
  detectedCI: boolean
  /** `branches[].branchId` in api/project_branches/list (10.6+). */
  branchId: boolean
  /** api/ce/component's 404 message for a project it does not know. */
  unknownComponent(projectKey: string): string
}

const COMPONENT_KEY_NOT_FOUND = (key: string) => `Component key '${key}' not found`

export const PROJECT_ANALYSES: Record<Generation, ProjectAnalysesTraits> = {
  '8.9': {
    pullRequestParameter: false,
    detectedCI: false,
    branchId: false,
    unknownComponent: COMPONENT_KEY_NOT_FOUND
  },
  '9.9': {
    pullRequestParameter: false,
    detectedCI: true,
    branchId: false,
    unknownComponent: COMPONENT_KEY_NOT_FOUND
  },
  '10.x': {
    pullRequestParameter: false,
    detectedCI: true,
    branchId: true,
    unknownComponent: COMPONENT_KEY_NOT_FOUND
  },
  '2025.x': {
    pullRequestParameter: false,
    detectedCI: true,
    branchId: true,
    unknownComponent: (key) => `Component '${key}' not found`
  },
  // Unverified: the cloud's sources are not public.
  cloud: {
    pullRequestParameter: true,
    detectedCI: true,
    branchId: false,
    unknownComponent: COMPONENT_KEY_NOT_FOUND
  }
}
