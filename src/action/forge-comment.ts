/**
 * The pull-request comment when Gitea or Forgejo Actions runs the action. Their runners set the
 * `GITHUB_*` variables too, GITHUB_API_URL being their own `/api/v1`: the comment goes through
 * the one driver (src/platforms/decorate.ts) and the Gitea platform to their API, never to
 * GitHub's, in Markdown, one per project, edited in place (ours: our marker and the token's own
 * user). Never throws: what goes wrong is one warning, and the verdict is the gate's.
 */
import { giteaRepository } from '../ci/gitea-repository.js'
import { RestApi } from '../http/rest-api.js'
import type { AnalysisOutcome } from '../gate/outcome.js'
import type { FailPolicy } from '../fail-policy.js'
import type { Log } from '../log.js'
import type { CommentWhen } from '../report/pull-request-comment-body.js'
import type { Sink } from '../sink.js'
import { systemClock } from '../clock.js'
import { quotedSaidOf } from '../errors.js'
import { msg } from '../words.js'
import { USER_AGENT } from './names.js'

interface ForgeCommentOptions {
  when: CommentWhen
  /** The githubToken input: the job's token by default, which is the forge's own. */
  token: string | undefined
  env: NodeJS.ProcessEnv
  log: Log
  /** Markdown, the token's forms hidden (the forge's token is added here). */
  sink: Sink
  policy: FailPolicy
  /** Clock time the forge's requests end by: the decoration's deadline (src/deadline.ts). */
  decorateBy: number
}

/**
 * Each project's comment on the run's pull request, on Gitea or Forgejo.
 *
 * @example await commentOnForge(outcomes, { when: 'always', token, env: process.env, log, sink, policy, decorateBy })
 */
export async function commentOnForge(
  outcomes: readonly AnalysisOutcome[],
  options: ForgeCommentOptions
): Promise<void> {
  const { log, token, env } = options
  try {
    const found = await giteaRepository(env, {})
    if ('missing' in found) {
      log.warning(msg`The pull request was not commented on: ${found.missing}.`)
      return
    }
    if (found.pullRequest === undefined) {
      log.info(
        `The comment is written on pull_request events only: ${found.kind} Actions names no pull request here.`
      )
      return
    }
    const secret = token ?? found.token
    if (!secret) {
      log.warning(
        `The pull request was not commented on: no token. Leave the githubToken input at its default (the job's token), or set it to a ${found.kind} token that may write issues.`
      )
      return
    }
    const [{ decorate }, { giteaPlatform }] = await Promise.all([
      import('../platforms/decorate.js'),
      import('../platforms/gitea/gitea.js')
    ])
    const rest = new RestApi({
      platform: found.kind,
      apiUrl: found.apiUrl,
      token: secret,
      headers: { authorization: `token ${secret}` },
      redirectAdvice: `GITHUB_API_URL must be the address ${found.kind}'s API answers at.`,
      userAgent: USER_AGENT,
      clock: systemClock,
      deadline: options.decorateBy
    })
    // The comment alone, as on GitHub: the job's own status is the forge's.
    const platform = { ...giteaPlatform(rest, found), setStatus: undefined }
    try {
      await decorate(platform, outcomes, {
        sink: options.sink.hiding([secret]),
        policy: options.policy,
        commentWhen: options.when,
        inlineLimit: 0,
        inlineSeverity: 'info',
        log
      })
    } finally {
      rest.close()
    }
  } catch (error) {
    log.warning(
      msg`The pull request was not commented on: ${quotedSaidOf(error)}. The job goes on without it.`
    )
  }
}
