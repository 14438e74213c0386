export const id = 819;
export const ids = [819];
export const modules = {

/***/ 819:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  RestApi: () => (/* reexport */ RestApi),
  decorate: () => (/* reexport */ decorate),
  gitHubApiOf: () => (/* binding */ gitHubApiOf),
  giteaPlatform: () => (/* reexport */ giteaPlatform),
  githubPlatform: () => (/* reexport */ githubPlatform),
  githubSaid: () => (/* reexport */ githubSaid),
  isRateLimit: () => (/* reexport */ isRateLimit),
  listChangedLines: () => (/* reexport */ listChangedLines)
});

// EXTERNAL MODULE: ./src/clock.ts
var clock = __webpack_require__(9373);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(7194);
// EXTERNAL MODULE: ./src/http/retry-policy.ts
var retry_policy = __webpack_require__(7593);
// EXTERNAL MODULE: ./src/http/transport.ts + 1 modules
var transport = __webpack_require__(7779);
// EXTERNAL MODULE: ./src/untrusted-text.ts
var untrusted_text = __webpack_require__(8521);
// EXTERNAL MODULE: ./src/words.ts
var src_words = __webpack_require__(5846);
;// CONCATENATED MODULE: ./src/http/rest-api.ts






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
        this.forms = (0,secrets/* tokenForms */.py)(options.token);
        this.transport = new transport/* HttpTransport */.G5({
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
                const unanswered = this.said((0,errors/* messageOf */.bD)(error));
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
                    header: (name) => (0,transport/* headerValue */.Z)(reply, name)
                };
            }
            const said = this.said(errorText(text));
            const answer = {
                status,
                said,
                rateLimited: (0,transport/* headerValue */.Z)(reply, 'x-ratelimit-remaining') === '0' || /rate limit/i.test(said)
            };
            const words = `${platform} answered ${status} to ${shown}${said ? `: ${said}` : ''}`;
            if (status === 401 || status === 403 || status === 404) {
                throw new PlatformRefusal(words, status, answer);
            }
            const decision = attempt + 1 >= (this.options.maxTries ?? Infinity)
                ? { retry: false, why: `Gave up after ${attempt + 1} tries.` }
                : (0,retry_policy/* decideRetry */.tE)({ kind: 'status', status, retryAfter: (0,transport/* headerValue */.Z)(reply, 'retry-after') }, attempt, deadline - clock.now(), this.options.random ?? Math.random, Date.now(), `the decoration's time (the overall time-out, or its allowance past the check)`);
            if (!decision.retry) {
                throw new PlatformError((0,src_words/* textOf */.b6)((0,retry_policy/* afterLastTry */.kS)(words, decision.why)), { answer });
            }
            await clock.sleep(decision.delayMs);
        }
    }
    /** A text of the platform's, on one line, bounded, the token's forms out of it. */
    said(text) {
        return (0,untrusted_text/* oneLine */.TN)((0,secrets/* redactSecrets */.fp)(text, this.forms), untrusted_text/* QUOTE_LIMITS */.gJ.long);
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

// EXTERNAL MODULE: ./src/findings/changed-lines.ts
var changed_lines = __webpack_require__(7424);
// EXTERNAL MODULE: ./src/findings/annotations.ts
var annotations = __webpack_require__(4808);
// EXTERNAL MODULE: ./src/findings/finding.ts
var findings_finding = __webpack_require__(4879);
// EXTERNAL MODULE: ./src/findings/severity-scales.ts
var severity_scales = __webpack_require__(487);
;// CONCATENATED MODULE: ./src/platforms/review-platform.ts









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
        context: (0,untrusted_text/* cut */.Jj)(`sonarqube/${verdict.label}`, limits.contextChars),
        description: (0,untrusted_text/* cut */.Jj)(verdict.words, limits.descriptionChars),
        ...(verdict.dashboard ? { target_url: verdict.dashboard } : {})
    };
}
/** Sets the project's commit status (forgeStatus's) on the target's commit. */
async function setForgeStatus(api, target, verdict, limits) {
    const path = `${forgeRepository(target)}/statuses/${encodeURIComponent(target.commit)}`;
    await api.request('POST', path, { body: forgeStatus(verdict, limits) });
}
/**
 * A forge's verdict comments: its pull request's issue's comments, found again by their marker,
 * listed by `list` from their address; one deleted since it was listed (404) is written anew.
 */
function forgeVerdicts(api, target, list) {
    const repository = forgeRepository(target);
    const comments = `${repository}/issues/${target.pullRequest}/comments`;
    return {
        keyedBy: 'marker',
        list: () => list(comments),
        async create(_verdict, body) {
            return { id: idOf((await api.request('POST', comments, { body: { body } })).body) };
        },
        async update(comment, body) {
            const path = `${repository}/issues/comments/${comment.id}`;
            try {
                await api.request('PATCH', path, { body: { body } });
                return true;
            }
            catch (error) {
                if (isNotFound(error))
                    return false;
                throw error;
            }
        }
    };
}
/** A forge's comment as listed (`id`, `body`, `user`), its shape checked. */
function forgeComment(item) {
    const { body, user } = (item ?? {});
    const id = idOf(item);
    return id === undefined || typeof body !== 'string' ? [] : [{ id, body, author: idOf(user) }];
}
/**
 * Starts the issues' comments as one review of a forge's pull request (`event` COMMENT): one
 * request, one notification; `onLine` places each on its line as the forge asks.
 */
