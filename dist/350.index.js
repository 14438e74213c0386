export const id = 350;
export const ids = [350];
export const modules = {

/***/ 1350:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createCheckRuns: () => (/* binding */ createCheckRuns)
/* harmony export */ });
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8521);

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
    const api = token && github.repository && github.headSha
        ? GitHub.gitHubApiOf(token, options.env, options.decorateBy)
        : undefined;
    if (!token || !github.repository || !github.headSha || !api) {
        log.warning(`No issues check run was created: ${whatIsMissing(token, github)}.`);
        return;
    }
    const platform = GitHub.githubPlatform(api, {
        ...github.repository,
        commit: github.headSha,
        pullRequest: undefined,
        names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event', api: 'GITHUB_API_URL' }
    }, {
        checkRuns: {
            name: (verdict) => `Sonar issues: ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(verdict.label, 80)}`,
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
