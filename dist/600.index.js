export const id = 600;
export const ids = [600];
export const modules = {

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

/***/ 8600:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  decorate: () => (/* binding */ decorate),
  decorating: () => (/* binding */ decorating),
  decorationStep: () => (/* binding */ decorationStep),
  statusWords: () => (/* binding */ statusWords),
  verdictOf: () => (/* binding */ verdictOf)
});

// EXTERNAL MODULE: ./src/fail-policy.ts
var fail_policy = __webpack_require__(6654);
// EXTERNAL MODULE: ./src/findings/finding.ts
var findings_finding = __webpack_require__(4879);
// EXTERNAL MODULE: ./src/gate/on-changed-lines.ts
var on_changed_lines = __webpack_require__(7157);
// EXTERNAL MODULE: ./src/gate/outcome.ts
var gate_outcome = __webpack_require__(5163);
// EXTERNAL MODULE: ./src/http/rest-api.ts
var rest_api = __webpack_require__(9837);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/report/dashboard-link.ts
var dashboard_link = __webpack_require__(67);
// EXTERNAL MODULE: ./src/untrusted-text.ts
var untrusted_text = __webpack_require__(8521);
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
 * A discussion about one issue on the line it stands on: its marker line, then the issue in one
 * paragraph (severity, message, rule linked to the issue on the server), in `markup` (HTML
 * blocks by default), every server value through its gate, the whole through the sink.
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
// EXTERNAL MODULE: ./src/report/pull-request-comment-body.ts
var pull_request_comment_body = __webpack_require__(9996);
// EXTERNAL MODULE: ./src/words.ts
var src_words = __webpack_require__(5846);
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
    await decorating(options.log, platformNamed(platform), async (log) => {
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
    const body = (0,pull_request_comment_body/* commentBody */.I2)(outcome, review.commit, {
        sink,
        policy,
        ...(fileLink ? { fileLink } : {}),
        markup: review.markup === 'markdown' ? report_markup/* MARKDOWN_MARKUP */.jx : report_markup/* HTML_MARKUP */.xe,
        ...(review.commentChars === undefined ? {} : { limit: review.commentChars })
    });
    const verdict = verdictOf(outcome, { sink, policy, fileLink });
    const marker = (0,pull_request_comment_body/* markerOf */.we)(body);
    const carrying = existing.filter((comment) => verdicts.keyedBy === 'project'
        ? comment.project === verdict.label
        : (0,pull_request_comment_body/* markerOf */.we)(comment.body) === marker);
    // One this run wrote (two outcomes naming one project share it) is ours without asking.
    const made = carrying.find((comment) => madeNow.has(comment));
    const me = made || carrying.length === 0 ? undefined : await identity();
    const ours = made ?? (me === undefined ? undefined : carrying.find(({ author }) => author === me));
    const cleansUp = !ours && me === undefined && verdicts.remove !== undefined && carrying.length > 0;
    if (!cleansUp && !(0,pull_request_comment_body/* shouldWrite */.he)(commentWhen, (0,pull_request_comment_body/* commentVerdict */.JN)(outcome, policy), ours?.body)) {
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
async function commentOnLines(inline, review, identity, issues, changed, { sink, inlineLimit, inlineSeverity }) {
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
    if (now.length > 0)
        await inline.start(now);
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
function platformNamed(platform) {
    return {
        name: platform.words.name,
        check: platform.words.check,
        refusal: (error) => platform.refusal(error)
    };
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
    if (cause instanceof rest_api/* PlatformRefusal */.E2)
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


/***/ })

};
