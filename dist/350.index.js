export const id = 350;
export const ids = [350];
export const modules = {

/***/ 1350:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createCheckRuns: () => (/* binding */ createCheckRuns)
/* harmony export */ });
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9373);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8521);
/**
 * The action's issues check run (issuesCheckRun): the one driver (src/platforms/decorate.ts) with
 * GitHub's check run alone, one per project whose new issues were read, "Sonar issues: <project>",
 * on the commit analysed (the pull request's head, not the merge commit), every located issue an
 * annotation (src/platforms/github/check-run.ts), concluded `failure` when the gate fails the
 * policy and `neutral` otherwise: the job's own check carries the verdict. Never throws: a token
 * that may not create check runs (a fork's, or without `checks: write`) is one warning.
 */


/**
 * One completed check run per project whose new issues were read.
 *
 * @example await createCheckRuns(outcomes, { github, token, env: process.env, log, sink: sinks.checkRun, policy, decorateBy })
 */
async function createCheckRuns(outcomes, options) {
    const { github, token, log } = options;
    const withIssues = outcomes.filter((outcome) => outcome.read && outcome.result.newIssues?.read);
    if (withIssues.length === 0)
        return;
    const GitHub = await Promise.all(/* import() */[__webpack_require__.e(819), __webpack_require__.e(157)]).then(__webpack_require__.bind(__webpack_require__, 819));
    const apiUrl = GitHub.apiBase(options.env['GITHUB_API_URL']);
    if (!token || !github.repository || !github.headSha || !apiUrl) {
        log.warning(`No issues check run was created: ${whatIsMissing(token, github)}.`);
        return;
    }
    const api = new GitHub.GitHubApi({
        token,
        apiUrl,
        deadline: options.decorateBy,
        clock: _clock_js__WEBPACK_IMPORTED_MODULE_0__/* .systemClock */ .m
    });
    const platform = GitHub.githubPlatform(api, {
        ...github.repository,
        commit: github.headSha,
        pullRequest: undefined,
        names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event', api: 'GITHUB_API_URL' }
    }, {
        checkRuns: {
            name: (verdict) => `Sonar issues: ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(verdict.label, 80)}`,
            passing: 'neutral'
        }
    });
    try {
        await GitHub.decorate({
            ...platform,
            review: undefined,
            noReview: undefined,
            refusal: (error) => refusalWords(error, GitHub)
        }, withIssues, {
            sink: options.sink.hiding([token]),
            policy: options.policy,
            fileLink: options.fileLink,
            commentWhen: 'always',
            inlineLimit: 0,
            inlineSeverity: 'info',
            log
        });
    }
    finally {
        api.close();
    }
}
/** What the check run lacks, first things first (called once something is). */
function whatIsMissing(token, { repository, headSha }) {
    if (!token)
        return 'no GitHub token (leave githubToken at its default)';
    if (!repository)
        return 'GITHUB_REPOSITORY is not owner/name';
    if (!headSha)
        return 'the commit analysed is unknown (GITHUB_SHA)';
    return 'GITHUB_API_URL is not an http(s) address';
}
/** GitHub's refusal, in the action's words: the permission to grant, and the forks' case. */
function refusalWords(error, { githubSaid, isRateLimit }) {
    if (isRateLimit(error) || error.status === 401) {
        return `Could not create the issues check run (${githubSaid(error)}): ${isRateLimit(error) ? "GitHub's API rate limit was reached" : 'the token was refused; check the githubToken input'}. The job goes on without it.`;
    }
    return [
        `The GitHub token may not create check runs (${githubSaid(error)}): the issues check run is left out.`,
        'Grant the job `permissions: checks: write`. Pull requests from forks get a read-only token whatever the workflow asks.'
    ].join('\n');
}


/***/ })

};