async function startForgeReview(api, target, comments, onLine) {
    const issues = comments.length === 1 ? 'issue' : 'issues';
    await api.request('POST', `${forgeRepository(target)}/pulls/${target.pullRequest}/reviews`, {
        body: {
            event: 'COMMENT',
            body: `SonarQube: ${comments.length} new ${issues} on the lines this pull request changes.`,
            comments: comments.map(onLine)
        }
    });
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
    return positiveId(value?.id);
}
/** `id` when it is a positive whole number. */
function positiveId(id) {
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
/** A 404: what was asked is not there (deleted, or a route an older server lacks). */
function isNotFound(error) {
    return error instanceof PlatformRefusal && error.status === 404;
}
/** Rethrows `error` unless it is a 404: a request's `.catch` where nothing there is no failure. */
function ignoreNotFound(error) {
    if (!isNotFound(error))
        throw error;
}
/** What a build status's texts may take on both Bitbucket's. */
const BUILD_STATUS_CHARS = 255;
/**
 * A project's build status as both Bitbucket's take it: keyed by the project key's digest, so the
 * same key replaces it; `url` is required, so `orUrl` when the dashboard is unknown.
 */
function buildStatus(verdict, orUrl) {
    return {
        key: digestId(verdict.key),
        state: verdict.failing ? 'FAILED' : 'SUCCESSFUL',
        name: verdict.say(cut(`sonarqube/${oneLine(verdict.key)}`, BUILD_STATUS_CHARS)),
        url: verdict.dashboard ?? orUrl,
        description: cut(verdict.words, BUILD_STATUS_CHARS)
    };
}
/**
 * A platform's one warning for a refusal: that it refused, and what the token (401), its rights
 * (403) or what it names (404, and any other status) lack.
 */
function refusalSaid(name, status, lacks) {
    const why = status === 401 || status === 403 ? lacks[status] : lacks[404];
    return (0,src_words/* msg */.ab) `${name} refused the decoration; the verdict and the exit code are unchanged. ${why}`;
}

;// CONCATENATED MODULE: ./src/platforms/github/github-api.ts
/**
 * GitHub's REST API as every GitHub feature asks it (the action's comment, check run and changed
 * lines, the command's decoration of a GitHub pull request from any CI): GitHubApi, and GitHub's
 * failures in words, told apart by the fields of the policy's errors (the status, GitHub's words,
 * its rate limit).
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
 * One GitHub API for one feature's requests: the platforms' REST policy (src/http/rest-api.ts)
 * with the token in `authorization`, 5xx and 429 tried at most GITHUB_API_LIMITS.tries times (as
 * Octokit's retry plugin does) within the decoration's time, and GraphQL beside it (`/graphql`,
 * or `/api/graphql` on GitHub Enterprise Server).
 *
 * @example const api = new GitHubApi({ token, apiUrl: 'https://api.github.com', deadline })
 */
class GitHubApi extends RestApi {
    graphqlApi;
    constructor({ token, apiUrl, deadline, clock, userAgent = GITHUB_USER_AGENT }) {
        const options = (url) => ({
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
        super(options(apiUrl));
        // GitHub Enterprise Server answers REST at /api/v3 and GraphQL at /api/graphql.
        this.graphqlApi = new RestApi(options(apiUrl.replace(/\/api\/v3$/, '/api')));
    }
    /** GraphQL's `data` for `query` and its variables; GraphQL's own errors are a PlatformError. */
    async graphql(query, variables) {
        const body = variables === undefined ? { query } : { query, variables };
        const reply = (await this.graphqlApi.request('POST', 'graphql', { body })).body;
        if (Array.isArray(reply?.errors) && reply.errors.length > 0) {
            const first = reply.errors[0];
            const said = typeof first?.message === 'string' ? first.message : 'an error';
            throw new PlatformError(`GitHub's GraphQL API answered: ${this.said(said)}`);
        }
        return reply?.data;
    }
    close() {
        super.close();
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
    return (0,untrusted_text/* oneLine */.TN)((0,untrusted_text/* cut */.Jj)(message, untrusted_text/* QUOTE_LIMITS */.gJ.long), untrusted_text/* QUOTE_LIMITS */.gJ.long);
}
/** What GitHub said, or that it did not reply. */
function githubSaid(error) {
    const answer = answerOf(error);
    if (answer)
        return `GitHub said: ${answer.status} ${answer.said}`.trimEnd();
    if (error instanceof PlatformError && error.unanswered === undefined)
        return quote(error);
    const why = error instanceof PlatformError ? error.unanswered : undefined;
    return `no reply from GitHub's API: ${why ?? quote(error)}`;
}
/** The HTTP status GitHub answered with; undefined when it did not answer. */
function statusOf(error) {
    return answerOf(error)?.status;
}
function answerOf(error) {
    return error instanceof PlatformRefusal || error instanceof PlatformError
        ? error.answer
        : undefined;
}

// EXTERNAL MODULE: ./src/fail-policy.ts
var fail_policy = __webpack_require__(6654);
// EXTERNAL MODULE: ./src/gate/on-changed-lines.ts
var on_changed_lines = __webpack_require__(7157);
// EXTERNAL MODULE: ./src/gate/outcome.ts
var gate_outcome = __webpack_require__(5163);
// EXTERNAL MODULE: ./src/report/dashboard-link.ts
var dashboard_link = __webpack_require__(67);
// EXTERNAL MODULE: ./src/report/new-issues-block.ts
var new_issues_block = __webpack_require__(9437);
// EXTERNAL MODULE: ./src/report/markup.ts
var report_markup = __webpack_require__(8132);
;// CONCATENATED MODULE: ./src/report/issue-discussion.ts



const ISSUE_MARKER_NAME = 'sonar-issue: ';
/**
 * The hidden first line of a discussion about one issue: its key URL-encoded (no key can close
 * the comment or break the line), by which a later run finds the discussion again.
 *
 * @example issueMarker('AYIssue00001') // '<!-- sonar-issue: AYIssue00001 -->'
 */
function issueMarker(key, markup = report_markup/* HTML_MARKUP */.xe) {
    return markup.hidden(`${ISSUE_MARKER_NAME}${encodeURIComponent((0,untrusted_text/* wellFormed */.ES)((0,untrusted_text/* cut */.Jj)(key, untrusted_text/* QUOTE_LIMITS */.gJ.short)))}`);
}
/** The issue key a discussion's first note carries in its marker line, if any. */
function issueKeyOf(body) {
    const key = new RegExp(`^${ISSUE_MARKER_NAME}(\\S*)$`).exec((0,report_markup/* hiddenLine */.re)(body, 0) ?? '')?.[1];
    if (key === undefined)
        return undefined;
    try {
        return decodeURIComponent(key);
    }
    catch {
        return undefined;
    }
}
/**
 * A discussion about one new issue on the line of the diff it stands on: its hidden marker line
 * (by which a later run finds it again: never a second one for the issue, and resolved once the
 * issue is gone), then the issue in one paragraph (severity, message, rule linked to the issue on
 * the server), in `markup`, every server value through its gate, the whole through the sink.
 *
 * @example issueDiscussionBody(finding, sink)
 */
function issueDiscussionBody(finding, sink, markup = report_markup/* HTML_MARKUP */.xe) {
    const rule = markup.text(finding.ruleName ?? finding.rule);
    const words = `${new_issues_block/* SEVERITY_ICONS */.J3[finding.severity]} ${markup.strong(markup.text(finding.severityWord))} ${markup.text(finding.message, untrusted_text/* QUOTE_LIMITS */.gJ.long)} (${markup.link(finding.url, rule)})`;
    return sink.text([issueMarker(finding.key, markup), markup.paragraph([words])].join(markup.between));
}

// EXTERNAL MODULE: ./src/report/no-references.ts
var no_references = __webpack_require__(3282);
// EXTERNAL MODULE: ./src/report/comment-settings.ts
var comment_settings = __webpack_require__(7349);
// EXTERNAL MODULE: ./src/report/evidence-link.ts
var evidence_link = __webpack_require__(3398);
// EXTERNAL MODULE: ./src/report/fitted-block.ts
var fitted_block = __webpack_require__(6972);
// EXTERNAL MODULE: ./src/report/summary.ts
var summary = __webpack_require__(7994);
// EXTERNAL MODULE: ./src/report/wording.ts
var wording = __webpack_require__(5594);
;// CONCATENATED MODULE: ./src/report/pull-request-comment-body.ts











const MARKER_NAME = 'sonar-quality-gate: ';
/**
 * The hidden first line of the comment for a project, in `markup` (an HTML comment by default;
 * a link reference definition in Markdown). The key is URL-encoded, so no key can close the
 * comment (`>` is `%3E`, `"` is `%22`), break its line or hide another marker inside it; it is
 * cut to 1,000 characters first, and a lone surrogate (which encodeURIComponent refuses) becomes
 * U+FFFD.
 *
 * @example commentMarker('my project') // '<!-- sonar-quality-gate: my%20project -->'
 */
function commentMarker(projectKey, markup = report_markup/* HTML_MARKUP */.xe) {
    const key = (0,untrusted_text/* wellFormed */.ES)((0,untrusted_text/* cut */.Jj)(projectKey, comment_settings/* COMMENT_LIMITS */.R.markerKeyChars));
    return markup.hidden(`${MARKER_NAME}${encodeURIComponent(key)}`);
}
/**
 * The marker of an outcome's comment: its project key, or else where the analysis came from
 * (the report file, or the task or analysis asked for by its id), as the job summary names it.
 */
function outcomeMarker(outcome, markup = report_markup/* HTML_MARKUP */.xe) {
    return commentMarker((0,gate_outcome/* projectName */.j1)(outcome), markup);
}
/**
 * The marker a comment's body carries: its first line when that is a marker, in either markup,
 * as commentBody writes it (a line end stored as CRLF counts as one); otherwise undefined. A
 * marker quoted further down (a reply quoting the comment, say) does not count.
 *
 * @example markerOf(commentBody(outcome, sha, { sink })) === outcomeMarker(outcome) // true
 */
function markerOf(body) {
    const said = (0,report_markup/* hiddenLine */.re)(body, 0);
    if (said === undefined || !new RegExp(`^${MARKER_NAME}\\S*$`).test(said))
        return undefined;
    return body.split('\n', 1)[0].replace(/\r$/, '');
}
/**
 * Whether a comment's body is the comment carrying `marker` (see markerOf).
 *
 * @example carriesMarker(commentBody(outcome, sha, { sink }), outcomeMarker(outcome)) // true
 */
function carriesMarker(body, marker) {
    return markerOf(body) === marker;
}
/**
 * The verdict a comment on `outcome` says, under `policy`.
 *
 * @example commentVerdict(outcome, FAIL_ON_ERROR) // 'failed'
 */
function commentVerdict(outcome, policy = fail_policy/* FAIL_ON_ERROR */.qJ) {
    if (!outcome.read)
        return 'unread';
    return (0,fail_policy/* failsUnder */.mS)(outcome.result.status, policy) ? 'failed' : 'passed';
}
/**
 * Whether to write the project's comment now, given the one found (its body) or none: `always`;
 * `failed` writes no new comment for a passing gate, but still updates one that exists (so it
 * never shows a failure that is gone); `changed` leaves the comment alone while its verdict is
 * the one it already says (its second, hidden line, in either markup).
 *
 * @example shouldWrite('failed', 'passed', undefined) // false
 */
function shouldWrite(when, verdict, existing) {
    if (when === 'failed')
        return existing !== undefined || verdict !== 'passed';
    if (when === 'changed') {
        return existing === undefined || (0,report_markup/* hiddenLine */.re)(existing, 1) !== `verdict: ${verdict}`;
    }
    return true;
}
/**
 * The comment for one project, in `markup`: the hidden marker line (by which the next run finds
 * the comment and updates it), the verdict with its icon, the failing (then warning) conditions
 * in words, what changed, the new issues, a link to the analysis when it is on the server's
 * origin, and the commit it is for; for an analysis that could not be read, the reason. Every
 * server value goes through the markup's gate, and everything through the sink. Within `limit`.
 *
 * @example await github.request('POST', commentsPath, { body: { body: commentBody(outcome, sha, { sink }) } })
 */
function commentBody(outcome, commitSha, options) {
    const { sink, limit = Math.min(comment_settings/* COMMENT_LIMITS */.R.chars, sink.limit), markup = report_markup/* HTML_MARKUP */.xe } = options;
    const said = (lines) => lines.map((line) => sink.text(line));
    const marker = sink.text(outcomeMarker(outcome, markup));
    // The verdict shown, which `changed` compares (shouldWrite).
    const verdict = markup.hidden(`verdict: ${commentVerdict(outcome, options.policy)}`);
    const project = markup.code((0,gate_outcome/* projectName */.j1)(outcome));
    const commit = `commit ${markup.code(shortSha(commitSha))}`;
    // The two hidden lines are the body's first two lines in every markup: one block.
    const hidden = `${marker}\n${verdict}`;
    if (!outcome.read) {
        const heading = markup.heading(3, `❗ Quality Gate could not be read · ${project}`);
        const message = (0,summary/* messageParagraph */.Ov)(outcome.message, summary/* SUMMARY_LIMITS */.QF.messageChars, sink, markup);
        const lines = said([heading, message, markup.paragraph([`For ${commit}`])]);
        return bounded([hidden, ...lines], sink, limit, markup);
    }
    const { result } = outcome;
    const title = sink.text((0,src_words/* msg */.ab) `${(0,summary/* headline */.Pl)(result.status, options.policy, markup)} · ${project}`);
    const heading = sink.text(markup.heading(3, title));
    const facts = [
        `For ${commit}`,
        result.analysisId === undefined
            ? 'its newest analysis'
            : `analysis ${markup.code(result.analysisId)}`
    ];
    const tail = said([markup.paragraph([[...facts, ...dashboardLink(result, markup)].join(' · ')])]);
    const head = [hidden, heading, sink.text(conditionsIntro(result.conditions, markup))];
    const lines = (0,summary/* verdictBlocks */.wx)(result, head, tail, {
        sink,
        markup,
        limit,
        heading: 'h4',
        listed: comment_settings/* COMMENT_LIMITS */.R.issues,
        fileLink: options.fileLink,
        conditions: (room) => conditionsList(result, sink, room, markup)
    });
    return bounded(lines, sink, limit, markup);
}
function conditionsIntro(conditions, markup) {
    if (conditions.length === 0) {
        return markup.paragraph(['The server returned no conditions for this analysis.']);
    }
    const count = (status) => conditions.filter(({ condition }) => condition.status === status).length;
    const [failing, warning, total] = [count('ERROR'), count('WARN'), conditions.length];
    if (failing === 0 && warning === 0) {
        return markup.paragraph([
            `${total === 1 ? 'The condition' : `All ${total} conditions`} passed.`
        ]);
    }
    const parts = [
        failing > 0 ? `${failing} of ${total} conditions failed` : undefined,
        warning > 0
            ? `${warning}${failing > 0 ? '' : ` of ${total} conditions`} passed with warnings`
            : undefined
    ];
    return markup.paragraph([`${parts.filter(Boolean).join(', ')}:`]);
}
/** The failing and warning conditions in words, as many as the limits and `room` allow. */
function conditionsList(result, sink, room, markup) {
    const all = (0,summary/* inStatusOrder */.g7)(result.conditions).filter(({ condition }) => condition.status === 'ERROR' || condition.status === 'WARN');
    if (all.length === 0)
        return [];
    const items = all.slice(0, comment_settings/* COMMENT_LIMITS */.R.conditions).map((evaluated) => {
        const icon = summary/* STATUS_ICONS */.I[evaluated.condition.status] ?? '';
        const words = markup.text((0,wording/* describeCondition */.pu)(evaluated), untrusted_text/* QUOTE_LIMITS */.gJ.long);
        const evidence = (0,evidence_link/* evidenceUrl */.j)(result, evaluated.condition);
        return markup.list.item(`${icon} ${evidence ? markup.link(evidence, words) : words}`);
    });
    const list = (0,fitted_block/* fittedBlock */.C)(sink, items, {
        ...markup.list,
        tail: (more) => markup.list.item(`… and ${more} more: see ${sink.text((0,src_words/* place */.ik)('details'))} or the dashboard`),
        more: all.length - items.length,
        // The list's last line ends in a line feed too.
        limit: room - 1
    });
    return [list.text];
}
/** A link on the server's origin; another http(s) address as code; anything else left out. */
function dashboardLink(result, markup) {
    const dashboard = (0,dashboard_link/* dashboardAddress */.v)(result.dashboardUrl, result.serverUrl);
    if (!dashboard)
        return [];
    return dashboard.onServer
        ? [markup.link(dashboard.href, 'See the analysis on the dashboard')]
        : [
            `dashboard (not linked: not on the server's origin) ${markup.code(dashboard.href, Infinity)}`
        ];
}
/** A commit id as GitHub shows it (7 characters); anything else as it is, to be escaped. */
function shortSha(sha) {
    return /^[0-9a-f]{7,64}$/i.test(sha) ? sha.slice(0, 7).toLowerCase() : sha;
}
/**
 * The lines (each through the sink already; the hidden lines, then the heading) as one body, or,
 * should they still exceed `limit` (the parts are bounded: this keeps the limit a guarantee, not
 * a sum to trust), the hidden lines and heading alone, cut to the limit should even they exceed it.
 */
function bounded(lines, sink, limit, markup) {
    const join = (blocks) => `${blocks.join(markup.between)}\n`;
    const body = join(lines);
    if (sink.size(body) <= limit)
        return body;
    const tooLarge = sink.text(markup.paragraph([`The verdict is too large to show here: see ${sink.text((0,src_words/* place */.ik)('details'))}.`]));
    return sink.fit([], { head: join([...lines.slice(0, 2), tooLarge]), limit }).text;
}

;// CONCATENATED MODULE: ./src/platforms/decorate.ts
/**
 * The one driver of every review platform: from the outcomes, a status and a report per project
 * on the commit, and on the review the project's verdict comment, found again and edited in
 * place, and comments on the issues' lines, started together and resolved once their issue is
 * gone. The rules every platform shares live here once:
 * - nothing a platform does changes the verdict or the exit code: the first step that fails ends
 *   the decoration with one warning naming the platform, the step and what to check (a refusal:
 *   what the token or the review lacks, in the platform's words), and the driver never throws;
 * - only our own comments are edited, deleted or resolved: a comment is ours when it carries our
 *   marker (or our property) **and** its author is the token's own identity, read at most once a
 *   run, once a listed comment carries a marker or names an issue (anyone who may comment can
 *   copy a marker; nobody else can write as the token); unknown, and nothing is edited or
 *   resolved;
 * - a project `allProjects` names that this run did not analyse gets a passing status saying so;
 * - the comment setting's noise rules, the severity floor and the inline limit;
 * - every text is rendered and put through the sink here, before a platform sees it.
 */














/**
 * Decorates `platform` with every outcome; resolves once done, whatever the platform answered
 * (what happened is in the log), and never throws.
 *
 * @example await decorate(gitlabPlatform(api, pipeline), outcomes, { sink, policy, commentWhen: 'always', inlineLimit: 10, inlineSeverity: 'info', log })
 */
async function decorate(platform, outcomes, options) {
    const { words } = platform;
    const named = { ...words, refusal: (error) => platform.refusal(error) };
    await decorating(options.log, named, async (log) => {
        for (const outcome of outcomes) {
            const verdict = verdictOf(outcome, options);
            if (platform.setStatus) {
                const set = platform.setStatus.bind(platform);
                await decorationStep(`the ${words.status} for ${verdict.name}`, () => set(verdict));
            }
            if (platform.writeReport) {
                const write = platform.writeReport.bind(platform);
                const report = words.report ?? 'report';
                await decorationStep(`the ${report} for ${verdict.name}`, async () => {
                    const annotations = await write(verdict);
                    if (typeof annotations !== 'number')
                        return log.info(annotations);
                    log.info(`${words.name}: the ${report} for ${verdict.name} is on commit ${platform.commit.slice(0, 12)}, with ${annotations} annotations.`);
                });
            }
        }
        await statusesNotAnalysed(platform, outcomes, { ...options, log });
        if (!platform.review) {
            if (platform.noReview)
                log.info(platform.noReview);
            return;
        }
        await decorateReview(words, platform.review, outcomes, { ...options, log });
    });
}
/**
 * A passing status for each project `allProjects` names that this run did not analyse (a
 * monorepo's project with no change), so a rule that requires its status holds; a check run where
 * one stands for the status. None while an analysis's project is unknown: it may be one of them.
 */
async function statusesNotAnalysed(platform, outcomes, { allProjects = [], sink, log }) {
    const write = (platform.setStatus ?? platform.writeReport)?.bind(platform);
    if (allProjects.length === 0 || !write)
        return;
    const { words } = platform;
    const missing = (0,gate_outcome/* notAnalysed */.vL)(outcomes, allProjects);
    if (missing === undefined) {
        log.info((0,src_words/* msg */.ab) `${words.name}: no status for the projects of ${(0,src_words/* setting */.Pe)('allProjects')} not analysed: an analysis's project is unknown, and may be one of them.`);
        return;
    }
    const what = platform.setStatus ? words.status : (words.report ?? 'report');
    for (const key of missing) {
        const verdict = notAnalysedVerdict(key, sink);
        await decorationStep(`the ${what} for ${verdict.name}`, () => write(verdict));
    }
    if (missing.length > 0) {
        log.info(`${words.name}: not analysed in this run, a passing ${what} each: ${missing.map((key) => (0,untrusted_text/* oneLine */.TN)(key, untrusted_text/* QUOTE_LIMITS */.gJ.short)).join(', ')}.`);
    }
}
/** A project this run did not analyse, as a platform shows it: passing, and saying so. */
function notAnalysedVerdict(key, sink) {
    const words = 'Not analysed in this run';
    return {
        key,
        label: sink.text(key),
        name: (0,untrusted_text/* oneLine */.TN)(key, untrusted_text/* QUOTE_LIMITS */.gJ.short),
        failing: false,
        notAnalysed: true,
        words,
        dashboard: undefined,
        findings: [],
        newIssues: undefined,
        reportHtml: () => sink.text(report_markup/* HTML_MARKUP */.xe.paragraph([`➖ ${words}.`])),
        figures: [{ title: 'Quality Gate', type: 'TEXT', value: 'not analysed' }],
        say: (text) => sink.text(text)
    };
}
async function decorateReview(words, review, outcomes, options) {
    const { log, inlineLimit } = options;
    // Read once, when first needed: a listed comment carries our marker or names an issue.
    // Unknown (undefined): the verdict is written anew, and nothing is edited, resolved or closed.
    let read;
    const identity = () => (read ??= ownIdentity(log, words.name, () => review.ownIdentity(), review.identity));
    const readLines = review.changedLines?.bind(review);
    const wanted = (0,on_changed_lines/* hasBranchAnalyses */.h)(outcomes) || (review.inline !== undefined && inlineLimit > 0);
    const files = review.granularity === 'files';
    const changed = readLines && wanted
        ? await decorationStep(`the ${files ? 'files' : 'lines'} ${review.name} changes`, readLines)
        : undefined;
    const shown = changed ? (0,on_changed_lines/* narrowToChangedLines */.o)(outcomes, changed, review.name, log) : outcomes;
    if (changed && files && (0,on_changed_lines/* hasBranchAnalyses */.h)(outcomes)) {
        log.info(`${words.name} gives the files a ${review.kind} changes, not its lines: the issues are narrowed to those files.`);
    }
    await writeVerdicts(words, review, shown, identity, options);
    const inline = review.inline;
    if (!inline || inlineLimit <= 0 || !changed)
        return;
    const notReady = inline.notReady?.();
    if (notReady !== undefined) {
        log.info(notReady);
        return;
    }
    await decorationStep(inline.step, async () => {
        const done = await commentOnLines(inline, review, identity, issuesOf(shown), changed, options);
        const past = done.leftOut > 0 ? (0,src_words/* msg */.ab) `; ${done.leftOut} more past ${(0,src_words/* setting */.Pe)('inlineLimit')}` : '';
        log.info((0,src_words/* msg */.ab) `${words.name}: ${done.started} ${inline.started}${past}, ${done.resolved} ${inline.resolved} (their issues are gone).`);
    });
}
/**
 * The token's own identity as `read` finds it, or undefined, said in one warning, when it cannot
 * be read (a refusal, a failure, a reply that names none). Never throws.
 *
 * @example const me = await ownIdentity(log, 'GitLab', () => gitlab.ownUserId()) // 77, or undefined
 */
async function ownIdentity(log, platform, read, { instead = 'the verdict is written anew, and nothing is edited, resolved or closed', level = 'warning' } = {}) {
    let why;
    try {
        const identity = await read();
        if (identity !== undefined)
            return identity;
        why = 'the reply names none';
    }
    catch (error) {
        why = (0,errors/* messageOf */.bD)(error);
    }
    log[level](`${platform}: the token's own identity could not be read (${(0,untrusted_text/* oneLine */.TN)(why, untrusted_text/* QUOTE_LIMITS */.gJ.short)}), so no comment is known as ours: ${instead}.`);
    return undefined;
}
/** Each project's verdict comment: ours edited in place, or a new one, as the comment setting says. */
async function writeVerdicts(words, review, outcomes, identity, options) {
    const { verdicts } = review;
    const existing = await decorationStep(`the ${words.comment}s of ${review.name}`, () => verdicts.list());
    // With the identity unknown, the author a create's reply names: the token's own.
    let written;
    const me = async () => (await identity()) ?? written;
    const madeNow = new WeakSet();
    for (const outcome of outcomes) {
        const name = nameOf(outcome);
        await decorationStep(`the ${words.comment} for ${name}`, async () => {
            const result = await writeVerdict(review, existing, me, madeNow, outcome, options);
            written ??= result.author;
            options.log.info(result.action === 'unchanged'
                ? (0,src_words/* msg */.ab) `${words.name}: the ${words.comment} for ${name} is left as it is (${(0,src_words/* setting */.Pe)('comment')} ${options.commentWhen}).`
                : `${words.name}: the ${words.comment} for ${name} is ${result.action} on ${review.name}.`);
        });
    }
}
/**
 * The project's verdict comment, unless the comment setting says to leave it: `failed` writes no
 * new one for a passing gate (an existing one is still updated, so it never shows a failure that
 * is gone); `changed` leaves it alone while its verdict is the same. Ours is the one carrying the
 * project's marker (or property) whose author is `me`, asked once one carries it. With `me`
 * unknown, a new one is written;
 * where the platform may delete, the author its reply names is the token's, and that author's
 * earlier ones carrying the marker are deleted, so one stays.
 */
async function writeVerdict(review, existing, identity, madeNow, outcome, { sink, policy, commentWhen, fileLink }) {
    const { verdicts } = review;
    const body = commentBody(outcome, review.commit, {
        sink,
        policy,
        ...(fileLink ? { fileLink } : {}),
        markup: review.markup === 'markdown' ? report_markup/* MARKDOWN_MARKUP */.jx : report_markup/* HTML_MARKUP */.xe,
        ...(review.commentChars === undefined ? {} : { limit: review.commentChars })
    });
    const verdict = verdictOf(outcome, { sink, policy, fileLink });
    const marker = markerOf(body);
    const carrying = existing.filter((comment) => verdicts.keyedBy === 'project'
        ? comment.project === verdict.label
        : markerOf(comment.body) === marker);
    // One this run wrote (two outcomes naming one project share it) is ours without asking.
    const made = carrying.find((comment) => madeNow.has(comment));
    const me = made || carrying.length === 0 ? undefined : await identity();
    const ours = made ?? (me === undefined ? undefined : carrying.find(({ author }) => author === me));
    const cleansUp = !ours && me === undefined && verdicts.remove !== undefined && carrying.length > 0;
    if (!cleansUp && !shouldWrite(commentWhen, commentVerdict(outcome, policy), ours?.body)) {
        return { action: 'unchanged', author: me };
    }
    if (ours && (await verdicts.update(ours, body))) {
        ours.body = body;
        return { action: 'updated', author: me };
    }
    const created = await verdicts.create(verdict, body);
    const author = me ?? created.author;
    if (me === undefined && author !== undefined && verdicts.remove) {
        for (const earlier of carrying.filter((comment) => comment.author === author)) {
            await verdicts.remove(earlier);
            existing.splice(existing.indexOf(earlier), 1);
        }
    }
    if (created.id !== undefined) {
        const comment = { id: created.id, body, author, project: verdict.label };
        existing.push(comment);
        madeNow.add(comment);
    }
    return { action: 'created', author };
}
/**
 * A comment per new issue on a line the review changes, the most severe first, at most
 * `inlineLimit`, started together; none for an issue that has one of ours (with `me` unknown:
 * anyone's); ours of issues no longer reported resolved, when every issue was read.
 */
async function commentOnLines(inline, review, identity, issues, changed, { sink, inlineLimit, inlineSeverity, log }) {
    const keyed = (await inline.list(identity)).flatMap((comment) => {
        const issueKey = comment.issueKey ?? issueKeyOf(comment.body);
        return issueKey === undefined ? [] : [{ ...comment, issueKey }];
    });
    // Who the token is matters once a comment names an issue.
    const me = keyed.length > 0 ? await identity() : undefined;
    const ours = keyed.filter((comment) => me !== undefined && comment.author === me);
    // Another's comment on an issue does not stand in for ours, unless ours cannot be known.
    const discussed = new Set((me === undefined ? keyed : ours).map(({ issueKey }) => issueKey));
    const markup = review.markup === 'markdown' ? report_markup/* MARKDOWN_MARKUP */.jx : report_markup/* HTML_MARKUP */.xe;
    const floor = findings_finding/* SEVERITY_ORDER */.B.indexOf(inlineSeverity);
    const candidates = (0,findings_finding/* bySeverity */.Np)(issues.findings).flatMap((finding) => {
        if (discussed.has(finding.key) || findings_finding/* SEVERITY_ORDER */.B.indexOf(finding.severity) > floor)
            return [];
        const line = lineOn(finding, changed, review.granularity ?? 'lines');
        // A path is sent as it is (the platform matches it to the diff): one that holds a secret is not.
        const file = finding.file;
        if (line === undefined || file === undefined || sink.text(file) !== file)
            return [];
        return [{ finding, file, line, body: issueDiscussionBody(finding, sink, markup) }];
    });
    const now = candidates.slice(0, Math.max(0, inlineLimit));
    const oneByOne = now.length > 0 ? await inline.start(now) : undefined;
    if (oneByOne)
        log.info(oneByOne);
    let resolved = 0;
    if (issues.complete) {
        const current = new Set(issues.findings.map(({ key }) => key));
        for (const comment of ours) {
            if (comment.resolved || current.has(comment.issueKey))
                continue;
            if (await inline.resolve(comment))
                resolved++;
        }
    }
    return { started: now.length, resolved, leftOut: candidates.length - now.length };
}
/**
 * The line of the finding's region a comment goes on: the first the review adds (a platform
 * refuses a comment on a line its diff does not show); on a platform that gives files, its first
 * line when the file is changed. A file whose diff the platform left out has no line known.
 */
function lineOn(finding, changed, granularity) {
    if (finding.file === undefined || finding.region === undefined)
        return undefined;
    const added = changed.get(finding.file);
    if (added === undefined)
        return undefined;
    const { startLine, endLine } = finding.region;
    if (added === 'whole')
        return granularity === 'files' ? startLine : undefined;
    for (let line = startLine; line <= Math.min(endLine, startLine + 10_000); line++) {
        if (added.has(line))
            return line;
    }
    return undefined;
}
/** The project's verdict as a platform shows it, every text through the sink. */
function verdictOf(outcome, { sink, policy, fileLink }) {
    const newIssues = outcome.read ? outcome.result.newIssues : undefined;
    const words = statusWords(outcome, policy, sink);
    return {
        key: (0,gate_outcome/* projectName */.j1)(outcome),
        label: sink.text((0,gate_outcome/* projectName */.j1)(outcome)),
        name: nameOf(outcome),
        failing: failing(outcome, policy),
        words: sink.text(words),
        dashboard: dashboardOf(outcome),
        findings: newIssues?.read ? (0,findings_finding/* bySeverity */.Np)(newIssues.findings) : [],
        newIssues: newIssues?.read ? newIssues.total : undefined,
        reportHtml: (limit) => [
            sink.text(report_markup/* HTML_MARKUP */.xe.paragraph([
                `${failing(outcome, policy) ? '❌' : '✅'} ${report_markup/* HTML_MARKUP */.xe.text(words, 300)}`
            ])),
            ...(0,new_issues_block/* newIssuesBlock */.Qs)(newIssues, {
                sink,
                heading: 'h3',
                listed: REPORT_ISSUES_LISTED,
                limit: limit - 2000,
                ...(fileLink ? { fileLink } : {})
            })
        ].join('\n'),
        figures: figuresOf(outcome, sink),
        say: (text) => sink.text(text)
    };
}
/** The new issues a report's HTML lists; the annotations carry them all. */
const REPORT_ISSUES_LISTED = 50;
/** A report's figures: the gate, the new issues, and the new code's figures it has (at most 4). */
function figuresOf(outcome, sink) {
    if (!outcome.read)
        return [{ title: 'Quality Gate', type: 'TEXT', value: 'not read' }];
    const { result } = outcome;
    const figures = [
        { title: 'Quality Gate', type: 'TEXT', value: sink.text((0,untrusted_text/* oneLine */.TN)(result.status, 40)) }
    ];
    if (result.newIssues?.read) {
        figures.push({ title: 'New issues', type: 'NUMBER', value: result.newIssues.total });
    }
    const newCode = result.whatChanged?.newCode;
    if (newCode && !('unread' in newCode)) {
        if (newCode.coverage !== undefined) {
            figures.push({ title: 'Coverage on new code', type: 'PERCENTAGE', value: newCode.coverage });
        }
        if (newCode.duplication !== undefined) {
            const title = 'Duplicated lines on new code';
            figures.push({ title, type: 'PERCENTAGE', value: newCode.duplication });
        }
    }
    return figures;
}
/** Every analysis's new issues, and whether they are all of them (each read whole). */
function issuesOf(outcomes) {
    const findings = [];
    let complete = true;
    for (const outcome of outcomes) {
        const newIssues = outcome.read ? outcome.result.newIssues : undefined;
        if (!newIssues?.read) {
            complete = false;
            continue;
        }
        findings.push(...newIssues.findings);
        if (newIssues.findings.length < newIssues.total)
            complete = false;
    }
    return { findings, complete };
}
/** An analysis's name in a platform's log lines: its project key, on one line. */
function nameOf(outcome) {
    return (0,untrusted_text/* oneLine */.TN)((0,gate_outcome/* projectName */.j1)(outcome), untrusted_text/* QUOTE_LIMITS */.gJ.short);
}
/**
 * A status's one-line description under the policy, the server's words in it making no
 * reference and no link where a platform shows it (`withoutReferences`).
 *
 * @example statusWords(outcome, FAIL_ON_ERROR, sink) // 'Quality Gate failed: 2 of 7 conditions failed'
 */
function statusWords(outcome, policy, sink) {
    return (0,no_references/* withoutReferences */.Xl)(gateWords(outcome, policy, sink));
}
function gateWords(outcome, policy, sink) {
    if (!outcome.read) {
        return `Quality Gate could not be read: ${(0,untrusted_text/* oneLine */.TN)(sink.text(outcome.message), 200)}`;
    }
    const { result } = outcome;
    if (!(0,fail_policy/* failsUnder */.mS)(result.status, policy)) {
        return result.status === 'OK'
            ? 'Quality Gate passed'
            : `Quality Gate passed (${(0,untrusted_text/* oneLine */.TN)(result.status, 40)})`;
    }
    const failed = result.conditions.filter(({ condition }) => condition.status === 'ERROR').length;
    return result.status === 'ERROR'
        ? `Quality Gate failed: ${failed} of ${result.conditions.length} conditions failed`
        : `Quality Gate failed: ${(0,untrusted_text/* oneLine */.TN)(result.status, 40)}`;
}
/** Whether a platform shows the analysis as failed: its gate fails the policy, or was not read. */
function failing(outcome, policy) {
    return !outcome.read || (0,fail_policy/* failsUnder */.mS)(outcome.result.status, policy);
}
/** The dashboard's address a platform links to (http(s), without credentials), when known. */
function dashboardOf(outcome) {
    return outcome.read
        ? (0,dashboard_link/* dashboardAddress */.v)(outcome.result.dashboardUrl, outcome.result.serverUrl)?.href
        : undefined;
}
/** A step of a decoration that failed: what it was doing; why is its `cause`. */
class DecorationStepFailure extends Error {
    what;
    constructor(what, options) {
        super(`${what} failed`, options);
        this.what = what;
        this.name = 'DecorationStepFailure';
    }
}
/**
 * One step of a platform's decoration: its failure, whatever it is (a refusal, no answer in
 * time, a reply not as documented), ends the decoration, said by `decorating` with `what`.
 *
 * @example const diff = await decorationStep('the lines merge request !7 changes', () => review.changedLines())
 */
async function decorationStep(what, run) {
    try {
        return await run();
    }
    catch (error) {
        throw error instanceof DecorationStepFailure
            ? error
            : new DecorationStepFailure(what, { cause: error });
    }
}
/**
 * A platform's whole decoration, the one place its failures are caught: the first step that
 * fails ends it (the platform, which shares one connection and one deadline across the steps,
 * would fail the next ones too, each costing time and another line), said in one warning; it
 * never throws, so the verdict and the exit code are the gate's whatever the platform does.
 * `run` writes through the log it is handed, whose warnings are held until the decoration ends:
 * said as warnings when it completes, and as plain lines before the one warning when it fails
 * (an identity that could not be read matters less than the decoration that did not happen).
 *
 * @example await decorating(log, { name: 'GitLab', check: 'CI_API_V4_URL', refusal }, async (log) => { await decorationStep('the status', () => setStatus(log)) })
 */
async function decorating(log, platform, run) {
    const held = [];
    const holding = {
        info: (message) => log.info(message),
        notice: (message) => log.notice(message),
        startGroup: (name) => log.startGroup(name),
        endGroup: () => log.endGroup(),
        warning: (message) => void held.push(message)
    };
    try {
        await run(holding);
        for (const message of held)
            log.warning(message);
    }
    catch (error) {
        for (const message of held)
            log.info(message);
        log.warning(endOfDecoration(platform, error));
    }
}
/** The one warning for a decoration that ended early. */
function endOfDecoration(platform, error) {
    const step = error instanceof DecorationStepFailure ? error : undefined;
    const cause = step ? step.cause : error;
    if (cause instanceof PlatformRefusal)
        return platform.refusal(cause);
    return (0,src_words/* joined */.oR)([
        `${platform.name}: ${step ? step.what : 'the decoration'} failed, and nothing more is decorated; the verdict and the exit code are unchanged.`,
        asSentence((0,errors/* quotedSaidOf */.Jm)(cause)),
        (0,src_words/* msg */.ab) `Check ${platform.check}; the next run decorates again.`
    ], ' ');
}
/** What an error said, ended with a full stop unless it ends with one of its own. */
function asSentence(said) {
    return typeof said === 'string' && /[.!?]$/.test(said) ? said : (0,src_words/* msg */.ab) `${said}.`;
}

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
        title: (0,untrusted_text/* cut */.Jj)(verdict.newIssues === undefined
            ? verdict.words
            : `${total} new ${total === 1 ? 'issue' : 'issues'}`, 255),
        summary: `${verdict.reportHtml(CHECK_RUN_LIMITS.summaryChars)}${verdict.say(notes)}`,
        annotations: batch
    });
    const checkRuns = `${repository}/check-runs`;
    const first = annotations.slice(0, CHECK_RUN_LIMITS.perRequest);
    const { body } = await github.request('POST', checkRuns, {
        body: {
            name: (0,untrusted_text/* cut */.Jj)(style.name(verdict), 255),
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
    const { message, where } = (0,annotations/* findingAnnotation */.BN)(finding);
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
        annotation_level: CHECK_LEVEL[annotations/* LEVEL_OF_SEVERITY */.bA[finding.severity]],
        title: (0,untrusted_text/* cut */.Jj)(say(where.title ?? finding.rule), 255),
        message: (0,untrusted_text/* cut */.Jj)(say(message), untrusted_text/* QUOTE_LIMITS */.gJ.long + 500)
    };
}

;// CONCATENATED MODULE: ./src/platforms/github/github.ts
/**
 * GitHub as a review platform, from any CI: per project a commit status on the commit (or, where
 * asked, a check run standing for it: check-run.ts), and on a pull request the project's comment
 * (HTML blocks, found again by its marker and its author) and the issues' comments on the lines
 * the pull request changes, started as **one review** (one request, one notification) and
 * resolved once their issue is gone. Shapes from GitHub's REST description (api.github.com,
 * 2022-11-28) and its GraphQL API:
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
    name: (verdict) => forgeStatus(verdict, GITHUB_LIMITS).context,
    passing: 'success',
    orStatus: true
};
/**
 * The GitHub repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(githubPlatform(new GitHubApi({ token, apiUrl, clock, deadline }), target), outcomes, options)
 */
function githubPlatform(github, target, { checkRuns } = {}) {
    const repository = forgeRepository(target);
    const number = target.pullRequest;
    const status = (verdict) => setForgeStatus(github, target, verdict, GITHUB_LIMITS);
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
                    const refused = error instanceof PlatformRefusal && error.status === 403;
                    if (!refused || !checkRuns.orStatus || isRateLimit(error))
                        throw error;
                    checksRefused = error;
                }
            }
            await status(verdict);
            return `GitHub: the token may not create check runs (${githubSaid(checksRefused)}); a GitHub App's installation token with the checks write permission may. The commit status for ${verdict.name} is set instead.`;
        });
    return {
        words: {
            name: 'GitHub',
            status: 'commit status',
            comment: 'comment',
            report: 'check run',
            check: (0,src_words/* msg */.ab) `that ${target.names.api} is GitHub's REST API and that GitHub is up`
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.commit,
        setStatus: checkRun ? undefined : status,
        writeReport: checkRun,
        review: number === undefined ? undefined : pullRequest(github, { ...target, pullRequest: number }),
        noReview: (0,src_words/* msg */.ab) `Not a pull request (no ${target.names.pullRequest}): the commit statuses are set, and no comment is written.`,
        close: () => github.close()
    };
}
function pullRequest(github, target) {
    return {
        name: `pull request #${target.pullRequest}`,
        kind: 'pull request',
        commit: target.commit,
        markup: 'html',
        ownIdentity: () => ownAccount(github),
        changedLines: () => listChangedLines(github, forgeRepository(target), target.pullRequest),
        verdicts: forgeVerdicts(github, target, (path) => listComments(github, path)),
        inline: {
            step: 'the review of the new issues',
            started: 'comments started in one review',
            resolved: 'resolved',
            list: () => reviewThreads(github, target),
            start: (comments) => startForgeReview(github, target, comments, ({ file, line, body }) => ({
                path: file,
                line,
                side: 'RIGHT',
                body
            })),
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
        return idOf((await github.request('GET', 'user')).body);
    }
    catch (error) {
        if (statusOf(error) !== 403)
            throw error;
    }
    const reply = await github.graphql('query { viewer { databaseId } }');
    return positiveId(reply?.viewer?.databaseId);
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
        found.push(...items.flatMap(forgeComment));
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
            changed.set(filename, typeof patch === 'string' ? (0,changed_lines/* addedLines */.u)(patch) : 'whole');
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
async function reviewThreads(github, target) {
    const threads = [];
    let after = null;
    for (let page = 0; page < GITHUB_LIMITS.threadPages; page++) {
        const data = (await github.graphql(THREADS_QUERY, {
            owner: target.owner,
            repo: target.repo,
            number: target.pullRequest,
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
                author: positiveId(first?.author?.databaseId)
            });
        }
        const next = connection?.pageInfo;
        if (next?.hasNextPage !== true || typeof next.endCursor !== 'string')
            break;
        after = next.endCursor;
    }
    return threads;
}
function refusalWords(error, target) {
    const repository = (0,untrusted_text/* oneLine */.TN)(`${target.owner}/${target.repo}`, untrusted_text/* QUOTE_LIMITS */.gJ.short);
    return refusalSaid('GitHub', error.status, {
        401: "The token in GITHUB_TOKEN is not valid (401): give a personal access token, or a GitHub App's installation token.",
        // A refusal the rate limit gave is a 403 (a 429 is tried again, never a refusal).
        403: isRateLimit(error)
            ? `GitHub's API rate limit was reached (${error.status}): the next run decorates again.`
            : `The token in GITHUB_TOKEN may not write to ${repository} (403): a fine-grained token needs "Commit statuses" and "Pull requests" read and write; a classic token the repo scope; an installation token the statuses and pull_requests permissions.`,
        404: (0,src_words/* msg */.ab) `GitHub shows this token no repository ${repository}${target.pullRequest === undefined ? '' : ` or pull request #${target.pullRequest}`} (404): check ${target.names.repository} and ${target.names.pullRequest}, and that the token may see the repository.`
    });
}

;// CONCATENATED MODULE: ./src/platforms/gitea/gitea.ts

const GITEA_LIMITS = {
    /** A status's texts: the API names no limit; kept to a line. */
    contextChars: 255,
    descriptionChars: 255,
    /** Gitea's largest page (`[api] MAX_RESPONSE_ITEMS`, 50 by default). */
    perPage: 50,
    /** Pages of reviews read, and reviews whose comments are read: 500 and 100. */
    reviewPages: 10,
    reviewsRead: 100,
    /** The pull request's diff: 16 MB, as any reply. */
    diffFiles: 3000
};
/**
 * The Gitea or Forgejo repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(giteaPlatform(rest, target), outcomes, options)
 */
function giteaPlatform(gitea, target) {
    const number = target.pullRequest;
    return {
        words: {
            name: target.kind,
            status: 'commit status',
            comment: 'comment',
            check: (0,src_words/* msg */.ab) `that ${target.names.api} is ${target.kind}'s API (/api/v1) and that ${target.kind} is up`
        },
        refusal: (error) => gitea_refusalWords(error, target),
        commit: target.commit,
        setStatus: (verdict) => setForgeStatus(gitea, target, verdict, GITEA_LIMITS),
        review: number === undefined ? undefined : gitea_pullRequest(gitea, { ...target, pullRequest: number }),
        noReview: (0,src_words/* msg */.ab) `Not a pull request (no ${target.names.pullRequest}): the commit statuses are set, and no comment is written.`,
        close: () => gitea.close()
    };
}
function gitea_pullRequest(gitea, target) {
    const pulls = `${forgeRepository(target)}/pulls`;
    const pull = `${pulls}/${target.pullRequest}`;
    // Forgejo and Gitea before 1.26 have no API to resolve a comment: found once, asked no more.
    let cannotResolve = false;
    return {
        name: `pull request #${target.pullRequest}`,
        kind: 'pull request',
        commit: target.commit,
        markup: 'markdown',
        ownIdentity: async () => idOf((await gitea.request('GET', 'user')).body),
        changedLines: () => changedLines(gitea, pull),
        // The listing is not paged: every comment.
        verdicts: forgeVerdicts(gitea, target, async (path) => {
            const { body } = await gitea.request('GET', path);
            return (Array.isArray(body) ? body : []).flatMap(forgeComment);
        }),
        inline: {
            step: 'the review of the new issues',
            started: 'comments started in one review',
            resolved: 'resolved',
            list: (identity) => reviewComments(gitea, pull, identity),
            start: (comments) => startForgeReview(gitea, target, comments, ({ file, line, body }) => ({
                path: file,
                body,
                new_position: line,
                old_position: 0
            })),
            async resolve(comment) {
                if (cannotResolve)
                    return false;
                try {
                    await gitea.request('POST', `${pulls}/comments/${comment.id}/resolve`);
                    return true;
                }
                catch (error) {
                    // No such route: Forgejo, or Gitea before 1.26.
                    if (!isNotFound(error))
                        throw error;
                    cannotResolve = true;
                    return false;
                }
            }
        }
    };
}
/**
 * The review comments of the pull request: its reviews, a page of 50 at a time (at most 10
 * pages), and the comments of each review by `me` (of every review when `me` is unknown), at most
 * 100 reviews' comments.
 */
async function reviewComments(gitea, pull, identity) {
    const reviews = [];
    // Asked once there is a review: then only the token's own are read.
    for (let page = 1; page <= GITEA_LIMITS.reviewPages; page++) {
        const { body } = await gitea.request('GET', `${pull}/reviews`, {
            query: { page: String(page), limit: String(GITEA_LIMITS.perPage) }
        });
        const items = Array.isArray(body) ? body : [];
        const me = items.length > 0 ? await identity() : undefined;
        for (const item of items) {
            const id = idOf(item);
            const author = idOf(item?.user);
            if (id !== undefined && (me === undefined || author === me))
                reviews.push(id);
        }
        if (items.length < GITEA_LIMITS.perPage)
            break;
    }
    const comments = [];
    for (const review of reviews.slice(-GITEA_LIMITS.reviewsRead)) {
        const { body } = await gitea.request('GET', `${pull}/reviews/${review}/comments`);
        for (const item of Array.isArray(body) ? body : []) {
            const { body: text, user, resolver } = (item ?? {});
            const id = idOf(item);
            if (id === undefined)
                continue;
            comments.push({
                id: String(id),
                body: typeof text === 'string' ? text : undefined,
                resolved: resolver !== null && resolver !== undefined,
                author: idOf(user)
            });
        }
    }
    return comments;
}
/**
 * The lines the pull request adds, file by file, from its diff (`.diff`): a binary file counts as
 * changed throughout; a deleted one has none.
 */
async function changedLines(gitea, pull) {
    const { body } = await gitea.request('GET', `${pull}.diff`, { text: true });
    const changed = new Map();
    const sections = (typeof body === 'string' ? body : '').split(/^diff --git /m).slice(1);
    for (const section of sections.slice(0, GITEA_LIMITS.diffFiles)) {
        const path = /^\+\+\+ b\/(.+)$/m.exec(section)?.[1];
        if (path !== undefined) {
            changed.set(path, (0,changed_lines/* addedLines */.u)(section.slice(section.search(/^@@/m))));
            continue;
        }
        // A binary file names its path only in the header line: `a/<path> b/<path>`.
        const binary = /^a\/(\S+) b\/(\S+)\n(?:(?!\+\+\+ )[^\n]*\n)*Binary files/.exec(section);
        if (binary && !/^deleted file mode/m.test(section))
            changed.set(binary[2], 'whole');
    }
    return changed;
}
function gitea_refusalWords(error, target) {
    const { kind } = target;
    const repository = (0,untrusted_text/* oneLine */.TN)(`${target.owner}/${target.repo}`, untrusted_text/* QUOTE_LIMITS */.gJ.short);
    return refusalSaid(kind, error.status, {
        401: 'The token in GITEA_TOKEN is not valid (401): give an access token of a user who may write to the repository.',
        403: `The token in GITEA_TOKEN may not write to ${repository} (403): it needs the write:repository and write:issue scopes.`,
        404: (0,src_words/* msg */.ab) `${kind} shows this token no repository ${repository}${target.pullRequest === undefined ? '' : ` or pull request #${target.pullRequest}`} (404): check ${target.names.repository} and ${target.names.pullRequest}.`
    });
}

;// CONCATENATED MODULE: ./src/action/platforms.ts
/**
 * Everything the action's lazily loaded GitHub and forge features use (the pull-request comment,
 * the issues check run, a pull request's changed lines, a fork's pull request), in one module
 * that each of them imports when it runs: the bundle then holds one chunk with the driver, the
 * HTTP layer and the platforms, where a chunk per feature would each carry its own copy.
 */







/**
 * GitHub's API at GITHUB_API_URL for `token`, its requests ending by `deadline`; undefined when
 * GITHUB_API_URL is not an http(s) address.
 *
 * @example const api = gitHubApiOf(token, process.env, decorateBy)
 */
function gitHubApiOf(token, env, deadline) {
    const apiUrl = apiBase(env['GITHUB_API_URL']);
    return apiUrl ? new GitHubApi({ token, apiUrl, deadline, clock: clock/* systemClock */.m }) : undefined;
}


/***/ })

};
