export const id = 129;
export const ids = [129,157];
export const modules = {

/***/ 9129:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   onPullRequestLines: () => (/* binding */ onPullRequestLines)
/* harmony export */ });
/* harmony import */ var _gate_on_changed_lines_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7157);

/**
 * On a pull request whose analysis is of a branch (Community Edition has no pull-request
 * analysis): the branch's new-code issues narrowed to the lines the pull request adds or changes,
 * read once from GitHub's pull-request files API. When the lines cannot be read, one line says
 * so and the issues stay as they are. Analyses of the pull request itself are left alone.
 *
 * @example outcomes = await onPullRequestLines(outcomes, { pullRequest, token, env: process.env, log })
 */
async function onPullRequestLines(outcomes, options) {
    if (!(0,_gate_on_changed_lines_js__WEBPACK_IMPORTED_MODULE_0__/* .hasBranchAnalyses */ .h)(outcomes))
        return outcomes;
    const number = options.pullRequest.issue_number;
    const GitHub = await __webpack_require__.e(/* import() */ 819).then(__webpack_require__.bind(__webpack_require__, 819));
    let changed;
    try {
        changed = await readChangedLines(options, GitHub);
    }
    catch (error) {
        options.log.info(`The lines pull request #${number} changes could not be read (${GitHub.githubSaid(error)}): the new code's issues are shown as they are, not narrowed to its lines. Leave githubToken at its default, with permissions pull-requests: read.`);
        return outcomes;
    }
    return (0,_gate_on_changed_lines_js__WEBPACK_IMPORTED_MODULE_0__/* .narrowToChangedLines */ .o)(outcomes, changed, `pull request #${number}`, options.log);
}
/** The pull request's changed lines per file, page by page (at most 30 pages of 100 files). */
async function readChangedLines(options, { gitHubApiOf, listChangedLines }) {
    const { pullRequest, token } = options;
    if (!token)
        throw new Error('no GitHub token');
    const api = gitHubApiOf(token, options.env, options.decorateBy);
    if (!api)
        throw new Error('GITHUB_API_URL is not an http(s) address');
    try {
        const { owner, repo, issue_number: number } = pullRequest;
        return await listChangedLines(api, `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, number);
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
    return outcomes.some((outcome) => branchNewIssues(outcome) !== undefined);
}
/** The new issues read of a branch's new code (not a pull request's own), if the outcome has them. */
function branchNewIssues(outcome) {
    const newIssues = outcome.read ? outcome.result.newIssues : undefined;
    return newIssues?.read && newIssues.scope.kind === 'new-code' ? newIssues : undefined;
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
        const newIssues = branchNewIssues(outcome);
        if (!newIssues || !outcome.read)
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


/***/ })

};
