export const id = 582;
export const ids = [582];
export const modules = {

/***/ 582:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  writeSarifFile: () => (/* binding */ writeSarifFile)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/identifier.ts
var identifier = __webpack_require__(8360);
// EXTERNAL MODULE: ./src/sonar/origin.ts
var origin = __webpack_require__(4305);
// EXTERNAL MODULE: ./src/untrusted-text.ts
var untrusted_text = __webpack_require__(8521);
;// CONCATENATED MODULE: ./src/findings/written-item.ts
/**
 * `value` as an item of an indented array whose items start `indent` spaces in, as
 * JSON.stringify(report, null, 2) writes it there: what the writers hand their sink to fit, so
 * that it measures what the file holds.
 *
 * @example writtenItem({ a: 1 }, 2) // '  {\n    "a": 1\n  }'
 */
function writtenItem(value, indent) {
    const pad = ' '.repeat(indent);
    return `${pad}${JSON.stringify(value, null, 2).replaceAll('\n', `\n${pad}`)}`;
}

// EXTERNAL MODULE: ./src/findings/severity-scales.ts
var severity_scales = __webpack_require__(487);
// EXTERNAL MODULE: ./src/findings/finding.ts
var finding = __webpack_require__(4879);
;// CONCATENATED MODULE: ./src/findings/sarif.ts
/**
 * The new issues as a SARIF 2.1.0 log, the file GitHub code scanning (and any SARIF viewer)
 * reads: one run per analysis, each rule described once per run, each issue a result with its
 * file and region. Written as the OASIS specification and Microsoft's SARIF validator say, within
 * GitHub's upload limits. Every string comes from the server: each is bounded and kept to one
 * line, and the same findings always give the same bytes.
 */






const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/**
 * Bounds of the log. GitHub rejects an upload over 10 MB gzipped or with more than 25,000 results
 * in a run; at most 5,000 issues are read per analysis anyway. `bytes` bounds the results of all
 * runs together (and their rules), as written, uncompressed, so the gzipped upload stays under
 * GitHub's limit whatever the server sent (a sink's smaller limit bounds them further): past it,
 * results are left out and each run says how many (`omittedResults`).
 */
const SARIF_LIMITS = {
    resultsPerRun: 5_000,
    bytes: 8_000_000,
    message: untrusted_text/* QUOTE_LIMITS */.gJ.long,
    text: untrusted_text/* QUOTE_LIMITS */.gJ.short,
    /** A link longer than this (an issue key the server made huge) is left out, never cut. */
    url: 2_000
};
const SECURITY_SEVERITY = (0,severity_scales/* severityIn */.f)('securitySeverity');
/** SARIF's result levels: GitHub shows error, warning and note as such. */
const LEVEL = (0,severity_scales/* severityIn */.f)('sarifLevel');
/**
 * The SARIF log of the analyses' findings, through the file's sink: the results of every run, in
 * order, as many as fit in SARIF_LIMITS.bytes (and the sink's limit), each new rule counted with
 * the result that first uses it.
 *
 * - One run per analysis, its `automationDetails.id` `sonar/<projectKey>/` so GitHub keeps each
 *   project's alerts apart (a project that comes twice gets `sonar/<projectKey>/2` the second time).
 * - A finding that is not located in the checkout (no `file`) is left out and counted: SARIF
 *   allows a result without `locations`, but GitHub code scanning refuses the whole upload when a
 *   single result has none ("locationFromSarifResult: expected at least one location"), and a
 *   location pointing elsewhere than the issue would be wrong.
 * - Each result's `partialFingerprints` is the issue key, so GitHub follows an issue from one
 *   analysis to the next however its line moves.
 * - Pass only analyses whose issues were read (see analysisFindings): a run without results tells
 *   GitHub the project's alerts are fixed. When not all of an analysis's issues were read, its run
 *   says so in `properties` (`newIssues` against `results`), and GitHub closes the alerts of the
 *   ones left out.
 *
 * @example renderSarif(analysisFindings(outcomes), { name: 'SonarQube', informationUri: 'https://www.sonarsource.com/products/sonarqube/' }, sink).json
 */
function renderSarif(analyses, tool, sink) {
    const seen = new Map();
    const candidates = analyses.map((analysis) => {
        const times = (seen.get(analysis.projectKey) ?? 0) + 1;
        seen.set(analysis.projectKey, times);
        return candidateRun(analysis, times);
    });
    // One list of every run's results as written, each with the rule it is first to use.
    const fitted = sink.fit(candidates.flatMap((run) => run.results.map((each) => each.written)), { separator: '', limit: Math.min(sink.limit, SARIF_LIMITS.bytes) });
    let left = fitted.shown;
    const runs = candidates.map((run) => {
        const shown = Math.min(left, run.results.length);
        left -= shown;
        return sarifRun(run, shown, tool);
    });
    const log = { $schema: SARIF_SCHEMA, version: '2.1.0', runs };
    const count = (of) => candidates.reduce((sum, run) => sum + of(run), 0);
    const unlocated = count((run) => run.unlocated);
    return {
        json: sink.text(`${JSON.stringify(log, null, 2)}\n`),
        results: fitted.shown,
        unlocated,
        omitted: count((run) => run.findings) - unlocated - fitted.shown
    };
}
function candidateRun(analysis, times) {
    const server = serverWithoutCredentials(analysis.serverUrl);
    const located = analysis.findings.filter((finding) => finding.file !== undefined);
    const indexes = new Map();
    const results = located.slice(0, SARIF_LIMITS.resultsPerRun).map((finding) => {
        const ruleId = (0,untrusted_text/* oneLine */.TN)(finding.rule, SARIF_LIMITS.text);
        const known = indexes.get(ruleId);
        const index = known ?? indexes.size;
        indexes.set(ruleId, index);
        const result = sarifResult(finding, finding.file, ruleId, index);
        // What the result adds to the log, each item with its comma and line break: itself, and a
        // new rule with the result that first uses it, at its largest (with a security severity).
        const rule = sarifRule(ruleId, { finding, securitySeverity: 'blocker' }, server);
        const written = [
            `${writtenItem(result, RESULT_INDENT)},\n`,
            known === undefined ? `${writtenItem(rule, RULE_INDENT)},\n` : ''
        ].join('');
        return { result, finding, ruleId, written };
    });
    return {
        analysis,
        times,
        server,
        results,
        findings: analysis.findings.length,
        unlocated: analysis.findings.length - located.length
    };
}
/** The run with its first `shown` results, and the rules they use. */
function sarifRun(run, shown, tool) {
    const { analysis, times, server, unlocated } = run;
    const rules = new Map();
    const results = run.results.slice(0, shown).map(({ result, finding, ruleId }) => {
        const entry = rules.get(ruleId) ?? { finding, securitySeverity: undefined };
        if (finding.type === 'VULNERABILITY') {
            entry.securitySeverity = worse(entry.securitySeverity, finding.severity);
        }
        rules.set(ruleId, entry);
        return result;
    });
    const omitted = run.findings - unlocated - shown;
    const key = (0,untrusted_text/* oneLine */.TN)(analysis.projectKey, SARIF_LIMITS.text);
    return {
        tool: {
            driver: {
                name: (0,untrusted_text/* oneLine */.TN)(tool.name, SARIF_LIMITS.text),
                informationUri: tool.informationUri,
                ...(tool.version === undefined
                    ? {}
                    : { version: (0,untrusted_text/* oneLine */.TN)(tool.version, SARIF_LIMITS.text) }),
                rules: [...rules].map(([id, entry]) => sarifRule(id, entry, server))
            }
        },
        automationDetails: {
            id: `sonar/${categoryPart(analysis.projectKey)}/${times > 1 ? times : ''}`
        },
        results,
        properties: {
            projectKey: key,
            newIssues: analysis.total,
            results: results.length,
            ...(unlocated > 0 ? { unlocatedIssues: unlocated } : {}),
            ...(omitted > 0 ? { omittedResults: omitted } : {})
        }
    };
}
function sarifRule(id, { finding, securitySeverity }, server) {
    const named = (0,untrusted_text/* oneLine */.TN)(finding.ruleName ?? finding.rule, SARIF_LIMITS.text);
    const name = named === '' ? id : named;
    const helpUri = server && ruleUrl(server, finding.rule);
    return {
        id,
        shortDescription: { text: name },
        // GitHub wants both (its ingestion rules GH2012); the server's description is not read.
        fullDescription: { text: name },
        help: { text: helpUri ? `${name}: ${helpUri}` : name },
        ...(helpUri ? { helpUri } : {}),
        ...(securitySeverity
            ? {
                properties: {
                    tags: ['security'],
                    'security-severity': SECURITY_SEVERITY(securitySeverity)
                }
            }
            : {})
    };
}
function sarifResult(finding, file, ruleId, ruleIndex) {
    const message = (0,untrusted_text/* oneLine */.TN)(finding.message, SARIF_LIMITS.message);
    const url = issueUrl(finding.url);
    const region = finding.region && sarifRegion(finding.region);
    return {
        ruleId,
        ruleIndex,
        level: LEVEL(finding.severity),
        message: { text: message === '' ? ruleId : message },
        locations: [
            {
                physicalLocation: {
                    artifactLocation: { uri: fileUri(file), uriBaseId: '%SRCROOT%' },
                    ...(region ? { region } : {})
                }
            }
        ],
        partialFingerprints: { 'sonarIssueKey/v1': (0,untrusted_text/* oneLine */.TN)(finding.key, identifier/* MAX_ID_LENGTH */.Q) },
        ...(url ? { hostedViewerUri: url } : {}),
        properties: {
            sonarSeverity: (0,untrusted_text/* oneLine */.TN)(finding.severityWord, SARIF_LIMITS.text),
            ...(finding.type === undefined
                ? {}
                : { sonarType: (0,untrusted_text/* oneLine */.TN)(finding.type, SARIF_LIMITS.text) }),
            ...(url ? { sonarIssueUrl: url } : {})
        }
    };
}
/** Lines always; columns only when both are given and the range is not empty (SARIF §3.30). */
function sarifRegion(region) {
    const { startLine, startColumn, endColumn } = region;
    if (!(0,finding/* isLineNumber */.o2)(startLine))
        return undefined;
    const endLine = (0,finding/* isLineNumber */.o2)(region.endLine) && region.endLine >= startLine ? region.endLine : startLine;
    const columns = (0,finding/* isLineNumber */.o2)(startColumn) &&
        (0,finding/* isLineNumber */.o2)(endColumn) &&
        (endLine > startLine || endColumn > startColumn);
    return {
        startLine,
        endLine,
        ...(columns ? { startColumn, endColumn } : {})
    };
}
/**
 * The checkout path as a relative URI reference: each segment percent-encoded (a space, `#` or
 * `%` in a file name would otherwise change what the URI names).
 */
function fileUri(file) {
    return file.split('/').map(encodeURIComponent).join('/');
}
/** The rule's page on the server, e.g. `https://sonar.example.com/coding_rules?open=java%3AS1144&rule_key=java%3AS1144`. */
function ruleUrl(server, rule) {
    const key = (0,untrusted_text/* cut */.Jj)(rule, SARIF_LIMITS.text);
    const query = new URLSearchParams({ open: key, rule_key: key });
    return new URL(`coding_rules?${query.toString()}`, (0,origin/* serverBase */.pT)(server)).href;
}
/** The issue's link, when it is an http(s) address of bounded length; never with credentials. */
function issueUrl(url) {
    const href = serverWithoutCredentials(url)?.href;
    return href !== undefined && href.length <= SARIF_LIMITS.url ? href : undefined;
}
function serverWithoutCredentials(href) {
    if (!URL.canParse(href))
        return undefined;
    const url = new URL(href);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        return undefined;
    url.username = '';
    url.password = '';
    return url;
}
/** A project key as part of a GitHub category, where `/` would end it early. */
function categoryPart(projectKey) {
    return (0,untrusted_text/* cut */.Jj)(projectKey, SARIF_LIMITS.text).replace(/[^\w.:-]/g, '_');
}
/** Where results and rules sit in the indented log: `runs[].results[]`, `runs[].tool.driver.rules[]`. */
const RESULT_INDENT = 8;
const RULE_INDENT = 12;
function worse(a, b) {
    return a !== undefined && finding/* SEVERITY_ORDER */.B.indexOf(a) <= finding/* SEVERITY_ORDER */.B.indexOf(b) ? a : b;
}

;// CONCATENATED MODULE: ./src/folders.ts
/**
 * The one way a folder for a file we write is created (the command's result files, the action's
 * SARIF file): never `mkdir(…, { recursive: true })`, which spins forever under /proc in Node 20
 * and 24 (a missing level there is refused with ENOENT while its parent exists, and Node creates
 * the parent and tries again without end). Instead the nearest ancestor that exists is found by a
 * walk of at most the path's depth, and each missing level below it is created by a plain mkdir,
 * so any refusal (EACCES, ENOENT, ENOTDIR, EEXIST on a file) is thrown once, as the system says it.
 */


/**
 * Creates `folder` and the folders missing above it; nothing when it is a folder already. Throws
 * the system's error for the first level that cannot be created (`EEXIST` when `folder` or a level
 * above it is a file).
 *
 * @example await makeFolders(path.dirname(path.resolve(cwd, file)))
 */
async function makeFolders(folder) {
    for (const level of (await missingLevels(external_node_path_default().resolve(folder))).reverse()) {
        try {
            await (0,promises_.mkdir)(level);
        }
        catch (error) {
            // Created meanwhile by another process: fine when it is a folder.
            if (!(isCode(error, 'EEXIST') && (await isFolder(level))))
                throw error;
        }
    }
}
/**
 * `folder` and each level above it up to the nearest that is a folder (not included), deepest
 * first. A level that exists but is no folder, or that cannot be looked at (ENOTDIR, EACCES), ends
 * the walk: creating it throws the reason.
 */
async function missingLevels(folder) {
    const levels = [];
    const depth = folder.split((external_node_path_default()).sep).length;
    let level = folder;
    for (let step = 0; step < depth; step += 1) {
        try {
            if ((await (0,promises_.stat)(level)).isDirectory())
                return levels;
            return [...levels, level];
        }
        catch (error) {
            levels.push(level);
            const parent = external_node_path_default().dirname(level);
            if (!isCode(error, 'ENOENT') || parent === level)
                return levels;
            level = parent;
        }
    }
    return levels;
}
async function isFolder(level) {
    return (0,promises_.stat)(level).then((stats) => stats.isDirectory(), () => false);
}
function isCode(error, code) {
    return error?.code === code;
}

// EXTERNAL MODULE: ./src/sonar/server-kind.ts
var server_kind = __webpack_require__(6143);
;// CONCATENATED MODULE: ./src/report/analysis-findings.ts

/**
 * The analyses whose gate and new issues were both read, in the order they were checked. An
 * analysis whose issues could not be read is left out rather than written with none: an empty
 * list would tell GitHub or GitLab that its issues were fixed.
 *
 * @example analysisFindings(outcomes).map((analysis) => analysis.projectKey) // ['shop', 'billing']
 */
function analysisFindings(outcomes) {
    return outcomes.flatMap((outcome) => {
        if (!outcome.read)
            return [];
        const { projectKey, serverUrl, newIssues } = outcome.result;
        if (projectKey === undefined || newIssues === undefined || !newIssues.read)
            return [];
        return [{ projectKey, serverUrl, findings: newIssues.findings, total: newIssues.total }];
    });
}
/**
 * The analyser as SARIF names it: SonarQube Cloud when every analysis is from it, SonarQube
 * otherwise.
 */
function sarifTool(outcomes) {
    const servers = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result.serverUrl] : []));
    const cloud = servers.length > 0 && servers.every((server) => (0,server_kind/* serverKind */.CG)(new URL(server)).cloud);
    return cloud
        ? {
            name: 'SonarQube Cloud',
            informationUri: 'https://www.sonarsource.com/products/sonarcloud/'
        }
        : { name: 'SonarQube', informationUri: 'https://www.sonarsource.com/products/sonarqube/' };
}

