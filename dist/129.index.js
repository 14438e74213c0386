export const id = 129;
export const ids = [129,62,701];
export const modules = {

/***/ 9129:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   onPullRequestLines: () => (/* binding */ onPullRequestLines)
/* harmony export */ });
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9373);
/* harmony import */ var _gate_on_changed_lines_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7157);
/* harmony import */ var _platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5062);
/* harmony import */ var _platforms_github_github_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1701);




/**
 * On a pull request whose analysis is of a branch (Community Edition has no pull-request
 * analysis): the branch's new-code issues narrowed to the lines the pull request adds or changes,
 * read once from GitHub's pull-request files API. When the lines cannot be read, one line says
 * so and the issues stay as they are. Analyses of the pull request itself are left alone.
 *
 * @example outcomes = await onPullRequestLines(outcomes, { pullRequest, token, env: process.env, log })
 */
async function onPullRequestLines(outcomes, options) {
    if (!(0,_gate_on_changed_lines_js__WEBPACK_IMPORTED_MODULE_3__/* .hasBranchAnalyses */ .h)(outcomes))
        return outcomes;
    const number = options.pullRequest.issue_number;
    let changed;
    try {
        changed = await readChangedLines(options);
    }
    catch (error) {
        options.log.info(`The lines pull request #${number} changes could not be read (${(0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__.githubSaid)(error)}): the new code's issues are shown as they are, not narrowed to its lines. Leave githubToken at its default, with permissions pull-requests: read.`);
        return outcomes;
    }
    return (0,_gate_on_changed_lines_js__WEBPACK_IMPORTED_MODULE_3__/* .narrowToChangedLines */ .o)(outcomes, changed, `pull request #${number}`, options.log);
}
/** The pull request's changed lines per file, page by page (at most 30 pages of 100 files). */
async function readChangedLines(options) {
    const { pullRequest, token } = options;
    if (!token)
        throw new Error('no GitHub token');
    const apiUrl = (0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__.apiBase)(options.env['GITHUB_API_URL']);
    if (!apiUrl)
        throw new Error('GITHUB_API_URL is not an http(s) address');
    const api = new _platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_1__.GitHubApi({ token, apiUrl, deadline: options.decorateBy, clock: _clock_js__WEBPACK_IMPORTED_MODULE_0__/* .systemClock */ .m });
    try {
        const { owner, repo, issue_number: number } = pullRequest;
        return await (0,_platforms_github_github_js__WEBPACK_IMPORTED_MODULE_2__.listChangedLines)(api, `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, number);
    }
    finally {
        api.close();
    }
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

/***/ 7157:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   h: () => (/* binding */ hasBranchAnalyses),
/* harmony export */   o: () => (/* binding */ narrowToChangedLines)
/* harmony export */ });
/* harmony import */ var _findings_changed_lines_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7424);

/**
 * Whether any analysis is of a branch whose new issues are the new code's, not a pull
 * request's own: the analyses Community Edition makes of a pull or merge request's branch.
 */
function hasBranchAnalyses(outcomes) {
    return outcomes.some(isBranchAnalysis);
}
function isBranchAnalysis(outcome) {
    return (outcome.read &&
        outcome.result.newIssues?.read === true &&
        outcome.result.newIssues.scope.kind === 'new-code');
}
/**
 * The branch analyses' new issues narrowed to the lines a pull or merge request changes (`request`
 * names it: "pull request #12", "merge request !7"), each analysis's count in one line of the
 * log; analyses of the request itself are left alone.
 *
 * @example outcomes = narrowToChangedLines(outcomes, changed, 'merge request !7', log)
 */
function narrowToChangedLines(outcomes, changed, request, log) {
    return outcomes.map((outcome) => {
        if (!isBranchAnalysis(outcome) || !outcome.read)
            return outcome;
        const newIssues = outcome.result.newIssues;
        if (!newIssues?.read)
            return outcome;
        const findings = (0,_findings_changed_lines_js__WEBPACK_IMPORTED_MODULE_0__/* .onChangedLines */ .J)(newIssues.findings, changed);
        log.info(`${findings.length} of the ${newIssues.findings.length} new-code issues read are on the lines ${request} changes.`);
        return {
            ...outcome,
            result: {
                ...outcome.result,
                newIssues: { ...newIssues, findings, total: findings.length, onLinesOf: request }
            }
        };
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

/***/ 1701:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  GATE_CHECK_RUN: () => (/* binding */ GATE_CHECK_RUN),
  GITHUB_LIMITS: () => (/* binding */ GITHUB_LIMITS),
  accountId: () => (/* binding */ accountId),
  githubPlatform: () => (/* binding */ githubPlatform),
  listChangedLines: () => (/* binding */ listChangedLines),
  ownAccount: () => (/* binding */ ownAccount)
});

// EXTERNAL MODULE: ./src/http/rest-api.ts
var rest_api = __webpack_require__(9837);
// EXTERNAL MODULE: ./src/platforms/review-platform.ts
var review_platform = __webpack_require__(448);
;// CONCATENATED MODULE: ./src/platforms/github/check-run.ts
/**
 * GitHub's report: a project's check run on the commit, completed, its located new issues as
 * annotations on the diff and its verdict and first issues as the summary. Shapes from GitHub's
 * REST description (2022-11-28): `POST /repos/{owner}/{repo}/check-runs` (`name`, `head_sha`,
 * `status`, `conclusion`, `output`: `title`, `summary` of at most 65,535 characters,
 * `annotations` of at most 50 a request: `path`, `start_line`, `end_line`, `start_column` and
 * `end_column` within one line, `annotation_level` notice/warning/failure, `title`, `message`),
 * then `PATCH /repos/{owner}/{repo}/check-runs/{id}` with each further 50, which GitHub adds to
 * the run's. Only a GitHub App's installation token may create one: another token is refused (403).
 */

const CHECK_RUN_LIMITS = {
    /** Annotations a check run carries: 20 requests of 50. */
    annotations: 1000,
    perRequest: 50,
    /** The summary, under GitHub's 65,535 characters with the notes around it. */
    summaryChars: 60_000
};
const CHECK_LEVEL = { error: 'failure', warning: 'warning', notice: 'notice' };
/**
 * Writes the project's check run on `commit`, the most severe located issues first; returns how
 * many annotations it carries.
 *
 * @example await writeCheckRun(github, 'repos/octo/shop', sha, verdict, { name: (v) => `sonarqube/${v.label}`, passing: 'success' })
 */
async function writeCheckRun(github, repository, commit, verdict, style) {
    const located = verdict.findings.filter((finding) => finding.file !== undefined);
    const annotations = located
        .slice(0, CHECK_RUN_LIMITS.annotations)
        .map((finding) => checkAnnotation(finding, verdict.say));
    const total = verdict.newIssues ?? verdict.findings.length;
    const notes = [
        annotations.length < located.length
            ? `<p>${located.length - annotations.length} more located issues are not annotated: a check run carries at most ${CHECK_RUN_LIMITS.annotations}.</p>`
            : '',
        verdict.findings.length > located.length
            ? `<p>${verdict.findings.length - located.length} issues have no file in this checkout, so no annotation: they are listed here.</p>`
            : ''
    ].join('');
    const output = (batch) => ({
        title: (0,review_platform/* cut */.Jj)(verdict.newIssues === undefined
            ? verdict.words
            : `${total} new ${total === 1 ? 'issue' : 'issues'}`, 255),
        summary: `${verdict.reportHtml(CHECK_RUN_LIMITS.summaryChars)}${verdict.say(notes)}`,
        annotations: batch
    });
    const checkRuns = `${repository}/check-runs`;
    const first = annotations.slice(0, CHECK_RUN_LIMITS.perRequest);
    const { body } = await github.request('POST', checkRuns, {
        body: {
            name: (0,review_platform/* cut */.Jj)(style.name(verdict), 255),
            head_sha: commit,
            status: 'completed',
            conclusion: conclusionOf(verdict, style),
            output: output(first)
        }
    });
    const id = body?.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id))
        return first.length;
    for (let at = first.length; at < annotations.length; at += CHECK_RUN_LIMITS.perRequest) {
        const batch = annotations.slice(at, at + CHECK_RUN_LIMITS.perRequest);
        await github.request('PATCH', `${checkRuns}/${id}`, { body: { output: output(batch) } });
    }
    return annotations.length;
}
/** Failure for a failing gate; neutral for a project not analysed (a required check passes it). */
function conclusionOf(verdict, style) {
    if (verdict.failing)
        return 'failure';
    return verdict.notAnalysed ? 'neutral' : style.passing;
}
/**
 * A located finding as a check run's annotation (findingAnnotation's words), its title and
 * message through the sink: a token the server quotes in an issue never reaches GitHub.
 */
function checkAnnotation(finding, say) {
    const { message, where } = (0,review_platform/* findingAnnotation */.BN)(finding);
    const region = finding.region;
    const oneLineRegion = region && region.startLine === region.endLine;
    return {
        // A path is the checkout's; one that held the token would not be placed, but not leak it.
        path: say(finding.file),
        start_line: region?.startLine ?? 1,
        end_line: region?.endLine ?? 1,
        ...(oneLineRegion && region.startColumn !== undefined && region.endColumn !== undefined
            ? { start_column: region.startColumn, end_column: region.endColumn }
            : {}),
        annotation_level: CHECK_LEVEL[review_platform/* LEVEL_OF_SEVERITY */.bA[finding.severity]],
        title: (0,review_platform/* cut */.Jj)(say(where.title ?? finding.rule), 255),
        message: (0,review_platform/* cut */.Jj)(say(message), review_platform/* QUOTE_LIMITS */.gJ.long + 500)
    };
}

// EXTERNAL MODULE: ./src/platforms/github/github-api.ts
var github_api = __webpack_require__(5062);
;// CONCATENATED MODULE: ./src/platforms/github/github.ts
/**
 * GitHub as a review platform, from any CI: per project a commit status on the commit (or, where
 * asked, a check run standing for it: check-run.ts), and on a
 * pull request the project's comment (HTML blocks, found again by its marker and its author) and
 * the issues' comments on the lines the pull request changes, started as **one review** (one
 * request, one notification) and resolved once their issue is gone. Shapes from GitHub's REST
 * description (api.github.com, 2022-11-28) and its GraphQL API:
 * - `POST /repos/{owner}/{repo}/statuses/{sha}` (`state` error/failure/pending/success,
 *   `target_url`, `description`, `context`; GitHub refuses a description over 140 characters);
 * - `GET`, `POST /repos/{owner}/{repo}/issues/{number}/comments` (paged by `page`, `per_page`
 *   100, `Link`), `PATCH /repos/{owner}/{repo}/issues/comments/{id}`;
 * - `GET /repos/{owner}/{repo}/pulls/{number}/files` (`filename`, `status`, `patch`; at most
 *   3,000 files, 100 a page);
 * - `POST /repos/{owner}/{repo}/pulls/{number}/reviews` (`event` COMMENT, `body`, `comments[]`:
 *   `path`, `line`, `side` RIGHT, `body`): a line not in the diff fails the whole review (422), so
 *   only lines the patch adds are commented on;
 * - the review threads (`pullRequest.reviewThreads`: `id`, `isResolved`, the first comment's
 *   `body` and author's `databaseId`) and `resolveReviewThread`, which only GraphQL has;
 * - the token's own account: `GET /user`, or for an installation token (which GitHub refuses
 *   it, 403) GraphQL's `viewer`.
 */




/** GitHub's bounds as the decoration keeps them (exported for the tests that read them). */
const GITHUB_LIMITS = {
    /** GitHub refuses a status's description over 140 characters. */
    descriptionChars: 140,
    /** A status's context: GitHub names no limit; the key is cut to keep it readable. */
    contextChars: 100,
    /** Pages of 100 comments searched for ours: 3,000 comments. */
    commentPages: 30,
    /** Pages of 100 files: GitHub lists at most 3,000 files of a pull request. */
    filePages: 30,
    /** Pages of 100 review threads read to find ours: 1,000 threads. */
    threadPages: 10,
    perPage: 100
};
/**
 * A project's check run standing for its commit status: the status's name, concluded as the
 * gate is judged; a commit status where the token may not create check runs.
 */
const GATE_CHECK_RUN = {
    name: (verdict) => (0,review_platform/* forgeStatus */.M)(verdict, GITHUB_LIMITS).context,
    passing: 'success',
    orStatus: true
};
/**
 * The GitHub repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(githubPlatform(new GitHubApi({ token, apiUrl, clock, deadline }), target), outcomes, options)
 */
function githubPlatform(github, target, { checkRuns } = {}) {
    const repository = (0,review_platform/* forgeRepository */._C)(target);
    const number = target.pullRequest;
    const status = (verdict) => setStatus(github, repository, target.commit, verdict);
    // Check runs where the token may; once refused (not an app's token, or no checks permission),
    // each project's commit status stands for its check run.
    let checksRefused;
    const checkRun = checkRuns &&
        (async (verdict) => {
            if (!checksRefused) {
                try {
                    return await writeCheckRun(github, repository, target.commit, verdict, checkRuns);
                }
                catch (error) {
                    const refused = error instanceof rest_api/* PlatformRefusal */.E2 && error.status === 403;
                    if (!refused || !checkRuns.orStatus || (0,github_api/* isRateLimit */.a5)(error))
                        throw error;
                    checksRefused = error;
                }
            }
            await status(verdict);
            return `GitHub: the token may not create check runs (${(0,github_api.githubSaid)(checksRefused)}); a GitHub App's installation token with the checks write permission may. The commit status for ${verdict.name} is set instead.`;
        });
    return {
        words: {
            name: 'GitHub',
            status: 'commit status',
            comment: 'comment',
            report: 'check run',
            check: (0,review_platform/* msg */.ab) `that ${target.names.api} is GitHub's REST API and that GitHub is up`
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.commit,
        setStatus: checkRun ? undefined : status,
        writeReport: checkRun,
        review: number === undefined
            ? undefined
            : pullRequest(github, {
                repository,
                number,
                owner: target.owner,
                repo: target.repo,
                commit: target.commit
            }),
        noReview: (0,review_platform/* msg */.ab) `Not a pull request (no ${target.names.pullRequest}): the commit statuses are set, and no comment is written.`,
        close: () => github.close()
    };
}
/** The project's commit status: success or failure as the policy judges the gate. */
async function setStatus(github, repository, commit, verdict) {
    await github.request('POST', `${repository}/statuses/${encodeURIComponent(commit)}`, {
        body: (0,review_platform/* forgeStatus */.M)(verdict, GITHUB_LIMITS)
    });
}
function pullRequest(github, ref) {
    const comments = `${ref.repository}/issues/${ref.number}/comments`;
    return {
        name: `pull request #${ref.number}`,
        kind: 'pull request',
        commit: ref.commit,
        markup: 'html',
        ownIdentity: () => ownAccount(github),
        changedLines: () => listChangedLines(github, ref.repository, ref.number),
        verdicts: {
            keyedBy: 'marker',
            list: () => listComments(github, comments),
            async create(_verdict, body) {
                const { body: reply } = await github.request('POST', comments, { body: { body } });
                return { id: accountId(reply?.id) };
            },
            async update(comment, body) {
                try {
                    await github.request('PATCH', `${ref.repository}/issues/comments/${comment.id}`, {
                        body: { body }
                    });
                    return true;
                }
                catch (error) {
                    // Deleted since it was listed: written anew.
                    if ((0,github_api/* statusOf */.c2)(error) === 404 && !(0,github_api/* isRateLimit */.a5)(error))
                        return false;
                    throw error;
                }
            }
        },
        inline: {
            step: 'the review of the new issues',
            started: 'comments started in one review',
            resolved: 'resolved',
            list: () => reviewThreads(github, ref),
            async start(comments) {
                await github.request('POST', `${ref.repository}/pulls/${ref.number}/reviews`, {
                    body: {
                        event: 'COMMENT',
                        body: (0,review_platform/* reviewSummary */.ll)(comments.length),
                        comments: comments.map(({ file, line, body }) => ({
                            path: file,
                            line,
                            side: 'RIGHT',
                            body
                        }))
                    }
                });
            },
            async resolve(thread) {
                await github.graphql('mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id } } }', { id: thread.id });
                return true;
            }
        }
    };
}
/**
 * The token's own account id. A user's token (a personal access token, a GitHub App's user
 * token) reads it from `GET /user`. An installation token (the job's GITHUB_TOKEN, another
 * app's) may not (GitHub answers 403, "Resource not accessible by integration"); GraphQL's
 * `viewer` names the app's bot account for it: `github-actions[bot]` for the job's token, and an
 * app's own bot, never another's, for an app's token.
 */
async function ownAccount(github) {
    try {
        const { body } = await github.request('GET', 'user');
        return accountId(body?.id);
    }
    catch (error) {
        if ((0,github_api/* statusOf */.c2)(error) !== 403)
            throw error;
    }
    const reply = await github.graphql('query { viewer { databaseId } }');
    return accountId(reply?.viewer?.databaseId);
}
/** A positive whole number id, or undefined. */
function accountId(id) {
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
/**
 * The pull request's comments, a page at a time (at most 30 pages of 100). The next page is
 * asked for by its number, never by the address the reply names: the token goes to the API's
 * address only.
 */
async function listComments(github, path) {
    const found = [];
    for (let page = 1; page <= GITHUB_LIMITS.commentPages; page++) {
        const reply = await github.request('GET', path, {
            query: { per_page: String(GITHUB_LIMITS.perPage), page: String(page) }
        });
        const items = reply.body;
        if (!Array.isArray(items))
            break;
        for (const item of items) {
            const { id, body, user } = (item ?? {});
            const comment = accountId(id);
            if (comment === undefined || typeof body !== 'string')
                continue;
            found.push({ id: comment, body, author: accountId(user?.id) });
        }
        if (items.length === 0 || !/rel="next"/.test(reply.header('link') ?? ''))
            break;
    }
    return found;
}
/**
 * The lines the pull request adds or changes, per file, page by page (at most 30 pages of 100
 * files): a file without a patch (GitHub leaves it out for a large diff, and for a binary file)
 * counts as changed throughout; a removed file has none.
 *
 * @example const changed = await listChangedLines(github, 'repos/octo/shop', 7)
 */
async function listChangedLines(github, repository, number) {
    const changed = new Map();
    for (let page = 1; page <= GITHUB_LIMITS.filePages; page++) {
        const { body: files } = await github.request('GET', `${repository}/pulls/${number}/files`, {
            query: { per_page: String(GITHUB_LIMITS.perPage), page: String(page) }
        });
        if (!Array.isArray(files))
            break;
        for (const file of files) {
            const { filename, patch, status } = (file ?? {});
            if (typeof filename !== 'string' || status === 'removed')
                continue;
            changed.set(filename, typeof patch === 'string' ? (0,review_platform/* addedLines */.u4)(patch) : 'whole');
        }
        if (files.length < GITHUB_LIMITS.perPage)
            break;
    }
    return changed;
}
const THREADS_QUERY = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        nodes { id isResolved comments(first: 1) { nodes { body author { ... on User { databaseId } ... on Bot { databaseId } } } } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`;
/** The pull request's review threads with their first comment, through GraphQL, bounded. */
async function reviewThreads(github, ref) {
    const threads = [];
    let after = null;
    for (let page = 0; page < GITHUB_LIMITS.threadPages; page++) {
        const data = (await github.graphql(THREADS_QUERY, {
            owner: ref.owner,
            repo: ref.repo,
            number: ref.number,
            after
        }));
        const connection = data?.repository?.pullRequest?.reviewThreads;
        for (const node of Array.isArray(connection?.nodes) ? connection.nodes : []) {
            const first = node?.comments?.nodes?.[0];
            if (typeof node?.id !== 'string' || !/^[\w=-]{1,200}$/.test(node.id))
                continue;
            threads.push({
                id: node.id,
                body: typeof first?.body === 'string' ? first.body : undefined,
                resolved: node.isResolved === true,
                author: accountId(first?.author?.databaseId)
            });
        }
        const next = connection?.pageInfo;
        if (next?.hasNextPage !== true || typeof next.endCursor !== 'string')
            break;
        after = next.endCursor;
    }
    return threads;
}
/** The one warning for a refusal: what the token, the repository or the pull request lacks. */
function refusalWords(error, target) {
    const base = 'GitHub refused the decoration; the verdict and the exit code are unchanged.';
    const repository = (0,review_platform/* oneLine */.TN)(`${target.owner}/${target.repo}`, review_platform/* QUOTE_LIMITS */.gJ.short);
    if ((0,github_api/* isRateLimit */.a5)(error)) {
        return `${base} GitHub's API rate limit was reached (${error.status}): the next run decorates again.`;
    }
    switch (error.status) {
        case 401:
            return `${base} The token in GITHUB_TOKEN is not valid (401): give a personal access token, or a GitHub App's installation token.`;
        case 403:
            return `${base} The token in GITHUB_TOKEN may not write to ${repository} (403): a fine-grained token needs "Commit statuses" and "Pull requests" read and write; a classic token the repo scope; an installation token the statuses and pull_requests permissions.`;
        default:
            return (0,review_platform/* msg */.ab) `${base} GitHub shows this token no repository ${repository}${target.pullRequest === undefined ? '' : ` or pull request #${target.pullRequest}`} (404): check ${target.names.repository} and ${target.names.pullRequest}, and that the token may see the repository.`;
    }
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
