export const id = 350;
export const ids = [350,62];
export const modules = {

/***/ 1350:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createCheckRuns: () => (/* binding */ createCheckRuns)
/* harmony export */ });
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9373);
/* harmony import */ var _platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5062);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8521);
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
    const apiUrl = (0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__.apiBase)(options.env['GITHUB_API_URL']);
    if (!token || !github.repository || !github.headSha || !apiUrl) {
        log.warning(`No issues check run was created: ${whatIsMissing(token, github)}.`);
        return;
    }
    const [{ decorate }, { githubPlatform }] = await Promise.all([
        __webpack_require__.e(/* import() */ 600).then(__webpack_require__.bind(__webpack_require__, 8600)),
        __webpack_require__.e(/* import() */ 701).then(__webpack_require__.bind(__webpack_require__, 1701))
    ]);
    const api = new _platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__.GitHubApi({ token, apiUrl, deadline: options.decorateBy, clock: _clock_js__WEBPACK_IMPORTED_MODULE_0__/* .systemClock */ .m });
    const platform = githubPlatform(api, {
        ...github.repository,
        commit: github.headSha,
        pullRequest: undefined,
        names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event', api: 'GITHUB_API_URL' }
    }, {
        checkRuns: {
            name: (verdict) => `Sonar issues: ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(verdict.label, 80)}`,
            passing: 'neutral'
        }
    });
    try {
        await decorate({ ...platform, review: undefined, noReview: undefined, refusal: refusalWords }, withIssues, {
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
function refusalWords(error) {
    if ((0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__/* .isRateLimit */ .a5)(error) || error.status === 401) {
        return `Could not create the issues check run (${(0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__.githubSaid)(error)}): ${(0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__/* .isRateLimit */ .a5)(error) ? "GitHub's API rate limit was reached" : 'the token was refused; check the githubToken input'}. The job goes on without it.`;
    }
    return [
        `The GitHub token may not create check runs (${(0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__.githubSaid)(error)}): the issues check run is left out.`,
        'Grant the job `permissions: checks: write`. Pull requests from forks get a read-only token whatever the workflow asks.'
    ].join('\n');
}


/***/ }),

/***/ 7424:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   J: () => (/* binding */ onChangedLines),
/* harmony export */   u: () => (/* binding */ addedLines)
/* harmony export */ });
/** The most lines of one patch looked at: GitHub's own patches stop well before. */
const MAX_PATCH_LINES = 100_000;
/**
 * The new-side line numbers a patch adds (`+` lines), hunk by hunk. Lines of a malformed hunk
 * header are skipped, never guessed.
 *
 * @example addedLines('@@ -1,2 +1,3 @@\n a\n+b\n c') // Set { 2 }
 */
function addedLines(patch) {
    const added = new Set();
    let next;
    const lines = patch.split('\n', MAX_PATCH_LINES);
    for (const line of lines) {
        const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
        if (hunk) {
            next = Number(hunk[1]);
            continue;
        }
        if (next === undefined)
            continue;
        if (line.startsWith('+'))
            added.add(next++);
        else if (line.startsWith(' '))
            next++;
        // '-' lines and "\ No newline at end of file" do not move the new side.
    }
    return added;
}
/**
 * The findings on lines the pull request changes: in a changed file, and with a line of their
 * region among its added lines (any line of a file GitHub gave no patch for). A finding with no
 * file in the checkout, or no line, is not on the pull request's lines.
 */
function onChangedLines(findings, changed) {
    return findings.filter((finding) => {
        if (finding.file === undefined || finding.region === undefined)
            return false;
        const lines = changed.get(finding.file);
        if (lines === undefined)
            return false;
        if (lines === 'whole')
            return true;
        const { startLine, endLine } = finding.region;
        for (let line = startLine; line <= Math.min(endLine, startLine + 10_000); line++) {
            if (lines.has(line))
                return true;
        }
        return false;
    });
}


/***/ }),

