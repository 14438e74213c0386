import type { GateResult } from '../gate/check.js'
import {
  percentWords,
  pointsWords,
  type CodeFigures,
  type WhatChanged
} from '../gate/what-changed.js'
import type { Hotspot } from '../sonar/hotspots.js'
import { serverBase } from '../sonar/origin.js'
import type { Sink } from '../sink.js'
import { QUOTE_LIMITS } from '../untrusted-text.js'
import { fittedBlock } from './fitted-block.js'
import { HTML_MARKUP, type Markup } from './markup.js'
import { type Said } from '../words.js'

const PROBABILITY_ICONS: Record<string, string> = { HIGH: '🔴', MEDIUM: '🟠', LOW: '🟡' }

/**
 * The "What changed" part of every verdict (the job summary, the comments and notes): coverage
 * and duplicated lines on new code, for a pull request against its target branch's, the issues
 * accepted and fixed where the server counts them, and the security hotspots still to review, the
 * first few linked to the server. In `markup` (HTML blocks by default), through `sink`, within
 * `limit` (the hotspots listed are fitted to it); nothing when nothing was read.
 *
 * @example whatChangedBlock(result, { sink, heading: 'h3', limit: 20_000 })
 */
export function whatChangedBlock(
  result: Pick<GateResult, 'whatChanged' | 'serverUrl' | 'projectKey' | 'branch' | 'pullRequest'>,
  options: { sink: Sink; heading: 'h3' | 'h4'; limit: number; markup?: Markup }
): string[] {
  const { whatChanged } = result
  const { sink, heading, limit, markup = HTML_MARKUP } = options
  if (!whatChanged) return []
  // Why a part could not be read: our words, quoting the server's.
  const unread = (why: Said) => sink.say(why, (plain) => markup.text(plain, QUOTE_LIMITS.long))
  const head = [
    markup.heading(heading === 'h3' ? 3 : 4, 'What changed'),
    markup.paragraph(figureLines(whatChanged, result.pullRequest !== undefined, markup, unread))
  ].map((line) => sink.text(line))
  const { hotspots } = whatChanged
  if ('unread' in hotspots) return [...head, sink.text(markup.paragraph([unread(hotspots.unread)]))]
  const where = result.pullRequest !== undefined ? 'in the pull request' : 'in the new code'
  const count = sink.text(
    markup.paragraph([
      hotspots.total === 0
        ? `No security hotspots to review ${where}.`
        : `Security hotspots to review ${where}: ${hotspots.total}`
    ])
  )
  if (hotspots.hotspots.length === 0) return [...head, count]
  const items = hotspots.hotspots.map((hotspot) =>
    markup.list.item(hotspotItem(hotspot, result, markup))
  )
  const list = fittedBlock(sink, items, {
    ...markup.list,
    tail: (more) => markup.list.item(`… and ${more} more: see the server's security hotspots`),
    more: hotspots.total - items.length,
    // Every line of the block ends in a line feed, the list's last line too.
    limit: limit - sink.size(`${[...head, count].join('\n')}\n`) - 1
  })
  return [...head, count, list.text]
}

/** Coverage, duplicated lines and the issue counts, one line each. */
function figureLines(
  changed: WhatChanged,
  pullRequest: boolean,
  markup: Markup,
  unread: (why: Said) => string
): string[] {
  const { newCode, target } = changed
  if ('unread' in newCode) return [unread(newCode.unread)]
  const against = target && !('unread' in target) ? target : undefined
  const lines = [
    `Coverage on new code: ${figure(newCode, against, 'coverage', markup)}`,
    `Duplicated lines on new code: ${figure(newCode, against, 'duplication', markup)}`
  ]
  if (target && 'unread' in target) lines.push(unread(target.unread))
  const issues = changed.issues
  if (issues) {
    const counts = [
      issues.accepted === undefined ? undefined : `${issues.accepted} accepted`,
      issues.fixed === undefined
        ? undefined
        : `${issues.fixed} fixed by this ${pullRequest ? 'pull request' : 'branch'}`
    ].filter((part) => part !== undefined)
    lines.push(`Issues: ${counts.join(' · ')}`)
  }
  return lines
}

/**
 * One figure and, against a target branch, the target's overall figure and the difference:
 * "85.5% (main: 78.2% overall, +7.3 points)".
 */
function figure(
  newCode: CodeFigures,
  target: { branch: string; figures: CodeFigures | { unread: Said } } | undefined,
  which: keyof CodeFigures,
  markup: Markup
): string {
  const value = newCode[which]
  const own = value === undefined ? 'not computed' : percentWords(value)
  if (!target || 'unread' in target.figures) return own
  const theirs = target.figures[which]
  if (theirs === undefined) return own
  const difference = value === undefined ? '' : `, ${pointsWords(value - theirs)}`
  return `${own} (${markup.code(target.branch)}: ${percentWords(theirs)} overall${difference})`
}

function hotspotItem(
  hotspot: Hotspot,
  result: Parameters<typeof whatChangedBlock>[0],
  markup: Markup
): string {
  const icon = PROBABILITY_ICONS[hotspot.probability ?? ''] ?? '🔥'
  const place =
    hotspot.path === undefined
      ? ''
      : `${markup.code(`${hotspot.path}${hotspot.line === undefined ? '' : `:${hotspot.line}`}`, QUOTE_LIMITS.long)} `
  const link = markup.link(hotspotUrl(hotspot.key, result), 'review')
  return `${icon} ${place}${markup.text(hotspot.message, QUOTE_LIMITS.long)} (${link})`
}

/** The hotspot on the server's security hotspots page, in its branch or pull request. */
export function hotspotUrl(
  key: string,
  result: Pick<GateResult, 'serverUrl' | 'projectKey' | 'branch' | 'pullRequest'>
): string {
  const query = new URLSearchParams({ id: result.projectKey ?? '', hotspots: key })
  if (result.pullRequest !== undefined) query.set('pullRequest', result.pullRequest)
  else if (result.branch !== undefined) query.set('branch', result.branch)
  return new URL(`security_hotspots?${query.toString()}`, serverBase(new URL(result.serverUrl)))
    .href
}
