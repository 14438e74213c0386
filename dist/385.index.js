export const id = 385;
export const ids = [385];
export const modules = {

/***/ 7385:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   commentOnForge: () => (/* binding */ commentOnForge)
/* harmony export */ });
/* harmony import */ var _ci_gitea_repository_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3694);
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9837);
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9373);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3916);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(5846);
/* harmony import */ var _names_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(2814);
/**
 * The pull-request comment when Gitea or Forgejo Actions runs the action. Their runners set the
 * `GITHUB_*` variables too, GITHUB_API_URL being their own `/api/v1`: the comment goes through
 * the one driver (src/platforms/decorate.ts) and the Gitea platform to their API, never to
 * GitHub's, in Markdown, one per project, edited in place (ours: our marker and the token's own
 * user). Never throws: what goes wrong is one warning, and the verdict is the gate's.
 */






/**
 * Each project's comment on the run's pull request, on Gitea or Forgejo.
 *
 * @example await commentOnForge(outcomes, { when: 'always', token, env: process.env, log, sink, policy, decorateBy })
 */
async function commentOnForge(outcomes, options) {
    const { log, token, env } = options;
    try {
        const found = await (0,_ci_gitea_repository_js__WEBPACK_IMPORTED_MODULE_0__/* .giteaRepository */ .T)(env, {});
        if ('missing' in found) {
            log.warning((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `The pull request was not commented on: ${found.missing}.`);
            return;
        }
        if (found.pullRequest === undefined) {
            log.info(`The comment is written on pull_request events only: ${found.kind} Actions names no pull request here.`);
            return;
        }
        const secret = token ?? found.token;
        if (!secret) {
            log.warning(`The pull request was not commented on: no token. Leave the githubToken input at its default (the job's token), or set it to a ${found.kind} token that may write issues.`);
            return;
        }
        const [{ decorate }, { giteaPlatform }] = await Promise.all([
            __webpack_require__.e(/* import() */ 600).then(__webpack_require__.bind(__webpack_require__, 8600)),
            __webpack_require__.e(/* import() */ 691).then(__webpack_require__.bind(__webpack_require__, 1691))
        ]);
        const rest = new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_1__/* .RestApi */ .RQ({
            platform: found.kind,
            apiUrl: found.apiUrl,
            token: secret,
            headers: { authorization: `token ${secret}` },
            redirectAdvice: `GITHUB_API_URL must be the address ${found.kind}'s API answers at.`,
            userAgent: _names_js__WEBPACK_IMPORTED_MODULE_5__/* .USER_AGENT */ ._,
            clock: _clock_js__WEBPACK_IMPORTED_MODULE_2__/* .systemClock */ .m,
            deadline: options.decorateBy
        });
        // The comment alone, as on GitHub: the job's own status is the forge's.
        const platform = { ...giteaPlatform(rest, found), setStatus: undefined };
        try {
            await decorate(platform, outcomes, {
                sink: options.sink.hiding([secret]),
                policy: options.policy,
                commentWhen: options.when,
                inlineLimit: 0,
                inlineSeverity: 'info',
                log
            });
        }
        finally {
            rest.close();
        }
    }
    catch (error) {
        log.warning((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `The pull request was not commented on: ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .quotedSaidOf */ .Jm)(error)}. The job goes on without it.`);
    }
}


/***/ })

};
