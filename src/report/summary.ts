import type { GateResult } from '../gate/check.js'
import { seconds } from '../gate/wait-for-task.js'
import type { Log } from '../log.js'
import { comparatorWords, describeCondition, formatValue, metricName } from './wording.js'

const HEADLINES: Record<string, string> = {
  OK: '✅ Quality Gate passed',
  WARN: '⚠️ Quality Gate passed with warnings',
  ERROR: '❌ Quality Gate failed',
  NONE: '➖ No Quality Gate'
}

const STATUS_ICONS: Record<string, string> = { OK: '✅', WARN: '⚠️', ERROR: '❌' }

/**
 * The job summary in Markdown: verdict, one table row per condition, dashboard link, analysis
 * id and time taken.
 *
 * @example await core.summary.addRaw(renderSummary(result)).write()
 */
export function renderSummary(result: GateResult): string {
  const headline = HEADLINES[result.status] ?? `Quality Gate status ${result.status}`
  const about = [
    result.projectKey ? `Project \`${result.projectKey}\`` : undefined,
    `analysis \`${result.analysisId}\``,
    result.taskId ? `task \`${result.taskId}\`` : undefined,
    `checked in ${seconds(result.elapsedMs)}`
  ].filter(Boolean)
  const lines = [`## ${headline}`, '', `${about.join(' · ')}`, '']

  if (result.conditions.length === 0) {
    lines.push('The server returned no conditions for this analysis.', '')
  } else {
    lines.push('| Metric | Status | Actual | Fails when |', '| --- | --- | --- | --- |')
    for (const { condition } of result.conditions) {
      const { metricKey, status, actualValue, errorThreshold, comparator } = condition
      const threshold =
        errorThreshold === undefined
          ? 'no threshold sent'
          : `${comparatorWords(metricKey, comparator)} ${formatValue(metricKey, errorThreshold)}`
      lines.push(
        `| ${cell(metricName(metricKey))} | ${STATUS_ICONS[status] ?? ''} ${status} | ${cell(formatValue(metricKey, actualValue))} | ${cell(threshold)} |`
      )
    }
    lines.push('')
  }
  if (result.dashboardUrl)
    lines.push(`[See the analysis on the dashboard](${result.dashboardUrl})`, '')
  return lines.join('\n')
}

/** The job summary of a check that could not reach a verdict. */
export function renderFailureSummary(message: string): string {
  return ['## ❌ Quality Gate check failed', '', cell(message), ''].join('\n')
}

/**
 * `Quality Gate Failure` followed by each failing condition in words: the message the job
 * fails with.
 */
export function gateFailureMessage(result: GateResult): string {
  const failing = result.conditions.filter(({ condition }) => condition.status === 'ERROR')
  const where = result.projectKey ? ` for ${result.projectKey}` : ''
  const lines = failing.map((evaluated) => `- ${describeCondition(evaluated)}`)
  const link = result.dashboardUrl ? [`Details: ${result.dashboardUrl}`] : []
  return [
    `Quality Gate Failure${where}: ${failing.length} of ${result.conditions.length} conditions failed.`,
    ...lines,
    ...link
  ].join('\n')
}

/** Annotations: task warnings, a WARN or NONE gate, and conditions where the rule disagrees. */
export function annotate(result: GateResult, log: Log): void {
  for (const warning of result.taskWarnings) log.warning(`Analysis warning: ${stripTags(warning)}`)
  if (result.status === 'WARN') {
    log.warning('Quality Gate passed with warnings (WARN): see the conditions in the job summary.')
  } else if (result.status === 'NONE') {
    log.warning(
      'No Quality Gate is set for this project (NONE): the check passes. Assign a quality gate on the server to make it meaningful.'
    )
  }
  for (const evaluated of result.conditions) {
    if (!evaluated.agreesWithServer) {
      log.notice(
        `The server says ${evaluated.condition.status} for ${describeCondition(evaluated)}, the rule says ${evaluated.recomputed}: the server's verdict is used.`
      )
    }
  }
}

/** Markdown table cells cannot hold pipes or newlines. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}

/** Server warnings may carry HTML links; annotations are plain text. */
function stripTags(text: string): string {
  return text
    .replace(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g, '$2 ($1)')
    .replace(/<[^>]+>/g, '')
}
