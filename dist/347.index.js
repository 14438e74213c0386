export const id = 347;
export const ids = [347];
export const modules = {

/***/ 6347:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   commentOnPullRequest: () => (/* binding */ commentOnPullRequest)
/* harmony export */ });
/* harmony import */ var _ci_gitea_repository_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3663);
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9373);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3916);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(5846);
/* harmony import */ var _event_pull_request_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(4072);
/* harmony import */ var _names_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(2814);
/**
 * The action's pull-request comment: the one driver (src/platforms/decorate.ts) with the comment
 * alone (`commentOnly`), on GitHub, or on Gitea and Forgejo when their Actions run the action.
 * Those runners set the `GITHUB_*` variables too, GITHUB_API_URL being their own `/api/v1`: the
 * comment goes to their API, never to GitHub's, in Markdown. One comment per project, found again
 * by its marker and the token's own identity, edited in place. Never throws: what goes wrong is
 * one line that says what to do, and the verdict is the gate's.
 */







/**
 * Each project's comment on the run's pull request; on any other event one line, and nothing
 * sent.
 *
 * @example await commentOnPullRequest(outcomes, { token, env: process.env, log, sinks, policy, decorateBy })
 */
async function commentOnPullRequest(outcomes, options) {
    const { log } = options;
    try {
        const opened = (0,_ci_gitea_repository_js__WEBPACK_IMPORTED_MODULE_0__/* .giteaActions */ .a)(options.env)
            ? await onForge(options)
            : await onGitHub(options, outcomes.length);
        if (!opened)
            return;
        if ('problem' in opened) {
            log.warning((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `The pull request was not commented on: ${opened.problem}.`);
            return;
        }
        const { platform, secret, markdown } = opened;
        const { decorate } = await Promise.all(/* import() */[__webpack_require__.e(819), __webpack_require__.e(157)]).then(__webpack_require__.bind(__webpack_require__, 819));
        try {
            await decorate(platform, outcomes, {
                sink: (markdown ? options.sinks.markdown : options.sinks.html).hiding([secret]),
                policy: options.policy,
                commentWhen: options.when ?? 'always',
                inlineLimit: 0,
                inlineSeverity: 'info',
                fileLink: markdown ? undefined : options.fileLink,
                log
            });
        }
        finally {
            platform.close();
        }
    }
    catch (error) {
        log.warning((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `The pull request was not commented on: ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .quotedSaidOf */ .Jm)(error)}. The job goes on without it.`);
    }
}
/** GitHub's pull request of a `pull_request` or `pull_request_target` event. */
async function onGitHub(options, count) {
    const { env, token, log } = options;
    const event = env['GITHUB_EVENT_NAME'] ?? '';
    if (!_event_pull_request_js__WEBPACK_IMPORTED_MODULE_5__/* .PULL_REQUEST_EVENTS */ .m_.includes(event)) {
        log.info(`The pullRequestComment input does nothing on ${event ? `${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(event)} events` : 'this event'}: it comments on pull_request and pull_request_target events only.`);
        return undefined;
    }
    if (!token) {
        return {
            problem: 'no GitHub token. Leave the githubToken input at its default (the job’s token, github.token) or set it to a token that may write pull requests'
        };
    }
    const found = await (0,_event_pull_request_js__WEBPACK_IMPORTED_MODULE_5__/* .eventPullRequest */ .Z)(env);
    if ('problem' in found)
        return found;
    if (count === 0)
        return undefined;
    const GitHub = await Promise.all(/* import() */[__webpack_require__.e(819), __webpack_require__.e(157)]).then(__webpack_require__.bind(__webpack_require__, 819));
    const api = GitHub.gitHubApiOf(token, env, options.decorateBy);
    if (!api) {
        return {
            problem: `GITHUB_API_URL is not an http(s) address (${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(env['GITHUB_API_URL'] ?? '')})`
        };
    }
    const target = found.pullRequest;
    const github = GitHub.githubPlatform(api, {
        owner: target.owner,
        repo: target.repo,
        commit: target.headSha,
        pullRequest: target.issue_number,
        names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event file', api: 'GITHUB_API_URL' }
    });
    const platform = commentOnly(github);
    platform.refusal = (error) => refusalWords(error, target, GitHub);
    return { platform, secret: token, markdown: false };
}
/** Gitea's or Forgejo's pull request, when their Actions run the action. */
async function onForge(options) {
    const { env, log } = options;
    const found = await (0,_ci_gitea_repository_js__WEBPACK_IMPORTED_MODULE_0__/* .giteaRepository */ .T)(env, {});
    if ('missing' in found)
        return { problem: found.missing };
    if (found.pullRequest === undefined) {
        log.info(`The comment is written on pull request events only: ${found.kind} Actions names no pull request here.`);
        return undefined;
    }
    const secret = options.token ?? found.token;
    if (!secret) {
        return {
            problem: `no token. Leave the githubToken input at its default (the job's token), or set it to a ${found.kind} token that may write issues`
        };
    }
    const { giteaPlatform, RestApi } = await Promise.all(/* import() */[__webpack_require__.e(819), __webpack_require__.e(157)]).then(__webpack_require__.bind(__webpack_require__, 819));
    const rest = new RestApi({
        platform: found.kind,
        apiUrl: found.apiUrl,
        token: secret,
        headers: { authorization: `token ${secret}` },
        redirectAdvice: `GITHUB_API_URL must be the address ${found.kind}'s API answers at.`,
        userAgent: _names_js__WEBPACK_IMPORTED_MODULE_6__/* .USER_AGENT */ ._,
        clock: _clock_js__WEBPACK_IMPORTED_MODULE_1__/* .systemClock */ .m,
        deadline: options.decorateBy
    });
    return { platform: commentOnly(giteaPlatform(rest, found)), secret, markdown: true };
}
/**
 * The platform with the pull request's comment alone: the job's own check is the forge's status,
 * the check run and the annotations carry the issues, and the action has narrowed them to the
 * pull request's lines before its summary (src/action/pull-request-lines.ts).
 */
function commentOnly(platform) {
    const { review } = platform;
    return {
        ...platform,
        setStatus: undefined,
        writeReport: undefined,
        review: review && { ...review, changedLines: undefined, inline: undefined }
    };
}
/**
 * GitHub's refusal, in the action's words: what to grant the job, and the forks' case (their
 * pull requests get a read-only token whatever the workflow asks).
 */
function refusalWords(error, target, { githubSaid, isRateLimit }) {
    const where = `pull request #${target.issue_number}`;
    const said = githubSaid(error);
    if (isRateLimit(error)) {
        return `Could not comment on ${where}: GitHub's API rate limit was reached (${said}). The comment is left as it was; the next run updates it.`;
    }
    if (error.status === 401) {
        return `The GitHub token was refused when trying to comment on ${where} (${said}): check the githubToken input.`;
    }
    return [
        `The GitHub token may not comment on ${where} (${said}).`,
        'Grant the job `permissions: pull-requests: write`.',
        'Pull requests from forks get a read-only token whatever the workflow asks: to comment on them, run on `pull_request_target`, which runs the base branch’s workflow with a writable token (never build or run the fork’s code with it).'
    ].join('\n');
}


/***/ })

};
