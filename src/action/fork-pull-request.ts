import { systemClock } from '../clock.js'
import { oneLine } from '../untrusted-text.js'
import type { FindPullRequest } from './run-analysis.js'

/** How many open pull requests of one head branch are read: one page. */
const PULLS_READ = 100

/**
 * Finds a workflow_run's pull request from a fork through GitHub's API (`GET
 * /repos/{owner}/{repo}/pulls?head={fork owner}:{branch}&state=open`, one page, the token's
 * pull-requests read permission): the one at the run's head commit, else the only one of that
 * branch. Undefined without a token or a repository to ask about.
 *
 * @example const find = pullRequestFinder(settings.gitHubToken, process.env, deadline)
 */
export function pullRequestFinder(
  token: string | undefined,
  env: NodeJS.ProcessEnv,
  /** Clock time the request ends by: the overall time-out's. */
  deadline: number
): FindPullRequest | undefined {
  const repository = /^([\w.-]+)\/([\w.-]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '')
  if (!token || !repository) return undefined
  const [, owner, repo] = repository as unknown as [string, string, string]
  return async (head) => {
    // Loaded when a fork's run is looked for, not at every start.
    const { apiBase, GitHubApi, githubSaid } = await import('./platforms.js')
    const apiUrl = apiBase(env['GITHUB_API_URL'])
    if (!apiUrl) return { problem: 'GITHUB_API_URL is not an http(s) address' }
    const where = `${oneLine(head.owner)}:${oneLine(head.branch)}`
    let pulls: { number: number; head: { sha: string } }[]
    const api = new GitHubApi({ token, apiUrl, deadline, clock: systemClock })
    try {
      const { body } = await api.request('GET', `repos/${owner}/${repo}/pulls`, {
        query: { head: `${head.owner}:${head.branch}`, state: 'open', per_page: String(PULLS_READ) }
      })
      pulls = Array.isArray(body) ? (body as typeof pulls) : []
    } catch (error) {
      return {
        problem: `GitHub's API could not list the pull requests of ${where} (${githubSaid(error)}); the token needs the pull-requests read permission`
      }
    } finally {
      api.close()
    }
    const numbered = pulls.filter(
      (pull) => typeof pull.number === 'number' && Number.isSafeInteger(pull.number)
    )
    const atHead = numbered.filter((pull) => pull.head?.sha?.toLowerCase() === head.sha)
    const [found] = atHead.length > 0 ? atHead : numbered.length === 1 ? numbered : []
    if (atHead.length > 1 || !found) {
      return {
        problem:
          numbered.length === 0
            ? `GitHub has no open pull request of ${where}`
            : `GitHub has ${numbered.length} open pull requests of ${where}, none at its commit ${head.sha.slice(0, 7)}`
      }
    }
    return { number: found.number }
  }
}
