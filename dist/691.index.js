export const id = 691;
export const ids = [691];
export const modules = {

/***/ 1691:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   giteaPlatform: () => (/* binding */ giteaPlatform)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(448);
/**
 * Gitea and Forgejo as a review platform (`/api/v1`, the same shapes on both): per project a
 * commit status, and on a pull request the project's comment (Markdown, found again by its
 * marker and its author, edited in place) and the issues on the lines the pull request adds as
 * **one** review (one request, one notification), whose comments are resolved once their issue
 * is gone where the server can. Shapes from Gitea's API description (templates/swagger/v1_json.tmpl,
 * routers/api/v1/api.go) and Forgejo's:
 * - `POST /repos/{owner}/{repo}/statuses/{sha}` (`CreateStatusOption`: `state`
 *   pending/success/error/failure/warning, `target_url`, `description`, `context`);
 * - `GET`, `POST /repos/{owner}/{repo}/issues/{index}/comments` (a pull request's index is its
 *   issue's; the listing is not paged: every comment), `PATCH
 *   /repos/{owner}/{repo}/issues/comments/{id}`; the token's own user: `GET /user`;
 * - `GET /repos/{owner}/{repo}/pulls/{index}.diff`: the diff as text (the files listing carries
 *   no patch), from which the lines the pull request adds;
 * - `POST /repos/{owner}/{repo}/pulls/{index}/reviews` (`CreatePullReviewOptions`: `event`
 *   COMMENT, `body`, `comments[]`: `path`, `body`, `new_position`, the file's line, and
 *   `old_position` 0); `GET .../reviews` (`page`, `limit` at most 50) and `GET
 *   .../reviews/{id}/comments` (`id`, `body`, `user`, `resolver`);
 * - `POST /repos/{owner}/{repo}/pulls/comments/{id}/resolve` (Gitea 1.26 and later; Forgejo has
 *   none: its comments stay as they are, and none is counted resolved).
 * The token goes as `token <token>`, as the API description asks, to the API's origin only.
 */


const GITEA_LIMITS = {
    /** A status's texts: the API names no limit; kept to a line. */
    statusChars: 255,
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
    const repository = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .forgeRepository */ ._C)(target);
    const number = target.pullRequest;
    return {
        words: {
            name: target.kind,
            status: 'commit status',
            comment: 'comment',
            check: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `that ${target.names.api} is ${target.kind}'s API (/api/v1) and that ${target.kind} is up`
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.commit,
        setStatus: (verdict) => setStatus(gitea, repository, target.commit, verdict),
        review: number === undefined
            ? undefined
            : pullRequest(gitea, target, `${repository}/pulls/${number}`, `${repository}/issues/${number}`),
        noReview: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `Not a pull request (no ${target.names.pullRequest}): the commit statuses are set, and no comment is written.`,
        close: () => gitea.close()
    };
}
async function setStatus(gitea, repository, commit, verdict) {
    await gitea.request('POST', `${repository}/statuses/${encodeURIComponent(commit)}`, {
        body: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .forgeStatus */ .M)(verdict, {
            contextChars: GITEA_LIMITS.statusChars,
            descriptionChars: GITEA_LIMITS.statusChars
        })
    });
}
function pullRequest(gitea, target, pull, issue) {
    // Forgejo and Gitea before 1.26 have no API to resolve a comment: found once, asked no more.
    let cannotResolve = false;
    return {
        name: `pull request #${target.pullRequest}`,
        kind: 'pull request',
        commit: target.commit,
        markup: 'markdown',
        ownIdentity: async () => (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)((await gitea.request('GET', 'user')).body),
        changedLines: () => changedLines(gitea, pull),
        verdicts: {
            keyedBy: 'marker',
            async list() {
                const { body } = await gitea.request('GET', `${issue}/comments`);
                return (Array.isArray(body) ? body : []).flatMap((item) => {
                    const { body: text, user } = (item ?? {});
                    const id = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(item);
                    return id === undefined || typeof text !== 'string'
                        ? []
                        : [{ id, body: text, author: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(user) }];
                });
            },
            async create(_verdict, body) {
                const reply = await gitea.request('POST', `${issue}/comments`, { body: { body } });
                return { id: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(reply.body) };
            },
            async update(comment, body) {
                const path = `${issue.replace(/\/issues\/\d+$/, '/issues')}/comments/${comment.id}`;
                try {
                    await gitea.request('PATCH', path, { body: { body } });
                    return true;
                }
                catch (error) {
                    if (error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2 && error.status === 404)
                        return false;
                    throw error;
                }
            }
        },
        inline: {
            step: 'the review of the new issues',
            started: 'comments started in one review',
            resolved: 'resolved',
            list: (identity) => reviewComments(gitea, pull, identity),
            async start(comments) {
                await gitea.request('POST', `${pull}/reviews`, {
                    body: {
                        event: 'COMMENT',
                        body: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .reviewSummary */ .ll)(comments.length),
                        comments: comments.map(({ file, line, body }) => ({
                            path: file,
                            body,
                            new_position: line,
                            old_position: 0
                        }))
                    }
                });
            },
            async resolve(comment) {
                if (cannotResolve)
                    return false;
                const path = `${pull.replace(/\/pulls\/\d+$/, '/pulls')}/comments/${comment.id}/resolve`;
                try {
                    await gitea.request('POST', path);
                    return true;
                }
                catch (error) {
                    // No such route: Forgejo, or Gitea before 1.26.
                    if (!(error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2 && error.status === 404))
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
            const id = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(item);
            const author = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(item?.user);
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
            const id = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(item);
            if (id === undefined)
                continue;
            comments.push({
                id: String(id),
                body: typeof text === 'string' ? text : undefined,
                resolved: resolver !== null && resolver !== undefined,
                author: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(user)
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
            changed.set(path, (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .addedLines */ .u4)(section.slice(section.search(/^@@/m))));
            continue;
        }
        // A binary file names its path only in the header line: `a/<path> b/<path>`.
        const binary = /^a\/(\S+) b\/(\S+)\n(?:(?!\+\+\+ )[^\n]*\n)*Binary files/.exec(section);
        if (binary && !/^deleted file mode/m.test(section))
            changed.set(binary[2], 'whole');
    }
    return changed;
}
/** The one warning for a refusal: what the token, the repository or the pull request lacks. */
function refusalWords(error, target) {
    const { kind } = target;
    const base = `${kind} refused the decoration; the verdict and the exit code are unchanged.`;
    const repository = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(`${target.owner}/${target.repo}`, _review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.short);
    switch (error.status) {
        case 401:
            return `${base} The token in GITEA_TOKEN is not valid (401): give an access token of a user who may write to the repository.`;
        case 403:
            return `${base} The token in GITEA_TOKEN may not write to ${repository} (403): it needs the write:repository and write:issue scopes.`;
        default:
            return (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `${base} ${kind} shows this token no repository ${repository}${target.pullRequest === undefined ? '' : ` or pull request #${target.pullRequest}`} (404): check ${target.names.repository} and ${target.names.pullRequest}.`;
    }
}


/***/ })

};
