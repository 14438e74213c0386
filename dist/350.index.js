export const id = 350;
export const ids = [350];
export const modules = {

/***/ 1350:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createCheckRuns: () => (/* binding */ createCheckRuns)
/* harmony export */ });
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9373);
/* harmony import */ var _findings_annotations_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4808);
/* harmony import */ var _findings_finding_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(4879);
/* harmony import */ var _gate_outcome_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(5163);
/* harmony import */ var _report_new_issues_block_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9437);
/* harmony import */ var _report_summary_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(7994);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(8521);
/* harmony import */ var _platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(5062);








/**
 * The check run's bounds: GitHub takes 50 annotations per request; the action sends at most
 * 1,000 per project (20 requests), and keeps the summary under GitHub's 65,535 characters.
 */
const CHECK_RUN_LIMITS = {
    annotations: 1000,
    perRequest: 50,
    summaryChars: 60_000,
    issuesListed: 50
};
const CHECK_LEVEL = { error: 'failure', warning: 'warning', notice: 'notice' };
/**
 * One completed check run per project, "Sonar issues: <project>", on the commit analysed (the
 * pull request's head, not the merge commit), carrying every located new issue as an annotation
 * (up to CHECK_RUN_LIMITS.annotations, 50 a request), concluded `failure` when the gate failed
 * and `neutral` otherwise. Never throws: a token that may not create check runs (a fork's, or
 * without `checks: write`) is one warning.
 *
 * @example await createCheckRuns(outcomes, { github, token, env: process.env, log, sink: sinks.checkRun })
 */
async function createCheckRuns(outcomes, options) {
    const { github, token, log } = options;
    const sink = options.sink.hiding(token ? [token] : []);
    const warn = (message) => log.warning(sink.text(message));
    const readOnes = outcomes.flatMap((outcome) => outcome.read && outcome.result.newIssues?.read
        ? [{ outcome, newIssues: outcome.result.newIssues }]
        : []);
    if (readOnes.length === 0)
        return;
    const apiUrl = (0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_6__/* .apiBase */ .av)(options.env['GITHUB_API_URL']);
    if (!token || !github.repository || !github.headSha || !apiUrl) {
        warn(`No issues check run was created: ${!token ? 'no GitHub token (leave githubToken at its default)' : !github.repository ? 'GITHUB_REPOSITORY is not owner/name' : !github.headSha ? 'the commit analysed is unknown (GITHUB_SHA)' : 'GITHUB_API_URL is not an http(s) address'}.`);
        return;
    }
    const api = new _platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_6__/* .GitHubApi */ .yN({ token, apiUrl, deadline: options.decorateBy, clock: _clock_js__WEBPACK_IMPORTED_MODULE_0__/* .systemClock */ .m });
    try {
        await createEach(api, readOnes, { ...options, sink }, warn);
    }
    finally {
        api.close();
    }
}
async function createEach(api, readOnes, options, warn) {
    const { sink, log } = options;
    for (const { outcome, newIssues } of readOnes) {
        const name = sink.text(`Sonar issues: ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_5__/* .oneLine */ .TN)((0,_gate_outcome_js__WEBPACK_IMPORTED_MODULE_7__/* .projectName */ .j)(outcome), 80)}`);
        try {
            const sent = await publish(api, outcome, newIssues, { ...options, name });
            log.info(`Created the check run "${name}" with ${sent} annotations.`);
        }
        catch (error) {
            if ((0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_6__/* .isRefusal */ .vu)(error)) {
                warn([
                    `The GitHub token may not create check runs (${(0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_6__/* .githubSaid */ .$s)(error)}): the issues check run is left out.`,
                    'Grant the job `permissions: checks: write`. Pull requests from forks get a read-only token whatever the workflow asks.'
                ].join('\n'));
                return;
            }
            warn(`Could not create the check run "${name}" (${(0,_platforms_github_github_api_js__WEBPACK_IMPORTED_MODULE_6__/* .githubSaid */ .$s)(error)}). The job goes on without it.`);
        }
    }
}
async function publish(api, outcome, newIssues, context) {
    const { result } = outcome;
    const { sink } = context;
    const { owner, repo } = context.github.repository;
    const located = (0,_findings_finding_js__WEBPACK_IMPORTED_MODULE_2__/* .bySeverity */ .Np)(newIssues.findings).filter((finding) => finding.file !== undefined);
    const annotations = located
        .slice(0, CHECK_RUN_LIMITS.annotations)
        .map((finding) => checkAnnotation(finding, sink));
    const output = (batch) => ({
        title: (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_5__/* .cut */ .Jj)(sink.text(`${newIssues.total} new ${newIssues.total === 1 ? 'issue' : 'issues'}`), 255),
        summary: summary(outcome, newIssues, located.length, annotations.length, context),
        annotations: batch
    });
    const batches = [];
    for (let at = 0; at < annotations.length; at += CHECK_RUN_LIMITS.perRequest) {
        batches.push(annotations.slice(at, at + CHECK_RUN_LIMITS.perRequest));
    }
    const checkRuns = `repos/${owner}/${repo}/check-runs`;
    const { body } = await api.request('POST', checkRuns, {
        body: {
            name: context.name,
            head_sha: context.github.headSha,
            status: 'completed',
            conclusion: result.status === 'ERROR' ? 'failure' : 'neutral',
            output: output(batches[0] ?? [])
        }
    });
    const id = body?.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id))
        return batches[0]?.length ?? 0;
    for (const batch of batches.slice(1)) {
        await api.request('PATCH', `${checkRuns}/${id}`, { body: { output: output(batch) } });
    }
    return annotations.length;
}
/**
 * The check run's annotation of a located finding (see findingAnnotation for the words), its
 * title and message through the sink: a token the server quotes in an issue never reaches GitHub.
 */
