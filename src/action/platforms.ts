/**
 * Everything the action's lazily loaded GitHub and forge features use (the pull-request comment,
 * the issues check run, a pull request's changed lines, a fork's pull request), in one module
 * that each of them imports when it runs: the bundle then holds one chunk with the driver, the
 * HTTP layer and the platforms, where a chunk per feature would each carry its own copy.
 */
import { systemClock } from '../clock.js'
import { apiBase, GitHubApi } from '../platforms/github/github-api.js'

export { decorate } from '../platforms/decorate.js'
export { RestApi } from '../http/rest-api.js'
export { githubSaid, isRateLimit } from '../platforms/github/github-api.js'
export { githubPlatform, listChangedLines } from '../platforms/github/github.js'
export { giteaPlatform } from '../platforms/gitea/gitea.js'

/**
 * GitHub's API at GITHUB_API_URL for `token`, its requests ending by `deadline`; undefined when
 * GITHUB_API_URL is not an http(s) address.
 *
 * @example const api = gitHubApiOf(token, process.env, decorateBy)
 */
export function gitHubApiOf(
  token: string,
  env: NodeJS.ProcessEnv,
  deadline: number
): GitHubApi | undefined {
  const apiUrl = apiBase(env['GITHUB_API_URL'])
  return apiUrl ? new GitHubApi({ token, apiUrl, deadline, clock: systemClock }) : undefined
}
