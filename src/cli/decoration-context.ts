/**
 * What every platform's decoration edge of the command is given and shares: the context it runs
 * in, the time it has (src/deadline.ts), the sink of what it writes (the Sonar
 * token's forms and the platform token's hidden, in the markup's escaped forms), and the check of
 * an address a variable or an option names.
 */
import type { Clock } from '../clock.js'
import type { FailPolicy } from '../fail-policy.js'
import type { Severity } from '../findings/finding.js'
import type { CommentWhen } from '../report/pull-request-comment-body.js'
import { tokenForms } from '../secrets.js'
import { createSink, type Sink } from '../sink.js'
import { COMMAND_NAMES } from './names.js'
import type { TerminalLog } from './terminal-log.js'

export interface DecorationContext {
  env: NodeJS.ProcessEnv
  log: TerminalLog
  /** Every form of the Sonar token: hidden from the note too. */
  secrets: readonly string[]
  policy: FailPolicy
  commentWhen: CommentWhen
  inlineLimit: number
  inlineSeverity: Severity
  clock: Clock
  /** Clock time of the overall time-out; the decoration has its allowance past the check. */
  deadline: number
  userAgent: string
  /** --commit, when given (lower case): the commit decorated on every platform (decoratedCommit). */
  commit?: string | undefined
}

/**
 * The commit a platform's decoration goes on, the same rule on every platform: --commit when
 * given, which wins over the CI's; else the commit the CI names (`fromTheCi`: the platform's own
 * variable, or the CI's commit for Bitbucket Data Center).
 *
 * @example const sha = decoratedCommit(context, env['CI_COMMIT_SHA'])
 */
export function decoratedCommit<Ci extends string | undefined>(
  context: Pick<DecorationContext, 'commit'>,
  fromTheCi: Ci
): string | Ci {
  return context.commit ?? fromTheCi
}

/**
 * The platform's token hidden from the log from now on, and the sink of what the decoration
 * writes: the command's words, both tokens' forms (escaped as `escapedForms` says), `limit`.
 *
 * @example const sink = platformSink(context, token, { escapedForms: markdownForms, limit: 30_000 })
 */
export function platformSink(
  context: DecorationContext,
  token: string | undefined,
  options: { escapedForms?: (secrets: readonly string[]) => readonly string[]; limit?: number }
): Sink {
  const forms = token ? tokenForms(token) : []
  context.log.hideSecrets(forms)
  return createSink({
    names: COMMAND_NAMES,
    secrets: [...context.secrets, ...forms],
    ...(options.escapedForms ? { escapedForms: options.escapedForms } : {}),
    ...(options.limit === undefined ? {} : { limit: options.limit, unit: 'characters' as const })
  })
}

/** An http(s) address without credentials, or undefined. */
export function httpUrl(value: string | undefined): URL | undefined {
  if (!value || !URL.canParse(value)) return undefined
  const url = new URL(value)
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    return undefined
  }
  return url
}