/***/ 9837:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   E2: () => (/* binding */ PlatformRefusal),
/* harmony export */   RQ: () => (/* binding */ RestApi),
/* harmony export */   Wk: () => (/* binding */ PlatformError)
/* harmony export */ });
/* unused harmony export REST_LIMITS */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(7194);
/* harmony import */ var _retry_policy_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7593);
/* harmony import */ var _transport_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7779);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(5846);






const REST_LIMITS = {
    /** One reply's body: a page of 100 merge-request diffs fits. */
    replyBytes: 16 * 1024 * 1024,
    /** One try, at most; the overall time-out bounds them all. */
    tryMs: 30_000
};
/** 401, 403 or 404: the token may not do this, or what it names is not there. */
class PlatformRefusal extends Error {
    status;
    answer;
    constructor(message, status, answer = { status, said: '', rateLimited: false }) {
        super(message);
        this.status = status;
        this.answer = answer;
        this.name = 'PlatformRefusal';
    }
}
/** Any other failure of a platform's request, in words. */
class PlatformError extends Error {
    /** What the platform answered, when it answered (a 429 or 5xx tried no more). */
    answer;
    /** Why no answer came (the transport's words, the token out of them), when none came. */
    unanswered;
    constructor(message, options = {}) {
        super(message, { cause: options.cause });
        this.name = 'PlatformError';
        this.answer = options.answer;
        this.unanswered = options.unanswered;
    }
}
/**
 * One platform instance's API for one run.
 *
 * @example const api = new RestApi({ platform: 'GitLab', apiUrl, token, headers: { 'PRIVATE-TOKEN': token }, redirectAdvice: 'Set CI_API_V4_URL …', userAgent, clock, deadline })
 */
