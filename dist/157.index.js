export const id = 157;
export const ids = [157];
export const modules = {

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