;// CONCATENATED MODULE: ./src/report/issues-file-line.ts
/**
 * The one log line for a file of new issues: how many were written, and how many the analyses
 * have that were left out and why (no file in this checkout, past the file's bound, past the
 * issues read per analysis), and the analyses whose issues could not be read at all. A file of
 * zero issues from gates with new issues is never silent.
 *
 * @example issuesFileLine('as SARIF', 'out.sarif', { written: 0, unlocated: 18, omitted: 0 }, outcomes)
 * // 'Wrote 0 new issues as SARIF to out.sarif (18 left out: 18 with no file in this checkout).'
 */
function issuesFileLine(how, file, tally, outcomes) {
    let notRead = 0;
    let unreadAnalyses = 0;
    for (const outcome of outcomes) {
        const issues = outcome.read ? outcome.result.newIssues : undefined;
        if (issues === undefined)
            continue;
        if (issues.read)
            notRead += issues.total - issues.findings.length;
        else
            unreadAnalyses++;
    }
    const unlocated = tally.unlocated ?? 0;
    const reasons = [
        unlocated > 0 ? `${unlocated} with no file in this checkout` : undefined,
        tally.omitted > 0 ? `${tally.omitted} past the file's size limit` : undefined,
        notRead > 0 ? `${notRead} past the issues read per analysis` : undefined
    ].filter((reason) => reason !== undefined);
    const leftOut = unlocated + tally.omitted + notRead;
    const left = leftOut > 0 ? ` (${leftOut} left out: ${reasons.join(', ')})` : '';
    const unread = unreadAnalyses > 0
        ? `; the new issues of ${unreadAnalyses} ${unreadAnalyses === 1 ? 'analysis' : 'analyses'} could not be read (see above)`
        : '';
    return `Wrote ${tally.written} new issues ${how} to ${file}${left}${unread}.`;
}

// EXTERNAL MODULE: ./src/words.ts
var words = __webpack_require__(5846);
;// CONCATENATED MODULE: ./src/action/sarif-file.ts








/**
 * The new issues as SARIF (see renderSarif), through the file's sink: every form of the token
 * removed. A file that cannot be written is a warning: the verdict never changes because of the
 * issues.
 *
 * @example await writeSarifFile(settings.sarifFile, outcomes, { log, sink: sinks.sarif })
 */
async function writeSarifFile(file, outcomes, { log, sink }) {
    const sarif = renderSarif(analysisFindings(outcomes), sarifTool(outcomes), sink);
    try {
        const target = external_node_path_default().resolve(file);
        await makeFolders(external_node_path_default().dirname(target));
        await (0,promises_.writeFile)(target, sarif.json);
        const tally = { written: sarif.results, unlocated: sarif.unlocated, omitted: sarif.omitted };
        log.info(issuesFileLine('as SARIF', file, tally, outcomes));
    }
    catch (error) {
        log.warning((0,words/* msg */.ab) `The SARIF file was not written to ${file}: ${(0,errors/* messageOf */.bD)(error)}. Check ${(0,words/* theSetting */.w7)('sarif')}.`);
    }
}


/***/ })

};