class RestApi {
    options;
    base;
    forms;
    transport;
    constructor(options) {
        this.options = options;
        this.base = new URL(options.apiUrl.href.replace(/\/*$/, '/'));
        this.forms = (0,_secrets_js__WEBPACK_IMPORTED_MODULE_5__/* .tokenForms */ .py)(options.token);
        this.transport = new _transport_js__WEBPACK_IMPORTED_MODULE_2__/* .HttpTransport */ .G5({
            userAgent: options.userAgent,
            rootCert: undefined,
            maxBodyBytes: options.maxReplyBytes ?? REST_LIMITS.replyBytes,
            ...(options.forwardProxy ? { forwardProxy: options.forwardProxy } : {})
        });
    }
    /** Ends the kept-alive connections. */
    close() {
        this.transport.close();
    }
    /**
     * `method` on `path` (relative to the API's address, or an address a reply named, which must
     * be under it), with the query and the JSON body given; tried again on 429 and 5xx while the
     * time-out allows. With `text`, the reply's body is its text (a diff), not JSON.
     */
    async request(method, path, { query, body, text: asText } = {}) {
        const { platform, clock, deadline } = this.options;
        const url = new URL(path, this.base);
        if (url.origin !== this.base.origin || !url.pathname.startsWith(this.base.pathname)) {
            throw new PlatformError(`Refusing to send the ${platform} token outside ${this.base.href}.`);
        }
        for (const [name, value] of Object.entries(query ?? {}))
            url.searchParams.set(name, value);
        const shown = `${method} ${this.said(url.pathname.slice(this.base.pathname.length))}`;
        for (let attempt = 0;; attempt++) {
            const remaining = deadline - clock.now();
            if (remaining <= 0)
                throw new PlatformError(`${platform} did not answer ${shown} in time.`);
            let reply;
            try {
                // A redirect is a reply like any other, never followed: the token could follow it.
                reply = await this.transport.send(method, url, {
                    ...this.options.headers,
                    accept: asText ? 'text/plain' : 'application/json',
                    ...(body === undefined ? {} : { 'content-type': 'application/json' })
                }, body === undefined ? undefined : JSON.stringify(body), Math.min(remaining, REST_LIMITS.tryMs));
            }
            catch (error) {
                // No answer, a reply too large: said as it is, the token out of it.
                const unanswered = this.said((0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .messageOf */ .bD)(error));
                throw new PlatformError(`${platform}'s ${shown} failed: ${unanswered}`, {
                    cause: error,
                    unanswered
                });
            }
            const { status } = reply;
            const text = reply.body.toString('utf8');
            if (status >= 300 && status < 400) {
                throw new PlatformError(`${platform} answered ${status} to ${shown}: a redirect, not followed (the token would go with it). ${this.options.redirectAdvice}`);
            }
            if (status >= 200 && status < 300) {
                return {
                    status,
                    body: asText ? text : parse(text, platform),
                    header: (name) => (0,_transport_js__WEBPACK_IMPORTED_MODULE_2__/* .headerValue */ .Z)(reply, name)
                };
            }
            const said = this.said(errorText(text));
            const answer = {
                status,
                said,
                rateLimited: (0,_transport_js__WEBPACK_IMPORTED_MODULE_2__/* .headerValue */ .Z)(reply, 'x-ratelimit-remaining') === '0' || /rate limit/i.test(said)
            };
            const words = `${platform} answered ${status} to ${shown}${said ? `: ${said}` : ''}`;
            if (status === 401 || status === 403 || status === 404) {
                throw new PlatformRefusal(words, status, answer);
            }
            const decision = attempt + 1 >= (this.options.maxTries ?? Infinity)
                ? { retry: false, why: `Gave up after ${attempt + 1} tries.` }
                : (0,_retry_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .decideRetry */ .tE)({ kind: 'status', status, retryAfter: (0,_transport_js__WEBPACK_IMPORTED_MODULE_2__/* .headerValue */ .Z)(reply, 'retry-after') }, attempt, deadline - clock.now(), this.options.random ?? Math.random, Date.now(), `the decoration's time (the overall time-out, or its allowance past the check)`);
            if (!decision.retry) {
                const why = decision.why ? ` ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .textOf */ .b6)(decision.why)}` : '';
                throw new PlatformError(`${words}${why}`, { answer });
            }
            await clock.sleep(decision.delayMs);
        }
    }
    /** A text of the platform's, on one line, bounded, the token's forms out of it. */
    said(text) {
        return (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)((0,_secrets_js__WEBPACK_IMPORTED_MODULE_5__/* .redactSecrets */ .fp)(text, this.forms), _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .QUOTE_LIMITS */ .gJ.long);
    }
}
function parse(text, platform) {
    if (text.trim() === '')
        return undefined;
    try {
        return JSON.parse(text);
    }
    catch {
        throw new PlatformError(`${platform} answered with a body that is not JSON.`);
    }
}
/** The platform's error body (`{"message": …}`, `{"error": …}`) as a few words, or ''. */
function errorText(text) {
    let message;
    try {
        const body = JSON.parse(text);
        message = body['message'] ?? body['error'];
    }
    catch {
        return '';
    }
    return typeof message === 'string' ? message : message ? JSON.stringify(message) : '';
}


/***/ }),

/***/ 5062:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   GitHubApi: () => (/* binding */ GitHubApi),
/* harmony export */   a5: () => (/* binding */ isRateLimit),
/* harmony export */   apiBase: () => (/* binding */ apiBase),
/* harmony export */   c2: () => (/* binding */ statusOf),
/* harmony export */   githubSaid: () => (/* binding */ githubSaid)
/* harmony export */ });
/* unused harmony exports GITHUB_API_LIMITS, isRefusal */
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(448);
/**
 * GitHub's REST API as every GitHub feature asks it (the action's comment, check run and changed
 * lines, the command's decoration of a GitHub pull request from any CI): GitHubApi, the
 * platforms' one REST policy (src/http/rest-api.ts) with GitHub's token header and GraphQL beside
 * it, and GitHub's failures in words, told apart by the fields of the policy's errors (the
 * status, GitHub's words, its rate limit).
 */