function checkAnnotation(finding, sink) {
    const { message, where } = (0,_findings_annotations_js__WEBPACK_IMPORTED_MODULE_1__/* .findingAnnotation */ .BN)(finding);
    const region = finding.region;
    const oneLineRegion = region && region.startLine === region.endLine;
    return {
        // A path is the checkout's; one that held the token would not be placed, but not leak it.
        path: sink.text(finding.file),
        start_line: region?.startLine ?? 1,
        end_line: region?.endLine ?? 1,
        ...(oneLineRegion && region.startColumn !== undefined && region.endColumn !== undefined
            ? { start_column: region.startColumn, end_column: region.endColumn }
            : {}),
        annotation_level: CHECK_LEVEL[_findings_annotations_js__WEBPACK_IMPORTED_MODULE_1__/* .LEVEL_OF_SEVERITY */ .bA[finding.severity]],
        title: (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_5__/* .cut */ .Jj)(sink.text(where.title ?? finding.rule), 255),
        message: (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_5__/* .cut */ .Jj)(sink.text(message), _untrusted_text_js__WEBPACK_IMPORTED_MODULE_5__/* .QUOTE_LIMITS */ .gJ.long + 500)
    };
}
/**
 * The verdict, the counts and the first issues (those without a file among them), as HTML
 * through the sink.
 */
function summary({ result }, newIssues, located, annotated, { sink, github }) {
    const notes = [
        annotated < located
            ? `<p>${located - annotated} more located issues are not annotated: a check run carries at most ${CHECK_RUN_LIMITS.annotations}.</p>`
            : undefined,
        newIssues.findings.length > located
            ? `<p>${newIssues.findings.length - located} issues have no file in this checkout, so no annotation: they are listed here.</p>`
            : undefined
    ].filter((note) => note !== undefined);
    const gate = `<p>Quality Gate: ${result.status === 'ERROR' ? '❌ failed' : '✅ passed'} (${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_5__/* .oneLine */ .TN)(result.status, 40)}).</p>`;
    return (0,_report_summary_js__WEBPACK_IMPORTED_MODULE_4__/* .blocks */ .Bv)([
        ...[gate, ...notes].map((line) => sink.text(line)),
        ...(0,_report_new_issues_block_js__WEBPACK_IMPORTED_MODULE_3__/* .newIssuesBlock */ .Qs)(newIssues, {
            sink,
            heading: 'h3',
            listed: CHECK_RUN_LIMITS.issuesListed,
            limit: CHECK_RUN_LIMITS.summaryChars - 2000,
            fileLink: github.fileLink
        })
    ]);
}


/***/ })

};
