/**
 * The new issues as GitHub annotations on the diff, within what GitHub shows for one step. The
 * levels: blocker and high issues are errors, medium ones warnings, low and info ones notices.
 */
import type { AnnotationLevel, AnnotationWhere } from '../log.js'
import { cut, oneLine, QUOTE_LIMITS } from '../untrusted-text.js'
import { bySeverity, type Finding, type Severity } from './finding.js'
import { SEVERITY_SCALES } from './severity-scales.js'

export const LEVEL_OF_SEVERITY: Readonly<Record<Severity, AnnotationLevel>> = {
  blocker: SEVERITY_SCALES.blocker.annotation,
  high: SEVERITY_SCALES.high.annotation,
  medium: SEVERITY_SCALES.medium.annotation,
  low: SEVERITY_SCALES.low.annotation,
  info: SEVERITY_SCALES.info.annotation
}

/** One annotation: its level, its message (through the log's gate later) and where it points. */
interface Annotation {
  level: AnnotationLevel
  message: string
  where: AnnotationWhere
}

/** The annotations to write, and how many findings were left out for want of room. */
interface AnnotationPlan {
  annotations: Annotation[]
  leftOut: number
}

/**
 * The most severe findings first, each at its level while that level has room in `left`; when
 * some do not fit, one slot (a notice, else a warning, else an error) is kept for the line that
 * says how many more there are, which the caller writes. `labelOf` names a finding's project
 * in its title (with several analyses).
 *
 * @example planAnnotations(findings, { error: 9, warning: 10, notice: 10 }).annotations.length
 */
export function planAnnotations(
  findings: readonly Finding[],
  left: Readonly<Record<AnnotationLevel, number>>,
  labelOf: (finding: Finding) => string | undefined = () => undefined
): AnnotationPlan {
  const room = { ...left }
  const fitsAll = findings.every((finding) => room[LEVEL_OF_SEVERITY[finding.severity]]-- > 0)
  const budget = { ...left }
  if (!fitsAll) {
    const kept = (['notice', 'warning', 'error'] as const).find((level) => budget[level] > 0)
    if (kept) budget[kept]--
  }
  const annotations: Annotation[] = []
  for (const finding of bySeverity(findings)) {
    const level = LEVEL_OF_SEVERITY[finding.severity]
    if (budget[level] <= 0) continue
    budget[level]--
    annotations.push(findingAnnotation(finding, labelOf(finding)))
  }
  return { annotations, leftOut: findings.length - annotations.length }
}

/**
 * The annotation of one finding: titled with its severity and rule, pointing at its file and
 * lines when the checkout has the file (columns only within one line, as GitHub takes them);
 * otherwise unlocated, its message naming the server's path. The message links the issue.
 */
export function findingAnnotation(finding: Finding, label?: string): Annotation {
  const rule = finding.ruleName ? `${finding.ruleName} (${finding.rule})` : finding.rule
  const title = `${label ? `${label}: ` : ''}${finding.severityWord} · ${rule}`
  const region = finding.region
  const where: AnnotationWhere = { title: oneLine(title, QUOTE_LIMITS.short) }
  let place = ''
  if (finding.file !== undefined) {
    where.file = finding.file
    if (region) {
      where.startLine = region.startLine
      where.endLine = region.endLine
      if (region.startLine === region.endLine && region.startColumn !== undefined) {
        where.startColumn = region.startColumn
        where.endColumn = region.endColumn
      }
    }
  } else if (finding.serverPath !== undefined) {
    const line = region ? `:${region.startLine}` : ''
    place = `${oneLine(finding.serverPath, QUOTE_LIMITS.short)}${line} (not in this checkout): `
  }
  const message = cut(oneLine(finding.message, QUOTE_LIMITS.long), QUOTE_LIMITS.long)
  return {
    level: LEVEL_OF_SEVERITY[finding.severity],
    message: `${place}${message}\n${finding.url}`,
    where
  }
}