const GITHUB_API_LIMITS = {
    /** One reply of the API (100 comments of 65,536 characters, JSON-escaped, fit). */
    replyBytes: 64 * 1024 * 1024,
    /** Tries of one request answered 5xx or 429: Octokit's retry plugin makes 3 retries. */
    tries: 4
};
/** Who asks GitHub, unless the edge says: the tool and Node's version. */
const GITHUB_USER_AGENT = `sonar-quality-gate-action/1 (node ${process.version})`;
const DEFAULT_API_URL = 'https://api.github.com';
/** The API's address without a trailing slash, or undefined when it is not http(s). */
function apiBase(value) {
    const text = value?.trim() || DEFAULT_API_URL;
    try {
        const url = new URL(text);
        if (url.protocol !== 'https:' && url.protocol !== 'http:')
            return undefined;
        if (url.username || url.password)
            return undefined;
        return url.href.replace(/\/+$/, '');
    }
    catch {
        return undefined;
    }
}
/**
 * One GitHub API for one feature's requests: the platforms' REST policy (src/http/rest-api.ts:
 * the API's address and nowhere else, no redirect followed, replies bounded, 401/403/404 a
 * PlatformRefusal) with the token in `authorization`, 5xx and 429 tried at most
 * GITHUB_API_LIMITS.tries times (as Octokit's retry plugin does) within the decoration's time,
 * and GraphQL beside it (`/graphql`, or `/api/graphql` on GitHub Enterprise Server).
 *
 * @example const api = new GitHubApi({ token, apiUrl: 'https://api.github.com', deadline })
 */
class GitHubApi {
    rest;
    graphqlApi;
    constructor({ token, apiUrl, deadline, clock, userAgent = GITHUB_USER_AGENT }) {
        const api = (url) => new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .RestApi */ .RQ({
            platform: 'GitHub',
            apiUrl: new URL(url),
            token,
            headers: { authorization: `token ${token}`, 'x-github-api-version': '2022-11-28' },
            redirectAdvice: "Set GITHUB_API_URL to the address GitHub's API answers at.",
            userAgent,
            clock,
            deadline,
            maxTries: GITHUB_API_LIMITS.tries,
            maxReplyBytes: GITHUB_API_LIMITS.replyBytes
        });
        this.rest = api(apiUrl);
        // GitHub Enterprise Server answers REST at /api/v3 and GraphQL at /api/graphql.
        this.graphqlApi = api(apiUrl.replace(/\/api\/v3$/, '/api'));
    }
    /** `method` on `path` (under the API's address), with the query and the JSON body given. */
    request(method, path, options = {}) {
        return this.rest.request(method, path, options);
    }
    /** GraphQL's `data` for `query` and its variables; GraphQL's own errors are a PlatformError. */
    async graphql(query, variables) {
        const body = variables === undefined ? { query } : { query, variables };
        const reply = (await this.graphqlApi.request('POST', 'graphql', { body })).body;
        if (Array.isArray(reply?.errors) && reply.errors.length > 0) {
            const first = reply.errors[0];
            const said = typeof first?.message === 'string' ? first.message : 'an error';
            throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk(`GitHub's GraphQL API answered: ${this.rest.said(said)}`);
        }
        return reply?.data;
    }
    /** Ends the kept-alive connections. */
    close() {
        this.rest.close();
        this.graphqlApi.close();
    }
}
/** A 403 or 404 from GitHub: the token may not write (or see) what was asked. */
function isRefusal(error) {
    const status = statusOf(error);
    return (status === 403 || status === 404) && !isRateLimit(error);
}
/** A 403 or 429 that GitHub's rate limit gave. */
function isRateLimit(error) {
    const answer = answerOf(error);
    return (answer !== undefined && (answer.status === 403 || answer.status === 429) && answer.rateLimited);
}
/** An error's message on one line, bounded. */
function quote(error) {
    const message = error instanceof Error ? error.message : String(error);
    return (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(message, _review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.long), _review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.long);
}
/** What GitHub said, or that it did not reply. */
function githubSaid(error) {
    const answer = answerOf(error);
    if (answer)
        return `GitHub said: ${answer.status} ${answer.said}`.trimEnd();
    if (error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk && error.unanswered === undefined)
        return quote(error);
    const why = error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk ? error.unanswered : undefined;
    return `no reply from GitHub's API: ${why ?? quote(error)}`;
}
/** The HTTP status GitHub answered with; undefined when it did not answer. */
function statusOf(error) {
    return answerOf(error)?.status;
}
function answerOf(error) {
    return error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2 || error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk
        ? error.answer
        : undefined;
}


