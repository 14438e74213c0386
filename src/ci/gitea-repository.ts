/**
 * The Gitea or Forgejo repository, pull request and commit a run names: in Gitea and Forgejo
 * Actions from their variables, elsewhere from the settings given. Both runners set the
 * `GITHUB_*` variables too (GITHUB_ACTIONS=true among them), so they are told apart by their
 * own: Forgejo's runner sets FORGEJO_ACTIONS=true (and GITEA_ACTIONS=true as well), Gitea's
 * act_runner GITEA_ACTIONS=true (gitea/act_runner internal/app/run/runner.go; forgejo/runner
 * internal/app/run/runner.go). Both set GITHUB_API_URL to the server's `/api/v1` and
 * GITHUB_SERVER_URL to the server; GITHUB_REPOSITORY, GITHUB_SHA and the event file as GitHub
 * does.
 */
import { isFullSha } from '../settings.js'
import { msg, setting, type Said } from '../words.js'
import {
  apiBelow,
  eventPullRequest,
  httpUrl,
  NO_COMMIT,
  OWNER_REPO,
  PULL_NUMBER,
  variable,
  type Env,
  type Given,
  type Missing
} from './variables.js'

/** A Gitea or Forgejo repository to decorate, and what names each of its values. */
interface GiteaRepository {
  kind: 'Gitea' | 'Forgejo'
  apiUrl: URL
  owner: string
  repo: string
  pullRequest: number | undefined
  commit: string
  names: { repository: Said; pullRequest: Said; api: Said }
  /** The token's variable found set: GITEA_TOKEN, FORGEJO_TOKEN, or the job's GITHUB_TOKEN. */
  token: string | undefined
}

/** Which of the two runs us, when one does. */
export function giteaActions(env: Env): 'Gitea' | 'Forgejo' | undefined {
  if (env['FORGEJO_ACTIONS'] === 'true') return 'Forgejo'
  if (env['GITEA_ACTIONS'] === 'true') return 'Gitea'
  return undefined
}

/**
 * The repository, pull request and commit to decorate on Gitea or Forgejo, or what is missing:
 * `given` (the address, the repository, the pull request's number, the commit) wins over the
 * Actions' variables; `ciCommit` is the commit another CI names.
 *
 * @example await giteaRepository(env, { url: 'https://gitea.example.com', repository: 'acme/shop', pullRequest: '7' }, sha)
 */
export async function giteaRepository(
  env: Env,
  given: Given & { url?: string | undefined },
  ciCommit?: string
): Promise<GiteaRepository | Missing> {
  const actions = giteaActions(env)
  const run = actions ? await actionsRun(env) : undefined
  const address =
    given.url ?? variable(env, 'GITHUB_API_URL') ?? apiUnder(variable(env, 'GITHUB_SERVER_URL'))
  const server = httpUrl(address)
  const names = {
    repository:
      given.repository === undefined && actions ? 'GITHUB_REPOSITORY' : setting('giteaRepository'),
    pullRequest:
      given.pullRequest === undefined && actions ? 'the event file' : setting('pullRequest'),
    api: given.url === undefined && actions ? 'GITHUB_API_URL' : setting('giteaUrl')
  }
  if (!server) return { missing: msg`${names.api} is not an http(s) address` }
  const parts = OWNER_REPO.exec(given.repository ?? variable(env, 'GITHUB_REPOSITORY') ?? '')
  if (!parts) return { missing: msg`${names.repository} is not owner/name` }
  const number = given.pullRequest ?? run?.pullRequest
  if (number !== undefined && !PULL_NUMBER.test(number)) {
    return { missing: msg`${names.pullRequest} is not a pull request's number` }
  }
  const commit = given.commit ?? run?.commit ?? ciCommit
  if (commit === undefined || !isFullSha(commit)) return { missing: NO_COMMIT }
  return {
    kind: actions ?? 'Gitea',
    apiUrl: apiBelow(server, '/api/v1'),
    owner: parts[1]!,
    repo: parts[2]!,
    pullRequest: number === undefined ? undefined : Number(number),
    commit: commit.toLowerCase(),
    names,
    token:
      variable(env, 'GITEA_TOKEN') ??
      variable(env, 'FORGEJO_TOKEN') ??
      (actions ? variable(env, 'GITHUB_TOKEN') : undefined)
  }
}

/** `<server>/api/v1`, when the server's address is given. */
function apiUnder(server: string | undefined): string | undefined {
  return server === undefined ? undefined : `${server.replace(/\/+$/, '')}/api/v1`
}

/** The pull request and commit of a Gitea or Forgejo Actions run, from its event file. */
async function actionsRun(env: Env): Promise<Pick<Given, 'pullRequest' | 'commit'>> {
  const payload = await eventPullRequest(env)
  return {
    pullRequest: payload?.number?.toString(),
    commit: payload?.headSha ?? variable(env, 'GITHUB_SHA')
  }
}
