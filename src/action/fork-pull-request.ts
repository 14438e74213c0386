import { messageOf } from '../errors.js'
import type { Log } from '../log.js'
import { oneLine } from '../untrusted-text.js'
import { apiBase, connect } from './github-api.js'
import type { FindPullRequest } from './run-analysis.js'

/** How many open pull requests of one head branch are read: one page. */
const PULLS_READ = 100

/**
 * Finds a workflow_run's pull request from a fork through GitHub's API (`GET
 * /repos/{owner}/{repo}/pulls?head={fork owner}:{branch}&state=open`, one page, the token's
 * pull-requests read permission): the one at the run's head commit, else the only one of that
 * branch. Undefined without a token or a repository to ask about.
 *
 * @example const find = pullRequestFinder(settings.gitHubToken, process.env, log)
 */
export function pullRequestFinder(
  token: string | undefined,
  env: NodeJS.ProcessEnv,
  log: Log,
  fetch?: typeof globalThis.fetch
): FindPullRequest | undefined {
  const repository = /^([\w.-]+)\/([\w.-]+)$/.exec(env['GITHUB_REPOSITORY'] ?? '')
  const baseUrl = apiBase(env['GITHUB_API_URL'])
  if (!token || !repository || !baseUrl) return undefined
  const [, owner, repo] = repository as unknown as [string, string, string]
  return async (head) => {
    const where = `${oneLine(head.owner)}:${oneLine(head.branch)}`
    let pulls: { number: number; head: { sha: string } }[]
    try {
      const octokit = await connect(token, baseUrl, { log, ...(fetch ? { fetch } : {}) })
      const reply = await octokit.rest.pulls.list({
        owner,
        repo,
        head: `${head.owner}:${head.branch}`,
        state: 'open',
        per_page: PULLS_READ
      })
      pulls = Array.isArray(reply.data) ? reply.data : []
    } catch (error) {
      return {
        problem: `GitHub's API could not list the pull requests of ${where} (${oneLine(messageOf(error))}); the token needs the pull-requests read permission`
      }
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