/***/ }),

/***/ 448:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BN: () => (/* reexport safe */ _findings_annotations_js__WEBPACK_IMPORTED_MODULE_2__.BN),
/* harmony export */   Jj: () => (/* reexport safe */ _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__.Jj),
/* harmony export */   M: () => (/* binding */ forgeStatus),
/* harmony export */   TH: () => (/* binding */ idOf),
/* harmony export */   TN: () => (/* reexport safe */ _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__.TN),
/* harmony export */   _C: () => (/* binding */ forgeRepository),
/* harmony export */   ab: () => (/* reexport safe */ _words_js__WEBPACK_IMPORTED_MODULE_5__.ab),
/* harmony export */   bA: () => (/* reexport safe */ _findings_annotations_js__WEBPACK_IMPORTED_MODULE_2__.bA),
/* harmony export */   gJ: () => (/* reexport safe */ _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__.gJ),
/* harmony export */   ll: () => (/* binding */ reviewSummary),
/* harmony export */   u4: () => (/* reexport safe */ _findings_changed_lines_js__WEBPACK_IMPORTED_MODULE_1__.u)
/* harmony export */ });
/* unused harmony export digestId */
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8521);
/* harmony import */ var _findings_changed_lines_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7424);
/* harmony import */ var _findings_annotations_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4808);
/* harmony import */ var _findings_finding_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4879);
/* harmony import */ var _findings_severity_scales_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(487);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(5846);







/**
 * The repository's address under a forge's API.
 *
 * @example forgeRepository({ owner: 'octo', repo: 'shop' }) // 'repos/octo/shop'
 */
function forgeRepository({ owner, repo }) {
    return `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
}
/**
 * A project's commit status as GitHub's API takes it, and Gitea's and Forgejo's, which follow it
 * (`state`, `context`, `description`, `target_url`): success or failure as the gate is judged,
 * its texts cut to `limits`.
 */
function forgeStatus(verdict, limits) {
    return {
        state: verdict.failing ? 'failure' : 'success',
        context: (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .cut */ .Jj)(`sonarqube/${verdict.label}`, limits.contextChars),
        description: (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .cut */ .Jj)(verdict.words, limits.descriptionChars),
        ...(verdict.dashboard ? { target_url: verdict.dashboard } : {})
    };
}
/** The one line of a forge's review that holds the issues' comments (GitHub, Gitea). */
function reviewSummary(comments) {
    return `SonarQube: ${comments} new ${comments === 1 ? 'issue' : 'issues'} on the lines this pull request changes.`;
}
/**
 * A project's id on a platform that keys statuses and reports by one: `sonarqube-` and the key's
 * digest, so no key can break an address, and two keys never share one.
 *
 * @example digestId('shop') // 'sonarqube-5fa8a1…' (30 characters)
 */
function digestId(key, length = 20) {
    // Loaded when first used: the action's start does without node:crypto.
    const { createHash } = process.getBuiltinModule('node:crypto');
    return `sonarqube-${createHash('sha256').update(key).digest('hex').slice(0, length)}`;
}
/** An object's `id` when it is a positive whole number. */
function idOf(value) {
    const id = value?.id;
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}


/***/ })

};
