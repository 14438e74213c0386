/**
 * Everything the action's lazily loaded GitHub and forge features use (the pull-request comment,
 * the issues check run, a pull request's changed lines, a fork's pull request), in one module
 * that each of them imports when it runs: the bundle then holds one chunk with the driver, the
 * HTTP layer and the platforms, where a chunk per feature would each carry its own copy.
 */
export { decorate } from '../platforms/decorate.js'
export { RestApi } from '../http/rest-api.js'
export { apiBase, GitHubApi, githubSaid, isRateLimit } from '../platforms/github/github-api.js'
export { githubPlatform, listChangedLines } from '../platforms/github/github.js'
export { giteaPlatform } from '../platforms/gitea/gitea.js'
