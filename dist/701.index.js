export const id = 701;
export const ids = [701];
export const modules = {

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


/***/ })

};
