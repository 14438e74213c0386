#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 770:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

module.exports = __nccwpck_require__(218);


/***/ }),

/***/ 218:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var net = __nccwpck_require__(9278);
var tls = __nccwpck_require__(4756);
var http = __nccwpck_require__(8611);
var https = __nccwpck_require__(5692);
var events = __nccwpck_require__(4434);
var assert = __nccwpck_require__(2613);
var util = __nccwpck_require__(9023);


exports.httpOverHttp = httpOverHttp;
exports.httpsOverHttp = httpsOverHttp;
exports.httpOverHttps = httpOverHttps;
exports.httpsOverHttps = httpsOverHttps;


function httpOverHttp(options) {
  var agent = new TunnelingAgent(options);
  agent.request = http.request;
  return agent;
}

function httpsOverHttp(options) {
  var agent = new TunnelingAgent(options);
  agent.request = http.request;
  agent.createSocket = createSecureSocket;
  agent.defaultPort = 443;
  return agent;
}

function httpOverHttps(options) {
  var agent = new TunnelingAgent(options);
  agent.request = https.request;
  return agent;
}

function httpsOverHttps(options) {
  var agent = new TunnelingAgent(options);
  agent.request = https.request;
  agent.createSocket = createSecureSocket;
  agent.defaultPort = 443;
  return agent;
}


function TunnelingAgent(options) {
  var self = this;
  self.options = options || {};
  self.proxyOptions = self.options.proxy || {};
  self.maxSockets = self.options.maxSockets || http.Agent.defaultMaxSockets;
  self.requests = [];
  self.sockets = [];

  self.on('free', function onFree(socket, host, port, localAddress) {
    var options = toOptions(host, port, localAddress);
    for (var i = 0, len = self.requests.length; i < len; ++i) {
      var pending = self.requests[i];
      if (pending.host === options.host && pending.port === options.port) {
        // Detect the request to connect same origin server,
        // reuse the connection.
        self.requests.splice(i, 1);
        pending.request.onSocket(socket);
        return;
      }
    }
    socket.destroy();
    self.removeSocket(socket);
  });
}
util.inherits(TunnelingAgent, events.EventEmitter);

TunnelingAgent.prototype.addRequest = function addRequest(req, host, port, localAddress) {
  var self = this;
  var options = mergeOptions({request: req}, self.options, toOptions(host, port, localAddress));

  if (self.sockets.length >= this.maxSockets) {
    // We are over limit so we'll add it to the queue.
    self.requests.push(options);
    return;
  }

  // If we are under maxSockets create a new one.
  self.createSocket(options, function(socket) {
    socket.on('free', onFree);
    socket.on('close', onCloseOrRemove);
    socket.on('agentRemove', onCloseOrRemove);
    req.onSocket(socket);

    function onFree() {
      self.emit('free', socket, options);
    }

    function onCloseOrRemove(err) {
      self.removeSocket(socket);
      socket.removeListener('free', onFree);
      socket.removeListener('close', onCloseOrRemove);
      socket.removeListener('agentRemove', onCloseOrRemove);
    }
  });
};

TunnelingAgent.prototype.createSocket = function createSocket(options, cb) {
  var self = this;
  var placeholder = {};
  self.sockets.push(placeholder);

  var connectOptions = mergeOptions({}, self.proxyOptions, {
    method: 'CONNECT',
    path: options.host + ':' + options.port,
    agent: false,
    headers: {
      host: options.host + ':' + options.port
    }
  });
  if (options.localAddress) {
    connectOptions.localAddress = options.localAddress;
  }
  if (connectOptions.proxyAuth) {
    connectOptions.headers = connectOptions.headers || {};
    connectOptions.headers['Proxy-Authorization'] = 'Basic ' +
        new Buffer(connectOptions.proxyAuth).toString('base64');
  }

  debug('making CONNECT request');
  var connectReq = self.request(connectOptions);
  connectReq.useChunkedEncodingByDefault = false; // for v0.6
  connectReq.once('response', onResponse); // for v0.6
  connectReq.once('upgrade', onUpgrade);   // for v0.6
  connectReq.once('connect', onConnect);   // for v0.7 or later
  connectReq.once('error', onError);
  connectReq.end();

  function onResponse(res) {
    // Very hacky. This is necessary to avoid http-parser leaks.
    res.upgrade = true;
  }

  function onUpgrade(res, socket, head) {
    // Hacky.
    process.nextTick(function() {
      onConnect(res, socket, head);
    });
  }

  function onConnect(res, socket, head) {
    connectReq.removeAllListeners();
    socket.removeAllListeners();

    if (res.statusCode !== 200) {
      debug('tunneling socket could not be established, statusCode=%d',
        res.statusCode);
      socket.destroy();
      var error = new Error('tunneling socket could not be established, ' +
        'statusCode=' + res.statusCode);
      error.code = 'ECONNRESET';
      options.request.emit('error', error);
      self.removeSocket(placeholder);
      return;
    }
    if (head.length > 0) {
      debug('got illegal response body from proxy');
      socket.destroy();
      var error = new Error('got illegal response body from proxy');
      error.code = 'ECONNRESET';
      options.request.emit('error', error);
      self.removeSocket(placeholder);
      return;
    }
    debug('tunneling connection has established');
    self.sockets[self.sockets.indexOf(placeholder)] = socket;
    return cb(socket);
  }

  function onError(cause) {
    connectReq.removeAllListeners();

    debug('tunneling socket could not be established, cause=%s\n',
          cause.message, cause.stack);
    var error = new Error('tunneling socket could not be established, ' +
                          'cause=' + cause.message);
    error.code = 'ECONNRESET';
    options.request.emit('error', error);
    self.removeSocket(placeholder);
  }
};

TunnelingAgent.prototype.removeSocket = function removeSocket(socket) {
  var pos = this.sockets.indexOf(socket)
  if (pos === -1) {
    return;
  }
  this.sockets.splice(pos, 1);

  var pending = this.requests.shift();
  if (pending) {
    // If we have pending requests and a socket gets closed a new one
    // needs to be created to take over in the pool for the one that closed.
    this.createSocket(pending, function(socket) {
      pending.request.onSocket(socket);
    });
  }
};

function createSecureSocket(options, cb) {
  var self = this;
  TunnelingAgent.prototype.createSocket.call(self, options, function(socket) {
    var hostHeader = options.request.getHeader('host');
    var tlsOptions = mergeOptions({}, self.options, {
      socket: socket,
      servername: hostHeader ? hostHeader.replace(/:.*$/, '') : options.host
    });

    // 0 is dummy port for v0.6
    var secureSocket = tls.connect(0, tlsOptions);
    self.sockets[self.sockets.indexOf(socket)] = secureSocket;
    cb(secureSocket);
  });
}


function toOptions(host, port, localAddress) {
  if (typeof host === 'string') { // since v0.10
    return {
      host: host,
      port: port,
      localAddress: localAddress
    };
  }
  return host; // for v0.11 or later
}

function mergeOptions(target) {
  for (var i = 1, len = arguments.length; i < len; ++i) {
    var overrides = arguments[i];
    if (typeof overrides === 'object') {
      var keys = Object.keys(overrides);
      for (var j = 0, keyLen = keys.length; j < keyLen; ++j) {
        var k = keys[j];
        if (overrides[k] !== undefined) {
          target[k] = overrides[k];
        }
      }
    }
  }
  return target;
}


var debug;
if (process.env.NODE_DEBUG && /\btunnel\b/.test(process.env.NODE_DEBUG)) {
  debug = function() {
    var args = Array.prototype.slice.call(arguments);
    if (typeof args[0] === 'string') {
      args[0] = 'TUNNEL: ' + args[0];
    } else {
      args.unshift('TUNNEL:');
    }
    console.error.apply(console, args);
  }
} else {
  debug = function() {};
}
exports.debug = debug; // for test


/***/ }),

/***/ 2717:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   M: () => (/* binding */ readBoundedFile)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/**
 * The one way a file that must be small is read (the report file, the CA file, the event file):
 * opened without waiting (O_NONBLOCK: a named pipe with no writer opens at once), checked on the
 * opened handle to be a regular file (so it cannot be swapped between the check and the read),
 * and read up to one byte past the limit, whatever its size says (files in /proc say 0, a sparse
 * file says terabytes, and a file may grow while it is read). It never throws: each caller words
 * the outcome in its own message.
 */


/** How much is read at a time. */
const CHUNK_BYTES = 64 * 1024;
/**
 * Reads `file` whole when it is a regular file of at most `maxBytes`.
 *
 * @example const read = await readBoundedFile('.scannerwork/report-task.txt', 64 * 1024) // { outcome: 'read', bytes }
 */
async function readBoundedFile(file, maxBytes) {
    let handle;
    try {
        // O_NONBLOCK does not exist on Windows, where opening a pipe does not block either.
        handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(file, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY | (node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NONBLOCK ?? 0));
    }
    catch (error) {
        return error.code === 'ENOENT'
            ? { outcome: 'missing', error: error }
            : { outcome: 'unreadable', error };
    }
    try {
        const kind = notRegular(await handle.stat());
        if (kind)
            return { outcome: 'not-a-file', kind };
        // Read in chunks, so a large limit costs memory only for what the file holds; one byte past
        // the limit tells a file at the limit from a larger one.
        const chunks = [];
        let length = 0;
        for (;;) {
            const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - length));
            const { bytesRead } = await handle.read(chunk, 0, chunk.length, length);
            if (bytesRead === 0)
                break;
            chunks.push(chunk.subarray(0, bytesRead));
            length += bytesRead;
            if (length > maxBytes)
                return { outcome: 'too-large' };
        }
        return { outcome: 'read', bytes: Buffer.concat(chunks, length) };
    }
    catch (error) {
        return { outcome: 'unreadable', error };
    }
    finally {
        // A failure to close a file that was read changes nothing of what was read.
        await handle.close().catch(() => undefined);
    }
}
/** What a non-regular file is, for the message; undefined for a regular file. */
function notRegular(stats) {
    if (stats.isFile())
        return undefined;
    if (stats.isDirectory())
        return 'a directory';
    if (stats.isFIFO())
        return 'a named pipe (FIFO)';
    if (stats.isCharacterDevice() || stats.isBlockDevice())
        return 'a device';
    if (stats.isSocket())
        return 'a socket';
    return 'not a file';
}


/***/ }),

/***/ 4385:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   P: () => (/* binding */ ciAnalysis),
/* harmony export */   p: () => (/* binding */ withTheCisAnalysis)
/* harmony export */ });
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3916);
/* harmony import */ var _run_scope_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(7303);
/* harmony import */ var _github_event_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(2981);
/* harmony import */ var _settings_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8750);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(5846);
/**
 * Which analysis the CI the command runs in is about: its branch or pull request, and the commit
 * a scan of this run records. The command's counterpart of the action's run-analysis.ts, read
 * from each CI's own variables. Every value is untrusted: a commit is taken only as a full SHA, a
 * branch only as a name the server can key, a pull request only as the number the server keys
 * it by. What a CI says but cannot be taken is a SettingsError naming the variable and the
 * options to pass: checking the main branch or the newest analysis instead would give another
 * analysis's verdict.
 */






/** A pull or merge request's number: what SonarQube keys them by on every CI read here. */
const NUMBER = /^[1-9][0-9]{0,18}$/;
/** What a CI calls a pull request, for the log. */
const REQUEST_WORDS = { 'GitLab CI': 'merge request' };
/**
 * With project keys and no branch, pull request or commit given, the branch or pull request
 * and the commits from the CI the command runs in (an option given always wins; a branch or pull
 * request given leaves the commit to the options too). One line of the log says what was taken
 * and from which CI. Outside a CI it knows, the settings stay as they are: the newest analysis of
 * the main branch.
 *
 * @example settings = await withTheCisAnalysis(settings, process.env, log)
 */
async function withTheCisAnalysis(settings, env, log) {
    if (settings.projectKeys.length === 0)
        return settings;
    if (settings.branch || settings.pullRequest || settings.commits.length > 0)
        return settings;
    const ci = await ciAnalysis(env);
    if (!ci)
        return settings;
    return (0,_run_scope_js__WEBPACK_IMPORTED_MODULE_1__/* .takeRunScope */ .T)(settings, ci, log, REQUEST_WORDS[ci.from]);
}
/**
 * The analysis the CI's run is about, from the first CI whose own marker is set; undefined when
 * none is, or when the CI names neither a commit nor a branch or pull request (nothing taken).
 * Throws a SettingsError when the CI names a branch, pull request or commit that cannot be taken,
 * or a branch or pull request without its commit.
 *
 * @example await ciAnalysis({ GITLAB_CI: 'true', CI_MERGE_REQUEST_IID: '42', CI_COMMIT_SHA: sha }) // { pullRequest: '42', commits: [sha], from: 'GitLab CI' }
 */
async function ciAnalysis(env) {
    if (env['GITHUB_ACTIONS'] === 'true')
        return gitHubActions(env);
    if (env['GITLAB_CI'] === 'true')
        return gitLabCi(env);
    if (env['TF_BUILD']?.toLowerCase() === 'true')
        return azurePipelines(env);
    if (env['CI'] === 'true' && env['BITBUCKET_COMMIT'])
        return bitbucketPipelines(env);
    if (env['CIRCLECI'] === 'true')
        return circleCi(env);
    // JENKINS_URL alone is no proof: it is often set outside Jenkins (SonarQube's scanner asks for
    // EXECUTOR_NUMBER too).
    if (env['JENKINS_URL'] && env['EXECUTOR_NUMBER'])
        return jenkins(env);
    return undefined;
}
// GitHub Actions, when the command runs there (the action reads the same run on its own):
// https://docs.github.com/en/actions/reference/workflows-and-actions/variables (GITHUB_ACTIONS,
// GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REF: refs/heads/<branch>, refs/tags/<tag>, and on
// pull_request refs/pull/<number>/merge; GITHUB_SHA: on pull_request the merge commit). The head
// commit is only in the event file (pull_request.head.sha), which SonarQube's scanner records on
// pull_request (sonar-scanner-engine, org/sonar/scanner/ci/vendors/GithubActions.java): both are
// taken. SonarQube keys a GitHub pull request by its number.
async function gitHubActions(env) {
    const ci = new CiVariables('GitHub Actions', env);
    const event = env['GITHUB_EVENT_NAME'] ?? '';
    const ref = env['GITHUB_REF'] ?? '';
    if (event === 'pull_request' || event === 'pull_request_target') {
        const file = await (0,_github_event_js__WEBPACK_IMPORTED_MODULE_2__/* .readEventFile */ .zh)(env['GITHUB_EVENT_PATH']);
        const payload = (0,_github_event_js__WEBPACK_IMPORTED_MODULE_2__/* .pullRequestOf */ ._n)('payload' in file ? file.payload : undefined);
        const fromRef = /^refs\/pull\/([0-9]+)\/merge$/.exec(ref)?.[1];
        const number = payload.number?.toString() ?? (fromRef && NUMBER.test(fromRef) ? fromRef : undefined);
        if (!number) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .msg */ .ab) `GitHub Actions runs for a ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__/* .oneLine */ .TN)(event)} event whose pull request is unknown (the event file names none, nor does GITHUB_REF): ${TO_PASS}`);
        }
        const head = payload.headSha ? [payload.headSha] : [];
        const since = (0,_settings_js__WEBPACK_IMPORTED_MODULE_3__/* .runStart */ .cM)(payload.updatedAt, "the pull request's last update");
        return ci.analysis({ pullRequest: number }, [...head, ...ci.commit('GITHUB_SHA')], since);
    }
    return ci.analysis(ci.refScope('GITHUB_REF'), ci.commit('GITHUB_SHA'));
}
// GitLab CI: https://docs.gitlab.com/ci/variables/predefined_variables/ (GITLAB_CI; CI_COMMIT_SHA;
// CI_COMMIT_BRANCH, set in branch pipelines only, not in merge request or tag pipelines;
// CI_MERGE_REQUEST_IID, the number in the merge request's address, which SonarQube keys a merge
// request by; CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, set in merged results pipelines only, where
// CI_COMMIT_SHA is the merge commit they check out and the scanner records; CI_PIPELINE_CREATED_AT,
// the pipeline's creation in ISO 8601, since GitLab 13.10: lib/gitlab/ci/variables/builder/pipeline.rb).
function gitLabCi(env) {
    const ci = new CiVariables('GitLab CI', env);
    const commit = ci.commit('CI_COMMIT_SHA');
    if (ci.has('CI_MERGE_REQUEST_IID')) {
        const head = ci.commit('CI_MERGE_REQUEST_SOURCE_BRANCH_SHA');
        const since = (0,_settings_js__WEBPACK_IMPORTED_MODULE_3__/* .runStart */ .cM)(env['CI_PIPELINE_CREATED_AT'], "the pipeline's creation");
        return ci.analysis({ pullRequest: ci.number('CI_MERGE_REQUEST_IID') }, [...head, ...commit], since);
    }
    return ci.analysis(ci.has('CI_COMMIT_BRANCH') ? ci.branch('CI_COMMIT_BRANCH') : {}, commit);
}
// Azure Pipelines: https://learn.microsoft.com/en-us/azure/devops/pipelines/build/variables
// (TF_BUILD; BUILD_SOURCEVERSION, the commit; BUILD_SOURCEBRANCH, refs/heads/<branch>,
// refs/tags/<tag>, refs/pull/<id>/merge; BUILD_REPOSITORY_PROVIDER; on a pull request
// SYSTEM_PULLREQUEST_PULLREQUESTID, and SYSTEM_PULLREQUEST_PULLREQUESTNUMBER for GitHub's, whose
// id and number differ). SonarSource's extension keys a pull request by PULLREQUESTNUMBER on
// GitHub and GitHub Enterprise, by PULLREQUESTID elsewhere (sonar-scanner-azdo,
// src/common/latest/prepare-task.ts). A pull request build checks out the merge commit; the
// scanner records SYSTEM_PULLREQUEST_SOURCECOMMITID, the head, when set (sonar-scanner-engine,
// org/sonar/scanner/ci/vendors/AzureDevops.java; that variable is not on Microsoft's page): both
// are taken.
function azurePipelines(env) {
    const ci = new CiVariables('Azure Pipelines', env);
    const commit = ci.commit('BUILD_SOURCEVERSION');
    if (ci.has('SYSTEM_PULLREQUEST_PULLREQUESTID')) {
        const provider = env['BUILD_REPOSITORY_PROVIDER'] ?? '';
        const github = provider === 'GitHub' || provider === 'GitHubEnterprise';
        const key = github ? 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER' : 'SYSTEM_PULLREQUEST_PULLREQUESTID';
        const head = ci.commit('SYSTEM_PULLREQUEST_SOURCECOMMITID');
        return ci.analysis({ pullRequest: ci.number(key) }, [...head, ...commit]);
    }
    if ((env['BUILD_SOURCEBRANCH'] ?? '').startsWith('refs/pull/')) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .msg */ .ab) `Azure Pipelines builds a pull request (BUILD_SOURCEBRANCH is "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__/* .oneLine */ .TN)(env['BUILD_SOURCEBRANCH'] ?? '')}") but sets no SYSTEM_PULLREQUEST_PULLREQUESTID: ${TO_PASS}`);
    }
    return ci.analysis(ci.refScope('BUILD_SOURCEBRANCH'), commit);
}
// Bitbucket Pipelines: https://support.atlassian.com/bitbucket-cloud/docs/variables-and-secrets/
// (CI; BITBUCKET_COMMIT, the commit that started the build, which the scanner records;
// BITBUCKET_BRANCH, the source branch, not set for tags nor custom pipelines; BITBUCKET_TAG;
// BITBUCKET_PR_ID, on pull request builds only, which SonarQube keys the pull request by).
function bitbucketPipelines(env) {
    const ci = new CiVariables('Bitbucket Pipelines', env);
    const commit = ci.commit('BITBUCKET_COMMIT');
    if (ci.has('BITBUCKET_PR_ID')) {
        return ci.analysis({ pullRequest: ci.number('BITBUCKET_PR_ID') }, commit);
    }
    if (ci.has('BITBUCKET_TAG'))
        return ci.analysis({}, commit);
    return ci.analysis(ci.has('BITBUCKET_BRANCH') ? ci.branch('BITBUCKET_BRANCH') : {}, commit);
}
// CircleCI: https://circleci.com/docs/reference/variables/ (CIRCLECI; CIRCLE_SHA1; CIRCLE_BRANCH;
// CIRCLE_TAG; CIRCLE_PULL_REQUEST, the address of the branch's pull request, one at random when
// several: CIRCLE_PULL_REQUESTS lists them; CIRCLE_PR_NUMBER, on pull requests from forks only).
// SonarQube's scanners do not detect pull requests on CircleCI: the scan's
// sonar.pullrequest.key must be this number, or the analysis is the branch's (give the branch).
function circleCi(env) {
    const ci = new CiVariables('CircleCI', env);
    const commit = ci.commit('CIRCLE_SHA1');
    const urls = new Set((env['CIRCLE_PULL_REQUESTS'] ?? '')
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url !== ''));
    if (urls.size > 1) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .msg */ .ab) `CircleCI names ${urls.size} pull requests of this branch (CIRCLE_PULL_REQUESTS), and picks one at random: ${TO_PASS}`);
    }
    if (ci.has('CIRCLE_PR_NUMBER')) {
        return ci.analysis({ pullRequest: ci.number('CIRCLE_PR_NUMBER') }, commit);
    }
    if (ci.has('CIRCLE_PULL_REQUEST')) {
        return ci.analysis({ pullRequest: ci.numberInUrl('CIRCLE_PULL_REQUEST') }, commit);
    }
    if (ci.has('CIRCLE_TAG'))
        return ci.analysis({}, commit);
    return ci.analysis(ci.has('CIRCLE_BRANCH') ? ci.branch('CIRCLE_BRANCH') : {}, commit);
}
// Jenkins: the list every controller serves at <JENKINS_URL>/pipeline-syntax/globals#env, to
// which https://docs.cloudbees.com/docs/cloudbees-ci/latest/automating-with-jenkinsfile/working-with-the-env
// points (JENKINS_URL, EXECUTOR_NUMBER; for multibranch projects BRANCH_NAME, the tag's name on
// tags, CHANGE_ID, the pull or merge request's number, which SonarQube keys it by, and TAG_NAME,
// as the Branch API plugin sets them: jenkins/branch/BranchNameContributor.java); GIT_COMMIT,
// "SHA-1 of the commit used in this build", from the Git plugin:
// https://github.com/jenkinsci/git-plugin/blob/master/README.adoc#environment-variables (a
// scripted pipeline sets it from checkout's result). With the merge strategy, GIT_COMMIT is
// Jenkins' own merge of the target into the pull request, which no scan records (SonarQube's
// scanner records the pull request's head): then the commit setting gives the head.
function jenkins(env) {
    const ci = new CiVariables('Jenkins', env);
    const commit = ci.commit('GIT_COMMIT');
    if (ci.has('CHANGE_ID'))
        return ci.analysis({ pullRequest: ci.number('CHANGE_ID') }, commit);
    if (ci.has('TAG_NAME'))
        return ci.analysis({}, commit);
    return ci.analysis(ci.has('BRANCH_NAME') ? ci.branch('BRANCH_NAME') : {}, commit);
}
/** What to do when the CI's facts cannot be taken, in the command's words. */
const TO_PASS = (0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .msg */ .ab) `pass ${(0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .setting */ .Pe)('pullRequest')} or ${(0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .setting */ .Pe)('branch')}, and ${(0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .setting */ .Pe)('commit')}, to say which analysis to check.`;
/** One CI's variables, each read as the fact it should be, or refused by name. */
class CiVariables {
    from;
    env;
    /** The variables read for a commit, for a message that names them. */
    commitVariables = [];
    constructor(from, env) {
        this.from = from;
        this.env = env;
    }
    /** Whether the variable is set to something. */
    has(name) {
        return (this.env[name] ?? '') !== '';
    }
    /** The variable's commit, lower-cased, when set: a full SHA, or refused. */
    commit(name) {
        this.commitVariables.push(name);
        const value = this.env[name] ?? '';
        if (value === '')
            return [];
        const sha = value.toLowerCase();
        if (!(0,_settings_js__WEBPACK_IMPORTED_MODULE_3__/* .isFullSha */ .Wf)(sha))
            this.refuse(name, value, 'not a full commit SHA');
        return [sha];
    }
    /** The variable's branch: a name the server keys (at most 255 characters, no control character). */
    branch(name, value = this.env[name] ?? '') {
        if (!(0,_settings_js__WEBPACK_IMPORTED_MODULE_3__/* .isBranchName */ .Q8)(value)) {
            this.refuse(name, value, `no branch name (at most ${_settings_js__WEBPACK_IMPORTED_MODULE_3__/* .MAX_BRANCH_LENGTH */ .Bl} characters, no control characters)`);
        }
        return { branch: value };
    }
    /** A ref's branch (refs/heads/…); no branch for any other ref (a tag's). */
    refScope(name) {
        const ref = this.env[name] ?? '';
        return ref.startsWith('refs/heads/') ? this.branch(name, ref.slice('refs/heads/'.length)) : {};
    }
    /** The variable's pull-request number. */
    number(name) {
        const value = this.env[name] ?? '';
        if (!NUMBER.test(value))
            this.refuse(name, value, 'not a pull request number');
        return value;
    }
    /** The number a pull request's address ends with (…/pull/12, …/pull-requests/12). */
    numberInUrl(name) {
        const value = this.env[name] ?? '';
        const number = /^https?:\/\/[^\s]+\/(?:pull|pull-requests|merge_requests)\/([0-9]+)\/?$/.exec(value)?.[1];
        if (!number || !NUMBER.test(number)) {
            this.refuse(name, value, "not a pull request's address");
        }
        return number;
    }
    /**
     * The analysis the scope and commits make, the commits once each. A branch or pull request
     * without its commit would be the newest analysis, maybe the previous one's: refused. Nothing
     * at all: nothing taken.
     */
    analysis(scope, commits, since) {
        const unique = [...new Set(commits)];
        if (unique.length === 0) {
            if (scope.branch === undefined && scope.pullRequest === undefined)
                return undefined;
            const what = scope.pullRequest === undefined ? 'branch' : 'pull request';
            const unset = this.commitVariables.join(' nor ');
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .msg */ .ab) `${this.from} names the ${what} but not its commit (${unset} is not set), so the newest analysis could be an earlier commit's: pass ${(0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .setting */ .Pe)('commit')} with the commit the scan analysed.`);
        }
        return {
            ...scope,
            commits: unique,
            ...(since && scope.pullRequest !== undefined ? { since } : {}),
            from: this.from
        };
    }
    refuse(name, value, problem) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_5__/* .msg */ .ab) `${this.from} sets ${name} to "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__/* .oneLine */ .TN)(value)}", which is ${problem}: ${TO_PASS}`);
    }
}


/***/ }),

/***/ 6529:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  decorate: () => (/* binding */ decorate)
});

// EXTERNAL MODULE: ./src/ci/ci-analysis.ts
var ci_analysis = __nccwpck_require__(4385);
// EXTERNAL MODULE: ./src/github-event.ts
var github_event = __nccwpck_require__(2981);
// EXTERNAL MODULE: ./src/words.ts
var words = __nccwpck_require__(5846);
// EXTERNAL MODULE: ./src/report/new-issues-block.ts
var new_issues_block = __nccwpck_require__(9437);
;// CONCATENATED MODULE: ./src/ci/review-targets.ts
/**
 * Where the CI says the decoration writes: the platform's API, the repository or project, the
 * commit and the review, read from the CI's own variables (or the options, which win). Every
 * value is untrusted: an address must be http(s) without credentials, a commit a full SHA, a
 * review a number. What is missing is said in words that name the variable; the platforms
 * (src/platforms/) never read the environment.
 */


/** The variable's value, trimmed; undefined when unset or empty. */
function variable(env, name) {
    return env[name]?.trim() || undefined;
}
/** An http(s) address without credentials, or undefined. */
function httpUrl(value) {
    if (!value || !URL.canParse(value))
        return undefined;
    const url = new URL(value);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
        return undefined;
    }
    return url;
}
/**
 * The commit a platform's decoration goes on, the same rule on every platform: the commit given
 * given, which wins over the CI's; else the commit the CI names.
 *
 * @example const sha = decoratedCommit({ commit: line.commit }, env['CI_COMMIT_SHA'])
 */
function decoratedCommit(given, fromTheCi) {
    return given.commit ?? fromTheCi;
}
const FULL_SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i;
const NUMBER = /^\d{1,20}$/;
/**
 * The pipeline GitLab's variables describe (CI_API_V4_URL, CI_PROJECT_ID, CI_PROJECT_URL,
 * CI_COMMIT_SHA, CI_MERGE_REQUEST_IID, CI_PIPELINE_ID), or what is missing. The statuses go on
 * `commit` (the commit given) when given, else on CI_COMMIT_SHA; on another commit than the pipeline's
 * they name no pipeline (GitLab would find none of that commit with its id, and start one).
 */
function gitlabPipeline(env, commit) {
    const apiUrl = httpUrl(variable(env, 'CI_API_V4_URL'));
    if (!apiUrl)
        return { missing: 'CI_API_V4_URL is not an http(s) address (not a GitLab CI job?)' };
    const projectId = variable(env, 'CI_PROJECT_ID');
    if (!projectId || !NUMBER.test(projectId)) {
        return { missing: 'CI_PROJECT_ID is not a project id' };
    }
    const pipelineSha = variable(env, 'CI_COMMIT_SHA');
    if (!pipelineSha || !FULL_SHA.test(pipelineSha)) {
        return { missing: 'CI_COMMIT_SHA is not a full commit SHA' };
    }
    const sha = decoratedCommit({ commit }, pipelineSha);
    const iid = variable(env, 'CI_MERGE_REQUEST_IID');
    const projectUrl = httpUrl(variable(env, 'CI_PROJECT_URL'));
    return {
        apiUrl,
        pipeline: {
            projectId,
            sha,
            mergeRequestIid: iid && NUMBER.test(iid) ? iid : undefined,
            pipelineId: sha.toLowerCase() === pipelineSha.toLowerCase()
                ? variable(env, 'CI_PIPELINE_ID')
                : undefined,
            fileLink: projectUrl
                ? (0,new_issues_block/* fileLinkUnder */.$2)(`${projectUrl.href.replace(/\/+$/, '')}/-/blob/${sha}`)
                : undefined,
            names: {
                project: 'CI_PROJECT_ID',
                mergeRequest: 'CI_MERGE_REQUEST_IID',
                api: 'CI_API_V4_URL'
            }
        }
    };
}
/** Bitbucket Cloud's API, unless BITBUCKET_API_URL names another (a proxy, a test). */
const BITBUCKET_API = 'https://api.bitbucket.org/2.0';
/**
 * The pipeline Bitbucket's variables describe (BITBUCKET_REPO_FULL_NAME, BITBUCKET_COMMIT,
 * BITBUCKET_PR_ID; BITBUCKET_API_URL overrides the API's address), or what is missing; its
 * commit is `commit` (the commit given) when given, else BITBUCKET_COMMIT.
 */
function bitbucketPipeline(env, commit) {
    const repository = variable(env, 'BITBUCKET_REPO_FULL_NAME');
    if (!repository || !/^[\w.-]{1,100}\/[\w.-]{1,100}$/.test(repository)) {
        return { missing: 'BITBUCKET_REPO_FULL_NAME is not workspace/repository' };
    }
    const pipelineCommit = variable(env, 'BITBUCKET_COMMIT');
    if (!pipelineCommit || !/^[0-9a-f]{40}$/i.test(pipelineCommit)) {
        return { missing: 'BITBUCKET_COMMIT is not a full commit SHA' };
    }
    const apiUrl = httpUrl(variable(env, 'BITBUCKET_API_URL') ?? BITBUCKET_API);
    if (!apiUrl)
        return { missing: 'BITBUCKET_API_URL is not an http(s) address' };
    const id = variable(env, 'BITBUCKET_PR_ID');
    return {
        apiUrl,
        pipeline: {
            repository,
            commit: decoratedCommit({ commit }, pipelineCommit),
            pullRequestId: id && /^\d{1,12}$/.test(id) ? id : undefined
        }
    };
}
/**
 * The pull request Azure Pipelines' variables name (SYSTEM_COLLECTIONURI, SYSTEM_TEAMPROJECT,
 * BUILD_REPOSITORY_ID, SYSTEM_PULLREQUEST_PULLREQUESTID, BUILD_SOURCEVERSION), or what is missing.
 */
function azurePullRequest(env) {
    const collection = httpUrl(variable(env, 'SYSTEM_COLLECTIONURI'));
    if (!collection)
        return { missing: 'SYSTEM_COLLECTIONURI is not an http(s) address' };
    const project = variable(env, 'SYSTEM_TEAMPROJECT');
    if (!project || project.length > 200)
        return { missing: 'SYSTEM_TEAMPROJECT is not set' };
    const repository = variable(env, 'BUILD_REPOSITORY_ID');
    if (!repository || !/^[\w-]{1,100}$/.test(repository)) {
        return { missing: 'BUILD_REPOSITORY_ID is not a repository id' };
    }
    const pullRequestId = variable(env, 'SYSTEM_PULLREQUEST_PULLREQUESTID');
    if (!pullRequestId || !/^\d{1,12}$/.test(pullRequestId)) {
        return {
            missing: "not a pull-request build (no SYSTEM_PULLREQUEST_PULLREQUESTID): Azure DevOps statuses and threads are a pull request's"
        };
    }
    const base = collection.href.replace(/\/*$/, '/');
    return {
        collectionUrl: new URL(base),
        repositoryUrl: new URL(`${encodeURIComponent(project)}/_apis/git/repositories/${encodeURIComponent(repository)}/`, base),
        pullRequestId,
        commit: variable(env, 'BUILD_SOURCEVERSION') ?? ''
    };
}
/**
 * A GitLab project and merge request from any CI: the settings given (the address, the project
 * by id or path, the merge request's iid, the commit) win; else the Jenkins GitLab plugin's
 * variables (gitlabTargetRepoHttpUrl, gitlabMergeRequestTargetProjectId, gitlabMergeRequestIid,
 * gitlabMergeRequestLastCommit, as its CauseData sets them; not in multibranch jobs), and the
 * commit GIT_COMMIT names.
 *
 * @example gitlabProject(env, { url: 'https://gitlab.example.com', project: 'acme/shop', pullRequest: '7', commit })
 */
function gitlabProject(env, given) {
    const fromPlugin = httpUrl(variable(env, 'gitlabTargetRepoHttpUrl'));
    const address = given.url ?? fromPlugin?.origin;
    const server = httpUrl(address);
    if (!server) {
        return {
            missing: given.url === undefined
                ? (0,words/* msg */.ab) `no GitLab address: give ${(0,words/* setting */.Pe)('gitlabUrl')}`
                : (0,words/* msg */.ab) `${(0,words/* setting */.Pe)('gitlabUrl')} is not an http(s) address`
        };
    }
    const base = server.href.replace(/\/+$/, '');
    const apiUrl = new URL(/\/api\/v4$/.test(base) ? base : `${base}/api/v4`);
    const pluginPath = fromPlugin?.pathname.replace(/^\/+|\.git$|\/+$/g, '');
    const projectId = given.project ?? variable(env, 'gitlabMergeRequestTargetProjectId') ?? pluginPath;
    if (!projectId || projectId.length > 500 || !/^[\w.\-/]+$/.test(projectId)) {
        return { missing: (0,words/* msg */.ab) `no GitLab project (an id or a path): give ${(0,words/* setting */.Pe)('gitlabProject')}` };
    }
    const iid = given.pullRequest ?? variable(env, 'gitlabMergeRequestIid');
    if (iid !== undefined && !NUMBER.test(iid)) {
        return { missing: (0,words/* msg */.ab) `${(0,words/* setting */.Pe)('pullRequest')} is not a merge request's iid` };
    }
    const sha = given.commit ?? variable(env, 'gitlabMergeRequestLastCommit') ?? variable(env, 'GIT_COMMIT');
    if (!sha || !FULL_SHA.test(sha)) {
        return {
            missing: (0,words/* msg */.ab) `no commit to decorate: give ${(0,words/* setting */.Pe)('commit')} with the commit the scan analysed`
        };
    }
    const path = /^\d+$/.test(projectId) ? undefined : projectId;
    return {
        apiUrl,
        pipeline: {
            projectId,
            sha: sha.toLowerCase(),
            mergeRequestIid: iid,
            pipelineId: undefined,
            fileLink: path
                ? (0,new_issues_block/* fileLinkUnder */.$2)(`${apiUrl.origin}/${path}/-/blob/${sha.toLowerCase()}`)
                : undefined,
            names: {
                project: given.project === undefined
                    ? 'gitlabMergeRequestTargetProjectId'
                    : (0,words/* setting */.Pe)('gitlabProject'),
                mergeRequest: given.pullRequest === undefined ? 'gitlabMergeRequestIid' : (0,words/* setting */.Pe)('pullRequest'),
                api: given.url === undefined ? 'gitlabTargetRepoHttpUrl' : (0,words/* setting */.Pe)('gitlabUrl')
            }
        }
    };
}
/** Whether the Jenkins GitLab plugin names a merge request's project. */
function namesGitLabFromJenkins(env) {
    return (variable(env, 'gitlabTargetRepoHttpUrl') !== undefined &&
        variable(env, 'GITLAB_TOKEN') !== undefined);
}

;// CONCATENATED MODULE: ./src/ci/gitea-repository.ts
/**
 * The Gitea or Forgejo repository, pull request and commit a run names: in Gitea and Forgejo
 * Actions from their variables, elsewhere from the settings given. Both runners set the
 * `GITHUB_*` variables too (GITHUB_ACTIONS=true among them), so they are told apart by their
 * own: Forgejo's runner sets FORGEJO_ACTIONS=true (and GITEA_ACTIONS=true as well), Gitea's
 * act_runner GITEA_ACTIONS=true (gitea/act_runner internal/app/run/runner.go; forgejo/runner
 * internal/app/run/runner.go). Both set GITHUB_API_URL to the server's `/api/v1` and
 * GITHUB_SERVER_URL to the server; GITHUB_REPOSITORY, GITHUB_SHA and the event file as GitHub
 * does.
 */



const OWNER_REPO = /^([\w.-]{1,100})\/([\w.-]{1,100})$/;
const gitea_repository_FULL_SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i;
const gitea_repository_NUMBER = /^[1-9][0-9]{0,9}$/;
/** Which of the two runs us, when one does. */
function giteaActions(env) {
    if (env['FORGEJO_ACTIONS'] === 'true')
        return 'Forgejo';
    if (env['GITEA_ACTIONS'] === 'true')
        return 'Gitea';
    return undefined;
}
/**
 * The repository, pull request and commit to decorate on Gitea or Forgejo, or what is missing:
 * `given` (the address, the repository, the pull request's number, the commit) wins over the
 * Actions' variables; `ciCommit` is the commit another CI names.
 *
 * @example await giteaRepository(env, { url: 'https://gitea.example.com', repository: 'acme/shop', pullRequest: '7' }, sha)
 */
async function giteaRepository(env, given, ciCommit) {
    const actions = giteaActions(env);
    const run = actions ? await actionsRun(env) : undefined;
    const address = given.url ?? variable(env, 'GITHUB_API_URL') ?? apiUnder(variable(env, 'GITHUB_SERVER_URL'));
    const server = httpUrl(address);
    const names = {
        repository: given.repository === undefined && actions ? 'GITHUB_REPOSITORY' : (0,words/* setting */.Pe)('giteaRepository'),
        pullRequest: given.pullRequest === undefined && actions ? 'the event file' : (0,words/* setting */.Pe)('pullRequest'),
        api: given.url === undefined && actions ? 'GITHUB_API_URL' : (0,words/* setting */.Pe)('giteaUrl')
    };
    if (!server)
        return { missing: (0,words/* msg */.ab) `${names.api} is not an http(s) address` };
    const base = server.href.replace(/\/+$/, '');
    const parts = OWNER_REPO.exec(given.repository ?? variable(env, 'GITHUB_REPOSITORY') ?? '');
    if (!parts)
        return { missing: (0,words/* msg */.ab) `${names.repository} is not owner/name` };
    const number = given.pullRequest ?? run?.pullRequest;
    if (number !== undefined && !gitea_repository_NUMBER.test(number)) {
        return { missing: (0,words/* msg */.ab) `${names.pullRequest} is not a pull request's number` };
    }
    const commit = given.commit ?? run?.commit ?? ciCommit;
    if (commit === undefined || !gitea_repository_FULL_SHA.test(commit)) {
        return {
            missing: (0,words/* msg */.ab) `no commit to decorate: give ${(0,words/* setting */.Pe)('commit')} with the commit the scan analysed`
        };
    }
    return {
        kind: actions ?? 'Gitea',
        apiUrl: new URL(/\/api\/v1$/.test(base) ? base : `${base}/api/v1`),
        owner: parts[1],
        repo: parts[2],
        pullRequest: number === undefined ? undefined : Number(number),
        commit: commit.toLowerCase(),
        names,
        token: variable(env, 'GITEA_TOKEN') ??
            variable(env, 'FORGEJO_TOKEN') ??
            (actions ? variable(env, 'GITHUB_TOKEN') : undefined)
    };
}
/** `<server>/api/v1`, when the server's address is given. */
function apiUnder(server) {
    return server === undefined ? undefined : `${server.replace(/\/+$/, '')}/api/v1`;
}
/** The pull request and commit of a Gitea or Forgejo Actions run, from its event file. */
async function actionsRun(env) {
    const event = env['GITHUB_EVENT_NAME'] ?? '';
    if (event !== 'pull_request' && event !== 'pull_request_target') {
        const sha = variable(env, 'GITHUB_SHA');
        return sha ? { commit: sha } : {};
    }
    const file = await (0,github_event/* readEventFile */.zh)(env['GITHUB_EVENT_PATH']);
    const payload = (0,github_event/* pullRequestOf */._n)('payload' in file ? file.payload : undefined);
    const commit = payload.headSha ?? variable(env, 'GITHUB_SHA');
    return {
        ...(payload.number === undefined ? {} : { pullRequest: String(payload.number) }),
        ...(commit === undefined ? {} : { commit })
    };
}

;// CONCATENATED MODULE: ./src/ci/github-repository.ts
/**
 * The GitHub repository, pull request and commit a run names, from any CI: the settings given
 * (the repository, the pull request's number, the commit) win; else the CI's own variables, each checked
 * against the CI's documentation:
 * - GitHub Actions: GITHUB_REPOSITORY; on pull_request events the event file's pull request and
 *   head commit; else GITHUB_SHA (https://docs.github.com/en/actions/reference/workflows-and-actions/variables).
 * - Jenkins (GitHub Branch Source): CHANGE_URL, the pull request's address
 *   (`https://github.com/<owner>/<repo>/pull/<n>`), and CHANGE_ID, as the Branch API plugin sets
 *   them on a change request (jenkins/branch/BranchNameContributor.java); GIT_URL, the remote,
 *   and GIT_COMMIT, from the Git plugin (hudson/plugins/git/GitSCM/buildEnv.properties). With the
 *   default "merge with target" strategy GIT_COMMIT is Jenkins' own merge: the commit given is the head.
 * - CircleCI: CIRCLE_PROJECT_USERNAME and CIRCLE_PROJECT_REPONAME; CIRCLE_PULL_REQUEST, the pull
 *   request's address (CIRCLE_PR_NUMBER on a fork's); CIRCLE_SHA1; CIRCLE_REPOSITORY_URL for the
 *   host (https://circleci.com/docs/reference/variables/).
 * - Buildkite: BUILDKITE_REPO, the remote (`git@github.com:acme/shop.git`); BUILDKITE_PULL_REQUEST,
 *   the number or `false`; BUILDKITE_COMMIT, taken only as a full SHA (it may be `HEAD`)
 *   (https://buildkite.com/docs/pipelines/configure/environment-variables).
 * - Azure Pipelines with a GitHub repository (BUILD_REPOSITORY_PROVIDER GitHub or
 *   GitHubEnterprise): BUILD_REPOSITORY_NAME, `owner/name`, and BUILD_REPOSITORY_URI for the host;
 *   SYSTEM_PULLREQUEST_PULLREQUESTNUMBER, GitHub's number (PULLREQUESTID is Azure's own id);
 *   SYSTEM_PULLREQUEST_SOURCECOMMITID, the head, else BUILD_SOURCEVERSION.
 * - TeamCity: no variable names the repository or the pull request (its Pull Requests feature
 *   has them as configuration parameters, not in the environment): the repository and the pull
 *   request are given; BUILD_VCS_NUMBER is the commit.
 * The API is GITHUB_API_URL when set, else api.github.com for github.com, else GitHub Enterprise
 * Server's `https://<host>/api/v3`.
 */



const REPOSITORY = (0,words/* setting */.Pe)('githubRepository');
const PULL_REQUEST = (0,words/* setting */.Pe)('pullRequest');
const github_repository_OWNER_REPO = /^([\w.-]{1,100})\/([\w.-]{1,100})$/;
const github_repository_FULL_SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i;
const github_repository_NUMBER = /^[1-9][0-9]{0,9}$/;
/**
 * Whether the run names a GitHub repository to decorate: given, or by a CI whose
 * variables name one, with GITHUB_TOKEN set.
 */
function namesGitHub(env, given) {
    if (given.repository !== undefined)
        return true;
    if (!variable(env, 'GITHUB_TOKEN'))
        return false;
    return ciOf(env) !== undefined;
}
/**
 * The repository, pull request and commit to decorate on GitHub, or what is missing.
 *
 * @example await githubRepository({ JENKINS_URL: 'https://ci', CHANGE_URL: 'https://github.com/acme/shop/pull/7', CHANGE_ID: '7', GIT_COMMIT: sha }, {}) // { owner: 'acme', repo: 'shop', pullRequest: 7, … }
 */
async function githubRepository(env, given) {
    const ci = await namedBy(env);
    const repository = given.repository ?? ci?.repository;
    const names = {
        repository: given.repository === undefined && ci ? ci.names.repository : REPOSITORY,
        pullRequest: given.pullRequest === undefined && ci ? ci.names.pullRequest : PULL_REQUEST,
        api: 'GITHUB_API_URL'
    };
    const parts = repository === undefined ? undefined : github_repository_OWNER_REPO.exec(repository);
    if (!parts) {
        return {
            missing: repository === undefined
                ? (0,words/* msg */.ab) `no GitHub repository named${ci ? ` by ${ci.from}` : ''}: give ${REPOSITORY} owner/name`
                : (0,words/* msg */.ab) `${names.repository} is not owner/name`
        };
    }
    const number = given.pullRequest ?? ci?.pullRequest;
    if (number !== undefined && !github_repository_NUMBER.test(number)) {
        return { missing: (0,words/* msg */.ab) `${names.pullRequest} is not a pull request's number` };
    }
    const commit = given.commit ?? ci?.commit;
    if (commit === undefined || !github_repository_FULL_SHA.test(commit)) {
        return {
            missing: (0,words/* msg */.ab) `no commit to decorate${ci ? ` (${ci.from} names none as a full SHA)` : ''}: give ${(0,words/* setting */.Pe)('commit')} with the commit the scan analysed`
        };
    }
    const apiUrl = apiOf(env, ci?.host);
    if (!apiUrl)
        return { missing: 'GITHUB_API_URL is not an http(s) address' };
    return {
        apiUrl,
        owner: parts[1],
        repo: parts[2],
        pullRequest: number === undefined ? undefined : Number(number),
        commit: commit.toLowerCase(),
        names
    };
}
/** GITHUB_API_URL, or the API of the host the CI names (github.com's, or Enterprise Server's). */
function apiOf(env, host) {
    const given = variable(env, 'GITHUB_API_URL');
    if (given !== undefined)
        return httpUrl(given);
    if (host === undefined || host === 'github.com' || host === 'www.github.com') {
        return new URL('https://api.github.com');
    }
    return httpUrl(`https://${host}/api/v3`);
}
/** The CI the command runs in, when it is one this module reads. */
function ciOf(env) {
    if (env['GITHUB_ACTIONS'] === 'true' && !env['GITEA_ACTIONS'] && !env['FORGEJO_ACTIONS']) {
        return gitHubActions;
    }
    if (env['JENKINS_URL'] && (env['CHANGE_URL'] || env['GIT_URL']))
        return jenkins;
    if (env['CIRCLECI'] === 'true' && env['CIRCLE_PROJECT_USERNAME'])
        return circleCi;
    if (env['BUILDKITE'] === 'true' && env['BUILDKITE_REPO'])
        return buildkite;
    const provider = env['BUILD_REPOSITORY_PROVIDER'] ?? '';
    if (env['TF_BUILD']?.toLowerCase() === 'true' && /^GitHub(Enterprise)?$/.test(provider)) {
        return azurePipelines;
    }
    if (env['TEAMCITY_VERSION'])
        return teamCity;
    return undefined;
}
async function namedBy(env) {
    return ciOf(env)?.(env);
}
async function gitHubActions(env) {
    const event = env['GITHUB_EVENT_NAME'] ?? '';
    const onPullRequest = event === 'pull_request' || event === 'pull_request_target';
    const file = onPullRequest ? await (0,github_event/* readEventFile */.zh)(env['GITHUB_EVENT_PATH']) : undefined;
    const payload = (0,github_event/* pullRequestOf */._n)(file && 'payload' in file ? file.payload : undefined);
    return {
        from: 'GitHub Actions',
        host: hostOf(variable(env, 'GITHUB_SERVER_URL')),
        repository: variable(env, 'GITHUB_REPOSITORY'),
        pullRequest: payload.number?.toString(),
        commit: payload.headSha ?? variable(env, 'GITHUB_SHA'),
        names: { repository: 'GITHUB_REPOSITORY', pullRequest: 'the event file' }
    };
}
function jenkins(env) {
    // CHANGE_URL of a GitHub pull request: https://<host>/<owner>/<repo>/pull/<number>.
    const change = /^https?:\/\/([^/\s]+)\/([\w.-]+\/[\w.-]+)\/pull\/(\d+)\/?$/.exec(variable(env, 'CHANGE_URL') ?? '');
    const remote = remoteOf(variable(env, 'GIT_URL'));
    return {
        from: 'Jenkins',
        host: change?.[1] ?? remote?.host,
        repository: change?.[2] ?? remote?.repository,
        pullRequest: change ? (variable(env, 'CHANGE_ID') ?? change[3]) : undefined,
        commit: variable(env, 'GIT_COMMIT'),
        names: { repository: change ? 'CHANGE_URL' : 'GIT_URL', pullRequest: 'CHANGE_ID' }
    };
}
function circleCi(env) {
    const owner = variable(env, 'CIRCLE_PROJECT_USERNAME');
    const name = variable(env, 'CIRCLE_PROJECT_REPONAME');
    const address = /\/pull\/(\d+)\/?$/.exec(variable(env, 'CIRCLE_PULL_REQUEST') ?? '');
    return {
        from: 'CircleCI',
        host: remoteOf(variable(env, 'CIRCLE_REPOSITORY_URL'))?.host ??
            hostOf(variable(env, 'CIRCLE_PULL_REQUEST')),
        repository: owner && name ? `${owner}/${name}` : undefined,
        pullRequest: variable(env, 'CIRCLE_PR_NUMBER') ?? address?.[1],
        commit: variable(env, 'CIRCLE_SHA1'),
        names: {
            repository: 'CIRCLE_PROJECT_USERNAME and CIRCLE_PROJECT_REPONAME',
            pullRequest: 'CIRCLE_PULL_REQUEST'
        }
    };
}
function buildkite(env) {
    const remote = remoteOf(variable(env, 'BUILDKITE_REPO'));
    const number = variable(env, 'BUILDKITE_PULL_REQUEST');
    return {
        from: 'Buildkite',
        host: remote?.host,
        repository: remote?.repository,
        pullRequest: number === 'false' ? undefined : number,
        commit: variable(env, 'BUILDKITE_COMMIT'),
        names: { repository: 'BUILDKITE_REPO', pullRequest: 'BUILDKITE_PULL_REQUEST' }
    };
}
function azurePipelines(env) {
    return {
        from: 'Azure Pipelines',
        host: hostOf(variable(env, 'BUILD_REPOSITORY_URI')),
        repository: variable(env, 'BUILD_REPOSITORY_NAME'),
        pullRequest: variable(env, 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER'),
        commit: variable(env, 'SYSTEM_PULLREQUEST_SOURCECOMMITID') ?? variable(env, 'BUILD_SOURCEVERSION'),
        names: {
            repository: 'BUILD_REPOSITORY_NAME',
            pullRequest: 'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER'
        }
    };
}
function teamCity(env) {
    return {
        from: 'TeamCity',
        host: undefined,
        repository: undefined,
        pullRequest: undefined,
        commit: variable(env, 'BUILD_VCS_NUMBER'),
        names: { repository: REPOSITORY, pullRequest: PULL_REQUEST }
    };
}
/** The host of an http(s) address, lower-cased. */
function hostOf(address) {
    return httpUrl(address)?.hostname.toLowerCase();
}
/**
 * A git remote's host and `owner/name`: `https://github.com/acme/shop(.git)`,
 * `git@github.com:acme/shop(.git)`, `ssh://git@github.com/acme/shop(.git)`.
 */
function remoteOf(remote) {
    const match = /^(?:https?:\/\/(?:[^@/\s]+@)?|ssh:\/\/(?:[^@/\s]+@)?|[\w.-]+@)([\w.-]+)(?::\d+)?[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(remote ?? '');
    return match ? { host: match[1].toLowerCase(), repository: match[2] } : undefined;
}

// EXTERNAL MODULE: ./src/deadline.ts
var deadline = __nccwpck_require__(6683);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __nccwpck_require__(3916);
// EXTERNAL MODULE: ./src/http/rest-api.ts
var rest_api = __nccwpck_require__(9837);
// EXTERNAL MODULE: ./src/report/markup.ts
var markup = __nccwpck_require__(8132);
// EXTERNAL MODULE: ./src/report/summary-text.ts
var summary_text = __nccwpck_require__(2536);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __nccwpck_require__(7194);
// EXTERNAL MODULE: ./src/sink.ts
var src_sink = __nccwpck_require__(808);
// EXTERNAL MODULE: ./src/cli/names.ts
var names = __nccwpck_require__(2010);
;// CONCATENATED MODULE: ./src/cli/decoration.ts













/** The platforms, in the order they are looked for: the options first, then the CI's own. */
const PLATFORMS = [
    { named: (context) => context.bitbucketServer !== undefined, find: bitbucketDataCenter },
    { named: (context) => context.platform?.githubRepository !== undefined, find: github },
    { named: (context) => context.platform?.gitlab !== undefined, find: gitlabFromAnyCi },
    { named: (context) => context.platform?.gitea !== undefined, find: gitea },
    { named: ({ env }) => giteaActions(env) !== undefined, find: gitea },
    { named: ({ env }) => variable(env, 'CI_API_V4_URL') !== undefined, find: gitlab },
    { named: ({ env }) => variable(env, 'BITBUCKET_REPO_FULL_NAME') !== undefined, find: bitbucket },
    {
        named: ({ env }) => variable(env, 'SYSTEM_COLLECTIONURI') !== undefined &&
            !/^GitHub(Enterprise)?$/.test(variable(env, 'BUILD_REPOSITORY_PROVIDER') ?? ''),
        find: azure
    },
    { named: ({ env }) => namesGitLabFromJenkins(env), find: gitlabFromAnyCi },
    { named: ({ env }) => namesGitHub(env, {}), find: github }
];
/**
 * Decorates the platform the run names with the outcomes; never throws.
 *
 * @example if (line.decorate) await decorate(outcomes, context)
 */
async function decorate(outcomes, context) {
    const { log } = context;
    try {
        const row = PLATFORMS.find((platform) => platform.named(context));
        if (!row) {
            log.warning('--decorate: no platform found to decorate; nothing is decorated. GitLab CI, Bitbucket Pipelines and Azure Pipelines are found by their own variables; from any other CI, name the repository: --github-repository (with GITHUB_TOKEN), --gitlab-url and --gitlab-project (with GITLAB_TOKEN), --gitea-url and --gitea-repository (with GITEA_TOKEN), or --bitbucket-server.');
            return;
        }
        const found = await row.find(context);
        if ('missing' in found) {
            const advice = found.advice === undefined ? '' : ` ${found.advice}`;
            log.warning((0,words/* msg */.ab) `--decorate: ${found.missing}; nothing is decorated.${advice}`);
            return;
        }
        if (found.noToken !== undefined && !found.token) {
            log.warning(`--decorate: ${found.noToken}`);
            return;
        }
        const forms = found.token ? (0,secrets/* tokenForms */.py)(found.token) : [];
        log.hideSecrets(forms);
        const sink = (0,src_sink/* createSink */.O)({
            names: names/* COMMAND_NAMES */.n,
            secrets: [...context.secrets, ...forms],
            escapedForms: found.markup === 'html' ? summary_text/* summaryForms */.cy : markup/* markdownForms */.T2,
            ...(found.limit === undefined ? {} : { limit: found.limit, unit: 'characters' })
        });
        const platform = await found.open({
            token: found.token ?? '',
            userAgent: context.userAgent,
            clock: context.clock,
            deadline: (0,deadline/* decorationDeadline */.bg)(context)
        });
        const { decorate: decoratePlatform } = await Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 1379));
        const options = {
            sink,
            policy: context.policy,
            commentWhen: context.commentWhen,
            inlineLimit: context.inlineLimit,
            inlineSeverity: context.inlineSeverity,
            fileLink: found.fileLink,
            log
        };
        try {
            await decoratePlatform(platform, outcomes, options);
        }
        finally {
            platform.close();
        }
    }
    catch (error) {
        // Each platform says its own failures in one warning (`decorating`, src/platforms/decorate.ts);
        // this keeps the promise for anything else: the verdict and the exit code are the gate's.
        log.warning((0,words/* msg */.ab) `--decorate failed, and nothing more is decorated; the verdict and the exit code are unchanged. ${(0,errors/* quotedSaidOf */.Jm)(error)}`);
    }
}
/** GitLab CI: a commit status per project, and on a merge request the note and discussions. */
async function gitlab(context) {
    const found = gitlabPipeline(context.env, context.commit);
    if ('missing' in found) {
        const advice = 'It runs in a GitLab CI job, with a project or group access token (api scope) in GITLAB_TOKEN.';
        return { ...found, advice };
    }
    return gitlabFound(context, found);
}
/** A GitLab project found, with GITLAB_TOKEN. */
function gitlabFound(context, found) {
    return {
        token: variable(context.env, 'GITLAB_TOKEN'),
        noToken: 'GITLAB_TOKEN is not set; nothing is decorated. Set it to a project or group access token with the api scope, from a masked CI/CD variable (CI_JOB_TOKEN may not write notes or statuses).',
        markup: 'html',
        limit: 1_000_000,
        fileLink: found.pipeline.fileLink,
        async open(connection) {
            const [{ GitLabApi }, { gitlabPlatform }] = await Promise.all([
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 4742)),
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 5611))
            ]);
            return gitlabPlatform(new GitLabApi({ ...connection, apiUrl: found.apiUrl }), found.pipeline);
        }
    };
}
/**
 * GitHub from any CI: a commit status per project, and on a pull request the comment and the
 * issues' comments as one review, with the token in GITHUB_TOKEN (a personal access token, or a
 * GitHub App's installation token).
 */
async function github(context) {
    const found = await githubRepository(context.env, {
        repository: context.platform?.githubRepository,
        pullRequest: context.review,
        commit: context.commit
    });
    if ('missing' in found)
        return found;
    return {
        token: variable(context.env, 'GITHUB_TOKEN'),
        noToken: 'GITHUB_TOKEN is not set; nothing is decorated. Set it to a token that may write commit statuses and pull requests: a fine-grained personal access token, or a GitHub App installation token.',
        markup: 'html',
        limit: 65_536,
        async open(connection) {
            const [{ GitHubApi }, { githubPlatform }] = await Promise.all([
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 5062)),
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 2875))
            ]);
            const api = new GitHubApi({ ...connection, apiUrl: found.apiUrl.href.replace(/\/+$/, '') });
            return githubPlatform(api, found);
        }
    };
}
/**
 * GitLab from any CI (--gitlab-url, --gitlab-project, --pull-request, or the Jenkins GitLab
 * plugin's variables), with GITLAB_TOKEN.
 */
async function gitlabFromAnyCi(context) {
    const given = context.platform?.gitlab;
    const found = gitlabProject(context.env, {
        url: given?.url,
        project: given?.project,
        pullRequest: context.review,
        commit: context.commit
    });
    if ('missing' in found)
        return found;
    return gitlabFound(context, found);
}
/**
 * Gitea or Forgejo: from their Actions, or from any CI with --gitea-url and --gitea-repository; a
 * commit status per project, and on a pull request the comment and the issues' comments as one
 * review, with GITEA_TOKEN (FORGEJO_TOKEN, or in their Actions the job's GITHUB_TOKEN).
 */
async function gitea(context) {
    const given = context.platform?.gitea;
    const fromTheCi = context.commit
        ? undefined
        : (await (0,ci_analysis/* ciAnalysis */.P)(context.env).catch(() => undefined))?.commits[0];
    const found = await giteaRepository(context.env, {
        url: given?.url,
        repository: given?.repository,
        pullRequest: context.review,
        commit: context.commit
    }, fromTheCi);
    if ('missing' in found)
        return found;
    return {
        token: found.token,
        noToken: `GITEA_TOKEN is not set; nothing is decorated. Set it to an access token of a user who may write to the repository (scopes write:repository and write:issue).`,
        markup: 'markdown',
        limit: 65_536,
        async open(connection) {
            const { giteaPlatform } = await Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 1691));
            const rest = new rest_api/* RestApi */.RQ({
                ...connection,
                platform: found.kind,
                apiUrl: found.apiUrl,
                headers: { authorization: `token ${connection.token}` },
                redirectAdvice: `Set the address of ${found.kind}'s API (/api/v1) it answers at.`
            });
            return giteaPlatform(rest, found);
        }
    };
}
/** Bitbucket Pipelines' proxy for Code Insights, as its documentation names it. */
const PIPELINES_PROXY = 'http://localhost:29418';
/**
 * Bitbucket Pipelines: per project a build status and a report, and on a pull request the
 * comment; without BITBUCKET_TOKEN, the reports alone, through Bitbucket Pipelines' proxy, which
 * signs Code Insights requests for the build (plain http to the API, through localhost:29418;
 * BITBUCKET_PIPELINES_PROXY overrides it).
 */
async function bitbucket(context) {
    const { env } = context;
    const found = bitbucketPipeline(env, context.commit);
    if ('missing' in found)
        return found;
    const token = variable(env, 'BITBUCKET_TOKEN');
    const pipelinesProxy = token
        ? undefined
        : httpUrl(variable(env, 'BITBUCKET_PIPELINES_PROXY') ?? PIPELINES_PROXY);
    if (!token && !pipelinesProxy) {
        return { missing: 'BITBUCKET_PIPELINES_PROXY is not an http address' };
    }
    return {
        token,
        noToken: undefined,
        markup: 'markdown',
        limit: 30_000,
        async open(connection) {
            const [{ BitbucketApi }, { bitbucketCloud }] = await Promise.all([
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 286)),
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 6615))
            ]);
            const api = new BitbucketApi({
                ...connection,
                token,
                apiUrl: token ? found.apiUrl : new URL(found.apiUrl.href.replace(/^https:/, 'http:')),
                ...(pipelinesProxy ? { pipelinesProxy } : {})
            });
            return bitbucketCloud(api, { ...found.pipeline, reportsOnly: token === undefined });
        }
    };
}
/**
 * Bitbucket Data Center from any CI (--bitbucket-server, --bitbucket-project, --bitbucket-repo):
 * a Code Insights report and a build status per project, on the commit decoratedCommit gives
 * (--commit, else the CI's).
 */
async function bitbucketDataCenter(context) {
    const repository = context.bitbucketServer;
    const server = httpUrl(repository.url);
    if (!server)
        return { missing: '--bitbucket-server is not an http(s) address' };
    const fromTheCi = context.commit
        ? undefined
        : (await (0,ci_analysis/* ciAnalysis */.P)(context.env).catch(() => undefined))?.commits[0];
    const commit = decoratedCommit(context, fromTheCi);
    if (!commit || !/^[0-9a-f]{40}$/i.test(commit)) {
        return {
            missing: 'no commit to decorate on Bitbucket Data Center',
            advice: 'Give --commit, or run in a CI that names it (Jenkins: GIT_COMMIT).'
        };
    }
    return {
        token: variable(context.env, 'BITBUCKET_TOKEN'),
        noToken: 'BITBUCKET_TOKEN is not set; nothing is decorated. Set it to an HTTP access token of the repository or its project, with the repository write permission.',
        markup: 'markdown',
        async open(connection) {
            const { bitbucketDataCenter } = await Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 9883));
            const rest = new rest_api/* RestApi */.RQ({
                ...connection,
                platform: 'Bitbucket',
                apiUrl: new URL('rest/', server.href.replace(/\/*$/, '/')),
                headers: { authorization: `Bearer ${connection.token}` },
                redirectAdvice: 'Set --bitbucket-server to the address the server answers at.'
            });
            return bitbucketDataCenter(rest, {
                project: repository.project,
                repository: repository.repository,
                commit
            });
        }
    };
}
/**
 * Azure Pipelines: the pull request's statuses and threads, with the token the step must map
 * (`env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)`).
 */
async function azure(context) {
    const found = azurePullRequest(context.env);
    if ('missing' in found)
        return found;
    return {
        token: variable(context.env, 'SYSTEM_ACCESSTOKEN'),
        noToken: 'SYSTEM_ACCESSTOKEN is not set; nothing is decorated. Map it in the step (env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)), and give the build service "Contribute to pull requests" on the repository.',
        markup: 'markdown',
        limit: 150_000,
        async open(connection) {
            const [{ AzureApi }, { azureDevOps }] = await Promise.all([
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 3516)),
                Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 2839))
            ]);
            const api = new AzureApi({ ...connection, ...found });
            return azureDevOps(api, {
                pullRequestId: found.pullRequestId,
                commit: decoratedCommit(context, found.commit)
            });
        }
    };
}


/***/ }),

/***/ 2010:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   n: () => (/* binding */ COMMAND_NAMES)
/* harmony export */ });
/**
 * The command's words for every setting: its options and environment variables. The token has
 * no option (it would show in process lists), so messages name SONAR_TOKEN alone; the settings
 * only the action has are named by their key, and no message of the command's path names them.
 * The one place that knows the options' names besides the option parser and --help.
 */
const COMMAND_NAMES = {
    kind: 'Option',
    settings: {
        reportFile: { name: '--report' },
        token: { variable: 'SONAR_TOKEN' },
        host: { name: '--host', variable: 'SONAR_HOST_URL' },
        // The certificate's text comes from SONAR_ROOT_CERT, or from the file --root-cert-file names
        // (read and checked before the settings): a message about the text names the variable.
        rootCert: { variable: 'SONAR_ROOT_CERT', also: '--root-cert-file' },
        timeout: { name: '--timeout' },
        initialDelay: { name: '--initial-delay' },
        interval: { name: '--interval' },
        failStep: { name: '--no-fail' },
        failingStatuses: { name: '--fail-on' },
        task: { name: '--task-id' },
        analysis: { name: '--analysis-id' },
        project: { name: '--project' },
        branch: { name: '--branch' },
        pullRequest: { name: '--pull-request' },
        commit: { name: '--commit' },
        comment: { name: '--comment-when' },
        gitHubToken: {},
        annotate: {},
        checkRun: {},
        sarif: { name: '--sarif' },
        inlineLimit: { name: '--inline-limit' },
        inlineSeverity: { name: '--inline-severity' },
        bitbucketProject: { name: '--bitbucket-project' },
        bitbucketRepo: { name: '--bitbucket-repo' },
        githubRepository: { name: '--github-repository' },
        gitlabUrl: { name: '--gitlab-url' },
        gitlabProject: { name: '--gitlab-project' },
        giteaUrl: { name: '--gitea-url' },
        giteaRepository: { name: '--gitea-repository' }
    },
    // The command writes no job summary: its files hold what the summary would.
    places: { details: 'the --markdown or --json file', self: 'the command' }
};


/***/ }),

/***/ 6683:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   VB: () => (/* binding */ DECORATION_ALLOWANCE_MS),
/* harmony export */   bg: () => (/* binding */ decorationDeadline),
/* harmony export */   sI: () => (/* binding */ overallDeadline)
/* harmony export */ });
/**
 * The decoration's allowance: it gets at least this long after the check, so that a check that
 * used the whole time-out still decorates, and never runs past the overall time-out by more.
 * Every wait of the decoration (a try, a retry's delay, a `Retry-After`) ends by then.
 */
const DECORATION_ALLOWANCE_MS = 30_000;
/**
 * The clock time of the overall time-out of a step that started at `startedAt`.
 *
 * @example overallDeadline(start, settings.timeoutMs) // start + 60 s at the defaults
 */
function overallDeadline(startedAt, timeoutMs) {
    return startedAt + timeoutMs;
}
/**
 * The clock time the decoration must end by: the overall time-out, or the allowance past now when
 * that is later, and never later than the allowance past the time-out.
 *
 * @example decorationDeadline({ clock, deadline: start + 60_000 }) // start + 60 s, after a check of 10 s
 */
function decorationDeadline({ clock, deadline }) {
    return Math.min(deadline + DECORATION_ALLOWANCE_MS, Math.max(deadline, clock.now() + DECORATION_ALLOWANCE_MS));
}


/***/ }),

/***/ 3916:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $N: () => (/* binding */ codeOf),
/* harmony export */   GN: () => (/* binding */ SettingsError),
/* harmony export */   Jm: () => (/* binding */ quotedSaidOf),
/* harmony export */   Jo: () => (/* binding */ saidOf),
/* harmony export */   MU: () => (/* binding */ TimeoutError),
/* harmony export */   bD: () => (/* binding */ messageOf),
/* harmony export */   g2: () => (/* binding */ AnalysisNotFoundError),
/* harmony export */   hM: () => (/* binding */ ExplainedError),
/* harmony export */   hP: () => (/* binding */ ServerRequestError),
/* harmony export */   tG: () => (/* binding */ ReportFileError),
/* harmony export */   uP: () => (/* binding */ UnsafeRequestError),
/* harmony export */   zR: () => (/* binding */ asError),
/* harmony export */   zX: () => (/* binding */ TaskFailedError)
/* harmony export */ });
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(5846);
/**
 * Every failure the action and the command report is one of these. Each carries a stable `code`
 * (one of ErrorCode, also on the class as a static, as jose's errors do) so tests and callers
 * can tell them apart without matching on words, a message a user can act on, and the failure
 * it wraps as its `cause`. No message ever contains the token.
 */


/**
 * The root of the family, the action's and the command's alike: a failure the product knows and
 * explains in words, with a stable code. Each subclass fixes its code.
 */
class ExplainedError extends Error {
    code;
    /** What the error says, for a sink to say in its edge's words (`message` holds it as text). */
    said;
    constructor(code, said, options) {
        super((0,_words_js__WEBPACK_IMPORTED_MODULE_1__/* .textOf */ .b6)(said), options);
        this.name = new.target.name;
        this.code = code;
        this.said = said;
    }
    /** The settings it names, by key, in the order it names them: what it is about. */
    get settings() {
        const named = this.said instanceof _words_js__WEBPACK_IMPORTED_MODULE_1__/* .Message */ .QB ? this.said.parts : [this.said];
        const keys = named.flatMap((part) => (part instanceof _words_js__WEBPACK_IMPORTED_MODULE_1__/* .Reference */ .Or ? [part.key] : []));
        return [...new Set(keys)];
    }
}
/** An input or environment variable is missing or malformed. */
class SettingsError extends ExplainedError {
    static code = 'ERR_SETTINGS';
    constructor(message, options) {
        super(SettingsError.code, message, options);
    }
}
/** The scanner's report-task.txt is missing or does not say what the action needs. */
class ReportFileError extends ExplainedError {
    static code = 'ERR_REPORT_FILE';
    constructor(message, options) {
        super(ReportFileError.code, message, options);
    }
}
/** The action refused to do something unsafe (send the token to another origin). */
class UnsafeRequestError extends ExplainedError {
    static code = 'ERR_UNSAFE_REQUEST';
    constructor(message, options) {
        super(UnsafeRequestError.code, message, options);
    }
}
/** The server could not be reached or answered something other than the JSON we asked for. */
class ServerRequestError extends ExplainedError {
    static code = 'ERR_SERVER_REQUEST';
    /** HTTP status, or undefined when no reply came (network error, time-out). */
    status;
    /** Node's error code when no reply came (ECONNREFUSED, EPROTO, CERT_HAS_EXPIRED...). */
    nodeCode;
    /** The token's kind when a 403 refused an analysis token; undefined otherwise. */
    analysisToken;
    /** Nothing answered (refused, unreachable) or the connection broke before a reply. */
    noReply;
    /** The origin of the server asked, when the request was made. */
    origin;
    constructor(message, status, { nodeCode, analysisToken, noReply, origin, ...options } = {}) {
        super(ServerRequestError.code, message, options);
        this.status = status;
        this.nodeCode = nodeCode;
        this.analysisToken = analysisToken;
        this.noReply = noReply ?? false;
        this.origin = origin;
    }
}
/** The analysis task ended FAILED or CANCELED on the server. */
class TaskFailedError extends ExplainedError {
    static code = 'ERR_TASK_FAILED';
    constructor(message, options) {
        super(TaskFailedError.code, message, options);
    }
}
/**
 * The project has no analysis of the branch, pull request or commit asked for that can be
 * checked, and none is queued or running.
 */
class AnalysisNotFoundError extends ExplainedError {
    static code = 'ERR_NO_ANALYSIS';
    constructor(message, options) {
        super(AnalysisNotFoundError.code, message, options);
    }
}
/** The overall time-out ran out before the verdict was known. */
class TimeoutError extends ExplainedError {
    static code = 'ERR_TIMEOUT';
    constructor(message, options) {
        super(TimeoutError.code, message, options);
    }
}
/**
 * The code of any thrown value: its own for an error of the family, ERR_UNEXPECTED for
 * anything else.
 *
 * @example codeOf(new TimeoutError('…')) // 'ERR_TIMEOUT'; codeOf(new TypeError('…')) // 'ERR_UNEXPECTED'
 */
function codeOf(error) {
    return error instanceof ExplainedError ? error.code : 'ERR_UNEXPECTED';
}
/**
 * Any thrown value as an Error: itself when it is one, else an Error whose message is the value
 * as text and whose cause is the value.
 *
 * @example asError('boom').message // 'boom'
 */
function asError(error) {
    return error instanceof Error ? error : new Error(String(error), { cause: error });
}
/**
 * `saidOf` fit to quote in a line of ours: a foreign error's text on one line and bounded; a
 * Message of ours as it is.
 */
function quotedSaidOf(error) {
    const said = saidOf(error);
    return typeof said === 'string' ? (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(said, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.long) : said;
}
/**
 * What an error says, for a sink: the Message of an error that keeps one (the family's, a reply's
 * BodyProblem), else its message as text.
 *
 * @example log.fail(saidOf(error))
 */
function saidOf(error) {
    const said = error?.said;
    return said instanceof _words_js__WEBPACK_IMPORTED_MODULE_1__/* .Message */ .QB ? said : asError(error).message;
}
/**
 * The message of any thrown value: an Error's message, or the value as text.
 *
 * @example messageOf(new Error('no such file')) // 'no such file'; messageOf(42) // '42'
 */
function messageOf(error) {
    return asError(error).message;
}


/***/ }),

/***/ 6654:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   MJ: () => (/* binding */ policyText),
/* harmony export */   hI: () => (/* binding */ statusClass),
/* harmony export */   mS: () => (/* binding */ failsUnder),
/* harmony export */   qJ: () => (/* binding */ FAIL_ON_ERROR),
/* harmony export */   yV: () => (/* binding */ FAILING_STATUSES)
/* harmony export */ });
/**
 * Which gate statuses fail the step: the user's policy (the failingStatuses setting). The
 * specification fails on ERROR only, and that is the default; SonarSource's action also fails on
 * WARN, and the scanner's `sonar.qualitygate.wait` on anything but OK.
 */
/** The specification's policy: only ERROR fails. */
const FAIL_ON_ERROR = new Set(['ERROR']);
/** Every status a policy may name, in the order they are listed. */
const FAILING_STATUSES = ['ERROR', 'WARN', 'NONE'];
/**
 * The class of a gate status as the server sent it: OK, WARN and ERROR as they are; NONE for no
 * gate and for any other status (FAILED, say, which no server sends for a gate).
 *
 * @example statusClass('FAILED') // 'NONE'
 */
function statusClass(status) {
    return status === 'OK' || status === 'WARN' || status === 'ERROR' ? status : 'NONE';
}
/**
 * Whether a gate of this status fails the step under the policy.
 *
 * @example failsUnder('WARN', new Set(['ERROR', 'WARN'])) // true
 */
function failsUnder(status, policy) {
    const kind = statusClass(status);
    return kind !== 'OK' && policy.has(kind);
}
/** The policy as it is written: `ERROR`, `ERROR,WARN,NONE`. */
function policyText(policy) {
    return FAILING_STATUSES.filter((status) => policy.has(status)).join(',');
}


/***/ }),

/***/ 7424:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
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

/***/ 4879:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   B: () => (/* binding */ SEVERITY_ORDER),
/* harmony export */   N6: () => (/* binding */ toFinding),
/* harmony export */   Np: () => (/* binding */ bySeverity),
/* harmony export */   Ot: () => (/* binding */ countBySeverity)
/* harmony export */ });
/* harmony import */ var _sonar_origin_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4305);
/* harmony import */ var _lookup_table_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4196);


/** Most severe first: the order annotations are given out in. */
const SEVERITY_ORDER = ['blocker', 'high', 'medium', 'low', 'info'];
const FROM_SERVER = (0,_lookup_table_js__WEBPACK_IMPORTED_MODULE_1__/* .lookupTable */ .z)({
    BLOCKER: 'blocker',
    CRITICAL: 'high',
    HIGH: 'high',
    MAJOR: 'medium',
    MEDIUM: 'medium',
    MINOR: 'low',
    LOW: 'low',
    INFO: 'info'
});
/**
 * The issue as a finding: the most severe of its impacts' severities (10.2+) and its legacy
 * severity (a 10.x BLOCKER has a HIGH impact: it stays a blocker; MAJOR when it has neither), its file located in the checkout, its region from the text range (or line).
 *
 * @example toFinding(issue, { serverUrl, projectKey: 'shop', locate: () => undefined }).severity // 'high'
 */
function toFinding(issue, ruleNames, context) {
    const { severity, word } = severityOf(issue);
    return {
        key: issue.key,
        rule: issue.rule,
        ruleName: ruleNames.get(issue.rule),
        message: issue.message,
        severity,
        severityWord: word,
        type: issue.type,
        file: issue.path === undefined ? undefined : context.locate(issue.path),
        serverPath: issue.path,
        region: regionOf(issue),
        url: issueUrl(issue.key, context)
    };
}
/** Most severe first, the server's order kept among equals. */
function bySeverity(findings) {
    return [...findings].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
}
/** How many findings there are of each severity, every severity named. */
function countBySeverity(findings) {
    const counts = Object.fromEntries(SEVERITY_ORDER.map((s) => [s, 0]));
    for (const finding of findings)
        counts[finding.severity]++;
    return counts;
}
function severityOf(issue) {
    const words = [...issue.impacts.map(({ severity }) => severity), issue.severity ?? ''];
    const candidates = words.flatMap((word) => {
        const scaled = FROM_SERVER[word];
        return scaled ? [{ severity: scaled, word }] : [];
    });
    if (candidates.length === 0)
        return { severity: 'medium', word: 'MAJOR' };
    return candidates.reduce((worst, candidate) => SEVERITY_ORDER.indexOf(candidate.severity) < SEVERITY_ORDER.indexOf(worst.severity)
        ? candidate
        : worst);
}
function regionOf(issue) {
    const range = issue.textRange;
    if (range) {
        const columns = range.startOffset !== undefined &&
            range.endOffset !== undefined &&
            (range.startLine < range.endLine || range.startOffset < range.endOffset);
        return {
            startLine: range.startLine,
            endLine: range.endLine,
            startColumn: columns ? range.startOffset + 1 : undefined,
            endColumn: columns ? range.endOffset + 1 : undefined
        };
    }
    if (issue.line === undefined)
        return undefined;
    return {
        startLine: issue.line,
        endLine: issue.line,
        startColumn: undefined,
        endColumn: undefined
    };
}
function issueUrl(key, context) {
    const query = new URLSearchParams({ id: context.projectKey, open: key });
    if (context.pullRequest !== undefined)
        query.set('pullRequest', context.pullRequest);
    else if (context.branch !== undefined)
        query.set('branch', context.branch);
    return new URL(`project/issues?${query.toString()}`, (0,_sonar_origin_js__WEBPACK_IMPORTED_MODULE_0__/* .serverBase */ .pT)(context.serverUrl)).href;
}


/***/ }),

/***/ 487:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   f: () => (/* binding */ severityIn)
/* harmony export */ });
/* unused harmony export SEVERITY_SCALES */
const SEVERITY_SCALES = {
    blocker: {
        annotation: 'error',
        sarifLevel: 'error',
        securitySeverity: '9.5',
        codeQuality: 'blocker',
        bitbucketCloud: 'CRITICAL',
        bitbucketServer: 'HIGH'
    },
    high: {
        annotation: 'error',
        sarifLevel: 'error',
        securitySeverity: '8.0',
        codeQuality: 'critical',
        bitbucketCloud: 'HIGH',
        bitbucketServer: 'HIGH'
    },
    medium: {
        annotation: 'warning',
        sarifLevel: 'warning',
        securitySeverity: '5.5',
        codeQuality: 'major',
        bitbucketCloud: 'MEDIUM',
        bitbucketServer: 'MEDIUM'
    },
    low: {
        annotation: 'notice',
        sarifLevel: 'note',
        securitySeverity: '3.0',
        codeQuality: 'minor',
        bitbucketCloud: 'LOW',
        bitbucketServer: 'LOW'
    },
    info: {
        annotation: 'notice',
        sarifLevel: 'note',
        securitySeverity: '1.0',
        codeQuality: 'info',
        bitbucketCloud: 'LOW',
        bitbucketServer: 'LOW'
    }
};
/**
 * One column of the table.
 *
 * @example severityIn('codeQuality')('high') // 'critical'
 */
function severityIn(scale) {
    return (severity) => SEVERITY_SCALES[severity][scale];
}


/***/ }),

/***/ 6184:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   CI: () => (/* binding */ partsOf),
/* harmony export */   dy: () => (/* binding */ utf8Bytes),
/* harmony export */   hg: () => (/* binding */ characters),
/* harmony export */   u5: () => (/* binding */ fitParts)
/* harmony export */ });
/* unused harmony export cutToBytes */
/**
 * The one fitting routine for every bounded destination (the job summary's tables and lists,
 * the pull-request comment, the outputs, the result files): parts in order, most important
 * first, as many as fit in a byte limit, then a tail that says how many were left out.
 */
/**
 * `items` as parts, each made by `part` when fitting reaches it.
 *
 * @example fitParts(partsOf(conditions, (condition) => JSON.stringify(condition)), { limit, head: '[', foot: ']', separator: ',' })
 */
function partsOf(items, part) {
    return {
        length: items.length,
        at: (index) => (index >= 0 && index < items.length ? part(items[index]) : undefined)
    };
}
/** UTF-8 bytes: what most destinations limit. */
const utf8Bytes = (text) => Buffer.byteLength(text);
/** UTF-16 code units: what GitHub's comment and check-run limits count. */
const characters = (text) => text.length;
/**
 * `head`, then the first parts that fit, then `tail(leftOut)` when any were left out, then
 * `foot`, within `limit`. When not even the frame fits, the text is the frame cut to the limit
 * (never inside a character).
 *
 * @example fitParts(['<li>a</li>', '<li>b</li>'], { limit: 30, head: '<ul>', foot: '</ul>', tail: (n) => `<li>${n} more</li>` })
 */
function fitParts(parts, options) {
    const { limit, head = '', foot = '', separator = '\n', tail = () => '', more = 0, size: bytes = utf8Bytes } = options;
    const frame = bytes(head) + bytes(foot);
    const tailOf = (count) => {
        const leftOut = parts.length - count + more;
        return leftOut > 0 ? tail(leftOut) : '';
    };
    // Each part is made once, when the loop reaches it; the text is made of those.
    const made = [];
    const text = (count) => {
        const shown = made.slice(0, count).join(separator);
        const tailText = tailOf(count);
        const body = tailText === '' ? shown : count > 0 ? `${shown}${separator}${tailText}` : tailText;
        return `${head}${body}${foot}`;
    };
    // The bytes of the first `count` parts and their separators, grown one part at a time: one
    // pass, whatever the number of parts, and it stops at the first part that does not fit.
    let used = 0;
    let best = -1;
    for (let count = 0; count <= parts.length; count++) {
        if (count > 0) {
            const part = parts.at(count - 1) ?? '';
            made.push(part);
            used += bytes(part) + (count > 1 ? bytes(separator) : 0);
        }
        if (frame + used > limit)
            break;
        const tailText = tailOf(count);
        const tailBytes = tailText === '' ? 0 : bytes(tailText) + (count > 0 ? bytes(separator) : 0);
        if (frame + used + tailBytes <= limit)
            best = count;
    }
    if (best < 0) {
        const frameOnly = text(0);
        const cutText = bytes === characters ? frameOnly.slice(0, limit) : cutToBytes(frameOnly, limit);
        return { text: cutText, shown: 0, leftOut: parts.length + more };
    }
    return { text: text(best), shown: best, leftOut: parts.length - best + more };
}
/** `text` cut to at most `limit` bytes of UTF-8, never inside a character. */
function cutToBytes(text, limit) {
    const encoded = Buffer.from(text);
    if (encoded.byteLength <= limit)
        return text;
    let end = Math.max(0, limit);
    // Back up over continuation bytes (10xxxxxx) to the start of a character.
    while (end > 0 && (encoded[end] & 0xc0) === 0x80)
        end--;
    return encoded.subarray(0, end).toString();
}


/***/ }),

/***/ 5163:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ worstStatus),
/* harmony export */   j: () => (/* binding */ projectName)
/* harmony export */ });
/**
 * The project key, or else where the analysis came from (its report file): how every
 * destination names the analysis.
 */
function projectName(outcome) {
    return (outcome.read ? outcome.result.projectKey : outcome.projectKey) ?? outcome.source;
}
/** The verdicts from worst to best: the step's `status` is the worst of its analyses'. */
const VERDICT_ORDER = ['ERROR', 'WARN', 'NONE', 'OK'];
/**
 * The worst of the gate statuses (ERROR > WARN > NONE > OK); a status the action does not know
 * counts as NONE; none at all is OK.
 *
 * @example worstStatus(['OK', 'ERROR', 'WARN']) // 'ERROR'
 */
function worstStatus(statuses) {
    const rank = (status) => {
        const index = VERDICT_ORDER.indexOf(status);
        return index === -1 ? VERDICT_ORDER.indexOf('NONE') : index;
    };
    return VERDICT_ORDER[Math.min(VERDICT_ORDER.length - 1, ...statuses.map(rank))] ?? 'OK';
}


/***/ }),

/***/ 716:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   R: () => (/* binding */ predictEnd),
/* harmony export */   m: () => (/* binding */ nextPollAt)
/* harmony export */ });
/**
 * When to poll the task. The fixed cadence of the specification (the first poll `initialWaitMs`
 * after the step's start, then one every `intervalMs`, anchored to the start) unless the
 * action can predict when the task ends: the project's previous analysis took `previousMs` to
 * process, and a poll of the task in progress says how long it has been processing. Then polls
 * at most `CLOSE_MS` apart cover a window around the predicted end, and the fixed polls just
 * before and inside that window, which would find the task still running, are left out. Pure:
 * the caller supplies every time.
 */
/**
 * The window's polls, spread evenly over it, its first and last at its edges: at most `CLOSE_MS`
 * apart, so a task that ends in the window is seen at most that long after (half of it on
 * average); and at most `MAX_WINDOW_POLLS`, so a wide window (a long previous analysis) costs a
 * bounded number of requests. Three polls over the window measured a median of 584 ms from the
 * task's end to the poll that saw it on real servers, their windows up to 3.5 s wide
 * (docs/performance.md).
 */
const CLOSE_MS = 250;
const MAX_WINDOW_POLLS = 12;
/**
 * How far off a prediction may be: this analysis may take up to 1.2 times as long as the previous
 * one, or as little as 1/1.2 of it, so it ends up to a sixth of the previous time early and up to
 * a fifth late; never less than 150 ms, never more than 2 s either way. An end outside the window
 * is caught by the fixed cadence, as without a prediction.
 */
const RATIO = 1.2;
const EDGE = { minMs: 150, maxMs: 2000 };
/**
 * The predicted end of a task that has been processing `elapsedMs` (as the server said, at
 * clock time `polledAt`) when the previous analysis took `previousMs`.
 *
 * @example predictEnd(3000, 800, 2400) // { endsAt: 4600, earlyMs: 400, lateMs: 480 }
 */
function predictEnd(polledAt, elapsedMs, previousMs) {
    const edge = (ms) => Math.round(Math.min(EDGE.maxMs, Math.max(EDGE.minMs, ms)));
    return {
        endsAt: polledAt + Math.max(0, previousMs - elapsedMs),
        earlyMs: edge(previousMs - previousMs / RATIO),
        lateMs: edge(previousMs * (RATIO - 1))
    };
}
/**
 * Clock time of the next poll after the one at `lastPollAt` (undefined before the first).
 *
 * @example nextPollAt({ startedAt: 0, initialWaitMs: 3000, intervalMs: 1000 }, 3000, undefined) // 4000
 */
function nextPollAt(cadence, lastPollAt, prediction) {
    const first = cadence.startedAt + cadence.initialWaitMs;
    if (lastPollAt === undefined)
        return first;
    const fixed = nextFixedAfter(cadence, lastPollAt);
    if (!prediction)
        return fixed;
    const { endsAt, earlyMs, lateMs } = prediction;
    const windowStart = endsAt - earlyMs;
    const windowEnd = endsAt + lateMs;
    const width = earlyMs + lateMs;
    const count = Math.min(MAX_WINDOW_POLLS, Math.ceil(width / CLOSE_MS) + 1);
    const step = width / (count - 1);
    const windowPolls = Array.from({ length: count }, (_, i) => windowStart + i * step);
    const nextInWindow = windowPolls.find((at) => at > lastPollAt);
    // Fixed polls within an interval before the window, inside it, or within a step after it would
    // find the task still running or tell nothing new: left out. Earlier and later ones stay, so a
    // prediction far off costs at most what the fixed cadence would.
    let nextFixed = fixed;
    while (nextFixed > windowStart - cadence.intervalMs && nextFixed <= windowEnd + step) {
        nextFixed += cadence.intervalMs;
    }
    return nextInWindow === undefined ? nextFixed : Math.min(nextInWindow, nextFixed);
}
/** The first time of the fixed cadence after `time`. */
function nextFixedAfter({ startedAt, initialWaitMs, intervalMs }, time) {
    const first = startedAt + initialWaitMs;
    if (time < first)
        return first;
    return first + (Math.floor((time - first) / intervalMs) + 1) * intervalMs;
}


/***/ }),

/***/ 8648:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Y: () => (/* binding */ seconds),
/* harmony export */   a: () => (/* binding */ waitForTask)
/* harmony export */ });
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3916);
/* harmony import */ var _poll_plan_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(716);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(5846);




/** Statuses of a gateway or a server that is stopping or starting, once retries are spent. */
const OUTAGE_STATUSES = new Set([502, 503, 504]);
/** Statuses a starting server answers before its Web API or its sessions are ready (10.7). */
const STARTING_STATUSES = new Set([401, 404]);
/**
 * Waits `initialWaitMs` from the step's start, then polls every `intervalMs` until the
 * task is SUCCESS, or more closely around its predicted end when `readPreviousProcessingMs` gives
 * the previous analysis's processing time.
 * FAILED and CANCELED fail at once with the server's message; running out of time fails with the
 * last status seen. Never sleeps past the deadline.
 *
 * @example const task = await waitForTask({ fetchTask, clock, startedAt, deadline, initialWaitMs: 3000, intervalMs: 1000 })
 */
async function waitForTask(options) {
    const { clock, deadline } = options;
    const taskId = (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(options.taskId);
    const seen = { last: undefined, outage: undefined };
    const timedOut = (cause) => taskTimeout(taskId, seen, options, cause);
    const previous = previousProcessing(options.readPreviousProcessingMs);
    if (options.initialWaitMs > 0)
        previous.ask();
    // Polls keep a fixed cadence from the step's start (the first at initialWaitMs, then one
    // every intervalMs, however long each request took), or gather around a predicted end.
    const cadence = {
        startedAt: options.startedAt,
        initialWaitMs: options.initialWaitMs,
        intervalMs: options.intervalMs
    };
    let prediction;
    let lastPollAt;
    for (;;) {
        const pollAt = (0,_poll_plan_js__WEBPACK_IMPORTED_MODULE_1__/* .nextPollAt */ .m)(cadence, lastPollAt, prediction);
        await clock.sleep(Math.max(0, Math.min(pollAt, deadline) - clock.now()));
        if (clock.now() >= deadline)
            throw timedOut();
        // The planned time, or later when the sleep ran late: a timer that fires a millisecond early
        // must not make the same poll twice.
        lastPollAt = Math.max(pollAt, clock.now());
        // While the server is away, its status (one request, no retries) says when to ask again.
        if (seen.outage && (await serverNotUp(options)))
            continue;
        const task = await pollOnce(options, seen, lastPollAt, timedOut);
        if (!task)
            continue;
        options.onPoll?.(task, clock.now() - options.startedAt);
        const finished = endedTask(task, taskId);
        if (finished)
            return finished;
        previous.ask();
        if (!prediction) {
            prediction = predictionFrom(task, previous.ms(), lastPollAt);
            if (prediction)
                options.onPrediction?.(prediction);
        }
    }
}
/**
 * The time-out of the wait, saying the last status seen, or since when the server has not
 * answered. `cause` is the time-out a poll ran into, when one did.
 */
function taskTimeout(taskId, { last, outage }, { clock, startedAt, deadline }, cause) {
    const elapsed = seconds(clock.now() - startedAt);
    const raise = (0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .msg */ .ab) `raise ${(0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .setting */ .Pe)('timeout')} (now ${seconds(deadline - startedAt)})`;
    return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .TimeoutError */ .MU(outage
        ? (0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .msg */ .ab) `Timed out after ${elapsed} waiting for the analysis task ${taskId}: the server has not answered since ${seconds(outage.since - startedAt)} (${outage.why}); its last status was ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(last?.status ?? '')}. Check that the server is running; ${raise} to wait out its restarts.`
        : (0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .msg */ .ab) `Timed out after ${elapsed} waiting for the analysis task ${taskId}: ${last ? `its last status was ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(last.status)}` : 'no status was received'}. The server's background tasks may be queued; ${raise}.`, cause && { cause });
}
/**
 * One poll of the task: the task, or undefined while the server is away (a server that answered
 * this task a moment ago and stops, restarted or redeployed, is polled through). Says when the
 * server goes and when it is back.
 */
async function pollOnce(options, seen, polledAt, timedOut) {
    let task;
    try {
        task = await options.fetchTask();
    }
    catch (error) {
        // A poll the deadline cut short is a time-out like any other: say the last status seen.
        if (error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .TimeoutError */ .MU)
            throw timedOut(error);
        if (!(await isOutage(error, seen, options)))
            throw error;
        if (!seen.outage) {
            seen.outage = { since: polledAt, why: outageWords(error) };
            options.onOutage?.((0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .msg */ .ab) `The server stopped answering (${seen.outage.why}) after ${seconds(options.clock.now() - options.startedAt)}: polling on until it is back, within ${(0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .setting */ .Pe)('timeout')}.`);
        }
        return undefined;
    }
    if (seen.outage) {
        options.onOutage?.(`The server answers again after ${seconds(options.clock.now() - seen.outage.since)} away.`);
        seen.outage = undefined;
    }
    seen.last = task;
    return task;
}
/**
 * Whether a failed poll is the server going away for a while: only after it has answered this
 * task, and for a 401 or 404 only when the server itself says it is not up.
 */
async function isOutage(error, seen, options) {
    if (!seen.last || !(error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServerRequestError */ .hP))
        return false;
    if (error.noReply || (error.status !== undefined && OUTAGE_STATUSES.has(error.status)))
        return true;
    if (error.status === undefined || !STARTING_STATUSES.has(error.status))
        return false;
    return serverNotUp(options);
}
async function serverNotUp(options) {
    return (await options.serverNotUp?.().catch(() => true)) ?? false;
}
/**
 * The task once it has ended SUCCESS, with its analysis; undefined while it is queued or
 * running. FAILED and CANCELED throw with the server's message.
 */
function endedTask(task, taskId) {
    if (task.status === 'SUCCESS') {
        if (!task.analysisId) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServerRequestError */ .hP((0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .msg */ .ab) `Task ${taskId} succeeded but names no analysis: it is not an analysis report task. Check ${(0,_words_js__WEBPACK_IMPORTED_MODULE_3__/* .theSetting */ .w7)('task')}.`);
        }
        return { ...task, analysisId: task.analysisId };
    }
    if (task.status === 'FAILED' || task.status === 'CANCELED') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .TaskFailedError */ .zX(`The analysis task ${taskId} ended ${task.status}${task.errorType ? ` (${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(task.errorType)})` : ''}: ${task.errorMessage ? (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(task.errorMessage, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long) : 'the server gave no reason'}. See the project's Background Tasks page on the server for details.`);
    }
    return undefined;
}
/**
 * How long the project's previous analysis took to process, read once when asked (never waited
 * for: until it is known, `ms()` is undefined, and a failure leaves it so).
 */
function previousProcessing(read) {
    let asked = false;
    let previousMs;
    return {
        ask: () => {
            if (asked || !read)
                return;
            asked = true;
            // Without it the fixed cadence goes on: a failure changes nothing.
            read().then((ms) => (previousMs = ms), () => { });
        },
        ms: () => previousMs
    };
}
/**
 * The predicted end of a task in progress, polled at `polledAt`: the server says how long it has
 * been processing, and with the previous analysis's time that predicts its end.
 */
function predictionFrom(task, previousMs, polledAt) {
    if (previousMs === undefined || task.status !== 'IN_PROGRESS')
        return undefined;
    if (task.executionTimeMs === undefined)
        return undefined;
    return (0,_poll_plan_js__WEBPACK_IMPORTED_MODULE_1__/* .predictEnd */ .R)(polledAt, task.executionTimeMs, previousMs);
}
/** A few words for why the server is taken to be away: "connection refused", "HTTP 503". */
function outageWords(error) {
    if (error.status === undefined)
        return error.nodeCode ?? 'no reply';
    return OUTAGE_STATUSES.has(error.status)
        ? `HTTP ${error.status}`
        : `HTTP ${error.status} while the server is not up`;
}
function seconds(ms) {
    return `${(ms / 1000).toFixed(1)} s`;
}


/***/ }),

/***/ 6400:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   BD: () => (/* binding */ pointsWords),
/* harmony export */   XU: () => (/* binding */ percentWords),
/* harmony export */   dU: () => (/* binding */ readWhatChanged),
/* harmony export */   r6: () => (/* binding */ whatChangedLine)
/* harmony export */ });
/* unused harmony exports NEW_CODE_MEASURES, OVERALL_MEASURES, ISSUE_COUNT_MEASURES */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3916);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(5846);


/** The measures of new code a verdict shows: coverage and duplicated lines. */
const NEW_CODE_MEASURES = ['new_coverage', 'new_duplicated_lines_density'];
/** The same figures over the whole code, for a pull request's target branch. */
const OVERALL_MEASURES = ['coverage', 'duplicated_lines_density'];
/**
 * The issues of the new code that were accepted, and those a pull request fixes: counted by
 * recent servers only (an older one refuses the unknown metric), so asked on their own.
 */
const ISSUE_COUNT_MEASURES = {
    branch: ['new_accepted_issues'],
    pullRequest: ['new_accepted_issues', 'pull_request_fixed_issues']
};
/**
 * What changed with the analysis of `on`: the new code's coverage and duplication, for a pull
 * request its target branch's (the branch the server compares it with, read from its list of
 * pull requests), the hotspots to review, and the issues accepted and fixed where the server
 * counts them. Three to five requests, read at once (the target's after its name) and never
 * tried again; a failure is one line in its part, never a different verdict.
 *
 * @example const changed = await readWhatChanged(client, 'shop', { pullRequest: '42' })
 */
async function readWhatChanged(server, projectKey, on) {
    const pullRequest = on.pullRequest;
    const scope = pullRequest !== undefined
        ? { kind: 'pull-request', pullRequest }
        : { kind: 'new-code', branch: on.branch };
    const [newCode, target, hotspots, issues] = await Promise.all([
        figures(server.getMeasures(projectKey, on, NEW_CODE_MEASURES), 'new_'),
        pullRequest === undefined ? undefined : targetOf(server, projectKey, pullRequest),
        unreadOr(server.getHotspots(projectKey, scope), 'hotspots'),
        issueCounts(server, projectKey, on)
    ]);
    return {
        newCode,
        ...(target ? { target } : {}),
        hotspots,
        ...(issues ? { issues } : {})
    };
}
/**
 * The pull request's target branch (the server's `base`, the branch it compares with, else the
 * `target` the scanner named) and its overall figures; undefined when the server names none.
 */
async function targetOf(server, projectKey, pullRequest) {
    const pulls = await unreadOr(server.getPullRequests(projectKey).then((list) => ({ list })), "pull request's target branch");
    if ('unread' in pulls)
        return pulls;
    const pull = pulls.list.find(({ key }) => key === pullRequest);
    const branch = pull?.base ?? pull?.target;
    if (branch === undefined)
        return undefined;
    const read = server.getMeasures(projectKey, { branch }, OVERALL_MEASURES);
    return { branch, figures: await figures(read, '') };
}
/** The counts the server keeps of accepted and fixed issues; undefined where it keeps none. */
async function issueCounts(server, projectKey, on) {
    const metrics = on.pullRequest === undefined ? ISSUE_COUNT_MEASURES.branch : ISSUE_COUNT_MEASURES.pullRequest;
    try {
        const values = await server.getMeasures(projectKey, on, metrics);
        const count = (metric) => {
            const value = values.get(metric);
            return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
        };
        const counts = {
            accepted: count('new_accepted_issues'),
            fixed: count('pull_request_fixed_issues')
        };
        return counts.accepted === undefined && counts.fixed === undefined ? undefined : counts;
    }
    catch {
        // A server before these metrics refuses them: it does not count them, which is no failure.
        return undefined;
    }
}
async function figures(read, prefix) {
    const values = await unreadOr(read, 'measures');
    if ('unread' in values)
        return values;
    return {
        coverage: percent(values.get(`${prefix}coverage`)),
        duplication: percent(values.get(`${prefix}duplicated_lines_density`))
    };
}
/** A percentage the server could have written: 0 to 100. */
function percent(value) {
    return value !== undefined && value >= 0 && value <= 100 ? value : undefined;
}
/** The read's value, or one line that says why it is missing (403: the token may not browse). */
async function unreadOr(read, what) {
    try {
        return await read;
    }
    catch (error) {
        if (error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServerRequestError */ .hP && error.status === 403) {
            return error.analysisToken
                ? {
                    unread: `The token may not read the ${what} (403): it is ${error.analysisToken}, and SonarQube refuses analysis tokens what needs Browse. A user token (squ_…) of a user with Browse shows them.`
                }
                : {
                    unread: `The token may not read the ${what} (403): they need the Browse permission.`,
                    browseRefused: true
                };
        }
        return { unread: (0,_words_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `The ${what} could not be read: ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .saidOf */ .Jo)(error)}` };
    }
}
/**
 * A percentage as a verdict shows it: one decimal at most.
 *
 * @example percentWords(85.46) // '85.5%'
 */
function percentWords(value) {
    return `${Number(value.toFixed(1))}%`;
}
/**
 * A difference of percentages, signed, in points.
 *
 * @example pointsWords(-1.84) // '−1.8 points'
 */
function pointsWords(difference) {
    const rounded = Number(difference.toFixed(1));
    if (rounded === 0)
        return 'no change';
    return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded)} points`;
}
/**
 * What changed in one line of the log: "What changed: coverage on new code 85.5% (main 78.2%),
 * duplicated lines on new code 1.2% (main 3%), 2 security hotspots to review, 2 issues accepted,
 * 3 fixed." Server text (the target branch) is quoted by the log's gate.
 */
function whatChangedLine(changed) {
    const { newCode, target, hotspots, issues } = changed;
    const against = target && !('unread' in target) && !('unread' in target.figures) ? target : undefined;
    const figure = (name, which) => {
        if ('unread' in newCode)
            return undefined;
        const value = newCode[which];
        const theirs = against && !('unread' in against.figures) ? against.figures[which] : undefined;
        const own = value === undefined ? 'not computed' : percentWords(value);
        return `${name} on new code ${own}${theirs === undefined ? '' : ` (${against.branch} ${percentWords(theirs)})`}`;
    };
    const parts = [
        'unread' in newCode ? newCode.unread : undefined,
        figure('coverage', 'coverage'),
        figure('duplicated lines', 'duplication'),
        target && 'unread' in target ? target.unread : undefined,
        'unread' in hotspots
            ? hotspots.unread
            : `${hotspots.total} security ${hotspots.total === 1 ? 'hotspot' : 'hotspots'} to review`,
        issues?.accepted === undefined
            ? undefined
            : `${issues.accepted} ${issues.accepted === 1 ? 'issue' : 'issues'} accepted`,
        issues?.fixed === undefined ? undefined : `${issues.fixed} fixed`
    ];
    return (0,_words_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `What changed: ${(0,_words_js__WEBPACK_IMPORTED_MODULE_1__/* .joined */ .oR)(parts.filter((part) => part !== undefined), ', ')}.`;
}


/***/ }),

/***/ 2981:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   _n: () => (/* binding */ pullRequestOf),
/* harmony export */   zh: () => (/* binding */ readEventFile)
/* harmony export */ });
/* unused harmony exports EVENT_FILE_BYTES, eventObject, quote */
/* harmony import */ var _bounded_file_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(2717);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3916);
/* harmony import */ var _settings_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8750);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8521);
/**
 * GitHub Actions' event file (GITHUB_EVENT_PATH), read for the action and the command alike: the
 * objects of its payload, and a `pull_request` event's pull request. Every field is untrusted:
 * each is taken only once checked.
 */




/** The most of a GitHub Actions run's event file read (GitHub caps webhook payloads at 25 MB). */
const EVENT_FILE_BYTES = 25 * 1024 * 1024;
/**
 * The event file's payload, read within EVENT_FILE_BYTES, or why it could not be read.
 *
 * @example const file = await readEventFile(env['GITHUB_EVENT_PATH'])
 */
async function readEventFile(path) {
    if (!path)
        return { problem: 'GITHUB_EVENT_PATH is not set, so the pull request is unknown' };
    const read = await (0,_bounded_file_js__WEBPACK_IMPORTED_MODULE_0__/* .readBoundedFile */ .M)(path, EVENT_FILE_BYTES);
    if (read.outcome !== 'read')
        return { problem: `the event file could not be read: ${unread(read)}` };
    try {
        return { payload: JSON.parse(read.bytes.toString('utf8')) };
    }
    catch (error) {
        return { problem: `the event file could not be read: ${quote(error)}` };
    }
}
/**
 * One object of the run's event payload (`pull_request`, `workflow_run`), or undefined when the
 * file is not given, cannot be read, is not JSON or holds no such object.
 *
 * @example const run = await eventObject(env['GITHUB_EVENT_PATH'], 'workflow_run')
 */
async function eventObject(path, field) {
    const file = await readEventFile(path);
    return 'payload' in file ? objectOf(objectOf(file.payload)?.[field]) : undefined;
}
/**
 * The pull request a `pull_request` or `pull_request_target` payload names: each field only when
 * it is what it should be.
 *
 * @example pullRequestOf(payload) // { number: 42, headSha: 'be6c75b8…', updatedAt: '2026-…' }
 */
function pullRequestOf(payload) {
    const pull = objectOf(objectOf(payload)?.['pull_request']);
    const number = pull?.['number'];
    const sha = objectOf(pull?.['head'])?.['sha'];
    const updatedAt = pull?.['updated_at'];
    return {
        ...(typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? { number } : {}),
        ...(typeof sha === 'string' && (0,_settings_js__WEBPACK_IMPORTED_MODULE_2__/* .isFullSha */ .Wf)(sha) ? { headSha: sha.toLowerCase() } : {}),
        ...(typeof updatedAt === 'string' ? { updatedAt: updatedAt.slice(0, 40) } : {})
    };
}
function objectOf(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? value
        : undefined;
}
/** Why the event file was not read, in a few words. */
function unread(read) {
    switch (read.outcome) {
        case 'missing':
        case 'unreadable':
            return quote(read.error);
        case 'not-a-file':
            return `it is ${read.kind}, not a regular file`;
        case 'too-large':
            return `it is larger than ${EVENT_FILE_BYTES} bytes`;
    }
}
/** An error's message fit to quote: one line, cut. The log's gate escapes it. */
function quote(error) {
    return (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .cut */ .Jj)((0,_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .messageOf */ .bD)(error), _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .QUOTE_LIMITS */ .gJ.long), _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .QUOTE_LIMITS */ .gJ.long);
}


/***/ }),

/***/ 9837:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E2: () => (/* binding */ PlatformRefusal),
/* harmony export */   RQ: () => (/* binding */ RestApi),
/* harmony export */   Wk: () => (/* binding */ PlatformError)
/* harmony export */ });
/* unused harmony export REST_LIMITS */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3916);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(7194);
/* harmony import */ var _retry_policy_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(7593);
/* harmony import */ var _transport_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(221);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(5846);






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

/***/ 7593:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   tE: () => (/* binding */ decideRetry)
/* harmony export */ });
/* unused harmony exports backoffMs, parseRetryAfter */
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5846);

/**
 * When to try a request again and how long to wait first. Pure: the client supplies the time
 * left, the attempt number and the random source.
 */
/** Rate limiting, server errors and gateway trouble: worth another try. 401/403/404 are not. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
const BACKOFF = {
    baseMs: 250,
    maxMs: 8000
};
/**
 * Tries in all when nothing answers at the address (connection refused, host not found): a wrong
 * address does not heal by waiting, so the step fails in about a second instead of at the
 * time-out.
 */
const MAX_TRIES_UNREACHABLE = 3;
/**
 * Whether to try again after try number `attempt` (0 for the first) failed with `fault`, and
 * after how long. The delay is exponential backoff with equal jitter, never less: a server's
 * `Retry-After` can lengthen it, never shorten it, so no reply can make a hot loop. A wait that
 * would end past the deadline is not made; `timeLimit` names that time in the reason.
 *
 * @example decideRetry({ kind: 'transient' }, 0, 60_000, Math.random, Date.now()) // { retry: true, delayMs: 125..250 }
 */
function decideRetry(fault, attempt, remainingMs, random, nowEpochMs, timeLimit = (0,_words_js__WEBPACK_IMPORTED_MODULE_0__/* .msg */ .ab) `the overall time-out (${(0,_words_js__WEBPACK_IMPORTED_MODULE_0__/* .setting */ .Pe)('timeout')})`) {
    const tries = attempt + 1;
    if (fault.kind === 'final')
        return { retry: false, why: '' };
    if (fault.kind === 'status' && !RETRYABLE_STATUSES.has(fault.status)) {
        return { retry: false, why: '' };
    }
    if (fault.kind === 'unreachable' && tries >= MAX_TRIES_UNREACHABLE) {
        return { retry: false, why: `Gave up after ${tries} tries.` };
    }
    let delayMs = backoffMs(attempt, random);
    if (fault.kind === 'status') {
        const askedMs = parseRetryAfter(fault.retryAfter, nowEpochMs);
        if (askedMs !== undefined && askedMs >= remainingMs) {
            return {
                retry: false,
                why: (0,_words_js__WEBPACK_IMPORTED_MODULE_0__/* .msg */ .ab) `The server asked to wait ${Math.ceil(askedMs / 1000)} s before another try (Retry-After), more than ${timeLimit} leaves (${Math.max(0, Math.floor(remainingMs / 1000))} s).`
            };
        }
        delayMs = Math.max(delayMs, askedMs ?? 0);
    }
    if (delayMs >= remainingMs) {
        return {
            retry: false,
            why: (0,_words_js__WEBPACK_IMPORTED_MODULE_0__/* .msg */ .ab) `Gave up after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${timeLimit} leaves no time for another.`
        };
    }
    return { retry: true, delayMs };
}
/**
 * Delay before retry number `attempt` (0 for the first retry): exponential backoff with equal
 * jitter, so concurrent jobs do not retry in step.
 *
 * @example backoffMs(2, Math.random) // between 500 and 1000
 */
function backoffMs(attempt, random) {
    const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** Math.min(attempt, 30));
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
/**
 * `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT` → milliseconds from now
 * (0 for a date past). Anything else (`1.5`, `-5`, garbage) → undefined: the header is ignored.
 */
function parseRetryAfter(value, nowEpochMs) {
    const text = value?.trim();
    if (!text)
        return undefined;
    if (/^\d+$/.test(text))
        return Number(text) * 1000;
    // An HTTP date names its weekday; Date.parse alone would take "-5" or "1.5" for a year.
    if (!/^[A-Za-z]{3},/.test(text))
        return undefined;
    const at = Date.parse(text);
    return Number.isNaN(at) ? undefined : Math.max(0, at - nowEpochMs);
}


/***/ }),

/***/ 221:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  G5: () => (/* binding */ HttpTransport),
  Az: () => (/* binding */ TransportFailure),
  Z: () => (/* binding */ headerValue)
});

// UNUSED EXPORTS: MAX_BODY_BYTES

;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
// EXTERNAL MODULE: ./src/untrusted-text.ts
var untrusted_text = __nccwpck_require__(8521);
;// CONCATENATED MODULE: ./node_modules/@actions/http-client/lib/proxy.js
function getProxyUrl(reqUrl) {
    const usingSsl = reqUrl.protocol === 'https:';
    if (checkBypass(reqUrl)) {
        return undefined;
    }
    const proxyVar = (() => {
        if (usingSsl) {
            return process.env['https_proxy'] || process.env['HTTPS_PROXY'];
        }
        else {
            return process.env['http_proxy'] || process.env['HTTP_PROXY'];
        }
    })();
    if (proxyVar) {
        try {
            return new DecodedURL(proxyVar);
        }
        catch (_a) {
            if (!proxyVar.startsWith('http://') && !proxyVar.startsWith('https://'))
                return new DecodedURL(`http://${proxyVar}`);
        }
    }
    else {
        return undefined;
    }
}
function checkBypass(reqUrl) {
    if (!reqUrl.hostname) {
        return false;
    }
    const reqHost = reqUrl.hostname;
    if (isLoopbackAddress(reqHost)) {
        return true;
    }
    const noProxy = process.env['no_proxy'] || process.env['NO_PROXY'] || '';
    if (!noProxy) {
        return false;
    }
    // Determine the request port
    let reqPort;
    if (reqUrl.port) {
        reqPort = Number(reqUrl.port);
    }
    else if (reqUrl.protocol === 'http:') {
        reqPort = 80;
    }
    else if (reqUrl.protocol === 'https:') {
        reqPort = 443;
    }
    // Format the request hostname and hostname with port
    const upperReqHosts = [reqUrl.hostname.toUpperCase()];
    if (typeof reqPort === 'number') {
        upperReqHosts.push(`${upperReqHosts[0]}:${reqPort}`);
    }
    // Compare request host against noproxy
    for (const upperNoProxyItem of noProxy
        .split(',')
        .map(x => x.trim().toUpperCase())
        .filter(x => x)) {
        if (upperNoProxyItem === '*' ||
            upperReqHosts.some(x => x === upperNoProxyItem ||
                x.endsWith(`.${upperNoProxyItem}`) ||
                (upperNoProxyItem.startsWith('.') &&
                    x.endsWith(`${upperNoProxyItem}`)))) {
            return true;
        }
    }
    return false;
}
function isLoopbackAddress(host) {
    const hostLower = host.toLowerCase();
    return (hostLower === 'localhost' ||
        hostLower.startsWith('127.') ||
        hostLower.startsWith('[::1]') ||
        hostLower.startsWith('[0:0:0:0:0:0:0:1]'));
}
class DecodedURL extends URL {
    constructor(url, base) {
        super(url, base);
        this._decodedUsername = decodeURIComponent(super.username);
        this._decodedPassword = decodeURIComponent(super.password);
    }
    get username() {
        return this._decodedUsername;
    }
    get password() {
        return this._decodedPassword;
    }
}
//# sourceMappingURL=proxy.js.map
;// CONCATENATED MODULE: ./src/http/connection-agents.ts
/**
 * The kept-alive agents a transport sends its requests through: a direct one per protocol, and
 * one that tunnels through the proxy the environment names (HTTPS_PROXY or HTTP_PROXY, unless
 * NO_PROXY names the host). They are built as `@actions/http-client`'s HttpClient builds its own,
 * from the same proxy rules (`@actions/http-client/lib/proxy`) and the same `tunnel` package, so
 * proxies work as in every other action. Not through HttpClient itself: its module also loads
 * undici, for a fetch dispatcher nothing here uses, and that load is most of what the command
 * costs at start-up beyond node's own (see docs/performance.md).
 */


// TLS and the tunnel are loaded when a request needs them, not at start-up: a server on http://
// without a proxy needs neither (node:https, node:tls and tunnel's node:assert cost the command
// several milliseconds at each start). "eager" keeps tunnel inside the one bundle file.
const loadTunnel = async () => (await Promise.resolve(/* import() eager */).then(__nccwpck_require__.t.bind(__nccwpck_require__, 770, 19))).default;
const httpsModule = () => process.getBuiltinModule('node:https');
class ConnectionAgents {
    ca;
    agents = new Map();
    /**
     * @param ca The CAs to trust (the usual roots and an extra one), or undefined for the usual
     *   roots; a tunnelling agent opens TLS with its own options, so it needs them too.
     */
    constructor(ca) {
        this.ca = ca;
    }
    /**
     * The agent for `url`, one per protocol and route, its connections kept alive: the reads made
     * at once after a gate (new issues, measures, hotspots) each take a connection of their own
     * instead of queuing on one, and requests beyond `MAX_CONNECTIONS` take turns.
     *
     * @example https.request(url, { agent: await agents.for(url) })
     */
    async for(url) {
        const proxy = getProxyUrl(url);
        const key = `${url.protocol} ${proxy?.hostname ? proxy.href : 'direct'}`;
        let agent = this.agents.get(key);
        if (!agent) {
            agent = proxy?.hostname ? await tunnelling(url, proxy) : direct(url);
            if (this.ca && agent.options)
                agent.options.ca = this.ca;
            this.agents.set(key, agent);
        }
        return agent;
    }
    /** The kept-alive agent for plain-http requests to a forward proxy. */
    forProxy(proxy) {
        const key = `forward ${proxy.href}`;
        let agent = this.agents.get(key);
        if (!agent) {
            agent = new external_node_http_namespaceObject.Agent(OPTIONS);
            this.agents.set(key, agent);
        }
        return agent;
    }
    /**
     * Ends the kept-alive connections; the next request opens new ones. A tunnelling agent has no
     * `destroy` (as in HttpClient's `dispose`, it is left to close its own sockets).
     */
    destroy() {
        for (const agent of this.agents.values()) {
            if (typeof agent.destroy === 'function')
                agent.destroy();
        }
        this.agents.clear();
    }
}
/**
 * Connections open at once per agent. One made the reads after a gate queue: 218 ms from the
 * gate's answer to the exit (median, 20 analyses on 9.9) where the slowest read alone took 62 ms
 * (docs/performance.md). Four covers the reads a gate starts at once.
 */
const MAX_CONNECTIONS = 4;
const OPTIONS = { keepAlive: true, maxSockets: MAX_CONNECTIONS };
function direct(url) {
    return url.protocol === 'https:' ? new (httpsModule().Agent)(OPTIONS) : new external_node_http_namespaceObject.Agent(OPTIONS);
}
/** A CONNECT tunnel through the proxy, its credentials from the proxy's URL when it has any. */
async function tunnelling(url, proxy) {
    const tunnel = await loadTunnel();
    const options = {
        ...OPTIONS,
        proxy: {
            host: proxy.hostname,
            port: proxy.port,
            ...(proxy.username || proxy.password
                ? { proxyAuth: `${proxy.username}:${proxy.password}` }
                : {})
        }
    };
    const overHttps = proxy.protocol === 'https:';
    if (url.protocol === 'https:') {
        return overHttps ? tunnel.httpsOverHttps(options) : tunnel.httpsOverHttp(options);
    }
    return overHttps ? tunnel.httpOverHttps(options) : tunnel.httpOverHttp(options);
}

;// CONCATENATED MODULE: ./src/http/transport.ts
/**
 * One request on the wire (the server's GETs, the platforms' and GitHub's requests): the
 * connection (kept alive, one pool per protocol, through HTTPS_PROXY when the environment says
 * so), the private CA, a hard time-out on the whole exchange, and a body read in linear time up
 * to a size limit. Every way it can fail becomes a TransportFailure that names its cause; whether
 * to try again is the retry policy's decision, not this module's.
 *
 * By hand on `node:http`, not `fetch`: fetch's engine, undici, costs 96–108 ms to load, bundled
 * alone, against 7–12 ms for `node:http` (`npm run bench:overhead`, 28 Nov 2026); the command
 * starts in about 1.9 times the floor with this module, and would start in about 3 with undici.
 * Node's own error codes are also what tells a TLS cause, a reset and a body cut off apart.
 */



/** The largest reply body read: real replies are a few kilobytes. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
class TransportFailure extends Error {
    reason;
    code;
    certificateNames;
    constructor(reason, 
    /** The cause in a few words of one line, without OpenSSL's internals. */
    message, 
    /** The error code Node gave (ECONNREFUSED, CERT_HAS_EXPIRED...), for the messages. */
    code, 
    /**
     * For a certificate that does not name the host: the names it holds, as the server sent
     * them (its subjectAltName, else its subject's CN). Server text, bounded where it is quoted.
     */
    certificateNames, 
    /** Node's own error, for a reader with a debugger: its text is never shown. */
    cause) {
        super(message, cause === undefined ? undefined : { cause });
        this.reason = reason;
        this.code = code;
        this.certificateNames = certificateNames;
    }
}
/**
 * Kept-alive connections for one server, through HTTPS_PROXY, HTTP_PROXY and NO_PROXY as every
 * other action (connection-agents.ts); each protocol has its own agent because a kept-alive
 * agent serves only the protocol of its first request (an http:// → https:// redirect would
 * otherwise fail with ERR_INVALID_PROTOCOL).
 */
class HttpTransport {
    options;
    agents;
    ca;
    maxBodyBytes;
    constructor(options) {
        this.options = options;
        // node:tls only when there is a CA to add: see connection-agents.ts.
        this.ca = options.rootCert
            ? [...process.getBuiltinModule('node:tls').rootCertificates, options.rootCert]
            : undefined;
        this.agents = new ConnectionAgents(this.ca);
        this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
    }
    /**
     * GETs `url` and reads the whole body, or fails within `timeoutMs` (connection, headers and
     * body together).
     *
     * @example const reply = await transport.get(new URL('https://sonar.example.com/api/ce/task?id=AY1'), { accept: 'application/json' }, 10_000)
     */
    async get(url, headers, timeoutMs) {
        return this.send('GET', url, headers, undefined, timeoutMs);
    }
    /**
     * `method` on `url` with `body` (sent as it is, its length given), and the whole reply read, or
     * a failure within `timeoutMs`. A redirect is a reply like any other: never followed here.
     *
     * @example const reply = await transport.send('PUT', url, { 'content-type': 'application/json' }, '{"body":"…"}', 30_000)
     */
    async send(method, url, headers, body, timeoutMs) {
        const abort = new AbortController();
        const timer = setTimeout(() => abort.abort(), timeoutMs);
        try {
            return await this.exchange(method, url, headers, body, abort.signal);
        }
        catch (error) {
            if (abort.signal.aborted) {
                throw new TransportFailure('timeout', `no reply within ${seconds(timeoutMs)}`);
            }
            throw error instanceof TransportFailure ? error : describe(error);
        }
        finally {
            clearTimeout(timer);
        }
    }
    /** Ends the kept-alive connections; the next request opens new ones. */
    close() {
        this.agents.destroy();
    }
    async exchange(method, url, headers, body, signal) {
        const secure = url.protocol === 'https:';
        const forward = !secure ? this.options.forwardProxy : undefined;
        const agent = forward ? this.agents.forProxy(forward) : await this.agents.for(url);
        // node:https when a request needs it (see connection-agents.ts).
        const protocol = secure ? process.getBuiltinModule('node:https') : external_node_http_namespaceObject;
        return new Promise((resolve, reject) => {
            // Node parses the URL itself: an IPv6 literal ([::1]) loses its brackets as it must.
            const request = protocol.request(forward ?? url, {
                method,
                agent,
                // Through a forward proxy: the proxy's address, the request's in absolute form.
                ...(forward ? { path: url.href } : {}),
                headers: {
                    'user-agent': this.options.userAgent,
                    ...(forward ? { host: url.host } : {}),
                    ...headers,
                    ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) })
                },
                signal,
                ...(secure && this.ca ? { ca: this.ca } : {})
            }, (message) => {
                readBody(message, this.maxBodyBytes).then((body) => resolve({ status: message.statusCode ?? 0, headers: message.headers, body }), reject);
            });
            request.on('error', reject);
            request.end(body);
        });
    }
}
/** A header's first value. */
function headerValue(reply, name) {
    const value = reply.headers[name];
    return Array.isArray(value) ? value[0] : value;
}
/** Reads a body into one buffer (chunks kept, joined once), failing past `limit` bytes. */
function readBody(message, limit) {
    return new Promise((resolve, reject) => {
        const tooLarge = () => {
            message.destroy();
            return new TransportFailure('too-large', `the reply body is larger than ${megabytes(limit)}, the most that is read`);
        };
        const declared = Number(message.headers['content-length']);
        if (declared > limit) {
            reject(tooLarge());
            return;
        }
        const chunks = [];
        let size = 0;
        let settled = false;
        const fail = (failure) => {
            if (settled)
                return;
            settled = true;
            reject(failure);
        };
        message.on('data', (chunk) => {
            size += chunk.length;
            if (size > limit)
                fail(tooLarge());
            else
                chunks.push(chunk);
        });
        message.on('end', () => {
            if (settled)
                return;
            settled = true;
            resolve(Buffer.concat(chunks, size));
        });
        // A connection reset or closed before the body is complete: seen at once, not at the
        // time-out. A reset keeps Node's code (ECONNRESET).
        const cutOff = (error) => fail(new TransportFailure('truncated', `the connection closed after ${size} bytes of the reply body, before its end`, error?.code, undefined, error));
        message.on('error', cutOff);
        message.on('close', () => {
            if (!message.complete)
                cutOff();
        });
    });
}
const CONNECT_CAUSES = {
    ECONNREFUSED: 'refused',
    ENOTFOUND: 'dns',
    EAI_AGAIN: 'dns',
    EAI_FAIL: 'dns',
    EAI_NONAME: 'dns',
    EHOSTUNREACH: 'unreachable',
    ENETUNREACH: 'unreachable',
    EHOSTDOWN: 'unreachable',
    EADDRNOTAVAIL: 'unreachable',
    ECONNRESET: 'reset',
    EPIPE: 'reset',
    ECONNABORTED: 'reset'
};
const CAUSE_WORDS = {
    refused: 'connection refused',
    dns: 'host not found (DNS)',
    unreachable: 'host unreachable',
    reset: 'connection reset'
};
/** Node's codes for a certificate that no CA this process trusts vouches for. */
const UNTRUSTED_CERTIFICATE = new Set([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_UNTRUSTED'
]);
const CERTIFICATE_CAUSES = {
    CERT_HAS_EXPIRED: 'certificate-expired',
    CERT_NOT_YET_VALID: 'certificate-not-yet-valid',
    ERR_TLS_CERT_ALTNAME_INVALID: 'certificate-name',
    HOSTNAME_MISMATCH: 'certificate-name'
};
/** Node's other codes for a certificate refused: a TLS failure of no more precise cause. */
const OTHER_CERTIFICATE_CODES = new Set([
    'CERT_SIGNATURE_FAILURE',
    'CERT_CHAIN_TOO_LONG',
    'CERT_REVOKED',
    'CERT_REJECTED',
    'INVALID_CA',
    'INVALID_PURPOSE',
    'PATH_LENGTH_EXCEEDED',
    'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
    'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
    'UNABLE_TO_GET_CRL',
    'CRL_SIGNATURE_FAILURE',
    'CRL_NOT_YET_VALID',
    'CRL_HAS_EXPIRED',
    'ERROR_IN_CERT_NOT_BEFORE_FIELD',
    'ERROR_IN_CERT_NOT_AFTER_FIELD',
    'ERR_TLS_CERT_ALTNAME_FORMAT'
]);
/**
 * OpenSSL's words when the first bytes back are not a TLS record. On Node 20 and 24 alike, Node
 * gives them as EPROTO with OpenSSL's whole error line when the handshake fails under a pending
 * write (a request's, direct or through a proxy's tunnel), and as ERR_SSL_WRONG_VERSION_NUMBER
 * (and the like) with the reason apart when it fails on a read.
 */
const NOT_TLS_REASONS = new Set([
    'wrong version number',
    'packet length too long',
    'unknown protocol'
]);
/** A Node network error as a TransportFailure with its cause in words. */
function describe(error) {
    const nodeError = error;
    const { code } = nodeError;
    const failure = (reason, words, names) => new TransportFailure(reason, words, code, names, error);
    const certificateCause = certificateCauseOf(code);
    if (certificateCause) {
        return failure(certificateCause, nodeWords(nodeError), certificateNames(nodeError.cert));
    }
    if (code !== undefined &&
        (code === 'EPROTO' || /^ERR_(SSL|TLS)_/.test(code) || OTHER_CERTIFICATE_CODES.has(code))) {
        const reason = openSslReason(nodeError);
        return failure(reason && NOT_TLS_REASONS.has(reason) ? 'not-tls' : 'tls', reason ?? nodeWords(nodeError));
    }
    // Node's HTTP parser refused the reply: at its first byte it is not HTTP at all; later, it is
    // HTTP gone wrong.
    if (code?.startsWith('HPE_')) {
        return failure(nodeError.bytesParsed === 0 ? 'not-http' : 'malformed', typeof nodeError.reason === 'string' ? (0,untrusted_text/* oneLine */.TN)(nodeError.reason) : nodeWords(nodeError));
    }
    const cause = (code && CONNECT_CAUSES[code]) || 'other';
    const words = CAUSE_WORDS[cause] ?? (code ? `${code}: ${nodeWords(nodeError)}` : nodeWords(nodeError));
    return failure(cause, words);
}
/** The certificate causes with words of their own; other certificate codes are plain `tls`. */
function certificateCauseOf(code) {
    if (code === undefined)
        return undefined;
    if (UNTRUSTED_CERTIFICATE.has(code))
        return 'certificate-untrusted';
    return CERTIFICATE_CAUSES[code];
}
/**
 * OpenSSL's reason ("wrong version number") from Node's error: its `reason` field when Node
 * gives one, else from OpenSSL's error line in the message
 * (`write EPROTO 80…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/…`).
 */
function openSslReason(error) {
    if (typeof error.reason === 'string' && error.reason)
        return (0,untrusted_text/* oneLine */.TN)(error.reason);
    const reason = /:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/i.exec(error.message)?.[1];
    return reason ? (0,untrusted_text/* oneLine */.TN)(reason) : undefined;
}
/** Node's message as one line, OpenSSL's internals (its source paths) left out. */
function nodeWords(error) {
    if (/:error:[0-9A-F]+:/i.test(error.message))
        return openSslReason(error) ?? 'TLS error';
    return (0,untrusted_text/* oneLine */.TN)(error.message.trim());
}
/** What a certificate says it is for: its subjectAltName, else its subject's CN. */
function certificateNames(cert) {
    const names = cert?.subjectaltname ?? cert?.subject?.CN;
    if (typeof names === 'string')
        return names;
    // Node gives a CN that appears more than once as an array.
    if (Array.isArray(names))
        return names.filter((name) => typeof name === 'string').join(', ');
    return undefined;
}
function seconds(ms) {
    return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
function megabytes(bytes) {
    return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}


/***/ }),

/***/ 8360:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Q: () => (/* binding */ MAX_ID_LENGTH),
/* harmony export */   l: () => (/* binding */ idProblem)
/* harmony export */ });
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8521);
/**
 * What an id or key may look like: task ids, analysis ids and project keys come from inputs, the
 * report file and the server, go back to the server in the next request and into every message.
 */

/** No server makes a task id, analysis id or project key longer than this (project keys: 400). */
const MAX_ID_LENGTH = 400;
/**
 * Why `value` cannot be an id or key (too long, holding a control character, an invisible
 * format character such as a bidirectional override, or white space), or undefined when it can.
 * Shared by the inputs, the report file and the server's replies, so all refuse the same values.
 *
 * @example idProblem('AY\n1') // 'holds the control character \\n'
 */
function idProblem(value) {
    if (value.length > MAX_ID_LENGTH) {
        return `is ${value.length} characters long, more than the ${MAX_ID_LENGTH} an id may have`;
    }
    const control = /\p{Cc}/u.exec(value);
    if (control)
        return `holds the control character ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeInvisible */ .ts)(control[0])}`;
    const invisible = /[\p{Cf}\p{Zl}\p{Zp}]/u.exec(value);
    if (invisible)
        return `holds the invisible character ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .escapeInvisible */ .ts)(invisible[0])}`;
    return /\s/.test(value) ? 'holds white space' : undefined;
}


/***/ }),

/***/ 4196:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   z: () => (/* binding */ lookupTable)
/* harmony export */ });
/**
 * A lookup table for keys that come from a server or a file: it has no prototype, so no key
 * reaches Object.prototype's members (`constructor`, `toString`, `valueOf`, `__proto__`...),
 * which a plain object literal would hand back as a function.
 *
 * @example lookupTable({ compliant: 'compliant' })['valueOf'] // undefined
 */
function lookupTable(entries) {
    return Object.freeze(Object.assign(Object.create(null), entries));
}


/***/ }),

/***/ 3516:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   AzureApi: () => (/* binding */ AzureApi),
/* harmony export */   identityId: () => (/* binding */ identityId)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);

const AZURE_API_VERSION = '7.1';
/**
 * One Azure DevOps repository's API for one run.
 *
 * @example const azure = new AzureApi({ repositoryUrl, token, userAgent, clock, deadline })
 */
class AzureApi {
    rest;
    repository;
    constructor(options) {
        this.repository = new URL(options.repositoryUrl.href.replace(/\/*$/, '/'));
        this.rest = new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .RestApi */ .RQ({
            ...options,
            apiUrl: options.collectionUrl,
            platform: 'Azure DevOps',
            headers: { authorization: `Bearer ${options.token}` },
            redirectAdvice: 'Check SYSTEM_COLLECTIONURI, and that the pipeline maps SYSTEM_ACCESSTOKEN (a token Azure DevOps does not take is sent to its sign-in page).'
        });
    }
    close() {
        this.rest.close();
    }
    /** `method` on `path` under the repository's address, with `api-version`. */
    request(method, path, options = {}) {
        return this.send(method, path, new URL(path, this.repository), options, AZURE_API_VERSION);
    }
    /**
     * The token's own identity: `authenticatedUser.id` of the collection's connection data (the
     * build service's identity for SYSTEM_ACCESSTOKEN), lower-cased, or undefined.
     *
     * @example await azure.ownIdentity() // '5c3a7e2b-…'
     */
    async ownIdentity() {
        const path = '_apis/connectionData';
        const { body } = await this.send('GET', path, path, {}, `${AZURE_API_VERSION}-preview`);
        return identityId(body?.authenticatedUser);
    }
    async send(method, path, url, options, version) {
        let reply;
        try {
            reply = await this.rest.request(method, url, {
                ...options,
                query: { ...options.query, 'api-version': version }
            });
        }
        catch (error) {
            // A sign-in page instead of JSON: the token was not taken.
            if (error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk && /not JSON/.test(error.message)) {
                throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2(`Azure DevOps answered ${method} ${path} with a sign-in page`, 401);
            }
            throw error;
        }
        if (reply.status === 203) {
            throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2(`Azure DevOps answered ${method} ${path} with a sign-in page`, 401);
        }
        return reply;
    }
}
/** An identity's (or an IdentityRef's) `id`: a GUID, lower-cased to compare. */
function identityId(identity) {
    const id = identity?.id;
    return typeof id === 'string' && /^[0-9a-f-]{1,64}$/i.test(id) ? id.toLowerCase() : undefined;
}


/***/ }),

/***/ 2839:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   AZURE_LIMITS: () => (/* binding */ AZURE_LIMITS),
/* harmony export */   azureDevOps: () => (/* binding */ azureDevOps)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(448);
/* harmony import */ var _azure_api_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(3516);
/**
 * Azure DevOps as a review platform, for a pull request built by Azure Pipelines: per project a
 * pull-request status (appended, never edited: the latest of a context is the one shown, and a
 * branch policy can require it), one thread whose first comment is the verdict in Markdown,
 * edited in place, and a thread per new issue on its file and line, closed once a later run no
 * longer reports it. Threads are found again by their `properties` (as Microsoft's own clients
 * do); who started them is their first comment's author, and the token's own identity is
 * `authenticatedUser` of the collection's `_apis/connectionData`. Shapes from the REST API's
 * specification (api-version 7.1): `POST .../pullRequests/{id}/statuses` (`state`, `description`,
 * `context` {`genre`, `name`}, `targetUrl`), `GET`, `POST .../threads`, `PATCH
 * .../threads/{id}` (`status`), `PATCH .../threads/{id}/comments/{commentId}` (`content`), and
 * `GET .../iterations`, `.../iterations/{id}/changes` (`$top`, `$skip`): Azure DevOps gives the
 * files a pull request changes, not its lines.
 */



const AZURE_LIMITS = {
    /** A comment's content: Azure DevOps takes 150,000 characters. */
    commentChars: 150_000,
    descriptionChars: 255,
    /** Changes read per request, and requests: 20,000 files. */
    changesPerPage: 2000,
    changePages: 10
};
/** The thread property that names the project of a verdict's thread, and an issue's key. */
const PROJECT_PROPERTY = 'sonarqube.project';
const ISSUE_PROPERTY = 'sonarqube.issue';
/**
 * The Azure DevOps pull request `target` names, as a review platform.
 *
 * @example await decorate(azureDevOps(api, { pullRequestId: '42', commit }), outcomes, options)
 */
function azureDevOps(azure, target) {
    const id = target.pullRequestId;
    const base = `pullRequests/${encodeURIComponent(id)}`;
    // Listed once for the verdicts' threads and the issues' both.
    let listed;
    const threads = () => (listed ??= listThreads(azure, base));
    const firstComments = new Map();
    return {
        words: {
            name: 'Azure DevOps',
            status: 'status',
            comment: 'thread',
            check: 'that SYSTEM_COLLECTIONURI is the collection of Azure DevOps, and that Azure DevOps is up'
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.commit,
        setStatus: (verdict) => postStatus(azure, base, verdict),
        review: {
            name: `pull request !${id}`,
            kind: 'pull request',
            commit: target.commit,
            markup: 'markdown',
            commentChars: AZURE_LIMITS.commentChars,
            ownIdentity: () => azure.ownIdentity(),
            changedLines: () => changedFiles(azure, base),
            granularity: 'files',
            verdicts: {
                keyedBy: 'project',
                async list() {
                    return (await threads()).flatMap((thread) => {
                        const project = thread.properties[PROJECT_PROPERTY];
                        const first = thread.firstComment;
                        if (project === undefined || !first)
                            return [];
                        firstComments.set(thread.id, first.id);
                        return [{ id: thread.id, body: first.content, author: thread.author, project }];
                    });
                },
                async create(verdict, content) {
                    const { body } = await azure.request('POST', `${base}/threads`, {
                        body: {
                            comments: [{ parentCommentId: 0, content, commentType: 1 }],
                            status: 'active',
                            properties: { [PROJECT_PROPERTY]: { $type: 'System.String', $value: verdict.label } }
                        }
                    });
                    const created = (body ?? {});
                    const thread = typeof created.id === 'number' ? created.id : undefined;
                    const first = Array.isArray(created.comments)
                        ? created.comments[0]?.id
                        : undefined;
                    if (thread !== undefined && typeof first === 'number')
                        firstComments.set(thread, first);
                    return { id: thread };
                },
                async update(thread, content) {
                    const comment = firstComments.get(thread.id);
                    if (comment === undefined)
                        return false;
                    await azure.request('PATCH', `${base}/threads/${thread.id}/comments/${comment}`, {
                        body: { content }
                    });
                    return true;
                }
            },
            inline: {
                step: 'the issue threads',
                started: 'issue threads started',
                resolved: 'closed',
                list: async () => (await threads()).flatMap((thread) => {
                    const issueKey = thread.properties[ISSUE_PROPERTY];
                    if (issueKey === undefined)
                        return [];
                    const resolved = thread.status === 'closed';
                    return [
                        { id: String(thread.id), body: undefined, issueKey, resolved, author: thread.author }
                    ];
                }),
                async start(comments) {
                    for (const { finding, file, line, body } of comments) {
                        await azure.request('POST', `${base}/threads`, {
                            body: {
                                comments: [{ parentCommentId: 0, content: body, commentType: 1 }],
                                status: 'active',
                                threadContext: {
                                    filePath: `/${file}`,
                                    rightFileStart: { line, offset: 1 },
                                    rightFileEnd: { line, offset: 1 }
                                },
                                properties: { [ISSUE_PROPERTY]: { $type: 'System.String', $value: finding.key } }
                            }
                        });
                    }
                },
                async resolve(thread) {
                    await azure.request('PATCH', `${base}/threads/${thread.id}`, {
                        body: { status: 'closed' }
                    });
                    return true;
                }
            }
        },
        close: () => azure.close()
    };
}
async function postStatus(azure, base, verdict) {
    await azure.request('POST', `${base}/statuses`, {
        body: {
            state: verdict.failing ? 'failed' : 'succeeded',
            description: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(verdict.words, AZURE_LIMITS.descriptionChars),
            context: {
                genre: 'sonarqube',
                name: verdict.say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`quality-gate/${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(verdict.key)}`, 200))
            },
            ...(verdict.dashboard ? { targetUrl: verdict.dashboard } : {})
        }
    });
}
async function listThreads(azure, base) {
    const { body } = await azure.request('GET', `${base}/threads`);
    const value = body?.value;
    // A listing without its list is not an empty one: taken for one, a new thread would be started
    // on every run.
    if (!Array.isArray(value))
        throw notAList('threads');
    return value.flatMap((item) => {
        const { id, status, comments, properties, isDeleted } = (item ?? {});
        if (typeof id !== 'number' || isDeleted === true)
            return [];
        const first = Array.isArray(comments)
            ? comments[0]
            : undefined;
        const own = {};
        for (const [name, entry] of Object.entries((properties ?? {}))) {
            const value = entry?.$value;
            if (typeof value === 'string')
                own[name] = value;
        }
        return [
            {
                id,
                status: typeof status === 'string' ? status : undefined,
                firstComment: first && typeof first['id'] === 'number' && typeof first['content'] === 'string'
                    ? { id: first['id'], content: first['content'] }
                    : undefined,
                author: (0,_azure_api_js__WEBPACK_IMPORTED_MODULE_2__.identityId)(first?.['author']),
                properties: own
            }
        ];
    });
}
/**
 * The files the pull request's latest iteration changes (its changes, paged by `$top` and
 * `$skip`), each counting as changed throughout: Azure DevOps gives files, not lines.
 */
async function changedFiles(azure, base) {
    const { body } = await azure.request('GET', `${base}/iterations`);
    const iterations = body?.value;
    if (!Array.isArray(iterations))
        throw notAList('iterations');
    const ids = iterations.flatMap((item) => {
        const id = item?.id;
        return typeof id === 'number' && Number.isSafeInteger(id) ? [id] : [];
    });
    const files = new Map();
    if (ids.length === 0)
        return files;
    const latest = Math.max(...ids);
    let skip = 0;
    for (let page = 0; page < AZURE_LIMITS.changePages; page++) {
        const { body: changes } = await azure.request('GET', `${base}/iterations/${latest}/changes`, {
            query: { $top: String(AZURE_LIMITS.changesPerPage), $skip: String(skip) }
        });
        const reply = (changes ?? {});
        for (const entry of Array.isArray(reply.changeEntries) ? reply.changeEntries : []) {
            const { item, changeType } = (entry ?? {});
            const path = typeof item?.path === 'string' ? item.path.replace(/^\//, '') : '';
            const deleted = String(changeType)
                .split(',')
                .some((type) => type.trim() === 'delete');
            if (path !== '' && !deleted)
                files.set(path, 'whole');
        }
        const next = reply.nextSkip;
        if (typeof next !== 'number' || next <= skip)
            break;
        skip = next;
    }
    return files;
}
/** A listing's reply without its `value` list. */
function notAList(what) {
    return new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk(`Azure DevOps's reply to GET pullRequests/…/${what} is not a list of ${what} (no "value").`);
}
/** The one warning for a refusal: the missing permission, said once. */
function refusalWords(error, target) {
    const base = 'Azure DevOps refused the decoration; the verdict and the exit code are unchanged.';
    switch (error.status) {
        case 401:
            return `${base} SYSTEM_ACCESSTOKEN is not valid (401): map it in the step (env: SYSTEM_ACCESSTOKEN: $(System.AccessToken)).`;
        case 403:
            return `${base} The build service may not write to the pull request (403): give it "Contribute to pull requests" on the repository (Project settings › Repositories › Security).`;
        default:
            return `${base} Azure DevOps shows this token no pull request !${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(target.pullRequestId, 20)} in the repository (404): check SYSTEM_PULLREQUEST_PULLREQUESTID and BUILD_REPOSITORY_ID.`;
    }
}


/***/ }),

/***/ 286:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   BITBUCKET_API: () => (/* binding */ BITBUCKET_API),
/* harmony export */   BitbucketApi: () => (/* binding */ BitbucketApi)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);

/** Bitbucket Cloud's API, unless BITBUCKET_API_URL names another (a proxy, a test). */
const BITBUCKET_API = 'https://api.bitbucket.org/2.0';
/**
 * One Bitbucket Cloud API for one run.
 *
 * @example const bitbucket = new BitbucketApi({ apiUrl: new URL(BITBUCKET_API), token, userAgent, clock, deadline })
 */
class BitbucketApi {
    rest;
    constructor(options) {
        const { token, pipelinesProxy, ...rest } = options;
        this.rest = new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .RestApi */ .RQ({
            ...rest,
            platform: 'Bitbucket',
            token: token ?? '',
            headers: token ? { authorization: `Bearer ${token}` } : {},
            ...(pipelinesProxy ? { forwardProxy: pipelinesProxy } : {}),
            redirectAdvice: 'Set BITBUCKET_API_URL to the address the API answers at.'
        });
    }
    close() {
        this.rest.close();
    }
    request(method, path, options = {}) {
        return this.rest.request(method, path, options);
    }
    /**
     * The `values` of a listing, page by page (`pagelen` 100, then each page's `next`), at most
     * `maxPages` pages.
     */
    async pages(path, maxPages) {
        const items = [];
        let next = path;
        let query = { pagelen: '100' };
        for (let read = 0; read < maxPages && next !== undefined; read++) {
            const { body } = await this.rest.request('GET', next, query ? { query } : {});
            const page = (body ?? {});
            if (!Array.isArray(page.values)) {
                throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk(`Bitbucket's reply to GET ${path} is not a page of values.`);
            }
            items.push(...page.values);
            next =
                typeof page.next === 'string' && URL.canParse(page.next) ? new URL(page.next) : undefined;
            // The next address carries its own query.
            query = undefined;
        }
        return items;
    }
}


/***/ }),

/***/ 6615:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   BITBUCKET_LIMITS: () => (/* binding */ BITBUCKET_LIMITS),
/* harmony export */   bitbucketCloud: () => (/* binding */ bitbucketCloud),
/* harmony export */   externalId: () => (/* binding */ externalId),
/* harmony export */   repositoryPath: () => (/* binding */ repositoryPath)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(448);
/**
 * Bitbucket Cloud as a review platform: per project a build status and a Code Insights report on
 * the commit, with the new issues as the report's annotations, and on a pull request one comment
 * per project, in Markdown (Bitbucket renders no raw HTML). Shapes from Bitbucket Cloud's
 * OpenAPI description:
 * - `POST .../commit/{commit}/statuses/build` (`key` at most 40 characters, `state`
 *   SUCCESSFUL/FAILED, `name`, `url`, `description`; the same key replaces the status);
 * - `PUT /repositories/{workspace}/{repo_slug}/commit/{commit}/reports/{reportId}` (title,
 *   details, report_type, result PASSED/FAILED, link, at most 10 data fields), then `POST
 *   .../reports/{reportId}/annotations`, a JSON array of at most 100 a request and 1,000 a report
 *   (external_id, annotation_type, severity, path, line, summary of at most 450 characters,
 *   link); a report PUT again keeps its old annotations, so it is deleted first;
 * - `GET`, `POST`, `PUT`, `DELETE .../pullrequests/{id}/comments` (`content.raw`, `deleted`,
 *   `user`, listed `pagelen` 100 with `next`), and the current account (`GET /user`: its `uuid`).
 *
 * A repository, project or workspace access token writes as a bot account of its own, which `GET
 * /user` does not show (Bitbucket answers 401, "Token is invalid or not supported for this
 * endpoint"): then the comment is written anew, the reply names the bot account, and that
 * account's earlier comments carrying the marker are deleted (the driver's rule), so one stays.
 */


const BITBUCKET_LIMITS = {
    /** What a comment's body may take: Bitbucket Cloud names no limit; Data Center's is 32,768. */
    commentChars: 30_000,
    /** Pages of 100 comments read to find the project's: 2,000 comments. */
    commentPages: 20,
    statusChars: 255,
    annotationsPerRequest: 100,
    annotationsPerReport: 1000,
    summaryChars: 450,
    detailsChars: 2000,
    titleChars: 450
};
/**
 * The Bitbucket Cloud repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(bitbucketCloud(api, target), outcomes, options)
 */
function bitbucketCloud(bitbucket, target) {
    const repository = repositoryPath(target.repository);
    const commit = `${repository}/commit/${encodeURIComponent(target.commit)}`;
    const id = target.pullRequestId;
    const comments = `${repository}/pullrequests/${encodeURIComponent(id ?? '')}/comments`;
    return {
        words: {
            name: 'Bitbucket',
            status: 'build status',
            comment: 'comment',
            check: "that BITBUCKET_API_URL, when set, is Bitbucket Cloud's API, and that Bitbucket is up"
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.commit,
        ...(target.reportsOnly
            ? {}
            : {
                setStatus: (verdict) => setBuildStatus(bitbucket, commit, target, verdict)
            }),
        writeReport: (verdict) => writeReport(bitbucket, `${commit}/reports/${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .digestId */ .sX)(verdict.key)}`, verdict),
        review: target.reportsOnly || id === undefined
            ? undefined
            : {
                name: `pull request #${id}`,
                kind: 'pull request',
                commit: target.commit,
                markup: 'markdown',
                commentChars: BITBUCKET_LIMITS.commentChars,
                ownIdentity: async () => uuidOf((await bitbucket.request('GET', 'user')).body),
                identity: {
                    level: 'info',
                    instead: 'the comment is written anew, and the earlier ones by the account Bitbucket names as its author are deleted'
                },
                verdicts: {
                    keyedBy: 'marker',
                    list: async () => (await bitbucket.pages(comments, BITBUCKET_LIMITS.commentPages)).flatMap(asComment),
                    async create(_verdict, raw) {
                        const { body } = await bitbucket.request('POST', comments, {
                            body: { content: { raw } }
                        });
                        const created = (body ?? {});
                        return {
                            id: typeof created.id === 'number' ? created.id : undefined,
                            author: uuidOf(created.user)
                        };
                    },
                    async update(comment, raw) {
                        await bitbucket.request('PUT', `${comments}/${comment.id}`, {
                            body: { content: { raw } }
                        });
                        return true;
                    },
                    async remove(comment) {
                        await bitbucket.request('DELETE', `${comments}/${comment.id}`);
                    }
                }
            },
        noReview: target.reportsOnly
            ? 'Bitbucket: without BITBUCKET_TOKEN the reports go through the Pipelines proxy, which takes Code Insights only: no build status, no comment.'
            : 'Not a pull-request pipeline (no BITBUCKET_PR_ID): the build statuses and reports are set, and no comment is written.',
        close: () => bitbucket.close()
    };
}
/** The project's build status: SUCCESSFUL or FAILED as the policy judges the gate. */
async function setBuildStatus(bitbucket, commit, target, verdict) {
    const limit = BITBUCKET_LIMITS.statusChars;
    await bitbucket.request('POST', `${commit}/statuses/build`, {
        body: {
            key: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .digestId */ .sX)(verdict.key),
            state: verdict.failing ? 'FAILED' : 'SUCCESSFUL',
            name: verdict.say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`sonarqube/${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(verdict.key)}`, limit)),
            // Bitbucket requires an address: the dashboard, else the repository.
            url: verdict.dashboard ?? `https://bitbucket.org/${target.repository}`,
            description: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(verdict.words, limit)
        }
    });
}
/**
 * Writes the project's report and its annotations, the most severe new issues first, at most
 * 1,000. Returns how many annotations were written.
 */
async function writeReport(bitbucket, path, verdict) {
    try {
        await bitbucket.request('DELETE', path);
    }
    catch (error) {
        // No report yet: nothing to delete.
        if (!(error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2 && error.status === 404))
            throw error;
    }
    await bitbucket.request('PUT', path, {
        body: {
            title: verdict.say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`SonarQube: ${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(verdict.key)}`, BITBUCKET_LIMITS.titleChars)),
            details: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(verdict.words, BITBUCKET_LIMITS.detailsChars),
            report_type: 'BUG',
            reporter: 'SonarQube',
            result: verdict.failing ? 'FAILED' : 'PASSED',
            ...(verdict.dashboard ? { link: verdict.dashboard } : {}),
            data: verdict.figures
        }
    });
    const annotations = verdict.findings
        .slice(0, BITBUCKET_LIMITS.annotationsPerReport)
        .map((finding) => annotation(finding, verdict.say));
    for (let at = 0; at < annotations.length; at += BITBUCKET_LIMITS.annotationsPerRequest) {
        await bitbucket.request('POST', `${path}/annotations`, {
            body: annotations.slice(at, at + BITBUCKET_LIMITS.annotationsPerRequest)
        });
    }
    return annotations.length;
}
const BITBUCKET_SEVERITY = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .severityIn */ .fR)('bitbucketCloud');
const ANNOTATION_TYPES = new Set(['BUG', 'VULNERABILITY', 'CODE_SMELL']);
/** One issue as an annotation: plain text (Bitbucket shows it as such), through the sink. */
function annotation(finding, say) {
    const rule = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(finding.ruleName ?? finding.rule);
    return {
        external_id: externalId(finding.key),
        annotation_type: ANNOTATION_TYPES.has(finding.type ?? '') ? finding.type : 'CODE_SMELL',
        severity: BITBUCKET_SEVERITY(finding.severity),
        summary: say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(finding.message, Infinity), BITBUCKET_LIMITS.summaryChars)),
        details: say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`${rule} (${finding.severityWord})`, BITBUCKET_LIMITS.detailsChars)),
        link: say(finding.url),
        ...(finding.file !== undefined && say(finding.file) === finding.file
            ? { path: finding.file, ...(finding.region ? { line: finding.region.startLine } : {}) }
            : {})
    };
}
/**
 * An annotation's id: the issue key, prefixed as Bitbucket asks; a key with other characters
 * than those keys hold, by its digest.
 *
 * @example externalId('AYIssue00001') // 'sonarqube-AYIssue00001'
 */
function externalId(key) {
    return /^[\w.:-]{1,200}$/.test(key) ? `sonarqube-${key}` : (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .digestId */ .sX)(key, 32);
}
/** `repositories/{workspace}/{repo_slug}`, each part encoded. */
function repositoryPath(fullName) {
    const [workspace = '', slug = ''] = fullName.split('/');
    return `repositories/${encodeURIComponent(workspace)}/${encodeURIComponent(slug)}`;
}
/** An account's `uuid` (`{…}`, as Bitbucket writes it), lower-cased to compare. */
function uuidOf(account) {
    const uuid = account?.uuid;
    return typeof uuid === 'string' && /^\{[0-9a-f-]{1,40}\}$/i.test(uuid)
        ? uuid.toLowerCase()
        : undefined;
}
/** A comment as the listing gives it, its shape checked. */
function asComment(item) {
    const { id, content, deleted, user } = (item ?? {});
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || deleted === true)
        return [];
    return typeof content?.raw === 'string' ? [{ id, body: content.raw, author: uuidOf(user) }] : [];
}
/** The one warning for a refusal: what the token, the repository or the pull request lacks. */
function refusalWords(error, target) {
    const base = 'Bitbucket refused the decoration; the verdict and the exit code are unchanged.';
    const repository = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(target.repository, _review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.short);
    switch (error.status) {
        case 401:
            return `${base} The token in BITBUCKET_TOKEN is not valid (401): give a repository or workspace access token.`;
        case 403:
            return `${base} The token in BITBUCKET_TOKEN may not write to ${repository} (403): it needs the repository write scope for statuses and reports, and pull requests write for the comment.`;
        default:
            return `${base} Bitbucket shows this token no repository ${repository}${target.pullRequestId === undefined ? '' : ` or pull request #${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(target.pullRequestId, 20)}`} (404): check BITBUCKET_REPO_FULL_NAME and BITBUCKET_PR_ID, and that the token is this repository's or its workspace's.`;
    }
}


/***/ }),

/***/ 9883:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   bitbucketDataCenter: () => (/* binding */ bitbucketDataCenter)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(448);
/**
 * Bitbucket Data Center as a review platform, from any CI (Jenkins, Bamboo…): per project a Code
 * Insights report on the commit with the new issues as its annotations, and a build status. Shapes
 * from Bitbucket Data Center's REST specification (9.2), Code Insights since 5.15:
 * - `PUT /rest/insights/1.0/projects/{projectKey}/repos/{repositorySlug}/commits/{commitId}/reports/{key}`
 *   (`title` at most 450 characters, `details` at most 2,000, `result` PASS/FAIL, `data` at most
 *   6 fields, `link`, `reporter`; the key at most 50 characters), deleted first, since a report
 *   PUT again keeps its annotations;
 * - `POST .../reports/{key}/annotations` (`{"annotations": [...]}`, at most 1,000 a report:
 *   `externalId`, `path`, `line`, `message` at most 2,000, `severity` LOW/MEDIUM/HIGH, `type`,
 *   `link`);
 * - `POST /rest/api/latest/projects/{projectKey}/repos/{repositorySlug}/commits/{commitId}/builds`
 *   (`key`, `state` SUCCESSFUL/FAILED, `url`, `name`, `description`), and on a server without it
 *   (404) the older `POST /rest/build-status/1.0/commits/{commitId}`, deprecated since 7.14.
 * The token is an HTTP access token, sent as a Bearer to the server's origin only.
 */


const DATA_CENTER_LIMITS = {
    titleChars: 450,
    detailsChars: 2000,
    messageChars: 2000,
    annotationsPerReport: 1000,
    dataFields: 6,
    textChars: 255
};
/**
 * The Bitbucket Data Center repository `target` names, as a platform of commits (it has no
 * review the decoration writes to).
 *
 * @example await decorate(bitbucketDataCenter(rest, { project: 'SHOP', repository: 'web', commit }), outcomes, options)
 */
function bitbucketDataCenter(server, target) {
    const commit = `projects/${encodeURIComponent(target.project)}/repos/${encodeURIComponent(target.repository)}/commits/${encodeURIComponent(target.commit)}`;
    return {
        words: {
            name: 'Bitbucket',
            status: 'build status',
            comment: 'comment',
            check: 'that the Bitbucket Data Center server answers at the address given, and is up'
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.commit,
        writeReport: (verdict) => writeReport(server, `insights/1.0/${commit}`, verdict),
        setStatus: (verdict) => setBuildStatus(server, commit, target, verdict),
        review: undefined,
        close: () => server.close()
    };
}
async function writeReport(server, commit, verdict) {
    const path = `${commit}/reports/${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .digestId */ .sX)(verdict.key)}`;
    try {
        await server.request('DELETE', path);
    }
    catch (error) {
        if (!(error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2 && error.status === 404))
            throw error;
    }
    await server.request('PUT', path, {
        body: {
            title: verdict.say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`SonarQube: ${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(verdict.key)}`, DATA_CENTER_LIMITS.titleChars)),
            details: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(verdict.words, DATA_CENTER_LIMITS.detailsChars),
            result: verdict.failing ? 'FAIL' : 'PASS',
            reporter: 'SonarQube',
            ...(verdict.dashboard ? { link: verdict.dashboard } : {}),
            data: verdict.figures.slice(0, DATA_CENTER_LIMITS.dataFields)
        }
    });
    const annotations = verdict.findings
        .slice(0, DATA_CENTER_LIMITS.annotationsPerReport)
        .map((finding) => annotation(finding, verdict.say));
    if (annotations.length > 0) {
        await server.request('POST', `${path}/annotations`, { body: { annotations } });
    }
    return annotations.length;
}
const SERVER_SEVERITY = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .severityIn */ .fR)('bitbucketServer');
const TYPES = new Set(['BUG', 'VULNERABILITY', 'CODE_SMELL']);
function annotation(finding, say) {
    return {
        externalId: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .digestId */ .sX)(finding.key),
        message: say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(finding.message, Infinity), DATA_CENTER_LIMITS.messageChars)),
        severity: SERVER_SEVERITY(finding.severity),
        type: TYPES.has(finding.type ?? '') ? finding.type : 'CODE_SMELL',
        link: say(finding.url),
        ...(finding.file !== undefined && say(finding.file) === finding.file
            ? { path: finding.file, ...(finding.region ? { line: finding.region.startLine } : {}) }
            : {})
    };
}
async function setBuildStatus(server, commit, target, verdict) {
    const body = {
        key: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .digestId */ .sX)(verdict.key),
        state: verdict.failing ? 'FAILED' : 'SUCCESSFUL',
        name: verdict.say((0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`sonarqube/${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(verdict.key)}`, DATA_CENTER_LIMITS.textChars)),
        // The server requires an address: the dashboard, else the server's own.
        url: verdict.dashboard ?? server.base.origin,
        description: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(verdict.words, DATA_CENTER_LIMITS.textChars)
    };
    try {
        await server.request('POST', `api/latest/${commit}/builds`, { body });
    }
    catch (error) {
        if (!(error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2 && error.status === 404))
            throw error;
        // A server before the repository's builds API: the older, commit-wide one.
        await server.request('POST', `build-status/1.0/commits/${encodeURIComponent(target.commit)}`, {
            body
        });
    }
}
function refusalWords(error, target) {
    const base = 'Bitbucket refused the decoration; the verdict and the exit code are unchanged.';
    const repository = `${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(target.project, _review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.short)}/${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(target.repository, _review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.short)}`;
    switch (error.status) {
        case 401:
            return `${base} The token in BITBUCKET_TOKEN is not valid (401): give an HTTP access token of the repository or its project.`;
        case 403:
            return `${base} The token in BITBUCKET_TOKEN may not write to ${repository} (403): it needs the repository write permission.`;
        default:
            return (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `${base} The server shows this token no repository ${repository}, or has no Code Insights (404: Bitbucket Data Center 5.15 or later has them): check ${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .setting */ .Pe)('bitbucketProject')} and ${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .setting */ .Pe)('bitbucketRepo')}.`;
    }
}


/***/ }),

/***/ 1379:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  decorate: () => (/* binding */ decorate)
});

// UNUSED EXPORTS: decorating, decorationStep, issuesOf, nameOf, statusWords, verdictOf

// EXTERNAL MODULE: ./src/fail-policy.ts
var fail_policy = __nccwpck_require__(6654);
// EXTERNAL MODULE: ./src/findings/finding.ts
var findings_finding = __nccwpck_require__(4879);
// EXTERNAL MODULE: ./src/findings/changed-lines.ts
var changed_lines = __nccwpck_require__(7424);
;// CONCATENATED MODULE: ./src/gate/on-changed-lines.ts

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
        const findings = (0,changed_lines/* onChangedLines */.J)(newIssues.findings, changed);
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

// EXTERNAL MODULE: ./src/gate/outcome.ts
var gate_outcome = __nccwpck_require__(5163);
// EXTERNAL MODULE: ./src/http/rest-api.ts
var rest_api = __nccwpck_require__(9837);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __nccwpck_require__(3916);
// EXTERNAL MODULE: ./src/untrusted-text.ts
var untrusted_text = __nccwpck_require__(8521);
;// CONCATENATED MODULE: ./src/platforms/own-identity.ts
/**
 * Which comments are the decoration's own, on every platform: a comment, note, discussion or
 * thread is ours only when it carries our marker (or our issue's key) **and** its author is the
 * token's own identity, read from the platform once a run. Anyone who may comment on the pull
 * request can copy a marker; nobody else can write as the token. When the identity cannot be
 * read, nothing is edited, resolved or closed: the verdict is written anew, and one line says so.
 */


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

// EXTERNAL MODULE: ./src/report/dashboard-link.ts
var dashboard_link = __nccwpck_require__(67);
// EXTERNAL MODULE: ./src/report/new-issues-block.ts
var new_issues_block = __nccwpck_require__(9437);
// EXTERNAL MODULE: ./src/report/markup.ts
var report_markup = __nccwpck_require__(8132);
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
var no_references = __nccwpck_require__(3282);
// EXTERNAL MODULE: ./src/report/pull-request-comment-body.ts
var pull_request_comment_body = __nccwpck_require__(9996);
// EXTERNAL MODULE: ./src/words.ts
var src_words = __nccwpck_require__(5846);
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
 *   marker (or our property) **and** its author is the token's own identity, read once a run
 *   (anyone who may comment can copy a marker; nobody else can write as the token); unknown, and
 *   nothing is edited or resolved;
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
                await decorationStep(`the report for ${verdict.name}`, async () => {
                    const annotations = await write(verdict);
                    log.info(`${words.name}: the report for ${verdict.name} is on commit ${platform.commit.slice(0, 12)}, with ${annotations} annotations.`);
                });
            }
        }
        if (!platform.review) {
            if (platform.noReview)
                log.info(platform.noReview);
            return;
        }
        await decorateReview(words, platform.review, outcomes, { ...options, log });
    });
}
async function decorateReview(words, review, outcomes, options) {
    const { log, inlineLimit } = options;
    // Unknown (undefined): the verdict is written anew, and nothing is edited, resolved or closed.
    const me = await ownIdentity(log, words.name, () => review.ownIdentity(), review.identity);
    const readLines = review.changedLines?.bind(review);
    const wanted = hasBranchAnalyses(outcomes) || (review.inline !== undefined && inlineLimit > 0);
    const files = review.granularity === 'files';
    const changed = readLines && wanted
        ? await decorationStep(`the ${files ? 'files' : 'lines'} ${review.name} changes`, readLines)
        : undefined;
    const shown = changed ? narrowToChangedLines(outcomes, changed, review.name, log) : outcomes;
    if (changed && files && hasBranchAnalyses(outcomes)) {
        log.info(`${words.name} gives the files a ${review.kind} changes, not its lines: the issues are narrowed to those files.`);
    }
    await writeVerdicts(words, review, shown, me, options);
    const inline = review.inline;
    if (!inline || inlineLimit <= 0 || !changed)
        return;
    const notReady = inline.notReady?.();
    if (notReady !== undefined) {
        log.info(notReady);
        return;
    }
    await decorationStep(inline.step, async () => {
        const done = await commentOnLines(inline, review, me, issuesOf(shown), changed, options);
        const past = done.leftOut > 0 ? (0,src_words/* msg */.ab) `; ${done.leftOut} more past ${(0,src_words/* setting */.Pe)('inlineLimit')}` : '';
        log.info((0,src_words/* msg */.ab) `${words.name}: ${done.started} ${inline.started}${past}, ${done.resolved} ${inline.resolved} (their issues are gone).`);
    });
}
/** Each project's verdict comment: ours edited in place, or a new one, as the comment setting says. */
async function writeVerdicts(words, review, outcomes, me, options) {
    const { verdicts } = review;
    const existing = await decorationStep(`the ${words.comment}s of ${review.name}`, () => verdicts.list());
    let author = me;
    for (const outcome of outcomes) {
        const name = nameOf(outcome);
        await decorationStep(`the ${words.comment} for ${name}`, async () => {
            const written = await writeVerdict(review, existing, author, outcome, options);
            author ??= written.author;
            options.log.info(written.action === 'unchanged'
                ? (0,src_words/* msg */.ab) `${words.name}: the ${words.comment} for ${name} is left as it is (${(0,src_words/* setting */.Pe)('comment')} ${options.commentWhen}).`
                : `${words.name}: the ${words.comment} for ${name} is ${written.action} on ${review.name}.`);
        });
    }
}
/**
 * The project's verdict comment, unless the comment setting says to leave it: `failed` writes no
 * new one for a passing gate (an existing one is still updated, so it never shows a failure that
 * is gone); `changed` leaves it alone while its verdict is the same. Ours is the one carrying the
 * project's marker (or property) whose author is `me`. With `me` unknown, a new one is written;
 * where the platform may delete, the author its reply names is the token's, and that author's
 * earlier ones carrying the marker are deleted, so one stays.
 */
async function writeVerdict(review, existing, me, outcome, { sink, policy, commentWhen, fileLink }) {
    const { verdicts } = review;
    const body = (0,pull_request_comment_body/* commentBody */.I2)(outcome, review.commit, {
        sink,
        policy,
        ...(fileLink ? { fileLink } : {}),
        markup: review.markup === 'markdown' ? report_markup/* MARKDOWN_MARKUP */.jx : report_markup/* HTML_MARKUP */.xe,
        ...(review.commentChars === undefined ? {} : { limit: review.commentChars })
    });
    const verdict = verdictOf(outcome, { sink, policy });
    const marker = (0,pull_request_comment_body/* markerOf */.we)(body);
    const carrying = existing.filter((comment) => verdicts.keyedBy === 'project'
        ? comment.project === verdict.label
        : (0,pull_request_comment_body/* markerOf */.we)(comment.body) === marker);
    const ours = me === undefined ? undefined : carrying.find(({ author }) => author === me);
    const cleansUp = me === undefined && verdicts.remove !== undefined && carrying.length > 0;
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
    // Two outcomes naming one project share one comment: the later one edits it.
    if (created.id !== undefined) {
        existing.push({ id: created.id, body, author, project: verdict.label });
    }
    return { action: 'created', author };
}
/**
 * A comment per new issue on a line the review changes, the most severe first, at most
 * `inlineLimit`, started together; none for an issue that has one of ours (with `me` unknown:
 * anyone's); ours of issues no longer reported resolved, when every issue was read.
 */
async function commentOnLines(inline, review, me, issues, changed, { sink, inlineLimit, inlineSeverity }) {
    const keyed = (await inline.list(me)).flatMap((comment) => {
        const issueKey = comment.issueKey ?? issueKeyOf(comment.body);
        return issueKey === undefined ? [] : [{ ...comment, issueKey }];
    });
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
function verdictOf(outcome, { sink, policy }) {
    const newIssues = outcome.read ? outcome.result.newIssues : undefined;
    return {
        key: (0,gate_outcome/* projectName */.j)(outcome),
        label: sink.text((0,gate_outcome/* projectName */.j)(outcome)),
        name: nameOf(outcome),
        failing: failing(outcome, policy),
        words: sink.text(statusWords(outcome, policy, sink)),
        dashboard: dashboardOf(outcome),
        findings: newIssues?.read ? (0,findings_finding/* bySeverity */.Np)(newIssues.findings) : [],
        figures: figuresOf(outcome, sink),
        say: (text) => sink.text(text)
    };
}
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
    return (0,untrusted_text/* oneLine */.TN)((0,gate_outcome/* projectName */.j)(outcome), untrusted_text/* QUOTE_LIMITS */.gJ.short);
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
        (0,errors/* quotedSaidOf */.Jm)(cause),
        (0,src_words/* msg */.ab) `Check ${platform.check}; the next run decorates again.`
    ], ' ');
}


/***/ }),

/***/ 1691:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   giteaPlatform: () => (/* binding */ giteaPlatform)
/* harmony export */ });
/* unused harmony export GITEA_LIMITS */
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(448);
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
 *   none: its comments stay as they are, said in one line).
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
        body: {
            state: verdict.failing ? 'failure' : 'success',
            context: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`sonarqube/${verdict.label}`, GITEA_LIMITS.statusChars),
            description: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(verdict.words, GITEA_LIMITS.statusChars),
            ...(verdict.dashboard ? { target_url: verdict.dashboard } : {})
        }
    });
}
function pullRequest(gitea, target, pull, issue) {
    // Forgejo and Gitea before 1.26 have no API to resolve a comment: found once, said once.
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
            list: (me) => reviewComments(gitea, pull, me),
            async start(comments) {
                await gitea.request('POST', `${pull}/reviews`, {
                    body: {
                        event: 'COMMENT',
                        body: `SonarQube: ${comments.length} new ${comments.length === 1 ? 'issue' : 'issues'} on the lines this pull request changes.`,
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
async function reviewComments(gitea, pull, me) {
    const reviews = [];
    for (let page = 1; page <= GITEA_LIMITS.reviewPages; page++) {
        const { body } = await gitea.request('GET', `${pull}/reviews`, {
            query: { page: String(page), limit: String(GITEA_LIMITS.perPage) }
        });
        const items = Array.isArray(body) ? body : [];
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


/***/ }),

/***/ 5062:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   GITHUB_API_LIMITS: () => (/* binding */ GITHUB_API_LIMITS),
/* harmony export */   GitHubApi: () => (/* binding */ GitHubApi),
/* harmony export */   apiBase: () => (/* binding */ apiBase),
/* harmony export */   githubSaid: () => (/* binding */ githubSaid),
/* harmony export */   isRateLimit: () => (/* binding */ isRateLimit),
/* harmony export */   isRefusal: () => (/* binding */ isRefusal),
/* harmony export */   statusOf: () => (/* binding */ statusOf)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(448);
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

/***/ 2875:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   GITHUB_LIMITS: () => (/* binding */ GITHUB_LIMITS),
/* harmony export */   accountId: () => (/* binding */ accountId),
/* harmony export */   githubPlatform: () => (/* binding */ githubPlatform),
/* harmony export */   listChangedLines: () => (/* binding */ listChangedLines),
/* harmony export */   ownAccount: () => (/* binding */ ownAccount)
/* harmony export */ });
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(448);
/* harmony import */ var _github_api_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(5062);


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
 * The GitHub repository and pull request `target` names, as a review platform.
 *
 * @example await decorate(githubPlatform(new GitHubApi({ token, apiUrl, clock, deadline }), target), outcomes, options)
 */
function githubPlatform(github, target) {
    const repository = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .forgeRepository */ ._C)(target);
    const number = target.pullRequest;
    return {
        words: {
            name: 'GitHub',
            status: 'commit status',
            comment: 'comment',
            check: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .msg */ .ab) `that ${target.names.api} is GitHub's REST API and that GitHub is up`
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.commit,
        setStatus: (verdict) => setStatus(github, repository, target.commit, verdict),
        review: number === undefined
            ? undefined
            : pullRequest(github, {
                repository,
                number,
                owner: target.owner,
                repo: target.repo,
                commit: target.commit
            }),
        noReview: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .msg */ .ab) `Not a pull request (no ${target.names.pullRequest}): the commit statuses are set, and no comment is written.`,
        close: () => github.close()
    };
}
/** The project's commit status: success or failure as the policy judges the gate. */
async function setStatus(github, repository, commit, verdict) {
    await github.request('POST', `${repository}/statuses/${encodeURIComponent(commit)}`, {
        body: {
            state: verdict.failing ? 'failure' : 'success',
            context: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .cut */ .Jj)(`sonarqube/${verdict.label}`, GITHUB_LIMITS.contextChars),
            description: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .cut */ .Jj)(verdict.words, GITHUB_LIMITS.descriptionChars),
            ...(verdict.dashboard ? { target_url: verdict.dashboard } : {})
        }
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
                    if ((0,_github_api_js__WEBPACK_IMPORTED_MODULE_1__.statusOf)(error) === 404 && !(0,_github_api_js__WEBPACK_IMPORTED_MODULE_1__.isRateLimit)(error))
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
                        body: `SonarQube: ${comments.length} new ${comments.length === 1 ? 'issue' : 'issues'} on the lines this pull request changes.`,
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
        if ((0,_github_api_js__WEBPACK_IMPORTED_MODULE_1__.statusOf)(error) !== 403)
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
            changed.set(filename, typeof patch === 'string' ? (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .addedLines */ .u4)(patch) : 'whole');
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
    const repository = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(`${target.owner}/${target.repo}`, _review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.short);
    if ((0,_github_api_js__WEBPACK_IMPORTED_MODULE_1__.isRateLimit)(error)) {
        return `${base} GitHub's API rate limit was reached (${error.status}): the next run decorates again.`;
    }
    switch (error.status) {
        case 401:
            return `${base} The token in GITHUB_TOKEN is not valid (401): give a personal access token, or a GitHub App's installation token.`;
        case 403:
            return `${base} The token in GITHUB_TOKEN may not write to ${repository} (403): a fine-grained token needs "Commit statuses" and "Pull requests" read and write; a classic token the repo scope; an installation token the statuses and pull_requests permissions.`;
        default:
            return (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_0__/* .msg */ .ab) `${base} GitHub shows this token no repository ${repository}${target.pullRequest === undefined ? '' : ` or pull request #${target.pullRequest}`} (404): check ${target.names.repository} and ${target.names.pullRequest}, and that the token may see the repository.`;
    }
}


/***/ }),

/***/ 4742:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   GitLabApi: () => (/* binding */ GitLabApi)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);

const GITLAB_LIMITS = {
    /** Items a page asks for: GitLab's maximum. */
    perPage: 100
};
/**
 * One GitLab instance's API for one run: the platform's REST policy (rest-api.ts) with GitLab's
 * token header and its pages.
 *
 * @example const gitlab = new GitLabApi({ apiUrl: new URL(env.CI_API_V4_URL), token, userAgent, clock, deadline })
 */
class GitLabApi {
    rest;
    constructor(options) {
        this.rest = new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .RestApi */ .RQ({
            ...options,
            platform: 'GitLab',
            headers: { 'PRIVATE-TOKEN': options.token },
            redirectAdvice: 'Set CI_API_V4_URL to the address GitLab answers at.'
        });
    }
    /** Ends the kept-alive connections. */
    close() {
        this.rest.close();
    }
    /**
     * `method` on `path` (relative to the API's address: `projects/7/statuses/<sha>`), with the
     * query and the JSON body given; tried again on 429 and 5xx while the time-out allows.
     */
    async request(method, path, options = {}) {
        const reply = await this.rest.request(method, path, options);
        return {
            status: reply.status,
            body: reply.body,
            nextPage: pageNumber(reply.header('x-next-page'))
        };
    }
    /**
     * The token's own user's id (`GET /user`): only what it wrote is ever edited or resolved.
     *
     * @example const me = await gitlab.ownUserId() // 77
     */
    async ownUserId() {
        const id = (await this.request('GET', 'user')).body;
        const me = id?.id;
        if (typeof me !== 'number' || !Number.isSafeInteger(me) || me < 1) {
            throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk("GitLab did not say who the token's user is.");
        }
        return me;
    }
    /**
     * The items of a listing, page by page (`per_page` 100, `x-next-page`), at most `maxPages`
     * pages; `complete` is false when GitLab has more.
     */
    async pages(path, query, maxPages) {
        const items = [];
        let page = 1;
        for (let read = 0; read < maxPages; read++) {
            const reply = await this.request('GET', path, {
                query: { ...query, per_page: String(GITLAB_LIMITS.perPage), page: String(page) }
            });
            if (!Array.isArray(reply.body)) {
                throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk(`GitLab's reply to GET ${path} is not a list.`);
            }
            items.push(...reply.body);
            if (reply.nextPage === undefined || reply.nextPage <= page)
                return { items, complete: true };
            page = reply.nextPage;
        }
        return { items, complete: false };
    }
}
/** `x-next-page`: a page number, or undefined (empty on the last page). */
function pageNumber(value) {
    return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : undefined;
}


/***/ }),

/***/ 5611:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.r(__webpack_exports__);
/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   GITLAB_LIMITS: () => (/* binding */ GITLAB_LIMITS),
/* harmony export */   gitlabPlatform: () => (/* binding */ gitlabPlatform)
/* harmony export */ });
/* harmony import */ var _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9837);
/* harmony import */ var _review_platform_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(448);
/**
 * GitLab as a review platform: per project a commit status on the commit, and on a merge request
 * the project's note (GitLab renders the same HTML blocks as GitHub) and discussions on the diff
 * for the new issues. Shapes from GitLab's REST documentation:
 * - commit statuses: `POST /projects/:id/statuses/:sha` (`state`, `name`, `target_url`,
 *   `description`, each text at most 255 characters; `pipeline_id`);
 * - notes: `GET`, `POST`, `PUT /projects/:id/merge_requests/:iid/notes[/:note_id]` (a body of at
 *   most 1,000,000 characters); the current user: `GET /user`;
 * - the merge request's `diff_refs` (`GET /projects/:id/merge_requests/:iid`) and its files'
 *   diffs (`GET .../diffs`, 15.7 and later, paged; before, `GET .../changes`);
 * - discussions: `GET`, `POST .../discussions` with a `position` (the `diff_refs` commits,
 *   `position_type` text, `old_path`, `new_path`, the `new_line` the merge request adds), and
 *   `PUT .../discussions/:id` with `resolved=true`.
 */


const GITLAB_LIMITS = {
    /** GitLab's limit on a note's body. */
    noteChars: 1_000_000,
    /** Pages of 100 notes, or discussions, read to find ours: 2,000. */
    notePages: 20,
    /** Pages of 100 files of a diff: 3,000 files. */
    diffPages: 30,
    /** GitLab's limit on a commit status's texts. */
    statusChars: 255
};
const SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/i;
/**
 * The GitLab project and merge request `target` names, as a review platform.
 *
 * @example await decorate(gitlabPlatform(api, target), outcomes, options)
 */
function gitlabPlatform(gitlab, target) {
    const project = `projects/${encodeURIComponent(target.projectId)}`;
    const iid = target.mergeRequestIid;
    return {
        words: {
            name: 'GitLab',
            status: 'commit status',
            comment: 'note',
            check: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `that ${target.names.api} is GitLab's REST API and that GitLab is up`
        },
        refusal: (error) => refusalWords(error, target),
        commit: target.sha,
        setStatus: (verdict) => setStatus(gitlab, project, target, verdict),
        review: iid === undefined
            ? undefined
            : mergeRequest(gitlab, `${project}/merge_requests/${encodeURIComponent(iid)}`, iid, target.sha),
        noReview: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `Not a merge-request pipeline (no ${target.names.mergeRequest}): the commit statuses are set, and no note is written.`,
        close: () => gitlab.close()
    };
}
/** The project's commit status: success or failed as the policy judges the gate. */
async function setStatus(gitlab, project, target, verdict) {
    const limit = GITLAB_LIMITS.statusChars;
    const pipeline = target.pipelineId;
    await gitlab.request('POST', `${project}/statuses/${encodeURIComponent(target.sha)}`, {
        body: {
            state: verdict.failing ? 'failed' : 'success',
            name: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(`sonarqube/${verdict.label}`, limit),
            description: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(verdict.words, limit),
            ...(verdict.dashboard && verdict.dashboard.length <= limit
                ? { target_url: verdict.dashboard }
                : {}),
            ...(pipeline && /^\d{1,20}$/.test(pipeline) ? { pipeline_id: Number(pipeline) } : {})
        }
    });
}
function mergeRequest(gitlab, path, iid, sha) {
    let diffRefs;
    const oldPaths = new Map();
    return {
        name: `merge request !${iid}`,
        kind: 'merge request',
        commit: sha,
        markup: 'html',
        ownIdentity: () => gitlab.ownUserId(),
        async changedLines() {
            const [changes, refs] = [
                await readChangedLines(gitlab, path, oldPaths),
                await readDiffRefs(gitlab, path)
            ];
            diffRefs = refs;
            return changes;
        },
        verdicts: {
            keyedBy: 'marker',
            async list() {
                const { items } = await gitlab.pages(`${path}/notes`, { sort: 'asc', order_by: 'created_at' }, GITLAB_LIMITS.notePages);
                return items.flatMap((item) => {
                    const { body, system, author } = (item ?? {});
                    const id = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(item);
                    return id === undefined || system === true || typeof body !== 'string'
                        ? []
                        : [{ id, body, author: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(author) }];
                });
            },
            async create(_verdict, body) {
                checkNote(body);
                const reply = await gitlab.request('POST', `${path}/notes`, { body: { body } });
                const id = (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(reply.body);
                if (id === undefined)
                    throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk('GitLab created the note but named no id.');
                return { id };
            },
            async update(note, body) {
                checkNote(body);
                await gitlab.request('PUT', `${path}/notes/${note.id}`, { body: { body } });
                return true;
            }
        },
        inline: {
            step: 'the discussions on the diff',
            started: 'discussions started on the diff',
            resolved: 'resolved',
            notReady: () => diffRefs
                ? undefined
                : `GitLab has not computed merge request !${iid}'s diff yet (no diff_refs): no discussions this run.`,
            list: () => discussions(gitlab, `${path}/discussions`),
            async start(comments) {
                for (const { file, line, body } of comments) {
                    await gitlab.request('POST', `${path}/discussions`, {
                        body: {
                            body,
                            position: {
                                position_type: 'text',
                                ...diffRefs,
                                old_path: oldPaths.get(file) ?? file,
                                new_path: file,
                                new_line: line
                            }
                        }
                    });
                }
            },
            async resolve({ id }) {
                await gitlab.request('PUT', `${path}/discussions/${encodeURIComponent(id)}`, {
                    body: { resolved: true }
                });
                return true;
            }
        }
    };
}
/** A note the API would refuse, refused before any request. */
function checkNote(body) {
    if (body.length > GITLAB_LIMITS.noteChars) {
        throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk(`The note has ${body.length} characters, more than GitLab's ${GITLAB_LIMITS.noteChars}.`);
    }
}
/** The discussions, page by page, each with its first note. */
async function discussions(gitlab, path) {
    const { items } = await gitlab.pages(path, {}, GITLAB_LIMITS.notePages);
    return items.flatMap((item) => {
        const { id, notes } = (item ?? {});
        const first = (Array.isArray(notes) ? notes[0] : undefined);
        if (typeof id !== 'string' || !/^[0-9a-f]{1,64}$/i.test(id))
            return [];
        return [
            {
                id,
                body: typeof first?.body === 'string' ? first.body : undefined,
                resolved: first?.resolved === true,
                author: (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .idOf */ .TH)(first?.author)
            }
        ];
    });
}
/**
 * The merge request's `diff_refs`, or undefined while GitLab has not filled them (they are
 * computed after the merge request opens).
 */
async function readDiffRefs(gitlab, path) {
    const { body } = await gitlab.request('GET', path);
    const refs = body?.diff_refs;
    const sha = (name) => {
        const value = refs?.[name];
        return typeof value === 'string' && SHA.test(value) ? value : undefined;
    };
    const [base, start, head] = [sha('base_sha'), sha('start_sha'), sha('head_sha')];
    return base && start && head ? { base_sha: base, start_sha: start, head_sha: head } : undefined;
}
/**
 * The lines the merge request adds, file by file: from `.../diffs`, or on a GitLab before 15.7
 * (which answers it 404) from `.../changes`. A file whose diff GitLab left out (too large,
 * collapsed) counts as changed throughout; a deleted file has no lines. Each renamed file's old
 * path goes into `oldPaths` (a discussion's position names both).
 */
async function readChangedLines(gitlab, path, oldPaths) {
    let files;
    try {
        files = (await gitlab.pages(`${path}/diffs`, {}, GITLAB_LIMITS.diffPages)).items;
    }
    catch (error) {
        if (!(error instanceof _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformRefusal */ .E2 && error.status === 404))
            throw error;
        const { body } = await gitlab.request('GET', `${path}/changes`);
        const changes = body?.changes;
        if (!Array.isArray(changes)) {
            throw new _http_rest_api_js__WEBPACK_IMPORTED_MODULE_0__/* .PlatformError */ .Wk('GitLab sent no changes for the merge request.');
        }
        files = changes;
    }
    const lines = new Map();
    for (const file of files) {
        const entry = (file ?? {});
        const path = entry['new_path'];
        if (typeof path !== 'string' || path === '' || entry['deleted_file'] === true)
            continue;
        const diff = entry['diff'];
        const left = entry['too_large'] === true || entry['collapsed'] === true;
        lines.set(path, typeof diff === 'string' && diff !== '' && !left ? (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .addedLines */ .u4)(diff) : 'whole');
        const old = entry['old_path'];
        if (typeof old === 'string' && old !== '' && old !== path)
            oldPaths.set(path, old);
    }
    return lines;
}
/** The one warning for a refusal: what the token or the merge request lacks. */
function refusalWords(error, target) {
    const where = `project ${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(target.projectId, _review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.short)}`;
    const base = 'GitLab refused the decoration; the verdict and the exit code are unchanged.';
    const { project, mergeRequest } = target.names;
    switch (error.status) {
        case 401:
            return `${base} The token in GITLAB_TOKEN is not valid (401): give a project or group access token with the api scope (CI_JOB_TOKEN may not write notes or statuses).`;
        case 403:
            return `${base} The token in GITLAB_TOKEN may not write to ${where} (403): it needs the api scope, and the Developer role to set commit statuses.`;
        default:
            return (0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .msg */ .ab) `${base} GitLab has no ${target.mergeRequestIid === undefined ? where : `merge request !${(0,_review_platform_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(target.mergeRequestIid, 40)} in ${where}`} for this token (404): check ${project} and ${mergeRequest}, and that the token's project or group is this one.`;
    }
}


/***/ }),

/***/ 448:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Jj: () => (/* reexport safe */ _untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__.Jj),
/* harmony export */   Pe: () => (/* reexport safe */ _words_js__WEBPACK_IMPORTED_MODULE_5__.Pe),
/* harmony export */   TH: () => (/* binding */ idOf),
/* harmony export */   TN: () => (/* reexport safe */ _untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__.TN),
/* harmony export */   _C: () => (/* binding */ forgeRepository),
/* harmony export */   ab: () => (/* reexport safe */ _words_js__WEBPACK_IMPORTED_MODULE_5__.ab),
/* harmony export */   fR: () => (/* reexport safe */ _findings_severity_scales_js__WEBPACK_IMPORTED_MODULE_3__.f),
/* harmony export */   gJ: () => (/* reexport safe */ _untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__.gJ),
/* harmony export */   sX: () => (/* binding */ digestId),
/* harmony export */   u4: () => (/* reexport safe */ _findings_changed_lines_js__WEBPACK_IMPORTED_MODULE_1__.u)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _findings_changed_lines_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(7424);
/* harmony import */ var _findings_finding_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(4879);
/* harmony import */ var _findings_severity_scales_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(487);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(5846);
/**
 * What a review platform is to the decoration: the one interface every platform under
 * `src/platforms/` implements, and everything a platform may use besides the HTTP layer. A
 * platform only moves what the driver (`decorate.ts`) hands it to its API and back: the driver
 * decides what is said (every body, status and report is rendered and passed through the sink
 * before a platform sees it), which comments are ours, what is written, started and resolved,
 * and that nothing a platform does changes the verdict or the exit code.
 *
 * To add a platform: a folder here with a `ReviewPlatform`, and one line in the driver's table
 * (`platform-table.ts`). docs/architecture.md says more.
 */






/**
 * The repository's address under a forge's API.
 *
 * @example forgeRepository({ owner: 'octo', repo: 'shop' }) // 'repos/octo/shop'
 */
function forgeRepository({ owner, repo }) {
    return `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
}
/**
 * A project's id on a platform that keys statuses and reports by one: `sonarqube-` and the key's
 * digest, so no key can break an address, and two keys never share one.
 *
 * @example digestId('shop') // 'sonarqube-5fa8a1…' (30 characters)
 */
function digestId(key, length = 20) {
    return `sonarqube-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(key).digest('hex').slice(0, length)}`;
}
/** An object's `id` when it is a positive whole number. */
function idOf(value) {
    const id = value?.id;
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}


/***/ }),

/***/ 2207:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   g: () => (/* binding */ analysisWarningText)
/* harmony export */ });
/* harmony import */ var _sonar_origin_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4305);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8521);


// A link as SonarQube writes it in a warning: <a href="https://docs…">the documentation</a>.
const LINK = /<a\s[^>]*?href="([^"]*)"[^>]*>([^<]*)<\/a>/gi;
const TAG = /<[^>]*>/g;
/**
 * A task warning as plain text on one line: its links become "text (address)", any other tag
 * is dropped, the result is cut to 1,000 characters and its control characters are shown as
 * escapes (a line break in it must not start a line of an annotation). The destination (log or
 * summary) escapes it for itself.
 *
 * @example analysisWarningText('see <a href="https://docs.example/x">the docs</a>.')
 * // 'see the docs (https://docs.example/x).'
 */
function analysisWarningText(warning) {
    // Cut first: the patterns then run over a bounded text.
    const text = (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(warning, 2 * _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.long)
        .replace(LINK, (_, href, words) => `${words} (${address(href)})`)
        .replace(TAG, '');
    return (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(text, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.long);
}
/** The link's address without credentials, or as written when it is not a full URL. */
function address(href) {
    try {
        return (0,_sonar_origin_js__WEBPACK_IMPORTED_MODULE_0__/* .shownUrl */ .zA)(new URL(href));
    }
    catch {
        return href;
    }
}


/***/ }),

/***/ 67:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   v: () => (/* binding */ dashboardAddress)
/* harmony export */ });
/** Longer addresses are left out rather than cut: a cut address leads nowhere. */
const MAX_ADDRESS_CHARS = 2000;
/**
 * The dashboard address as the log, the outputs and the summary may show it, or undefined when
 * it is not an http(s) address (a `javascript:` one, say) or too long to be real. A user name
 * or password in it is removed: no address with credentials is ever shown or linked.
 *
 * @example dashboardAddress('https://u:p@sonar.example.com/dashboard?id=a', 'https://sonar.example.com/')
 * // { href: 'https://sonar.example.com/dashboard?id=a', onServer: true }
 */
function dashboardAddress(address, serverUrl) {
    const url = parse(address);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
        return undefined;
    url.username = '';
    url.password = '';
    if (url.href.length > MAX_ADDRESS_CHARS)
        return undefined;
    return { href: url.href, onServer: url.origin === parse(serverUrl)?.origin };
}
function parse(address) {
    if (address === undefined || address.length > MAX_ADDRESS_CHARS)
        return undefined;
    try {
        return new URL(address);
    }
    catch {
        return undefined;
    }
}


/***/ }),

/***/ 3398:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   j: () => (/* binding */ evidenceUrl)
/* harmony export */ });
/* harmony import */ var _sonar_origin_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4305);
/* harmony import */ var _lookup_table_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4196);


/** Issue-count metrics and the issues page's filter that lists what they count. */
const ISSUE_FILTERS = (0,_lookup_table_js__WEBPACK_IMPORTED_MODULE_1__/* .lookupTable */ .z)({
    violations: {},
    blocker_violations: { severities: 'BLOCKER' },
    critical_violations: { severities: 'CRITICAL' },
    major_violations: { severities: 'MAJOR' },
    minor_violations: { severities: 'MINOR' },
    info_violations: { severities: 'INFO' },
    bugs: { types: 'BUG' },
    vulnerabilities: { types: 'VULNERABILITY' },
    code_smells: { types: 'CODE_SMELL' },
    software_quality_reliability_issues: { impactSoftwareQualities: 'RELIABILITY' },
    software_quality_security_issues: { impactSoftwareQualities: 'SECURITY' },
    software_quality_maintainability_issues: { impactSoftwareQualities: 'MAINTAINABILITY' },
    software_quality_blocker_issues: { impactSeverities: 'BLOCKER' },
    software_quality_high_issues: { impactSeverities: 'HIGH' }
});
/** Hotspot metrics: their page is the security hotspots'. */
const HOTSPOT_METRICS = new Set([
    'security_hotspots',
    'security_hotspots_reviewed',
    'security_review_rating'
]);
/**
 * The address of the condition's evidence, or undefined when the project is unknown.
 *
 * @example evidenceUrl(result, { metricKey: 'new_blocker_violations', … })
 * // 'https://sonar.example.com/project/issues?id=shop&resolved=false&inNewCodePeriod=true&severities=BLOCKER'
 */
function evidenceUrl(result, condition) {
    if (!result.projectKey)
        return undefined;
    const base = (0,_sonar_origin_js__WEBPACK_IMPORTED_MODULE_0__/* .serverBase */ .pT)(new URL(result.serverUrl));
    const onNewCode = condition.metricKey.startsWith('new_');
    const metric = onNewCode ? condition.metricKey.slice('new_'.length) : condition.metricKey;
    const query = new URLSearchParams({ id: result.projectKey });
    if (result.pullRequest)
        query.set('pullRequest', result.pullRequest);
    else if (result.branch)
        query.set('branch', result.branch);
    const filter = ISSUE_FILTERS[metric];
    if (filter) {
        query.set('resolved', 'false');
        if (onNewCode)
            query.set('inNewCodePeriod', 'true');
        for (const [name, value] of Object.entries(filter))
            query.set(name, value);
        return new URL(`project/issues?${query.toString()}`, base).href;
    }
    if (HOTSPOT_METRICS.has(metric)) {
        if (onNewCode)
            query.set('inNewCodePeriod', 'true');
        return new URL(`security_hotspots?${query.toString()}`, base).href;
    }
    query.set('metric', condition.metricKey);
    return new URL(`component_measures?${query.toString()}`, base).href;
}


/***/ }),

/***/ 6972:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   C: () => (/* binding */ fittedBlock)
/* harmony export */ });
/**
 * An HTML block (a list, a table) through the sink: `open`, the first `lines` that fit in
 * `limit`, the tail for the rest, `close`, each on its own line. The frame and the tail are
 * always written whole, however little room there is, so the block stays well-formed HTML: the
 * page's writer keeps the page's own bound.
 *
 * @example fittedBlock(sink, items, { open: '<ul>', close: '</ul>', tail: (n) => `<li>… and ${n} more</li>`, limit: 10_000 }).text
 */
function fittedBlock(sink, lines, options) {
    const { open, close, tail, more = 0, limit } = options;
    const own = (line) => `\n${line}`;
    const widestTail = tail && lines.length + more > 0 ? own(tail(lines.length + more)) : '';
    const frame = sink.size(sink.text(`${open}${widestTail}${own(close)}`));
    return sink.fit(lines.map(own), {
        head: open,
        foot: own(close),
        separator: '',
        ...(tail ? { tail: (leftOut) => own(tail(leftOut)) } : {}),
        more,
        limit: Math.max(limit, frame)
    });
}


/***/ }),

/***/ 8132:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   T2: () => (/* binding */ markdownForms),
/* harmony export */   jx: () => (/* binding */ MARKDOWN_MARKUP),
/* harmony export */   re: () => (/* binding */ hiddenLine),
/* harmony export */   xe: () => (/* binding */ HTML_MARKUP)
/* harmony export */ });
/* unused harmony export markdownText */
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8521);
/* harmony import */ var _no_references_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3282);
/* harmony import */ var _summary_text_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(2536);
/**
 * The markup a verdict is written in, for the platform that renders it: HTML blocks where
 * Markdown with raw HTML is rendered (GitHub's summary and comments, GitLab's notes), plain
 * Markdown where raw HTML is not (Bitbucket, Azure DevOps). One body is written once through a
 * Markup, never copied per platform; each Markup holds its platform's one gate for server text.
 */



/**
 * HTML blocks, one per line (see summary-text.ts for why): GitHub and GitLab render them, and
 * no Markdown happens inside.
 */
const HTML_MARKUP = {
    text: (value, max) => (0,_summary_text_js__WEBPACK_IMPORTED_MODULE_2__/* .summaryText */ .g5)(value, max),
    code: (value, max) => (0,_summary_text_js__WEBPACK_IMPORTED_MODULE_2__/* .summaryCode */ .gC)(value, max),
    link: (href, label) => `<a href="${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_2__/* .summaryAddress */ .hA)(href)}">${label}</a>`,
    strong: (label) => `<strong>${label}</strong>`,
    heading: (level, content) => `<h${level}>${content}</h${level}>`,
    paragraph: (lines) => `<p>${lines.join('<br>')}</p>`,
    list: { open: '<ul>', item: (content) => `<li>${content}</li>`, close: '</ul>' },
    hidden: (content) => `<!-- ${content} -->`,
    between: '\n'
};
/**
 * CommonMark, for platforms that render Markdown and no raw HTML: server text with every ASCII
 * punctuation character backslash-escaped (no emphasis, link, autolink, table, heading, HTML or
 * entity can start in it) and a word joiner where a mention, a reference or an address would
 * start once rendered (`withoutLinks`: these platforms link bare addresses); code spans fenced by more backticks
 * than the value holds; link targets in angle brackets, percent-encoded where they could end.
 * Blocks are separated by a blank line, as Markdown needs.
 */
const MARKDOWN_MARKUP = {
    text: (value, max) => markdownText(value, max),
    code: (value, max = _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.short) => codeSpan((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(value, max)),
    link: (href, label) => `[${label}](<${href.replace(/[<>\s]/g, encodeURIComponent)}>)`,
    strong: (label) => `**${label}**`,
    heading: (level, content) => `${'#'.repeat(level)} ${content}`,
    // A line break in CommonMark is a backslash at the end of the line.
    paragraph: (lines) => lines.join('\\\n'),
    list: { open: '', item: (content) => `- ${content}`, close: '' },
    // A link reference definition: defined, never shown.
    hidden: (content) => `[//]: # "${content}"`,
    between: '\n\n'
};
/**
 * What a hidden line of a body says, in either markup (`<!-- x -->` or `[//]: # "x"`), when line
 * `index` of `body` is one (a line end stored as CRLF counts as one): the one reader of the
 * markers and the verdict line that Markup.hidden writes.
 *
 * @example hiddenLine('[//]: # "verdict: failed"\n…', 0) // 'verdict: failed'
 */
function hiddenLine(body, index) {
    if (typeof body !== 'string')
        return undefined;
    const line = body.split('\n', index + 1)[index]?.replace(/\r$/, '');
    if (line === undefined)
        return undefined;
    return /^(?:<!-- ([^\s"][^"]*?) -->|\[\/\/\]: # "([^"]*)")$/.exec(line)?.slice(1).find(Boolean);
}
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;
/**
 * Markdown's one gate for server text: one line, cut to `max`, a word joiner where a mention, a
 * reference or an address would start (`withoutLinks`), every ASCII punctuation character
 * backslash-escaped.
 *
 * @example markdownText('*bold* [x](y)') // '\\*bold\\* \\[x\\]\\(y\\)'
 */
function markdownText(value, max = _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.short) {
    return (0,_no_references_js__WEBPACK_IMPORTED_MODULE_1__/* .withoutLinks */ .W_)((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(value, max)).replace(ASCII_PUNCTUATION, (character) => `\\${character}`);
}
/**
 * The forms secrets take once written through MARKDOWN_MARKUP (besides their own), for the sinks
 * of Markdown destinations.
 */
function markdownForms(secrets) {
    return [
        ...secrets,
        ...secrets.flatMap((secret) => [markdownText(secret, Infinity), codeSpan(secret)])
    ];
}
/** A code span whose fence is longer than any run of backticks inside; padded where needed. */
function codeSpan(text) {
    const runs = text.match(/`+/g) ?? [];
    const fence = '`'.repeat(Math.max(0, ...runs.map((run) => run.length)) + 1);
    const shown = text.replace(/@/g, `@${_no_references_js__WEBPACK_IMPORTED_MODULE_1__/* .WORD_JOINER */ .Pj}`);
    const pad = /^[`\s]|[`\s]$/.test(shown) || shown === '' ? ' ' : '';
    return `${fence}${pad}${shown}${pad}${fence}`;
}


/***/ }),

/***/ 9437:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $2: () => (/* binding */ fileLinkUnder),
/* harmony export */   J3: () => (/* binding */ SEVERITY_ICONS),
/* harmony export */   Qs: () => (/* binding */ newIssuesBlock)
/* harmony export */ });
/* harmony import */ var _findings_finding_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4879);
/* harmony import */ var _fitted_block_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6972);
/* harmony import */ var _markup_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8132);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8521);
/**
 * The "New issues" part of the job summary and the pull-request comment: how many there are by
 * severity, then the first ones, most severe first, each with its file and line (linked to the
 * file at the commit on GitHub when the action knows it) and its rule (linked to the issue on
 * the server's origin). HTML blocks, every server value through `summaryText`, every line
 * through the destination's sink.
 */




/**
 * The FileLink of a platform's file view at a commit: each path segment encoded, the line as
 * `#L<n>` (GitHub's and GitLab's anchor).
 *
 * @example fileLinkUnder('https://gitlab.example.com/shop/-/blob/0123abc')('src/a b.ts', 3) // 'https://gitlab.example.com/shop/-/blob/0123abc/src/a%20b.ts#L3'
 */
function fileLinkUnder(prefix) {
    return (file, line) => `${prefix}/${file.split('/').map(encodeURIComponent).join('/')}${line === undefined ? '' : `#L${line}`}`;
}
const SEVERITY_ICONS = {
    blocker: '🛑',
    high: '🔴',
    medium: '🟠',
    low: '🟡',
    info: '🔵'
};
/**
 * The block for one analysis, through `sink`, within `limit` (in the sink's unit) and at most
 * `listed` issues, in `markup` (HTML blocks by default); nothing when the issues were not asked
 * for (an unknown project).
 *
 * @example newIssuesBlock(result.newIssues, { sink, heading: 'h3', listed: 20, limit: 100_000 })
 */
function newIssuesBlock(newIssues, options) {
    const { sink, heading, listed, limit, fileLink, markup = _markup_js__WEBPACK_IMPORTED_MODULE_1__/* .HTML_MARKUP */ .xe } = options;
    const level = heading === 'h3' ? 3 : 4;
    if (!newIssues)
        return [];
    if (!newIssues.read) {
        return [
            markup.heading(level, 'New issues'),
            markup.paragraph([
                sink.say(newIssues.reason, (plain) => markup.text(plain, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long))
            ])
        ].map((line) => sink.text(line));
    }
    const { findings, total } = newIssues;
    const scope = options.scope ?? scopeWords(newIssues);
    const title = sink.text(markup.heading(level, `New issues: ${total}`));
    if (total === 0)
        return [title, sink.text(markup.paragraph([`No open issues ${scope}.`]))];
    const counts = (0,_findings_finding_js__WEBPACK_IMPORTED_MODULE_0__/* .countBySeverity */ .Ot)(findings);
    const bySeverityWords = _findings_finding_js__WEBPACK_IMPORTED_MODULE_0__/* .SEVERITY_ORDER */ .B.filter((severity) => counts[severity] > 0)
        .map((severity) => `${SEVERITY_ICONS[severity]} ${counts[severity]} ${severity}`)
        .join(' · ');
    const head = [title, sink.text(markup.paragraph([`Open issues ${scope}: ${bySeverityWords}`]))];
    const items = (0,_findings_finding_js__WEBPACK_IMPORTED_MODULE_0__/* .bySeverity */ .Np)(findings)
        .slice(0, listed)
        .map((finding) => markup.list.item(issueItem(finding, fileLink, markup)));
    const list = (0,_fitted_block_js__WEBPACK_IMPORTED_MODULE_3__/* .fittedBlock */ .C)(sink, items, {
        open: markup.list.open,
        close: markup.list.close,
        tail: (more) => markup.list.item(`… and ${more} more: see the server, the SARIF file or the check run`),
        more: total - items.length,
        // Every line of the block ends in a line feed, the list's last line too.
        limit: limit - sink.size(`${head.join('\n')}\n`) - 1
    });
    return [...head, list.text];
}
function scopeWords(newIssues) {
    if (newIssues.onLinesOf !== undefined) {
        return `in the new code, on the lines ${newIssues.onLinesOf} changes`;
    }
    return newIssues.scope.kind === 'pull-request' ? 'in the pull request' : 'in the new code';
}
/** One issue: its severity, its place (linked to the file at the commit), message and rule. */
function issueItem(finding, fileLink, markup) {
    const line = finding.region?.startLine;
    const place = finding.file ?? finding.serverPath;
    const placeText = place === undefined ? '' : `${place}${line === undefined ? '' : `:${line}`}`;
    const link = finding.file !== undefined ? fileLink?.(finding.file, line) : undefined;
    const code = markup.code(placeText, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long);
    const where = placeText === '' ? '' : `${link ? markup.link(link, code) : code} `;
    const rule = markup.text(finding.ruleName ?? finding.rule);
    return `${SEVERITY_ICONS[finding.severity]} ${where}${markup.text(finding.message, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long)} (${markup.link(finding.url, rule)})`;
}


/***/ }),

/***/ 3282:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Pj: () => (/* binding */ WORD_JOINER),
/* harmony export */   W_: () => (/* binding */ withoutLinks),
/* harmony export */   Xl: () => (/* binding */ withoutReferences)
/* harmony export */ });
/**
 * Why server text gets word joiners. The review platforms search a comment's text after it is
 * rendered (character references decoded, so `&#126;bug` is `~bug` again), outside `pre`, `code`,
 * `a` and `style` elements, and turn what they find into links: GitLab's reference filters
 * (lib/banzai/filter/references/) find `#1` and `GL-1` (issues), `!2` (merge requests), `~bug`
 * (labels), `%v1` (milestones), `&5` (epics), `$3` (snippets), `*iteration:`, `[vulnerability:1]`
 * and the other bracketed forms, `^alert#1`, `group/project>`, 7 to 64 hexadecimal digits
 * (commits, and `a...b` ranges), each also after another project's path (`group/project#1`),
 * and post "mentioned in" notes on what they link; its AutolinkFilter links every `scheme://…`
 * in the text. GitHub finds `#1`, `GH-1`, `owner/repo#1` and commit SHAs the same way, Bitbucket
 * `#1` and commits, Azure DevOps `#1` (work items) and `!1` (pull requests), and an external
 * issue tracker's keys (`JIRA-1`). Where a platform renders Markdown, its linkifier also turns
 * bare addresses into links (`www.…`, `evil.com`, `mail@evil.com`).
 *
 * A word joiner (U+2060: no width, no break) placed where each of these patterns needs a
 * particular character (after `#` before its digits, inside `://`, after every sixth digit of a
 * long hexadecimal run) leaves the text as it reads, and no pattern finds anything in it. Text in
 * code is never searched, so code keeps its characters as they are (a SHA copied from it works).
 */
/** U+2060 WORD JOINER: no width, no break, and not a character any reference is made of. */
const WORD_JOINER = '\u2060';
const J = WORD_JOINER;
/**
 * Where a reference needs the next character: a prefix and what follows it (GitLab's
 * `Issue.reference_pattern` and the others in app/models), the `-` of a tracker's key before its
 * digits, a project path before its `>`.
 */
const REFERENCE_STARTS = [
    // Issues, merge requests, epics and snippets: a prefix before digits.
    [/[#!&$](?=\d)/g, `$&${J}`],
    // Labels: `~1`, `~bug`, `~"a b"`; milestones: `%1`, `%v1.0`, `%"a b"` (a run that holds a word character).
    [/~(?=[\w\-?.&"])/g, `$&${J}`],
    [/%(?=[^\s"<]*[\p{L}\p{N}_]|")/gu, `$&${J}`],
    // `^alert#1`, `*iteration:1`, `[vulnerability:1]`, `[issue:1]`, `[[wiki]]`.
    [/[\^*](?=[A-Za-z])|\[(?=[A-Za-z[])/g, `$&${J}`],
    // Mentions: `@user`, `@group/team`, `@all`.
    [/@/g, `@${J}`],
    // An issue tracker's key: `GL-1`, `GH-1`, `JIRA-1`.
    [/(?<=\b[A-Z][A-Z0-9_]*-)(?=\d)/g, J],
    // A project: `group/project>`.
    [/(?<=[\w.-])>/g, `${J}>`],
    // An address: `scheme://…`, `www.…`.
    [/:(?=\/\/)/g, `:${J}`],
    [/\b(www)(?=\.)/gi, `$1${J}`]
];
/** Commits: 7 to 64 hexadecimal digits, alone or in a range `a...b`. */
const HEX_RUN = /[0-9a-fA-F]{7,}/g;
/**
 * `text` with a word joiner wherever a platform's reference or autolink filter, searching the
 * rendered text, would find a reference or an address: what an HTML body needs, where no
 * Markdown (and so no linkifier) runs.
 *
 * @example withoutReferences('see #1') // 'see #\u20601'
 */
function withoutReferences(text) {
    const split = text.replace(HEX_RUN, (run) => (run.match(/.{1,6}/g) ?? []).join(J));
    return REFERENCE_STARTS.reduce((done, [pattern, by]) => done.replace(pattern, by), split);
}
/**
 * What a Markdown linkifier finds in any text, besides the references: a scheme before its `:`
 * (`mailto:`, `https:`), an e-mail address, `//` (an address without its scheme), and a dot
 * before a letter (a domain's last label, which linkifiers check against the known top-level
 * domains).
 */
const LINK_STARTS = [
    [/:(?=[^\s\u2060])/g, `:${J}`],
    // An e-mail address: the character before its `@` is one of its name's.
    [/(?=@)/g, J],
    [/\/(?=\/)/g, `/${J}`],
    [/\.(?=\p{L})/gu, `.${J}`]
];
/**
 * `text` that no reference filter and no linkifier finds anything in once rendered: what a
 * Markdown body needs (markdown-it's linkify, commonmark-java's autolink, run on the rendered
 * text).
 *
 * @example withoutLinks('www.evil.com') // 'www\u2060.\u2060evil.\u2060com'
 */
function withoutLinks(text) {
    return LINK_STARTS.reduce((done, [pattern, by]) => done.replace(pattern, by), withoutReferences(text));
}


/***/ }),

/***/ 9996:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   I2: () => (/* binding */ commentBody),
/* harmony export */   JN: () => (/* binding */ commentVerdict),
/* harmony export */   dh: () => (/* binding */ COMMENT_WHEN),
/* harmony export */   he: () => (/* binding */ shouldWrite),
/* harmony export */   we: () => (/* binding */ markerOf)
/* harmony export */ });
/* unused harmony exports COMMENT_LIMITS, commentMarker, outcomeMarker, carriesMarker */
/* harmony import */ var _fail_policy_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6654);
/* harmony import */ var _gate_outcome_js__WEBPACK_IMPORTED_MODULE_9__ = __nccwpck_require__(5163);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8521);
/* harmony import */ var _dashboard_link_js__WEBPACK_IMPORTED_MODULE_11__ = __nccwpck_require__(67);
/* harmony import */ var _evidence_link_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(3398);
/* harmony import */ var _fitted_block_js__WEBPACK_IMPORTED_MODULE_10__ = __nccwpck_require__(6972);
/* harmony import */ var _new_issues_block_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(9437);
/* harmony import */ var _markup_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(8132);
/* harmony import */ var _summary_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(7994);
/* harmony import */ var _what_changed_block_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(563);
/* harmony import */ var _wording_js__WEBPACK_IMPORTED_MODULE_7__ = __nccwpck_require__(5594);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_8__ = __nccwpck_require__(5846);












/**
 * The pull-request comment of one project. GitHub renders a comment as it renders the job
 * summary (Markdown with raw HTML), so the comment is written the same way: HTML blocks with
 * every server value through `summaryText` (see summary-text.ts for why). Its first line is a
 * hidden marker naming the project, by which the next run finds the comment and updates it.
 */
/**
 * How large a comment may be. GitHub refuses a comment body over 65,536 characters: the
 * comment's sink counts UTF-16 units (never fewer than characters) within `githubChars`, and the
 * comment keeps under `chars` whatever the server sends.
 */
const COMMENT_LIMITS = {
    /** GitHub's own limit on a comment body: the comment sink's limit. */
    githubChars: 65_536,
    /** What commentBody aims for. */
    chars: 60_000,
    /** Conditions listed; past them (or past the room left) "… and N more". */
    conditions: 50,
    /** New issues listed, most severe first. */
    issues: 10,
    /** Characters of the project key or source the marker names. */
    markerKeyChars: _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.long
};
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
function commentMarker(projectKey, markup = _markup_js__WEBPACK_IMPORTED_MODULE_4__/* .HTML_MARKUP */ .xe) {
    const key = (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .wellFormed */ .ES)((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cut */ .Jj)(projectKey, COMMENT_LIMITS.markerKeyChars));
    return markup.hidden(`${MARKER_NAME}${encodeURIComponent(key)}`);
}
/**
 * The marker of an outcome's comment: its project key, or else where the analysis came from
 * (the report file, or the task or analysis asked for by its id), as the job summary names it.
 */
function outcomeMarker(outcome, markup = _markup_js__WEBPACK_IMPORTED_MODULE_4__/* .HTML_MARKUP */ .xe) {
    return commentMarker((0,_gate_outcome_js__WEBPACK_IMPORTED_MODULE_9__/* .projectName */ .j)(outcome), markup);
}
/**
 * The marker a comment's body carries: its first line when that is a marker, in either markup,
 * as commentBody writes it (a line end stored as CRLF counts as one); otherwise undefined. A
 * marker quoted further down (a reply quoting the comment, say) does not count.
 *
 * @example markerOf(commentBody(outcome, sha, { sink })) === outcomeMarker(outcome) // true
 */
function markerOf(body) {
    const said = (0,_markup_js__WEBPACK_IMPORTED_MODULE_4__/* .hiddenLine */ .re)(body, 0);
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
/** The values of CommentWhen, in the order the settings list them. */
const COMMENT_WHEN = ['always', 'failed', 'changed'];
/**
 * The verdict a comment on `outcome` says, under `policy`.
 *
 * @example commentVerdict(outcome, FAIL_ON_ERROR) // 'failed'
 */
function commentVerdict(outcome, policy = _fail_policy_js__WEBPACK_IMPORTED_MODULE_0__/* .FAIL_ON_ERROR */ .qJ) {
    if (!outcome.read)
        return 'unread';
    return (0,_fail_policy_js__WEBPACK_IMPORTED_MODULE_0__/* .failsUnder */ .mS)(outcome.result.status, policy) ? 'failed' : 'passed';
}
/** The comment's second line, hidden: the verdict it shows, for `changed`. */
function verdictLine(verdict, markup = _markup_js__WEBPACK_IMPORTED_MODULE_4__/* .HTML_MARKUP */ .xe) {
    return markup.hidden(`verdict: ${verdict}`);
}
/** The verdict an existing comment says on its second line, in either markup. */
function saidVerdict(existing) {
    return /^verdict: (passed|failed|unread)$/.exec((0,_markup_js__WEBPACK_IMPORTED_MODULE_4__/* .hiddenLine */ .re)(existing, 1) ?? '')?.[1];
}
/**
 * Whether to write the project's comment now, given the one found (its body) or none: `always`;
 * `failed` writes no new comment for a passing gate, but still updates one that exists (so it
 * never shows a failure that is gone); `changed` leaves the comment alone while its verdict is
 * the one it already says.
 *
 * @example shouldWrite('failed', 'passed', undefined) // false
 */
function shouldWrite(when, verdict, existing) {
    if (when === 'failed')
        return existing !== undefined || verdict !== 'passed';
    if (when === 'changed')
        return existing === undefined || saidVerdict(existing) !== verdict;
    return true;
}
/**
 * The comment for one project, as HTML blocks: the marker line, the verdict with its icon, the
 * failing (then warning) conditions in words, what changed, the new issues, a link to the
 * analysis when it is on the server's origin, and the commit it is for; for an analysis that
 * could not be read, the reason. Every server value goes through `summaryText`, and everything
 * through the comment's sink. Within `limit`.
 *
 * @example await github.request('POST', commentsPath, { body: { body: commentBody(outcome, sha, { sink }) } })
 */
function commentBody(outcome, commitSha, options) {
    const { sink, limit = Math.min(COMMENT_LIMITS.chars, sink.limit), markup = _markup_js__WEBPACK_IMPORTED_MODULE_4__/* .HTML_MARKUP */ .xe } = options;
    const said = (lines) => lines.map((line) => sink.text(line));
    const join = (lines) => `${lines.join(markup.between)}\n`;
    const size = (lines) => sink.size(join(lines));
    const marker = sink.text(outcomeMarker(outcome, markup));
    const verdict = verdictLine(commentVerdict(outcome, options.policy), markup);
    const project = markup.code((0,_gate_outcome_js__WEBPACK_IMPORTED_MODULE_9__/* .projectName */ .j)(outcome));
    const commit = `commit ${markup.code(shortSha(commitSha))}`;
    // The two hidden lines are the body's first two lines in every markup: one block.
    const hidden = `${marker}\n${verdict}`;
    const frame = { hidden, sink, limit, markup, join };
    if (!outcome.read) {
        const heading = sink.text(markup.heading(3, `❗ Quality Gate could not be read · ${project}`));
        const max = _summary_js__WEBPACK_IMPORTED_MODULE_5__/* .SUMMARY_LIMITS */ .QF.messageChars;
        const lines = (0,_words_js__WEBPACK_IMPORTED_MODULE_8__/* .linesOf */ .Dx)((0,_words_js__WEBPACK_IMPORTED_MODULE_8__/* .cutSaid */ .il)(outcome.message, max));
        const message = lines.map((line) => sink.say(line, (plain) => markup.text(plain, max)));
        return bounded([hidden, heading, ...said([markup.paragraph(message), markup.paragraph([`For ${commit}`])])], { ...frame, heading });
    }
    const { result } = outcome;
    const heading = sink.text(markup.heading(3, sink.text((0,_words_js__WEBPACK_IMPORTED_MODULE_8__/* .msg */ .ab) `${(0,_summary_js__WEBPACK_IMPORTED_MODULE_5__/* .headline */ .Pl)(result.status, options.policy, markup)} · ${project}`)));
    const facts = [
        `For ${commit}`,
        result.analysisId === undefined
            ? 'its newest analysis'
            : `analysis ${markup.code(result.analysisId)}`
    ];
    const tail = said([markup.paragraph([[...facts, ...dashboardLink(result, markup)].join(' · ')])]);
    const head = [hidden, heading, sink.text(conditionsIntro(result.conditions, markup))];
    // What changed keeps within a sixth of what is left, the issues within a third.
    const changed = (0,_what_changed_block_js__WEBPACK_IMPORTED_MODULE_6__/* .whatChangedBlock */ .a)(result, {
        sink,
        heading: 'h4',
        limit: Math.floor((limit - size([...head, ...tail])) / 6),
        markup
    });
    const issues = (0,_new_issues_block_js__WEBPACK_IMPORTED_MODULE_3__/* .newIssuesBlock */ .Qs)(result.newIssues, {
        sink,
        heading: 'h4',
        listed: COMMENT_LIMITS.issues,
        limit: Math.floor((limit - size([...head, ...changed, ...tail])) / 3),
        fileLink: options.fileLink,
        markup
    });
    const list = conditionsList(result, sink, limit - size([...head, ...changed, ...issues, ...tail]), markup);
    return bounded([...head, ...list, ...changed, ...issues, ...tail], { ...frame, heading });
}
const LISTED_ICONS = { ERROR: '❌', WARN: '⚠️' };
/** Failing conditions, then warning ones, each in the server's order. */
function listed(conditions) {
    const withStatus = (status) => conditions.filter(({ condition }) => condition.status === status);
    return [...withStatus('ERROR'), ...withStatus('WARN')];
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
    const all = listed(result.conditions);
    if (all.length === 0)
        return [];
    const items = all.slice(0, COMMENT_LIMITS.conditions).map((evaluated) => {
        const icon = LISTED_ICONS[evaluated.condition.status] ?? '';
        const words = markup.text((0,_wording_js__WEBPACK_IMPORTED_MODULE_7__/* .describeCondition */ .pu)(evaluated), _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.long);
        const evidence = (0,_evidence_link_js__WEBPACK_IMPORTED_MODULE_2__/* .evidenceUrl */ .j)(result, evaluated.condition);
        return markup.list.item(`${icon} ${evidence ? markup.link(evidence, words) : words}`);
    });
    const list = (0,_fitted_block_js__WEBPACK_IMPORTED_MODULE_10__/* .fittedBlock */ .C)(sink, items, {
        open: markup.list.open,
        close: markup.list.close,
        tail: (more) => markup.list.item(`… and ${more} more: see ${sink.text((0,_words_js__WEBPACK_IMPORTED_MODULE_8__/* .place */ .ik)('details'))} or the dashboard`),
        more: all.length - items.length,
        // The list's last line ends in a line feed too.
        limit: room - 1
    });
    return [list.text];
}
/** A link on the server's origin; another http(s) address as code; anything else left out. */
function dashboardLink(result, markup) {
    const dashboard = (0,_dashboard_link_js__WEBPACK_IMPORTED_MODULE_11__/* .dashboardAddress */ .v)(result.dashboardUrl, result.serverUrl);
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
 * The lines (each through the sink already) as one body, or, should they still exceed `limit`
 * (the parts are bounded: this keeps the limit a guarantee, not a sum to trust), the marker and
 * heading alone, cut to the limit should even they exceed it.
 */
function bounded(lines, frame) {
    const { sink, limit, join } = frame;
    const body = join(lines);
    if (sink.size(body) <= limit)
        return body;
    const tooLarge = sink.text(frame.markup.paragraph([
        `The verdict is too large to show here: see ${sink.text((0,_words_js__WEBPACK_IMPORTED_MODULE_8__/* .place */ .ik)('details'))}.`
    ]));
    return sink.fit([], {
        head: join([frame.hidden, frame.heading, tooLarge]),
        limit
    }).text;
}


/***/ }),

/***/ 2536:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   cy: () => (/* binding */ summaryForms),
/* harmony export */   g5: () => (/* binding */ summaryText),
/* harmony export */   gC: () => (/* binding */ summaryCode),
/* harmony export */   hA: () => (/* binding */ summaryAddress)
/* harmony export */ });
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8521);
/* harmony import */ var _no_references_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3282);


/**
 * Why the job summary is HTML. GitHub renders the summary file as Markdown, where any server
 * string could start a heading (after a lone CR), end a code span (a backtick), split a table
 * (a pipe), become a link (`[x](…)`, or a bare `https://…` autolinked) or carry raw HTML. So the
 * summary is written as HTML blocks (`<h2>`, `<p>`, `<table>`), as `@actions/core`'s own
 * `summary.addHeading` and `addTable` do: inside an HTML block GitHub does no Markdown and no
 * autolinking, and such a block ends only at a blank line, which no escaped value can hold. Each
 * server value reaches the summary only through `summaryText`, which also escapes the characters
 * of Markdown's inline syntax (emphasis, code, links, tables), so a value stays inert even if it
 * ever lands in a Markdown paragraph. Punctuation with no meaning mid-line (`. - : / % =`) stays
 * as it is: the summary's source remains readable.
 *
 * Why an `@` is followed by a word joiner. GitHub and GitLab find mentions (`@user`, `@org/team`,
 * `@all`) in the rendered text, after character references are decoded, so `&#64;user` still
 * notifies; both need a letter, digit, `_` or `.` right after the `@`. A word joiner (U+2060,
 * invisible, no width) there keeps a server's text from notifying anyone through a comment or a
 * note. The same goes for every other reference they find there (`#1`, `!2`, `~bug`, a commit's
 * SHA, `https://…`): see no-references.ts. Addresses in attributes (`href`) are not text and keep
 * their `@`: `summaryAddress`; text in code is not searched: `summaryCode`.
 */
/**
 * The one gate between server text and the job summary: the value on one line (control
 * characters shown as escapes such as `\r`), cut to `max` characters with an ellipsis, then
 * each of `< > & " ' [ ] ( ) | * _ \` ~ \` written as a decimal character reference
 * (`<` → `&#60;`), and a word joiner where a reference or an address would start
 * (`withoutReferences`).
 * Everything else stays as it is.
 *
 * @example summaryText('<img src=x>') // '&#60;img src&#61;x&#62;'
 */
function summaryText(value, max = _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.short) {
    return escapeHtml((0,_no_references_js__WEBPACK_IMPORTED_MODULE_1__/* .withoutReferences */ .Xl)((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(value, max)));
}
/**
 * Server text as code (`<code>…</code>`): escaped as `summaryText` escapes, a word joiner after
 * each `@`, and otherwise its characters as they are, since no platform looks for references
 * inside code (a SHA or a key copied from it is the server's).
 *
 * @example summaryCode('a<b') // '<code>a&#60;b</code>'
 */
function summaryCode(value, max = _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.short) {
    return `<code>${codeText(value, max)}</code>`;
}
function codeText(value, max) {
    return escapeHtml((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(value, max)).replace(/@/g, `@${_no_references_js__WEBPACK_IMPORTED_MODULE_1__/* .WORD_JOINER */ .Pj}`);
}
/**
 * An address for an HTML attribute (`href`): on one line, escaped as `summaryText` escapes, whole
 * (a cut address leads nowhere), its `@` kept, since an attribute is never searched for mentions.
 *
 * @example summaryAddress('https://sonar.example.com/dashboard?id=a&branch=b') // 'https://sonar.example.com/dashboard?id=a&#38;branch=b'
 */
function summaryAddress(address) {
    return escapeHtml((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(address, Infinity));
}
/**
 * The forms secrets take once written through `summaryText` (besides their own), for the sinks
 * of HTML destinations (`escapedForms`): a token echoed by the server is in the summary escaped.
 */
function summaryForms(secrets) {
    return [
        ...secrets,
        ...secrets.flatMap((secret) => [
            summaryText(secret, Infinity),
            codeText(secret, Infinity),
            summaryAddress(secret)
        ])
    ];
}
// HTML's special characters, and Markdown's inline syntax: emphasis, code spans, links, tables.
const PUNCTUATION = /[&<>"'`[\]()|*_~\\]/g;
function escapeHtml(text) {
    return text.replace(PUNCTUATION, (character) => `&#${character.charCodeAt(0)};`);
}


/***/ }),

/***/ 7994:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Br: () => (/* binding */ renderSummary),
/* harmony export */   Bv: () => (/* binding */ blocks),
/* harmony export */   Fr: () => (/* binding */ renderFailureSummary),
/* harmony export */   Pl: () => (/* binding */ headline),
/* harmony export */   QF: () => (/* binding */ SUMMARY_LIMITS),
/* harmony export */   ih: () => (/* binding */ isKnownStatus)
/* harmony export */ });
/* harmony import */ var _fail_policy_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6654);
/* harmony import */ var _gate_wait_for_task_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8648);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8521);
/* harmony import */ var _analysis_warning_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(2207);
/* harmony import */ var _evidence_link_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(3398);
/* harmony import */ var _fitted_block_js__WEBPACK_IMPORTED_MODULE_11__ = __nccwpck_require__(6972);
/* harmony import */ var _new_issues_block_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(9437);
/* harmony import */ var _dashboard_link_js__WEBPACK_IMPORTED_MODULE_12__ = __nccwpck_require__(67);
/* harmony import */ var _summary_text_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(2536);
/* harmony import */ var _markup_js__WEBPACK_IMPORTED_MODULE_7__ = __nccwpck_require__(8132);
/* harmony import */ var _what_changed_block_js__WEBPACK_IMPORTED_MODULE_8__ = __nccwpck_require__(563);
/* harmony import */ var _wording_js__WEBPACK_IMPORTED_MODULE_9__ = __nccwpck_require__(5594);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_10__ = __nccwpck_require__(5846);













/**
 * How much the summary and the messages show. GitHub refuses a step summary over 1 MiB: the
 * summary's sink is built with `bytes` (UTF-8), and the summary stays within it whatever the
 * server sends.
 */
const SUMMARY_LIMITS = {
    bytes: 1_000_000,
    /** Table rows; past them (or past the room left) "… and N more conditions". */
    rows: 100,
    /** Analysis warnings, in the summary and as annotations. */
    warnings: 20,
    /** Failing conditions listed in the failure message. */
    failuresListed: 20,
    /** Notices where the rule and the server disagree. */
    notices: 10,
    /** The message of a check that could not reach a verdict. */
    messageChars: 4000,
    /** New issues listed, most severe first; the rest are counted. */
    issuesListed: 20
};
const HEADLINES = {
    OK: '✅ Quality Gate passed',
    WARN: '⚠️ Quality Gate passed with warnings',
    ERROR: '❌ Quality Gate failed',
    NONE: '➖ No Quality Gate'
};
const STATUS_ICONS = { OK: '✅', WARN: '⚠️', ERROR: '❌' };
/** Failing conditions first, then warning ones, then the rest, each in the server's order. */
const STATUS_ORDER = { ERROR: 0, WARN: 1 };
/** Whether a server sends this status for a gate: OK, WARN, ERROR or NONE. */
const isKnownStatus = (status) => status in HEADLINES;
/**
 * The job summary, as HTML blocks (see summary-text.ts for why): verdict, one table row per
 * condition (failing ones first), what changed (coverage and duplication on new code, hotspots
 * to review), the new issues (counts and the first ones), analysis
 * warnings, dashboard link, analysis id and time taken. Every server value goes through
 * `summaryText`, and everything through the summary's sink; the dashboard is linked only when it
 * is an http(s) address on the server's origin. Within `limit`, the sink's limit by default.
 *
 * @example await summary.write(renderSummary(result, { sink: sinks.summary }))
 */
function renderSummary(result, options) {
    const { sink, section, limit = sink.limit, policy = _fail_policy_js__WEBPACK_IMPORTED_MODULE_0__/* .FAIL_ON_ERROR */ .qJ } = options;
    const [h, sub] = (section === undefined ? ['h2', 'h3'] : ['h3', 'h4']);
    const title = section === undefined ? '' : ` · ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(section)}`;
    const said = (lines) => lines.map((line) => sink.text(line));
    const size = (lines) => sink.size(blocks(lines));
    const head = said([
        (0,_words_js__WEBPACK_IMPORTED_MODULE_10__/* .msg */ .ab) `<${h}>${headline(result.status, policy)}${title}</${h}>`,
        `<p>${about(result)}</p>`,
        ...gateDetailsBlock(result)
    ]);
    const tail = [
        ...warningsBlock(result.taskWarnings, sub, sink, Math.floor(limit / 4)),
        ...said(dashboardBlock(result))
    ];
    const changed = (0,_what_changed_block_js__WEBPACK_IMPORTED_MODULE_8__/* .whatChangedBlock */ .a)(result, {
        sink,
        heading: sub,
        limit: Math.floor((limit - size([...head, ...tail])) / 6)
    });
    const issues = (0,_new_issues_block_js__WEBPACK_IMPORTED_MODULE_5__/* .newIssuesBlock */ .Qs)(result.newIssues, {
        sink,
        heading: sub,
        listed: SUMMARY_LIMITS.issuesListed,
        limit: Math.floor((limit - size([...head, ...changed, ...tail])) / 3),
        fileLink: options.fileLink
    });
    const table = conditionsBlock(result, sink, limit - size([...head, ...changed, ...issues, ...tail]));
    const summary = blocks([...head, ...table, ...changed, ...issues, ...tail]);
    // The parts are bounded; this guard keeps the limit a guarantee, not a sum to trust.
    if (sink.size(summary) <= limit)
        return summary;
    return blocks([head[0], '<p>The summary is too large to show: see the log.</p>']);
}
/**
 * The job summary of a check that could not reach a verdict: the message, line by line, cut to
 * 4,000 characters, every line through `summaryText`, the whole through the summary's sink.
 *
 * @example await summary.write(renderFailureSummary(error.message, sinks.summary))
 */
function renderFailureSummary(message, sink) {
    const max = SUMMARY_LIMITS.messageChars;
    const lines = (0,_words_js__WEBPACK_IMPORTED_MODULE_10__/* .linesOf */ .Dx)((0,_words_js__WEBPACK_IMPORTED_MODULE_10__/* .cutSaid */ .il)(message, max));
    const text = lines.map((line) => sink.say(line, (plain) => (0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(plain, max))).join('<br>');
    return sink.text(blocks(['<h2>❌ Quality Gate check failed</h2>', `<p>${text}</p>`]));
}
/**
 * The verdict in words with its icon, e.g. "✅ Quality Gate passed"; a WARN or NONE gate that
 * the policy fails on says so ("❌ Quality Gate failed: WARN, which policy names (ERROR,WARN)").
 */
function headline(status, policy = _fail_policy_js__WEBPACK_IMPORTED_MODULE_0__/* .FAIL_ON_ERROR */ .qJ, markup = _markup_js__WEBPACK_IMPORTED_MODULE_7__/* .HTML_MARKUP */ .xe) {
    if (status !== 'ERROR' && (0,_fail_policy_js__WEBPACK_IMPORTED_MODULE_0__/* .failsUnder */ .mS)(status, policy)) {
        const named = (0,_fail_policy_js__WEBPACK_IMPORTED_MODULE_0__/* .statusClass */ .hI)(status) === 'NONE' && status !== 'NONE' ? ' (as NONE)' : '';
        return (0,_words_js__WEBPACK_IMPORTED_MODULE_10__/* .msg */ .ab) `❌ Quality Gate failed: ${markup.text(status)}${named}, which ${(0,_words_js__WEBPACK_IMPORTED_MODULE_10__/* .setting */ .Pe)('failingStatuses')} names (${(0,_fail_policy_js__WEBPACK_IMPORTED_MODULE_0__/* .policyText */ .MJ)(policy)})`;
    }
    return (HEADLINES[status] ?? `❔ Unknown Quality Gate status ${markup.text(status)}: the check passes`);
}
function about(result) {
    const parts = [
        result.projectKey ? `Project ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryCode */ .gC)(result.projectKey)}` : undefined,
        result.pullRequest
            ? `pull request ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryCode */ .gC)(result.pullRequest)}`
            : result.branch
                ? `branch ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryCode */ .gC)(result.branch)}${branchKind(result.branchType)}`
                : undefined,
        `${result.analysisId === undefined ? 'its newest analysis' : `analysis ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryCode */ .gC)(result.analysisId)}`}${analysisWords(result)}`,
        result.taskId ? `task ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryCode */ .gC)(result.taskId)}` : undefined,
        result.gateFromMeasures
            ? `gate read from the ${result.pullRequest ? "pull request's" : "branch's"} measures (the server has no project_status)`
            : undefined,
        `checked in ${(0,_gate_wait_for_task_js__WEBPACK_IMPORTED_MODULE_1__/* .seconds */ .Y)(result.elapsedMs)}`
    ];
    return parts.filter(Boolean).join(' · ');
}
/**
 * Which analysis it is, when it was found by project: its commit and date, and whether a newer
 * one has landed since (its gate is then not the branch's latest).
 */
function analysisWords({ analysis }) {
    if (!analysis)
        return '';
    if (analysis.basis)
        return ` (${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(analysis.date)}: ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(analysis.basis)})`;
    const commit = analysis.revision
        ? `of commit ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryCode */ .gC)(analysis.revision.slice(0, 7))}`
        : 'of no recorded commit';
    const newer = analysis.newest ? '' : ', a newer one has landed since';
    return ` (${commit}, ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(analysis.date)}${newer})`;
}
/** The branch's type when it says more than "a branch": LONG or SHORT on old servers. */
function branchKind(branchType) {
    return branchType && branchType !== 'BRANCH' ? ` (${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(branchType)})` : '';
}
/**
 * What the gate reply says beside its conditions: the new code period, Clean as You Code
 * compliance, and conditions the server ignored.
 */
function gateDetailsBlock(result) {
    const lines = [
        result.period ? `New code: ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)((0,_wording_js__WEBPACK_IMPORTED_MODULE_9__/* .newCodeWords */ .vT)(result.period))}` : undefined,
        result.caycStatus
            ? `Clean as You Code: ${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)((0,_wording_js__WEBPACK_IMPORTED_MODULE_9__/* .caycWords */ .gw)(result.caycStatus))}`
            : undefined,
        result.ignoredConditions
            ? 'Some conditions on new code were ignored: the new code has too few lines to judge.'
            : undefined
    ].filter((line) => line !== undefined);
    return lines.length ? [`<p>${lines.join('<br>')}</p>`] : [];
}
const TABLE_HEAD = [
    '<table>',
    '<thead><tr><th>Metric</th><th>Status</th><th>Actual</th><th>Threshold</th></tr></thead>',
    '<tbody>'
].join('\n');
const TABLE_END = ['</tbody>', '</table>'].join('\n');
const moreConditions = (more) => `<p>… and ${more} more conditions: see the dashboard or the conditions output.</p>`;
/**
 * The conditions table: as many rows as `SUMMARY_LIMITS.rows` and `room` allow, then after the
 * table how many conditions it leaves out.
 */
function conditionsBlock(result, sink, room) {
    const { conditions } = result;
    if (conditions.length === 0) {
        return [sink.text('<p>The server returned no conditions for this analysis.</p>')];
    }
    const ordered = [...conditions].sort((a, b) => (STATUS_ORDER[a.condition.status] ?? 2) - (STATUS_ORDER[b.condition.status] ?? 2));
    const rows = ordered
        .slice(0, SUMMARY_LIMITS.rows)
        .map((evaluated) => tableRow(evaluated, (0,_evidence_link_js__WEBPACK_IMPORTED_MODULE_4__/* .evidenceUrl */ .j)(result, evaluated.condition)));
    // The note after the table is kept room for, as wide as it can be; each line ends in a line feed.
    const noteRoom = sink.size(sink.text(moreConditions(conditions.length))) + 1;
    const table = (0,_fitted_block_js__WEBPACK_IMPORTED_MODULE_11__/* .fittedBlock */ .C)(sink, rows, {
        open: TABLE_HEAD,
        close: TABLE_END,
        limit: room - noteRoom - 1
    });
    const more = conditions.length - table.shown;
    return [table.text, ...(more > 0 ? [sink.text(moreConditions(more))] : [])];
}
function tableRow({ condition }, evidence) {
    const { status, actualValue } = condition;
    const threshold = (0,_wording_js__WEBPACK_IMPORTED_MODULE_9__/* .thresholdWords */ .DH)(condition) ?? 'no threshold sent';
    const icon = STATUS_ICONS[status];
    const name = (0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)((0,_wording_js__WEBPACK_IMPORTED_MODULE_9__/* .metricName */ .Kh)(condition));
    const cells = [
        evidence ? `<a href="${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryAddress */ .hA)(evidence)}">${name}</a>` : name,
        `${icon ? `${icon} ` : ''}${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(status)}`,
        (0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)((0,_wording_js__WEBPACK_IMPORTED_MODULE_9__/* .formatValue */ .Fl)(condition, actualValue)),
        (0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)(threshold)
    ];
    return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}
/** The analysis warnings: the first `SUMMARY_LIMITS.warnings` that fit in `room`, then how many more. */
function warningsBlock(warnings, heading, sink, room) {
    if (warnings.length === 0)
        return [];
    const title = sink.text(`<${heading}>Analysis warnings</${heading}>`);
    const items = warnings
        .slice(0, SUMMARY_LIMITS.warnings)
        .map((warning) => `<li>${(0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryText */ .g5)((0,_analysis_warning_js__WEBPACK_IMPORTED_MODULE_3__/* .analysisWarningText */ .g)(warning), _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long)}</li>`);
    const list = (0,_fitted_block_js__WEBPACK_IMPORTED_MODULE_11__/* .fittedBlock */ .C)(sink, items, {
        open: '<ul>',
        close: '</ul>',
        tail: (more) => `<li>… and ${more} more</li>`,
        more: warnings.length - items.length,
        limit: room - sink.size(title) - 2
    });
    return [title, list.text];
}
/** A link on the server's origin; another http(s) address as text; anything else left out. */
function dashboardBlock(result) {
    const dashboard = (0,_dashboard_link_js__WEBPACK_IMPORTED_MODULE_12__/* .dashboardAddress */ .v)(result.dashboardUrl, result.serverUrl);
    if (!dashboard)
        return [];
    const address = (0,_summary_text_js__WEBPACK_IMPORTED_MODULE_6__/* .summaryAddress */ .hA)(dashboard.href);
    return dashboard.onServer
        ? [`<p><a href="${address}">See the analysis on the dashboard</a></p>`]
        : [`<p>Dashboard (not linked: not on the server's origin): <code>${address}</code></p>`];
}
/**
 * The blocks one per line, with no blank line between them: one HTML block for GitHub, which
 * ends at the blank line after it.
 */
function blocks(lines) {
    return `${lines.join('\n')}\n`;
}


/***/ }),

/***/ 563:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $: () => (/* binding */ hotspotUrl),
/* harmony export */   a: () => (/* binding */ whatChangedBlock)
/* harmony export */ });
/* harmony import */ var _gate_what_changed_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6400);
/* harmony import */ var _sonar_origin_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(4305);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8521);
/* harmony import */ var _fitted_block_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(6972);
/* harmony import */ var _markup_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8132);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(5846);






const PROBABILITY_ICONS = { HIGH: '🔴', MEDIUM: '🟠', LOW: '🟡' };
/**
 * The block for one analysis, through `sink`, within `limit` (in the sink's unit; the hotspots
 * listed are fitted to it); nothing when nothing was read (an unknown project).
 *
 * @example whatChangedBlock(result, { sink, heading: 'h3', limit: 20_000 })
 */
function whatChangedBlock(result, options) {
    const { whatChanged } = result;
    const { sink, heading, limit, markup = _markup_js__WEBPACK_IMPORTED_MODULE_3__/* .HTML_MARKUP */ .xe } = options;
    if (!whatChanged)
        return [];
    const head = [
        markup.heading(heading === 'h3' ? 3 : 4, 'What changed'),
        markup.paragraph(figureLines(whatChanged, result.pullRequest !== undefined, markup, sink))
    ].map((line) => sink.text(line));
    const { hotspots } = whatChanged;
    if ('unread' in hotspots) {
        return [
            ...head,
            sink.text(markup.paragraph([
                sink.say(hotspots.unread, (plain) => markup.text(plain, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long))
            ]))
        ];
    }
    const where = result.pullRequest !== undefined ? 'in the pull request' : 'in the new code';
    const count = sink.text(markup.paragraph([
        hotspots.total === 0
            ? `No security hotspots to review ${where}.`
            : `Security hotspots to review ${where}: ${hotspots.total}`
    ]));
    if (hotspots.hotspots.length === 0)
        return [...head, count];
    const items = hotspots.hotspots.map((hotspot) => markup.list.item(hotspotItem(hotspot, result, markup)));
    const list = (0,_fitted_block_js__WEBPACK_IMPORTED_MODULE_5__/* .fittedBlock */ .C)(sink, items, {
        open: markup.list.open,
        close: markup.list.close,
        tail: (more) => markup.list.item(`… and ${more} more: see the server's security hotspots`),
        more: hotspots.total - items.length,
        // Every line of the block ends in a line feed, the list's last line too.
        limit: limit - sink.size(`${[...head, count].join('\n')}\n`) - 1
    });
    return [...head, count, list.text];
}
/** Coverage, duplicated lines and the issue counts, one line each. */
function figureLines(changed, pullRequest, markup, sink) {
    const { newCode, target } = changed;
    if ('unread' in newCode)
        return [sink.say(newCode.unread, (plain) => markup.text(plain, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long))];
    const against = target && !('unread' in target) ? target : undefined;
    const lines = [
        `Coverage on new code: ${figure(newCode, against, 'coverage', markup)}`,
        `Duplicated lines on new code: ${figure(newCode, against, 'duplication', markup)}`
    ];
    if (target && 'unread' in target)
        lines.push(sink.say(target.unread, (plain) => markup.text(plain, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long)));
    const issues = changed.issues;
    if (issues) {
        const counts = [
            issues.accepted === undefined ? undefined : `${issues.accepted} accepted`,
            issues.fixed === undefined
                ? undefined
                : `${issues.fixed} fixed by this ${pullRequest ? 'pull request' : 'branch'}`
        ].filter((part) => part !== undefined);
        lines.push(`Issues: ${counts.join(' · ')}`);
    }
    return lines;
}
/**
 * One figure and, against a target branch, the target's overall figure and the difference:
 * "85.5% (main: 78.2% overall, +7.3 points)".
 */
function figure(newCode, target, which, markup) {
    const value = newCode[which];
    const own = value === undefined ? 'not computed' : (0,_gate_what_changed_js__WEBPACK_IMPORTED_MODULE_0__/* .percentWords */ .XU)(value);
    if (!target || 'unread' in target.figures)
        return own;
    const theirs = target.figures[which];
    if (theirs === undefined)
        return own;
    const difference = value === undefined ? '' : `, ${(0,_gate_what_changed_js__WEBPACK_IMPORTED_MODULE_0__/* .pointsWords */ .BD)(value - theirs)}`;
    return `${own} (${markup.code(target.branch)}: ${(0,_gate_what_changed_js__WEBPACK_IMPORTED_MODULE_0__/* .percentWords */ .XU)(theirs)} overall${difference})`;
}
function hotspotItem(hotspot, result, markup) {
    const icon = PROBABILITY_ICONS[hotspot.probability ?? ''] ?? '🔥';
    const place = hotspot.path === undefined
        ? ''
        : `${markup.code(`${hotspot.path}${hotspot.line === undefined ? '' : `:${hotspot.line}`}`, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long)} `;
    const link = markup.link(hotspotUrl(hotspot.key, result), 'review');
    return `${icon} ${place}${markup.text(hotspot.message, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_2__/* .QUOTE_LIMITS */ .gJ.long)} (${link})`;
}
/** The hotspot on the server's security hotspots page, in its branch or pull request. */
function hotspotUrl(key, result) {
    const query = new URLSearchParams({ id: result.projectKey ?? '', hotspots: key });
    if (result.pullRequest !== undefined)
        query.set('pullRequest', result.pullRequest);
    else if (result.branch !== undefined)
        query.set('branch', result.branch);
    return new URL(`security_hotspots?${query.toString()}`, (0,_sonar_origin_js__WEBPACK_IMPORTED_MODULE_1__/* .serverBase */ .pT)(new URL(result.serverUrl)))
        .href;
}


/***/ }),

/***/ 5594:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   DH: () => (/* binding */ thresholdWords),
/* harmony export */   Fl: () => (/* binding */ formatValue),
/* harmony export */   Kh: () => (/* binding */ metricName),
/* harmony export */   gw: () => (/* binding */ caycWords),
/* harmony export */   pu: () => (/* binding */ describeCondition),
/* harmony export */   vT: () => (/* binding */ newCodeWords)
/* harmony export */ });
/* unused harmony export comparatorWords */
/* harmony import */ var _sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(2474);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8521);
/* harmony import */ var _lookup_table_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(4196);



/**
 * Words for conditions. Every server value they quote (metric keys, values, comparators,
 * statuses) is one line of at most 200 characters, its control characters shown as escapes: our
 * messages have several lines, and a line break inside a server value must not start one of
 * them. Escaping for the destination is left to its gate (the log's `forTheLog`, the summary's
 * `summaryText`).
 */
/** A server value quoted in our words: one line, at most 200 characters. */
const quoted = (value) => (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .oneLine */ .TN)(value, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_1__/* .QUOTE_LIMITS */ .gJ.short);
/** The metric as a person reads it: `new_coverage` → "Coverage on New Code". */
function metricName(metric) {
    return describeMetric(metric).name;
}
function describeMetric(ref) {
    const { metricKey, metric: server } = typeof ref === 'string' ? { metricKey: ref, metric: undefined } : ref;
    const key = quoted(metricKey);
    const known = _sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__/* .KNOWN_METRICS */ .yX[key];
    if (known)
        return known;
    const base = key.startsWith(_sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__/* .NEW_CODE_PREFIX */ .G6)
        ? _sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__/* .KNOWN_METRICS */ .yX[key.slice(_sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__/* .NEW_CODE_PREFIX */ .G6.length)]
        : undefined;
    if (base)
        return { name: `${base.name} on New Code`, kind: base.kind };
    // The server's own name and type, for custom and newer metrics (software quality, MQR...).
    if (server)
        return { name: quoted(server.name), kind: _sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__/* .KIND_OF_TYPE */ .gE[server.type] ?? 'text' };
    if (key.startsWith(_sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__/* .NEW_CODE_PREFIX */ .G6)) {
        return {
            name: `${humanize(key.slice(_sonar_metrics_js__WEBPACK_IMPORTED_MODULE_0__/* .NEW_CODE_PREFIX */ .G6.length))} on New Code`,
            kind: guessKind(key)
        };
    }
    return { name: humanize(key), kind: guessKind(key) };
}
function guessKind(key) {
    if (key.endsWith('_rating'))
        return 'rating';
    if (key.endsWith('_density') || key.endsWith('_coverage') || key.endsWith('_ratio')) {
        return 'percent';
    }
    return 'count';
}
function humanize(key) {
    const words = key.replace(/_/g, ' ').trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
}
const RATING_LETTERS = ['A', 'B', 'C', 'D', 'E'];
/** A metric value as a person reads it: rating 3 → "C", 82.5056 → "82.51%". */
function formatValue(metric, value) {
    if (value === undefined || value === '')
        return '–';
    const number = Number(value);
    if (!Number.isFinite(number))
        return quoted(value);
    switch (describeMetric(metric).kind) {
        case 'rating':
            return RATING_LETTERS[Math.round(number) - 1] ?? quoted(value);
        case 'percent':
            return `${round(number)}%`;
        case 'minutes':
            return formatMinutes(number);
        case 'milliseconds':
            return number >= 1000 ? `${round(number / 1000)} s` : `${round(number)} ms`;
        case 'count':
            return String(round(number));
        case 'text':
            return quoted(value);
    }
}
function round(number) {
    return Math.round(number * 100) / 100;
}
function formatMinutes(total) {
    const hours = Math.floor(total / 60);
    const rest = Math.round(total % 60);
    return hours > 0 ? `${hours} h ${rest} min` : `${rest} min`;
}
/** How a comparator reads for a metric: ratings are worse or better, numbers greater or less. */
function comparatorWords(metric, comparator) {
    const isRating = describeMetric(metric).kind === 'rating';
    switch (comparator) {
        case 'GT':
            return isRating ? 'worse than' : 'greater than';
        case 'LT':
            return isRating ? 'better than' : 'less than';
        case 'EQ':
            return 'equal to';
        case 'NE':
            return 'not equal to';
        default:
            return comparator ? quoted(comparator) : 'compared with';
    }
}
/**
 * One condition in words, e.g. "Coverage on New Code is 82.51% (fails when less than 85%)", or,
 * without a threshold, "Open Issues is 17 (ERROR by the server, which sent no threshold)".
 */
function describeCondition({ condition }) {
    const { actualValue, status } = condition;
    const subject = `${metricName(condition)} is ${formatValue(condition, actualValue)}`;
    const threshold = thresholdWords(condition);
    if (threshold === undefined) {
        return `${subject} (${quoted(status)} by the server, which sent no threshold)`;
    }
    return `${subject} (${threshold})`;
}
/**
 * The condition's threshold in words: "fails when less than 85%", or, on old servers whose
 * condition only warns, "warns when greater than 3"; undefined when the server sent neither.
 */
function thresholdWords(condition) {
    const { comparator, errorThreshold, warningThreshold } = condition;
    const [verb, threshold] = errorThreshold !== undefined ? ['fails', errorThreshold] : ['warns', warningThreshold];
    if (threshold === undefined)
        return undefined;
    return `${verb} when ${comparatorWords(condition, comparator)} ${formatValue(condition, threshold)}`;
}
/**
 * What the server counts as new code, in words: `previous_version` → "since the previous
 * version", `days` 30 → "the last 30 days", `reference_branch` main → "compared with branch
 * main"; the date it starts from follows when the server gives it. Old servers write the modes
 * in capitals (PREVIOUS_VERSION, NUMBER_OF_DAYS...).
 *
 * @example newCodeWords({ mode: 'days', parameter: '30', date: undefined }) // 'the last 30 days'
 */
function newCodeWords(period) {
    const parameter = period.parameter ? quoted(period.parameter) : undefined;
    const words = (() => {
        switch (period.mode.toLowerCase()) {
            case 'previous_version':
                return 'since the previous version';
            case 'days':
            case 'number_of_days':
                return parameter ? `the last ${parameter} days` : 'the last days';
            case 'date':
            case 'specific_date':
                return 'since a date';
            case 'version':
                return parameter ? `since version ${parameter}` : 'since a version';
            case 'reference_branch':
                return parameter ? `compared with branch ${parameter}` : 'compared with a reference branch';
            case 'specific_analysis':
            case 'previous_analysis':
                return 'since an analysis';
            default:
                return quoted(period.mode);
        }
    })();
    return period.date ? `${words} (${quoted(period.date)})` : words;
}
const CAYC_WORDS = (0,_lookup_table_js__WEBPACK_IMPORTED_MODULE_2__/* .lookupTable */ .z)({
    compliant: 'compliant',
    'non-compliant': 'not compliant',
    'over-compliant': 'compliant, with conditions beyond it'
});
/** Clean as You Code compliance in words: `non-compliant` → "not compliant". */
function caycWords(status) {
    return CAYC_WORDS[status] ?? quoted(status);
}


/***/ }),

/***/ 7303:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Q: () => (/* binding */ shortShas),
/* harmony export */   T: () => (/* binding */ takeRunScope)
/* harmony export */ });
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8521);

/**
 * The settings with the run's scope taken, and one line of the log that says which analysis
 * will be checked and who said so (`request`: what the platform calls a pull request).
 *
 * @example settings = takeRunScope(settings, { pullRequest: '42', commits: [sha], from: 'GitLab CI' }, log, 'merge request')
 */
function takeRunScope(settings, run, log, request = 'pull request') {
    const where = run.pullRequest !== undefined
        ? ` on ${request} ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(run.pullRequest)}`
        : run.branch !== undefined
            ? ` on branch ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(run.branch)}`
            : '';
    // A pull request's analyses record no commit the server shows: its newest is the one.
    const which = run.pullRequest !== undefined
        ? `the newest analysis${where}${run.since ? ` made after ${run.since.what}` : ''}`
        : run.commits.length > 0
            ? `the analysis of ${shortShas(run.commits)}${where}`
            : `the newest analysis${where || ' of the main branch'}`;
    log.info(`Checking ${which}, as ${run.from} says.`);
    return {
        ...settings,
        branch: run.branch,
        pullRequest: run.pullRequest,
        commits: run.commits,
        ...(run.since ? { since: run.since } : {})
    };
}
/** Commits as the log shows them: `abc1234`, or `abc1234 or def5678`. */
function shortShas(commits) {
    return commits.map((sha) => sha.slice(0, 7)).join(' or ');
}


/***/ }),

/***/ 7194:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Eg: () => (/* binding */ jsonForms),
/* harmony export */   fp: () => (/* binding */ redactSecrets),
/* harmony export */   oI: () => (/* binding */ shortTokenWarning),
/* harmony export */   py: () => (/* binding */ tokenForms),
/* harmony export */   tB: () => (/* binding */ basicAuth)
/* harmony export */ });
/* unused harmony export REDACTED */
/** What a secret becomes where it is removed. */
const REDACTED = '***';
/** `Basic base64(token + ':')`: the token as user name with an empty password. */
function basicAuth(token) {
    return `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
}
/**
 * The shortest token hidden in the log and the files. Sonar's tokens are 40 characters or more;
 * hiding a shorter text would hide every occurrence of it ("Comple***ity" for a token "x"),
 * while a text that short protects nothing.
 */
const MIN_SECRET_LENGTH = 8;
/**
 * Every form of the token that could reach a log, the job summary or an output: itself, the
 * Basic auth header, its base64 part, its URL-encoded form and its form inside a JSON string.
 * The runner masks each of these in the log; `redactSecrets` removes them everywhere else. None
 * for a token shorter than MIN_SECRET_LENGTH (see shortTokenWarning).
 */
function tokenForms(token) {
    if (token.length < MIN_SECRET_LENGTH)
        return [];
    const header = basicAuth(token);
    const forms = [
        token,
        header,
        header.slice('Basic '.length),
        encodeURIComponent(token),
        JSON.stringify(token).slice(1, -1)
    ];
    return [...new Set(forms)];
}
/**
 * The forms secrets take once written inside a JSON string (besides their own), for a JSON
 * destination's sink: a form of the token that is itself quoted in JSON is escaped once more.
 *
 * @example jsonForms(['a"b']) // ['a"b', 'a\\"b']
 */
function jsonForms(secrets) {
    return [...new Set([...secrets, ...secrets.map((secret) => JSON.stringify(secret).slice(1, -1))])];
}
/**
 * `text` with every occurrence of every secret replaced by `***`, longest secret first (so a
 * secret inside a longer one leaves nothing of the longer one). The runner masks the log, not
 * the job summary or the output file: everything written there goes through this.
 *
 * @example redactSecrets('echoed squ_abc', tokenForms('squ_abc')) // 'echoed ***'
 */
function redactSecrets(text, secrets) {
    const longestFirst = secrets.filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
    return longestFirst.reduce((redacted, secret) => redacted.replaceAll(secret, REDACTED), text);
}
/**
 * The warning for a token too short to be one of Sonar's, or undefined. It never quotes the
 * token: it says how long it is and what to check.
 *
 * @example shortTokenWarning('x') // 'SONAR_TOKEN is 1 character long: …'
 */
function shortTokenWarning(token) {
    if (token.length >= MIN_SECRET_LENGTH)
        return undefined;
    const length = `${token.length} ${token.length === 1 ? 'character' : 'characters'}`;
    return `SONAR_TOKEN is ${length} long, too short to be a Sonar token (those are 40 characters or more): it is not hidden in the log, as hiding it would hide every occurrence of those characters. Check the secret it comes from.`;
}


/***/ }),

/***/ 8750:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Bl: () => (/* binding */ MAX_BRANCH_LENGTH),
/* harmony export */   Q8: () => (/* binding */ isBranchName),
/* harmony export */   Wf: () => (/* binding */ isFullSha),
/* harmony export */   cM: () => (/* binding */ runStart),
/* harmony export */   sO: () => (/* binding */ withVariables),
/* harmony export */   sb: () => (/* binding */ readSettings),
/* harmony export */   zY: () => (/* binding */ DEFAULTS)
/* harmony export */ });
/* unused harmony exports LIMITS, fileSetting, booleanSetting */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3916);
/* harmony import */ var _fail_policy_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6654);
/* harmony import */ var _identifier_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8360);
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(8521);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(5846);





/**
 * A RunStart from a timestamp the platform gave (ISO 8601), or undefined when it is not one.
 *
 * @example runStart('2026-11-24T10:00:03Z', "the pipeline's creation") // { at: 1795514403000, what: ... }
 */
function runStart(value, what) {
    if (typeof value !== 'string' || value.length > 40)
        return undefined;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
        return undefined;
    }
    const at = Date.parse(value);
    return Number.isFinite(at) ? { at, what } : undefined;
}
const DEFAULTS = {
    timeout: 60,
    initialDelay: 3000,
    interval: 1000,
    failStep: true
};
/** The most lines the report files may have (each a path or a glob). */
const MAX_REPORT_PATTERNS = 100;
/** The most projects one step checks by key (as many analyses as report files may give). */
const MAX_PROJECTS = 50;
/** The longest branch or pull-request name taken (the server keys them in 255 characters). */
const MAX_BRANCH_LENGTH = 255;
/**
 * Whether `text` is a full commit id, as scanners record it: 40 hex digits (SHA-1) or 64
 * (SHA-256), in either case.
 *
 * @example isFullSha('be6c75b85da526349c44e3978374c95e0b80a96d') // true
 */
function isFullSha(text) {
    return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(text);
}
/**
 * Whether `name` can be a branch or pull request as the server keys it: at most
 * MAX_BRANCH_LENGTH characters, no control, format or line-separating character.
 */
function isBranchName(name) {
    return (name !== '' && name.length <= MAX_BRANCH_LENGTH && !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name));
}
/**
 * The longest wait any setting may ask for: 5 days, the longest a job on a self-hosted runner
 * may run (GitHub-hosted jobs stop at 6 hours). Anything longer is a typo, and a timer past
 * 2^31 ms would overflow in Node and fire at once, turning the poll loop hot. The time-out is in
 * seconds, the waits in milliseconds.
 */
const LIMITS = {
    timeout: 432_000,
    initialDelay: 432_000_000,
    interval: 432_000_000
};
/**
 * `raw` with each setting that was not given taken from its environment variable, when the
 * edge's names give it one (SONAR_TOKEN, SONAR_HOST_URL, SONAR_ROOT_CERT…). A value given wins.
 *
 * @example withVariables({ host: '' }, ACTION_NAMES, { SONAR_HOST_URL: 'https://sonar.example' }) // { host: 'https://sonar.example' }
 */
function withVariables(raw, names, env) {
    const filled = { ...raw };
    for (const key of _words_js__WEBPACK_IMPORTED_MODULE_4__/* .SETTING_KEYS */ .GS) {
        const variable = names.settings[key].variable;
        if (variable && !raw[key]?.trim() && env[variable]?.trim())
            filled[key] = env[variable];
    }
    return filled;
}
/**
 * Turns the settings' text into Settings, or throws a SettingsError naming the setting that is
 * wrong (by key: each edge says it in its own words). Defaults apply here: the bundle may run
 * without the runner filling in action.yml's defaults.
 *
 * @example readSettings(withVariables({ timeout: '120' }, ACTION_NAMES, process.env))
 */
function readSettings(raw) {
    const text = (key) => raw[key]?.trim() || undefined;
    const hostUrl = optionalUrl(text('host'));
    const rootCert = optionalCertificate(text('rootCert'));
    const taskId = optionalId('task', text('task'));
    const analysisId = optionalId('analysis', text('analysis'));
    if (taskId && analysisId) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingsTitle */ .uj)('task')} and ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)('analysis')} are both set: set one of them (${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)('analysis')} skips the task).`);
    }
    const projectKeys = projectKeyLines(raw.project ?? '');
    const reportFiles = reportPatterns(raw.reportFile ?? '');
    const chosen = { task: taskId, analysis: analysisId, project: projectKeys.length > 0 };
    for (const key of ['task', 'analysis', 'project']) {
        if (chosen[key] && !hostUrl) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)(key)} needs the server address: set ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .theSetting */ .w7)('host')} or the SONAR_HOST_URL environment variable.`);
        }
    }
    if (chosen.project) {
        const other = taskId
            ? 'task'
            : analysisId
                ? 'analysis'
                : reportFiles.length > 0
                    ? 'reportFile'
                    : undefined;
        if (other) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingsTitle */ .uj)('project')} and ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)(other)} are both set: give the projects whose analyses to check, or ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)(other)}, not both.`);
        }
    }
    const branch = nameSetting('branch', text('branch'));
    const pullRequest = nameSetting('pullRequest', text('pullRequest'));
    const commits = commitSetting(text('commit'));
    if (branch && pullRequest) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingsTitle */ .uj)('branch')} and ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)('pullRequest')} are both set: an analysis is of a branch or of a pull request; give one.`);
    }
    for (const key of ['branch', 'pullRequest', 'commit']) {
        if (text(key) && !chosen.project) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)(key)} is set without ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)('project')}: it says which analysis of a project to check; give ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)('project')} too.`);
        }
    }
    return {
        reportFiles,
        // Trimmed like every setting: a secret pasted with a trailing newline still works.
        token: text('token'),
        hostUrl,
        rootCert,
        timeoutMs: integer(raw, 'timeout', { min: 1 }) * 1000,
        initialWaitMs: integer(raw, 'initialDelay', { min: 0 }),
        intervalMs: integer(raw, 'interval', { min: 1 }),
        adaptivePolling: !raw.interval?.trim(),
        failStep: booleanSetting(raw, 'failStep', DEFAULTS.failStep),
        policy: failPolicy(raw.failingStatuses ?? ''),
        taskId,
        analysisId,
        projectKeys,
        branch,
        pullRequest,
        commits
    };
}
/** The project keys, one per line: each a key the server could have made. */
function projectKeyLines(raw) {
    const keys = raw
        .split(/\r\n|\r|\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
    if (keys.length > MAX_PROJECTS) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('project')} has ${keys.length} lines: give at most ${MAX_PROJECTS} project keys, one per line.`);
    }
    for (const key of keys) {
        const problem = (0,_identifier_js__WEBPACK_IMPORTED_MODULE_2__/* .idProblem */ .l)(key);
        if (problem) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('project')} has the line "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(key)}", which ${problem}: give the project's key as the server shows it (Project Information), one per line.`);
        }
    }
    return [...new Set(keys)];
}
/** A branch or pull-request name: one line, no control or invisible character. */
function nameSetting(key, value) {
    if (value === undefined)
        return undefined;
    if (!isBranchName(value)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)(key)} is "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(value)}": give the ${key === 'branch' ? 'branch' : 'pull request'} as the server names it (at most ${MAX_BRANCH_LENGTH} characters, no control characters)${key === 'pullRequest' ? ", GitHub's number for a pull request" : ''}.`);
    }
    return value;
}
/**
 * The commit whose analysis to wait for: a full SHA-1 or SHA-256, as scanners record it. An
 * abbreviated one cannot be told apart from another's start, so it is refused, never guessed.
 */
function commitSetting(value) {
    if (value === undefined)
        return [];
    const shas = value
        .split(/[,\s]+/)
        .filter((sha) => sha !== '')
        .map((sha) => sha.toLowerCase());
    for (const sha of shas) {
        if (!isFullSha(sha)) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('commit')} is "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(value)}": give the full commit SHA (40 hexadecimal characters, as git rev-parse HEAD prints it); an abbreviated one could match another commit's analysis.`);
        }
    }
    if (shas.length > 2) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('commit')} has ${shas.length} commits: give one (or a pull request's head and merge commits).`);
    }
    return [...new Set(shas)];
}
/**
 * A file to write, relative to the working directory: one line, no control characters;
 * undefined when not given.
 */
function fileSetting(raw, key) {
    const value = raw[key]?.trim();
    if (!value)
        return undefined;
    // eslint-disable-next-line no-control-regex
    if (value.length > 1000 || /[\u0000-\u001f\u007f]/.test(value)) {
        throw new SettingsError(msg `${settingTitle(key)} "${oneLine(value)}" is not a file path: give one path, relative to the working directory, e.g. sonar-issues.sarif.`);
    }
    return value;
}
/** `true` or `false` in any case; `fallback` when not given. */
function booleanSetting(raw, key, fallback) {
    const value = (raw[key] ?? '').trim().toLowerCase();
    if (value === '')
        return fallback;
    if (value === 'true')
        return true;
    if (value === 'false')
        return false;
    throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)(key)} is "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(value)}": it must be true or false.`);
}
/** The input's non-empty lines, each trimmed: paths or globs of report files. */
function reportPatterns(raw) {
    const lines = raw
        .split(/\r\n|\r|\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
    if (lines.length > MAX_REPORT_PATTERNS) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('reportFile')} has ${lines.length} lines: give at most ${MAX_REPORT_PATTERNS} paths or globs (one glob such as **/report-task.txt finds every analysis in the workspace).`);
    }
    for (const line of lines) {
        const problem = patternProblem(line);
        if (problem) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('reportFile')} has the line "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(line)}": ${problem}. Give paths or globs of report-task.txt files relative to the working directory, one per line.`);
        }
    }
    return lines;
}
/** Why a report path or glob cannot be used, or undefined. */
function patternProblem(line) {
    if (line.length > 1000)
        return 'it is longer than 1,000 characters';
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(line))
        return 'it holds a control character';
    if (line.startsWith('!'))
        return 'exclusions (!) are not supported';
    return undefined;
}
function optionalUrl(value) {
    if (value === undefined)
        return undefined;
    const host = (0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingWithVariable */ .XI)('host');
    let url;
    try {
        url = new URL(value);
    }
    catch {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${host} "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .hideCredentials */ .RW)(value))}" is not a URL: give the server's address, e.g. https://sonarcloud.io or https://sonar.example.com.`);
    }
    if (url.username || url.password) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${host} must not contain credentials: pass the token in ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingOrVariable */ .Od)('token')}.`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${host} must start with https:// or http://, not ${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(url.protocol)}//.`);
    }
    // API paths are appended to the address: a query or fragment would end up in the middle.
    // The value is not quoted: a query is where a token pasted by mistake would be.
    if (/[?#]/.test(url.href)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${host} must not have a query (?...) or a fragment (#...): give the server's address only, e.g. https://sonar.example.com or https://sonar.example.com/sonar.`);
    }
    return url;
}
function optionalCertificate(value) {
    if (value === undefined)
        return undefined;
    if (!value.includes('-----BEGIN CERTIFICATE-----')) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingWithVariable */ .XI)('rootCert')} is not a PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (the CA certificate itself, not a file path).`);
    }
    return value;
}
function optionalId(key, value) {
    if (value === undefined)
        return undefined;
    const problem = (0,_identifier_js__WEBPACK_IMPORTED_MODULE_2__/* .idProblem */ .l)(value);
    if (problem) {
        const where = key === 'task'
            ? 'the ceTaskId of report-task.txt, or the id of the task on the server'
            : "the analysisId of a finished task (the server's api/ce/task answer)";
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)(key)} "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(value)}" ${problem}: give ${where}.`);
    }
    return value;
}
/**
 * The statuses that fail the step: ERROR, WARN and NONE, separated by commas or lines, in any
 * case; empty: ERROR alone. ERROR must be among them: a policy without it would let a failed
 * gate pass, which is what failStep false says plainly.
 */
function failPolicy(raw) {
    const words = raw
        .split(/[,\r\n]/)
        .map((word) => word.trim())
        .filter((word) => word !== '');
    if (words.length === 0)
        return _fail_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .FAIL_ON_ERROR */ .qJ;
    const allowed = _fail_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .FAILING_STATUSES */ .yV.join(', ');
    for (const word of words) {
        if (!_fail_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .FAILING_STATUSES */ .yV.includes(word.toUpperCase())) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('failingStatuses')} has "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(word, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .QUOTE_LIMITS */ .gJ.short)}": give the gate statuses that fail the step, separated by commas, from ${allowed} (NONE: a project without a gate, or a status no server sends); default ERROR.`);
        }
    }
    const policy = new Set(words.map((word) => word.toUpperCase()));
    if (!policy.has('ERROR')) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)('failingStatuses')} is "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(raw.trim(), _untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .QUOTE_LIMITS */ .gJ.short)}": it must include ERROR, or a failed gate would pass (e.g. ERROR,WARN). To report a failed gate without failing, see ${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .setting */ .Pe)('failStep')}.`);
    }
    return policy;
}
/** A whole number between `min` and its limit; its default when not given. */
function integer(raw, key, { min }) {
    const value = (raw[key] ?? '').trim();
    const [fallback, max] = [DEFAULTS[key], LIMITS[key]];
    if (value === '')
        return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .SettingsError */ .GN((0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .msg */ .ab) `${(0,_words_js__WEBPACK_IMPORTED_MODULE_4__/* .settingTitle */ .h3)(key)} is "${(0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_3__/* .oneLine */ .TN)(value)}": it must be a whole number from ${min} to ${max} (at most 5 days, the longest a job may run on a self-hosted runner); default ${fallback}.`);
    }
    return Number(value);
}


/***/ }),

/***/ 808:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ createSink)
/* harmony export */ });
/* harmony import */ var _fit_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6184);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(7194);
/* harmony import */ var _words_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5846);



/**
 * A destination's sink.
 *
 * @example const summary = createSink({ names: ACTION_NAMES, secrets: tokenForms(token), escapedForms: summaryForms, limit: SUMMARY_LIMITS.bytes })
 */
function createSink(options) {
    const { names, limit = Number.POSITIVE_INFINITY, unit = 'bytes' } = options;
    const hidden = options.escapedForms ? options.escapedForms(options.secrets) : options.secrets;
    const size = unit === 'bytes' ? _fit_js__WEBPACK_IMPORTED_MODULE_1__/* .utf8Bytes */ .dy : _fit_js__WEBPACK_IMPORTED_MODULE_1__/* .characters */ .hg;
    const text = (value) => (0,_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .redactSecrets */ .fp)((0,_words_js__WEBPACK_IMPORTED_MODULE_0__/* .inWords */ .r4)(value, names), hidden);
    return {
        limit,
        secrets: options.secrets,
        unit,
        size,
        text,
        say: (said, escape) => (0,_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .redactSecrets */ .fp)((0,_words_js__WEBPACK_IMPORTED_MODULE_0__/* .inWords */ .r4)(said, names, escape), hidden),
        fit: (parts, fitOptions = {}) => {
            const { head, foot, separator, tail, more } = fitOptions;
            // Each part is made and said only when fitting reaches it.
            const said = {
                length: parts.length,
                at: (index) => {
                    const part = parts.at(index);
                    return part === undefined ? undefined : text(part);
                }
            };
            return (0,_fit_js__WEBPACK_IMPORTED_MODULE_1__/* .fitParts */ .u5)(said, {
                limit: fitOptions.limit ?? limit,
                size,
                ...(head === undefined ? {} : { head: text(head) }),
                ...(foot === undefined ? {} : { foot: text(foot) }),
                ...(separator === undefined ? {} : { separator }),
                ...(tail === undefined ? {} : { tail: (leftOut) => text(tail(leftOut)) }),
                ...(more === undefined ? {} : { more })
            });
        },
        hiding: (secrets) => createSink({ ...options, secrets: [...options.secrets, ...secrets] })
    };
}


/***/ }),

/***/ 2474:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   G6: () => (/* binding */ NEW_CODE_PREFIX),
/* harmony export */   Oi: () => (/* binding */ isKnownMetric),
/* harmony export */   gE: () => (/* binding */ KIND_OF_TYPE),
/* harmony export */   yX: () => (/* binding */ KNOWN_METRICS)
/* harmony export */ });
/* harmony import */ var _lookup_table_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4196);
/**
 * The metrics quality gates use, as the server names them: the words for conditions read names
 * and value kinds from here, and the check asks the server for a definition only of keys not
 * known here. Below both, so the core never imports its presentation.
 */

/** The kind of value of each type api/metrics/search gives. */
const KIND_OF_TYPE = (0,_lookup_table_js__WEBPACK_IMPORTED_MODULE_0__/* .lookupTable */ .z)({
    RATING: 'rating',
    PERCENT: 'percent',
    WORK_DUR: 'minutes',
    MILLISEC: 'milliseconds',
    INT: 'count',
    FLOAT: 'count'
});
const rating = (name) => ({ name, kind: 'rating' });
const percent = (name) => ({ name, kind: 'percent' });
const count = (name) => ({ name, kind: 'count' });
const minutes = (name) => ({ name, kind: 'minutes' });
/** The metrics quality gates use, by the key the server sends ("new_" prefix: new code). */
const KNOWN_METRICS = (0,_lookup_table_js__WEBPACK_IMPORTED_MODULE_0__/* .lookupTable */ .z)({
    coverage: percent('Coverage'),
    line_coverage: percent('Line Coverage'),
    branch_coverage: percent('Condition Coverage'),
    duplicated_lines_density: percent('Duplicated Lines (%)'),
    security_hotspots_reviewed: percent('Security Hotspots Reviewed'),
    sqale_debt_ratio: percent('Technical Debt Ratio'),
    reliability_rating: rating('Reliability Rating'),
    security_rating: rating('Security Rating'),
    sqale_rating: rating('Maintainability Rating'),
    maintainability_rating: rating('Maintainability Rating'),
    security_review_rating: rating('Security Review Rating'),
    software_quality_reliability_rating: rating('Reliability Rating'),
    software_quality_security_rating: rating('Security Rating'),
    software_quality_maintainability_rating: rating('Maintainability Rating'),
    sqale_index: minutes('Technical Debt'),
    technical_debt: minutes('Technical Debt'),
    violations: count('Issues'),
    open_issues: count('Open Issues'),
    reopened_issues: count('Reopened Issues'),
    confirmed_issues: count('Confirmed Issues'),
    accepted_issues: count('Accepted Issues'),
    blocker_violations: count('Blocker Issues'),
    critical_violations: count('Critical Issues'),
    major_violations: count('Major Issues'),
    minor_violations: count('Minor Issues'),
    info_violations: count('Info Issues'),
    bugs: count('Bugs'),
    vulnerabilities: count('Vulnerabilities'),
    code_smells: count('Code Smells'),
    security_hotspots: count('Security Hotspots'),
    lines_to_cover: count('Lines to Cover'),
    uncovered_lines: count('Uncovered Lines'),
    duplicated_lines: count('Duplicated Lines'),
    skipped_tests: count('Skipped Unit Tests'),
    test_failures: count('Unit Test Failures'),
    test_errors: count('Unit Test Errors'),
    software_quality_blocker_issues: count('Blocker Severity Issues'),
    software_quality_high_issues: count('High Severity Issues')
});
const NEW_CODE_PREFIX = 'new_';
/**
 * Whether the action words this metric from its own table (common metrics, and their new-code
 * variants): only for other keys is the server's definition worth a request.
 */
function isKnownMetric(key) {
    return (key in KNOWN_METRICS ||
        (key.startsWith(NEW_CODE_PREFIX) && key.slice(NEW_CODE_PREFIX.length) in KNOWN_METRICS));
}


/***/ }),

/***/ 4305:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   J6: () => (/* binding */ isSameOrigin),
/* harmony export */   pT: () => (/* binding */ serverBase),
/* harmony export */   vU: () => (/* binding */ isAllowedRedirect),
/* harmony export */   zA: () => (/* binding */ shownUrl)
/* harmony export */ });
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8521);

/**
 * Where the token may go. The token belongs to one server: it is sent only to that server's
 * origin, and a redirect is followed only to the same origin or to the https:// form of the same
 * host (a server that upgrades plain http).
 */
/** true when `target` is the server's own origin (scheme, host and port). */
function isSameOrigin(target, server) {
    return target.origin === server.origin;
}
/** true when a redirect from `from` to `to` may carry the token. */
function isAllowedRedirect(from, to) {
    if (isSameOrigin(to, from))
        return true;
    // http→https of the same host: the server upgrading plain http, whatever port TLS is on.
    return from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname;
}
/** The server address ending in '/', so relative API paths append instead of replacing. */
function serverBase(server) {
    return new URL(server.href.endsWith('/') ? server.href : `${server.href}/`);
}
/**
 * A URL as messages show it: never with credentials, on one line of bounded length (a redirect's
 * Location is the server's text). `origin` shows only scheme, host and port.
 *
 * @example shownUrl(new URL('https://u:p@sonar.example.com/api?id=1')) // 'https://sonar.example.com/api?id=1'
 */
function shownUrl(url, part = 'href') {
    if (part === 'origin')
        return (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(url.origin, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.short);
    const bare = new URL(url.href);
    bare.username = '';
    bare.password = '';
    return (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .oneLine */ .TN)(bare.href, _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .QUOTE_LIMITS */ .gJ.long);
}


/***/ }),

/***/ 8521:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   ES: () => (/* binding */ wellFormed),
/* harmony export */   Jj: () => (/* binding */ cut),
/* harmony export */   RW: () => (/* binding */ hideCredentials),
/* harmony export */   TN: () => (/* binding */ oneLine),
/* harmony export */   gJ: () => (/* binding */ QUOTE_LIMITS),
/* harmony export */   jQ: () => (/* binding */ showInvisible),
/* harmony export */   ts: () => (/* binding */ escapeInvisible)
/* harmony export */ });
/**
 * Text from a server, a report file or an input, made fit to quote inside one of our own
 * messages. Every destination (the runner's log, the job summary, the outputs) has its own gate
 * on top of this one; this one only keeps quoted text to one readable line of bounded length.
 */
/** How long quoted text may be: ids and keys, and free text such as a server's error message. */
const QUOTE_LIMITS = { short: 200, long: 1000 };
/**
 * Control characters, and the Unicode ones that move text around without being seen: line and
 * paragraph separators and bidirectional overrides (which can make a line read backwards).
 */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const NAMED_ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/**
 * The character as an escape a reader can see: `\n`, `\x1B`, `\u2028`.
 *
 * @example escapeInvisible('\u001b') // '\\x1B'
 */
function escapeInvisible(character) {
    const named = NAMED_ESCAPES[character];
    if (named)
        return named;
    const code = character.charCodeAt(0);
    const hex = code.toString(16).toUpperCase();
    return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`;
}
/** Every invisible or line-breaking character shown as its escape. */
function showInvisible(text) {
    return text.replace(INVISIBLE, escapeInvisible);
}
/**
 * Cuts `text` to at most `max` characters, the last of them an ellipsis, without splitting a
 * surrogate pair.
 *
 * @example cut('abcdef', 4) // 'abc…'
 */
function cut(text, max) {
    if (text.length <= max)
        return text;
    let end = Math.max(0, max - 1);
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff)
        end--;
    return `${text.slice(0, end)}…`;
}
/**
 * Untrusted text as one line of bounded length: cut first (so a huge value costs nothing
 * more), then every control character shown as an escape.
 *
 * @example oneLine('PENDING\n::error::x') // 'PENDING\\n::error::x'
 */
function oneLine(text, max = QUOTE_LIMITS.short) {
    return showInvisible(cut(text, max));
}
/**
 * Text that may be a URL with credentials, fit to quote in an error: everything between the
 * scheme and the last `@` hidden. Text that does not parse as a URL cannot be split into user,
 * password and path reliably, so this hides more rather than less.
 *
 * @example hideCredentials('https://user:pass@host/x') // 'https://***@host/x'
 */
function hideCredentials(text) {
    return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^]*@/i, (_, scheme) => `${scheme ?? ''}***@`);
}
/** The text with every lone surrogate replaced by U+FFFD, as String#toWellFormed does. */
function wellFormed(text) {
    return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}


/***/ }),

/***/ 5846:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Dx: () => (/* binding */ linesOf),
/* harmony export */   GS: () => (/* binding */ SETTING_KEYS),
/* harmony export */   Od: () => (/* binding */ settingOrVariable),
/* harmony export */   Or: () => (/* binding */ Reference),
/* harmony export */   Pe: () => (/* binding */ setting),
/* harmony export */   QB: () => (/* binding */ Message),
/* harmony export */   TM: () => (/* binding */ firstLine),
/* harmony export */   XI: () => (/* binding */ settingWithVariable),
/* harmony export */   ab: () => (/* binding */ msg),
/* harmony export */   b6: () => (/* binding */ textOf),
/* harmony export */   h3: () => (/* binding */ settingTitle),
/* harmony export */   ik: () => (/* binding */ place),
/* harmony export */   il: () => (/* binding */ cutSaid),
/* harmony export */   oR: () => (/* binding */ joined),
/* harmony export */   r4: () => (/* binding */ inWords),
/* harmony export */   rk: () => (/* binding */ theVariableOrSetting),
/* harmony export */   uj: () => (/* binding */ settingsTitle),
/* harmony export */   w7: () => (/* binding */ theSetting)
/* harmony export */ });
/* unused harmony exports PLACE_KEYS, FORMS, reference */
/* harmony import */ var _untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8521);
/**
 * Messages as data. The core never writes an edge's words: where a message speaks of a setting
 * ("raise the time-out") or of where the details are, it holds a reference by key, and each
 * destination's sink says it in its edge's words, from the edge's one table of names
 * (`src/action/names.ts`: the action's inputs; `src/cli/names.ts`: the command's options and
 * environment variables).
 *
 * A message is a Message, made by the `msg` tagged template: its text and its references apart,
 * so that a sink escapes the text for its destination and says each reference after, never
 * escaped (`inWords`). The errors of the family keep theirs (`ExplainedError.said`).
 *
 * Text is only text: a string (a server's words, a path) is never read for a reference, and
 * nothing is taken out of it. A reference exists only as a value a Message holds.
 *
 * @example msg`raise ${setting('timeout')}` // each edge says its own name for the time-out
 */

/** The settings a message may name. */
const SETTING_KEYS = [
    'reportFile',
    'token',
    'host',
    'rootCert',
    'timeout',
    'initialDelay',
    'interval',
    'failStep',
    'failingStatuses',
    'task',
    'analysis',
    'project',
    'branch',
    'pullRequest',
    'commit',
    'comment',
    'gitHubToken',
    'annotate',
    'checkRun',
    'sarif',
    'inlineLimit',
    'inlineSeverity',
    'bitbucketProject',
    'bitbucketRepo',
    'githubRepository',
    'gitlabUrl',
    'gitlabProject',
    'giteaUrl',
    'giteaRepository'
];
/** The places a message may send the reader to, and what the step calls itself (`self`). */
const PLACE_KEYS = (/* unused pure expression or super */ null && (['details', 'self']));
/** How a reference is said (see `inWords`): `place` for a place, the others for a setting. */
const FORMS = (/* unused pure expression or super */ null && ([
    'name',
    'the',
    'title',
    'titles',
    'either',
    'withVariable',
    'variableFirst',
    'place'
]));
/**
 * A reference to a setting or a place in one form: what `setting`, `theSetting`, `place` and the
 * others make. A Message holds it as it is, for a sink to say (`inWords`).
 */
class Reference {
    form;
    key;
    constructor(form, key) {
        this.form = form;
        this.key = key;
    }
}
const reference = (form, key) => new Reference(form, key);
/** The setting's name; its variable when only a variable sets it. */
const setting = (key) => reference('name', key);
/** With its kind: `the <name> input`, `the <name> option`; `the <VARIABLE> environment variable`. */
const theSetting = (key) => reference('the', key);
/** At the start of a sentence: `Input <name>`, `Option <name>`; `<VARIABLE>` alone. */
const settingTitle = (key) => reference('title', key);
/** Two settings at the start of a sentence: `${settingsTitle('task')} and ${setting('analysis')}`. */
const settingsTitle = (key) => reference('titles', key);
/**
 * With its kind, the variable first: `the <VARIABLE> environment variable or the <name> input`;
 * `the <VARIABLE> environment variable` alone when the edge has no name for it.
 */
const theVariableOrSetting = (key) => reference('variableFirst', key);
/** The name or the variable: `<name> or <VARIABLE>`; either alone when the edge has one. */
const settingOrVariable = (key) => reference('either', key);
/** The name, the variable in brackets: `<name> (or <VARIABLE>)`; either alone when the edge has one. */
const settingWithVariable = (key) => reference('withVariable', key);
/** Where the reader finds the details (the action's job summary, the command's files). */
const place = (key) => reference('place', key);
/**
 * A message of ours: text and references, made by `msg`, said only by a sink, in its edge's
 * words and through its destination's escaping (`inWords`). The text is escaped and the
 * references are said: a reference is never escaped, and text is never read for one.
 */
class Message {
    parts;
    constructor(parts) {
        this.parts = parts;
    }
    /** The message of `strings` and `values`, as `msg` makes it. */
    static of(strings, values) {
        const parts = [];
        const add = (part) => {
            const last = parts.at(-1);
            if (typeof part === 'string' && typeof last === 'string')
                parts[parts.length - 1] = last + part;
            else if (part !== '')
                parts.push(part);
        };
        strings.forEach((text, index) => {
            add(text);
            if (index >= values.length)
                return;
            const value = values[index];
            if (value instanceof Message)
                value.parts.forEach(add);
            else
                add(value instanceof Reference ? value : String(value));
        });
        return new Message(parts);
    }
}
/**
 * A message of ours, by a tagged template: a Message when it names a setting or a place, else
 * its text.
 *
 * @example msg`raise ${setting('timeout')} (it is ${seconds} s)`
 */
function msg(strings, ...values) {
    return simplest(Message.of(strings, values));
}
/** `message` as text when it holds no reference: text needs no edge to be said. */
function simplest(message) {
    const references = message.parts.some((part) => part instanceof Reference);
    return references ? message : message.parts.join('');
}
/**
 * `items` one after the other, `separator` between them: the lines of one message.
 *
 * @example joined([msg`Quality Gate Failure: ${head}`, ...lines], '\n')
 */
function joined(items, separator) {
    return simplest(Message.of(['', ...items.slice(1).map(() => separator), ''], items));
}
/** `said` split at each line feed of its text: one Message or text per line. */
function linesOf(said) {
    if (!(said instanceof Message))
        return typeof said === 'string' ? said.split('\n') : [said];
    const lines = [[]];
    for (const part of said.parts) {
        const [first, ...others] = part instanceof Reference ? [part] : part.split('\n');
        if (first !== undefined)
            lines.at(-1).push(first);
        for (const other of others)
            lines.push([other]);
    }
    return lines.map((parts) => simplest(Message.of(['', ...parts.map(() => '')], parts)));
}
/**
 * `said` within `max` characters of text (a reference counts as its key), cut with an ellipsis
 * where its text passes them.
 */
function cutSaid(said, max) {
    if (!(said instanceof Message))
        return typeof said === 'string' ? (0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .cut */ .Jj)(said, max) : said;
    const parts = [];
    let left = max;
    for (const part of said.parts) {
        const length = part instanceof Reference ? part.key.length : part.length;
        if (length > left) {
            if (typeof part === 'string')
                parts.push((0,_untrusted_text_js__WEBPACK_IMPORTED_MODULE_0__/* .cut */ .Jj)(part, Math.max(1, left)));
            else
                parts.push('…');
            break;
        }
        parts.push(part);
        left -= length;
    }
    return simplest(Message.of(['', ...parts.map(() => '')], parts));
}
/** The first line of `said`: all of it up to its first line feed. */
function firstLine(said) {
    return linesOf(said)[0] ?? '';
}
/** Each reference by its key, for text no edge reads (an Error's `message`, a comparison). */
const KEY_NAMES = {
    kind: 'Setting',
    settings: Object.fromEntries(SETTING_KEYS.map((key) => [key, { name: key }])),
    places: { details: 'the details', self: 'the check' }
};
/** `said` as text with each reference by its key: for what no edge reads. */
function textOf(said) {
    return inWords(said, KEY_NAMES);
}
/**
 * `text` as a destination writes it: a Message's text through `escape` (the destination's gate)
 * and each of its references in `names`' words, never escaped; text alone through `escape`. Text
 * is never read for a reference, and nothing is taken out of it.
 *
 * @example inWords(msg`raise ${setting('timeout')}`, ACTION_NAMES) // 'raise ' and the action's input for the time-out
 */
function inWords(text, names, escape = (plain) => plain) {
    if (text instanceof Reference)
        return say(text.form, text.key, names);
    if (!(text instanceof Message))
        return escape(text);
    return text.parts
        .map((part) => (part instanceof Reference ? say(part.form, part.key, names) : escape(part)))
        .join('');
}
function say(form, key, names) {
    if (form === 'place') {
        return Object.hasOwn(names.places, key) ? names.places[key] : key;
    }
    if (!Object.hasOwn(names.settings, key))
        return key;
    const { name, variable, also } = names.settings[key];
    const plain = name ?? variable ?? key;
    switch (form) {
        case 'name':
            return plain;
        case 'the':
            if (name)
                return `the ${name} ${names.kind.toLowerCase()}`;
            return variable ? `the ${variable} environment variable` : key;
        case 'title':
            return name ? `${names.kind} ${name}` : plain;
        case 'titles':
            return name ? `${names.kind}s ${name}` : plain;
        case 'variableFirst': {
            const theName = name ? `the ${name} ${names.kind.toLowerCase()}` : undefined;
            const theVariable = variable ? `the ${variable} environment variable` : undefined;
            return [theVariable, theName].filter(Boolean).join(' or ') || key;
        }
        case 'either':
            if (name && variable)
                return `${name} or ${variable}`;
            return also ? `${plain} or ${also}` : plain;
        case 'withVariable':
            return name && variable ? `${name} (or ${variable})` : plain;
    }
}


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: ./src/clock.ts
/**
 * The longest delay setTimeout honours: past it the delay overflows a signed 32-bit integer and
 * Node fires the timer at once (with a warning), which would turn a long wait into a hot loop.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;
const systemClock = {
    now: () => Date.now(),
    // Settings already bound every wait; sleeping in steps keeps any other delay safe too.
    sleep: async (ms) => {
        let left = Math.max(0, ms);
        do {
            const step = Math.min(left, MAX_TIMER_MS);
            await new Promise((resolve) => setTimeout(resolve, step));
            left -= step;
        } while (left > 0);
    }
};

// EXTERNAL MODULE: ./src/deadline.ts
var src_deadline = __nccwpck_require__(6683);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __nccwpck_require__(3916);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_namespaceObject);
// EXTERNAL MODULE: ./src/bounded-file.ts
var bounded_file = __nccwpck_require__(2717);
// EXTERNAL MODULE: ./src/identifier.ts
var identifier = __nccwpck_require__(8360);
// EXTERNAL MODULE: ./src/untrusted-text.ts
var untrusted_text = __nccwpck_require__(8521);
// EXTERNAL MODULE: ./src/words.ts
var src_words = __nccwpck_require__(5846);
;// CONCATENATED MODULE: ./src/report-file.ts






/** Where each scanner writes the file, in the order the action looks for it. */
const DEFAULT_REPORT_LOCATIONS = [
    { file: '.scannerwork/report-task.txt', scanner: 'sonar-scanner CLI and the scan actions' },
    { file: 'target/sonar/report-task.txt', scanner: 'Maven' },
    { file: 'build/sonar/report-task.txt', scanner: 'Gradle' },
    { file: '.sonarqube/out/.sonar/report-task.txt', scanner: 'SonarScanner for .NET' }
];
/** The largest report file read. Real ones are under 1 KiB; this only stops a wrong file early. */
const MAX_REPORT_BYTES = 64 * 1024;
const WHERE_SCANNERS_WRITE = DEFAULT_REPORT_LOCATIONS.map(({ file, scanner }) => `${file} (${scanner})`).join(', ');
const POINT_AT_THE_REPORT = (0,src_words/* msg */.ab) `Scanners write ${WHERE_SCANNERS_WRITE}; point ${(0,src_words/* setting */.Pe)('reportFile')} at that file, not at another one.`;
/**
 * Reads a report file, refusing anything that is not a small regular text file (see
 * readBoundedFile: a pipe or a device is refused at once, never waited on).
 */
const readTextFile = async (file) => {
    const read = await (0,bounded_file/* readBoundedFile */.M)(file, MAX_REPORT_BYTES);
    if (read.outcome === 'missing')
        return undefined;
    if (read.outcome === 'unreadable') {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Cannot read the report file ${(0,untrusted_text/* oneLine */.TN)(file, untrusted_text/* QUOTE_LIMITS */.gJ.long)}: ${(0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(read.error), untrusted_text/* QUOTE_LIMITS */.gJ.long)}. Check ${(0,src_words/* theSetting */.w7)('reportFile')}.`, { cause: read.error });
    }
    if (read.outcome === 'not-a-file') {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${(0,untrusted_text/* oneLine */.TN)(file, untrusted_text/* QUOTE_LIMITS */.gJ.long)} is ${read.kind}, not a regular file. ${POINT_AT_THE_REPORT}`);
    }
    if (read.outcome === 'too-large') {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${(0,untrusted_text/* oneLine */.TN)(file, untrusted_text/* QUOTE_LIMITS */.gJ.long)} is larger than ${MAX_REPORT_BYTES / 1024} KiB, so it is not a scanner's report-task.txt (those are under 1 KiB). ${POINT_AT_THE_REPORT}`);
    }
    try {
        return new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
    }
    catch {
        throw notTextError((0,untrusted_text/* oneLine */.TN)(file, untrusted_text/* QUOTE_LIMITS */.gJ.long), 'it is not UTF-8 text');
    }
};
function notTextError(name, why) {
    return new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${name} is not a text report file: ${why}. ${POINT_AT_THE_REPORT}`);
}
/**
 * Finds and parses report-task.txt: the given path, or else the first default location that
 * exists, relative to `cwd`.
 *
 * @example await loadReportFile(undefined, process.cwd()) // finds target/sonar/report-task.txt after Maven
 */
async function loadReportFile(given, cwd, read = readTextFile) {
    const candidates = given ? [given] : DEFAULT_REPORT_LOCATIONS.map(({ file }) => file);
    for (const file of candidates) {
        const text = await read(external_node_path_default().resolve(cwd, file));
        if (text !== undefined)
            return parseReportFile(text, file);
    }
    throw new errors/* ReportFileError */.tG(given
        ? (0,src_words/* msg */.ab) `Report file not found at ${(0,untrusted_text/* oneLine */.TN)(given, untrusted_text/* QUOTE_LIMITS */.gJ.long)}. Scanners write it to ${WHERE_SCANNERS_WRITE}; set ${(0,src_words/* setting */.Pe)('reportFile')} to where yours is, and run this step after the analysis in the same job and working directory.`
        : (0,src_words/* msg */.ab) `No report file found: looked for ${WHERE_SCANNERS_WRITE}. Run this step after the analysis in the same job and working directory, or set ${(0,src_words/* setting */.Pe)('reportFile')}.`);
}
/**
 * Parses the key=value text a scanner writes. Tolerates CRLF, a UTF-8 BOM, blank lines and `#`
 * comments; values keep any `=` they contain. Throws a ReportFileError naming the file and key.
 *
 * @example parseReportFile('serverUrl=https://sonar.example.com\n...', 'target/sonar/report-task.txt')
 */
function parseReportFile(text, file) {
    const name = (0,untrusted_text/* oneLine */.TN)(file, untrusted_text/* QUOTE_LIMITS */.gJ.long);
    const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    lines.forEach((line, index) => {
        // Tab, CR and LF are the only control characters a text file has any business holding.
        // eslint-disable-next-line no-control-regex
        const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.exec(line);
        if (control) {
            throw notTextError(name, `line ${index + 1} holds the control character ${(0,untrusted_text/* escapeInvisible */.ts)(control[0])}`);
        }
    });
    const values = new Map();
    for (const rawLine of lines) {
        const line = rawLine.trim();
        if (line === '' || line.startsWith('#'))
            continue;
        const separator = line.indexOf('=');
        if (separator <= 0) {
            throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${name} has a line that is not key=value: "${(0,untrusted_text/* oneLine */.TN)(line, 80)}". ${POINT_AT_THE_REPORT}`);
        }
        values.set(line.slice(0, separator).trim(), line.slice(separator + 1).trim());
    }
    const value = (key) => values.get(key) || undefined;
    const url = (key) => {
        const text = value(key);
        return text === undefined ? undefined : httpUrl(name, key, text);
    };
    const id = (key, text) => {
        const problem = text === undefined ? undefined : (0,identifier/* idProblem */.l)(text);
        if (problem) {
            throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${name}: ${key} "${(0,untrusted_text/* oneLine */.TN)(text ?? '')}" ${problem}. The scanner never writes such a value: ${POINT_AT_THE_REPORT}`);
        }
        return text;
    };
    const ceTaskUrl = url('ceTaskUrl');
    return {
        file,
        serverUrl: url('serverUrl'),
        ceTaskUrl,
        ceTaskId: taskId(name, id('ceTaskId', value('ceTaskId')), ceTaskUrl && id('the id in ceTaskUrl', ceTaskUrl.searchParams.get('id') || undefined)),
        dashboardUrl: url('dashboardUrl'),
        projectKey: id('projectKey', value('projectKey')),
        serverVersion: value('serverVersion'),
        organization: value('organization')
    };
}
/** An http(s) address without credentials, or a ReportFileError that never shows them. */
function httpUrl(name, key, text) {
    let parsed;
    try {
        parsed = new URL(text);
    }
    catch {
        throw new errors/* ReportFileError */.tG(`Report file ${name}: ${key} "${(0,untrusted_text/* oneLine */.TN)((0,untrusted_text/* hideCredentials */.RW)(text), untrusted_text/* QUOTE_LIMITS */.gJ.long)}" is not a URL.`);
    }
    if (parsed.username || parsed.password) {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${name}: ${key} holds credentials (user:password@), which ${(0,src_words/* place */.ik)('self')} never sends anywhere. Remove them from the address; the token goes in ${(0,src_words/* settingOrVariable */.Od)('token')}.`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new errors/* ReportFileError */.tG(`Report file ${name}: ${key} "${(0,untrusted_text/* oneLine */.TN)(text, untrusted_text/* QUOTE_LIMITS */.gJ.long)}" must be an http:// or https:// address.`);
    }
    return parsed;
}
/** The task to wait for: ceTaskId, or else the id ceTaskUrl asks for; both must agree. */
function taskId(name, fromKey, fromUrl) {
    if (fromKey !== undefined && fromUrl !== undefined && fromKey !== fromUrl) {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${name}: ceTaskId "${(0,untrusted_text/* oneLine */.TN)(fromKey)}" and the id in ceTaskUrl "${(0,untrusted_text/* oneLine */.TN)(fromUrl)}" differ, so it is not clear which analysis task to wait for. The scanner writes the same id in both: ${POINT_AT_THE_REPORT}`);
    }
    const id = fromKey ?? fromUrl;
    if (id === undefined) {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${name} has no ceTaskId and no ceTaskUrl with an id parameter: ${(0,src_words/* place */.ik)('self')} needs serverUrl and ceTaskUrl (…/api/ce/task?id=<task id>), or ceTaskId with ${(0,src_words/* theSetting */.w7)('host')} set. The scanner writes them with every analysis: make sure the file is the scanner's own report-task.txt (${WHERE_SCANNERS_WRITE}) from this run.`);
    }
    return id;
}
/**
 * Where to ask for the report's task. With the host setting, the address is built from the host
 * and the file needs only the task id; without it, the file must give serverUrl and ceTaskUrl.
 *
 * @example taskAddress(report, settings.hostUrl) // { serverUrl, taskUrl: undefined } with a host
 */
function taskAddress(report, host) {
    // The host replaces the file's addresses entirely: they are never used, whatever they say.
    if (host)
        return { serverUrl: host, taskUrl: undefined };
    const needed = (key) => {
        const url = report[key];
        if (!url) {
            throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${(0,untrusted_text/* oneLine */.TN)(report.file, untrusted_text/* QUOTE_LIMITS */.gJ.long)} has no ${key}. The scanner writes it with every analysis: make sure the file is the scanner's own report-task.txt (${WHERE_SCANNERS_WRITE}) from this run, or set ${(0,src_words/* theSetting */.w7)('host')} to build the task address from the server's address.`);
        }
        return url;
    };
    const serverUrl = needed('serverUrl');
    const taskUrl = needed('ceTaskUrl');
    // The address is asked as written: without the id, the server would not know which task.
    if (!taskUrl.searchParams.get('id')) {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `Report file ${(0,untrusted_text/* oneLine */.TN)(report.file, untrusted_text/* QUOTE_LIMITS */.gJ.long)}: ceTaskUrl has no id parameter, so it does not say which task to ask for; the scanner writes …/api/ce/task?id=<ceTaskId>. Point ${(0,src_words/* setting */.Pe)('reportFile')} at the scanner's own file, or set ${(0,src_words/* theSetting */.w7)('host')} to build the task address from the server's address.`);
    }
    return { serverUrl, taskUrl };
}

;// CONCATENATED MODULE: ./src/findings/locate.ts
/**
 * Where an issue's file is in the checkout. The server gives each file's path relative to the
 * analysis's base directory (`sonar.projectBaseDir`), which the report file's own location tells
 * for each scanner; the annotation, check run and SARIF need it relative to the repository root.
 */



/**
 * The analysis's base directory, from its report file (relative to `cwd`, or absolute): the
 * folder above the scanner's own (`.scannerwork/`, `target/sonar/`, `build/sonar/`,
 * `.sonarqube/out/.sonar/`), or else the folder above the report file's folder, where a custom
 * working directory usually sits. Without a report file (a task or an analysis asked for by its id): `cwd`.
 *
 * @example analysisBaseDir('services/api/target/sonar/report-task.txt', '/repo') // '/repo/services/api'
 */
function analysisBaseDir(reportFile, cwd) {
    if (reportFile === undefined)
        return cwd;
    const file = external_node_path_default().resolve(cwd, reportFile);
    const slashed = file.split((external_node_path_default()).sep).join('/');
    for (const { file: suffix } of DEFAULT_REPORT_LOCATIONS) {
        if (slashed.endsWith(`/${suffix}`)) {
            return external_node_path_default().resolve(file, ...suffix.split('/').map(() => '..'));
        }
    }
    return external_node_path_default().resolve(external_node_path_default().dirname(file), '..');
}
const isFile = (absolutePath) => {
    try {
        return (0,external_node_fs_.statSync)(absolutePath).isFile();
    }
    catch {
        return false;
    }
};
/** The longest server path looked at: longer ones are not real files. */
const MAX_PATH_CHARS = 1000;
/**
 * A function from a server path (relative to `baseDir`) to the path relative to `repoRoot`, with
 * `/`, or undefined when the server path is absolute, holds a `..` segment, a control character
 * or a backslash, leaves the repository, or is not a file there.
 *
 * @example locator('/repo/services/api', '/repo')('src/app.ts') // 'services/api/src/app.ts'
 */
function locator(baseDir, repoRoot, exists = isFile) {
    const root = external_node_path_default().resolve(repoRoot);
    // Many issues share a file: each path is checked once.
    const known = new Map();
    return (serverPath) => {
        if (!known.has(serverPath))
            known.set(serverPath, locate(serverPath));
        return known.get(serverPath);
    };
    function locate(serverPath) {
        if (!isSafeRelative(serverPath))
            return undefined;
        const absolute = external_node_path_default().resolve(baseDir, ...serverPath.split('/'));
        const relative = external_node_path_default().relative(root, absolute);
        if (relative === '' || relative.startsWith('..') || external_node_path_default().isAbsolute(relative))
            return undefined;
        if (!exists(absolute))
            return undefined;
        return relative.split((external_node_path_default()).sep).join('/');
    }
}
function isSafeRelative(serverPath) {
    if (serverPath === '' || serverPath.length > MAX_PATH_CHARS)
        return false;
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/.test(serverPath))
        return false;
    if (serverPath.startsWith('/') || /^[a-z]:/i.test(serverPath))
        return false;
    return serverPath.split('/').every((segment) => segment !== '..' && segment !== '');
}

// EXTERNAL MODULE: ./src/sonar/origin.ts
var origin = __nccwpck_require__(4305);
// EXTERNAL MODULE: ./src/sonar/metrics.ts
var metrics = __nccwpck_require__(2474);
// EXTERNAL MODULE: ./src/secrets.ts
var src_secrets = __nccwpck_require__(7194);
;// CONCATENATED MODULE: ./src/sonar/authorization.ts

/**
 * The Authorization header for the token: `Bearer <token>`, or `Basic base64(token + ':')`, the
 * token as user name with an empty password.
 *
 * @example authorization('squ_abc', 'bearer') // 'Bearer squ_abc'
 */
function authorization(token, scheme) {
    return scheme === 'bearer' ? `Bearer ${token}` : (0,src_secrets/* basicAuth */.tB)(token);
}
/** The other scheme, tried once when the server answers 401 to the first. */
function otherScheme(scheme) {
    return scheme === 'bearer' ? 'basic' : 'bearer';
}
const SCHEME_NAMES = { bearer: 'Bearer', basic: 'Basic' };
/** The analysis tokens' prefixes (SonarQube 9.5 and later), and what each is. */
const ANALYSIS_TOKENS = {
    sqa_: 'a global analysis token (sqa_…)',
    sqp_: 'a project analysis token (sqp_…)'
};
/**
 * What kind of analysis token the token is, in words; undefined for a user token or one without
 * a known prefix. A real server lets an analysis token submit analyses and read their tasks and
 * gates, and refuses it (403) what needs Browse: a project's analyses, background tasks, measures
 * and hotspots.
 *
 * @example analysisTokenKind('sqa_0123') // 'a global analysis token (sqa_…)'
 */
function analysisTokenKind(token) {
    return token === undefined ? undefined : ANALYSIS_TOKENS[token.slice(0, 4)];
}

;// CONCATENATED MODULE: ./src/sonar/json-reply.ts


/** Deeper than any Web API reply; keeps every later walk over the value far from the stack limit. */
const MAX_JSON_DEPTH = 64;
/** Why a body is not the JSON asked for. `truncated` may heal on another try; the rest do not. */
class BodyProblem extends Error {
    said;
    truncated;
    constructor(said, truncated = false) {
        super((0,src_words/* textOf */.b6)(said));
        this.said = said;
        this.truncated = truncated;
    }
}
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const GZIP_MAGIC = [0x1f, 0x8b];
/**
 * Parses a reply body as JSON. A UTF-8 byte order mark before it is skipped (RFC 8259 lets a
 * reader ignore it). Throws a BodyProblem whose message completes "The reply …".
 *
 * @example parseJsonBody(Buffer.from('{"task":{}}'), { 'content-type': 'application/json' })
 */
function parseJsonBody(body, headers) {
    const encoding = headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
        throw new BodyProblem(`is compressed (Content-Encoding: ${(0,untrusted_text/* oneLine */.TN)(encoding, 40)}) though the action asks for none: a proxy in front of the server compresses it unasked; configure it to pass the Web API's replies through as they are`);
    }
    if (startsWith(body, GZIP_MAGIC)) {
        throw new BodyProblem('is gzip-compressed data without a Content-Encoding header: a proxy in front of the server compresses it unasked; configure it to pass the Web API replies through as they are');
    }
    const text = body.toString('utf8', startsWith(body, UTF8_BOM) ? UTF8_BOM.length : 0);
    if (text.trim() === '') {
        throw new BodyProblem(`is empty (${body.length} bytes${headers['content-length'] === undefined ? '' : `, Content-Length ${(0,untrusted_text/* oneLine */.TN)(String(headers['content-length']), 20)}`}): a server's Web API always answers with JSON; a proxy or load balancer in front of it may be dropping the body`);
    }
    const contentType = (0,untrusted_text/* oneLine */.TN)(headers['content-type'] ?? 'no content type', 80);
    if (/^\s*</.test(text)) {
        throw new BodyProblem((0,src_words/* msg */.ab) `is an HTML page (${contentType}), not JSON: a login page or a proxy error page. Check that ${(0,src_words/* setting */.Pe)('host')} / the report's serverUrl is the server's own address and that no proxy or SSO page stands in front of its Web API`);
    }
    const shape = scanJson(text);
    if (shape === 'too-deep') {
        throw new BodyProblem(`nests deeper than ${MAX_JSON_DEPTH} levels: it is not a Web API reply`);
    }
    try {
        return JSON.parse(text);
    }
    catch {
        if (shape === 'unfinished') {
            throw new BodyProblem(`ends in the middle of its JSON after ${body.length} bytes: it was cut off on the way`, true);
        }
        throw new BodyProblem((0,src_words/* msg */.ab) `is not JSON (${contentType}); it starts with "${(0,untrusted_text/* oneLine */.TN)(text.trimStart(), 80)}". Check that ${(0,src_words/* setting */.Pe)('host')} / the report's serverUrl is the server's own address`);
    }
}
/**
 * One pass over the text that tracks strings and brackets, in linear time and constant stack:
 * whether the JSON nests too deep, or ends with a string or a bracket still open.
 */
function scanJson(text) {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
            if (c === 0x5c)
                i++; // backslash: skip the escaped character
            else if (c === 0x22)
                inString = false;
        }
        else if (c === 0x22) {
            inString = true;
        }
        else if (c === 0x7b || c === 0x5b) {
            if (++depth > MAX_JSON_DEPTH)
                return 'too-deep';
        }
        else if (c === 0x7d || c === 0x5d) {
            depth--;
        }
    }
    return inString || depth > 0 ? 'unfinished' : 'closed';
}
function startsWith(body, bytes) {
    return bytes.every((byte, index) => body[index] === byte);
}

// EXTERNAL MODULE: ./src/http/transport.ts + 3 modules
var transport = __nccwpck_require__(221);
;// CONCATENATED MODULE: ./src/sonar/failed-try.ts
/**
 * One try that failed, in words a user can act on, with how it weighs for retrying: a status the
 * server answered, or a failure on the way. The server's own words come first where they help.
 */






const HOST = (0,src_words/* msg */.ab) `${(0,src_words/* setting */.Pe)('host')} (or the report's serverUrl)`;
const OWN_ADDRESS = (0,src_words/* msg */.ab) `Check that ${(0,src_words/* setting */.Pe)('host')} / the report's serverUrl is the server's own address`;
const PROXY = 'HTTPS_PROXY / NO_PROXY when a proxy is in the way';
const UNREACHABLE = {
    opening: 'reach',
    fault: 'unreachable',
    says: (failure) => (0,src_words/* msg */.ab) `${withNodeCode(failure)}. Check the address (${(0,src_words/* setting */.Pe)('host')} or the report's serverUrl), that the server is running, and ${PROXY}.`
};
const BROKEN = {
    opening: 'read',
    fault: 'transient',
    says: (failure) => `${withNodeCode(failure)}. Check the network, and ${PROXY}.`
};
/** Each cause of TransportFailure in words; those not named are BROKEN (they may heal). */
const TRANSPORT_WORDS = {
    'not-tls': {
        opening: 'reach',
        fault: 'final',
        cause: 'not TLS',
        says: (failure) => (0,src_words/* msg */.ab) `it does not speak TLS there (${codeFirst(failure)}): a plain-HTTP server or port answers at this https:// address. Use http:// instead of https:// in ${HOST}, or the port where the server speaks HTTPS.`
    },
    'certificate-untrusted': {
        opening: 'reach',
        fault: 'final',
        cause: 'TLS certificate not trusted',
        says: (failure, _, rootCertGiven) => certificateAdvice(failure.code, rootCertGiven)
    },
    'certificate-expired': {
        opening: 'reach',
        fault: 'final',
        cause: 'TLS certificate expired',
        says: (failure) => `the server's TLS certificate has expired (${failure.code}). Renew it on the server; if it was renewed, check that this machine's clock is right.`
    },
    'certificate-not-yet-valid': {
        opening: 'reach',
        fault: 'final',
        cause: 'TLS certificate not valid yet',
        says: (failure) => `the server's TLS certificate is not valid yet (${failure.code}). Check that this machine's clock is right, and the certificate's start date on the server.`
    },
    'certificate-name': {
        opening: 'reach',
        fault: 'final',
        cause: 'TLS certificate for another host',
        says: (failure, url) => (0,src_words/* msg */.ab) `the server's TLS certificate does not name ${url.hostname} (${failure.code})${namesHeld(failure.certificateNames)}. Use a host name the certificate holds in ${HOST}, or have the certificate reissued to name ${url.hostname}.`
    },
    tls: {
        opening: 'reach',
        fault: 'final',
        cause: 'TLS failed',
        says: (failure) => (0,src_words/* msg */.ab) `TLS failed (${codeFirst(failure)}). Check that ${HOST} is the server's HTTPS address, and what the server (or what stands in front of it) requires: the action speaks TLS 1.2 and 1.3 and sends no client certificate.`
    },
    'not-http': {
        opening: 'read',
        fault: 'final',
        cause: 'not HTTP',
        says: (failure) => (0,src_words/* msg */.ab) `the reply is not HTTP (${codeFirst(failure)}): something other than a web server answers on that port. Check the port in ${HOST}; for the server's HTTPS port, use https://.`
    },
    malformed: {
        opening: 'read',
        fault: 'final',
        cause: 'invalid HTTP',
        says: (failure) => (0,src_words/* msg */.ab) `the reply is not valid HTTP (${codeFirst(failure)}). ${OWN_ADDRESS} and what stands in front of it.`
    },
    'too-large': {
        opening: 'refused',
        fault: 'final',
        cause: 'reply too large',
        says: (failure) => (0,src_words/* msg */.ab) `${failure.message}. ${OWN_ADDRESS}.`
    },
    refused: UNREACHABLE,
    dns: UNREACHABLE,
    unreachable: UNREACHABLE
};
/**
 * A failure on the way to the server, in words, with how it weighs for retrying. A failure that
 * waiting does not fix fails at once, on one line that names the fix. Every message keeps Node's
 * code, as does the error (`nodeCode`), and the error's cause is the transport's failure.
 */
function transportFailure(failure, url, resource, rootCertGiven) {
    const words = TRANSPORT_WORDS[failure.reason] ?? BROKEN;
    const where = `for ${resource.what} at ${(0,origin/* shownUrl */.zA)(url)}`;
    const opening = {
        reach: `Could not reach the server ${where}: `,
        read: `Could not read the server's reply ${where}: `,
        refused: `The server's reply ${where} was refused: `
    }[words.opening];
    const error = new errors/* ServerRequestError */.hP((0,src_words/* msg */.ab) `${opening}${words.says(failure, url, rootCertGiven)}`, undefined, {
        nodeCode: failure.code,
        cause: failure,
        origin: url.origin,
        ...(words.fault === 'final' ? {} : { noReply: true })
    });
    return { error, fault: { kind: words.fault }, cause: words.cause ?? failure.message };
}
/** Node's code before the failure's words: "EPROTO: wrong version number". */
function codeFirst({ code, message }) {
    return code ? `${code}: ${message}` : message;
}
/**
 * The failure's words with Node's code, when they do not hold it already: "connection refused
 * (ECONNREFUSED)", "host not found (DNS, ENOTFOUND)".
 */
function withNodeCode({ message, code }) {
    if (!code || message.includes(code))
        return message;
    return message.endsWith(')') ? `${message.slice(0, -1)}, ${code})` : `${message} (${code})`;
}
/** The names a certificate holds, quoted: server text, one line and bounded. */
function namesHeld(names) {
    return names ? `: it names "${(0,untrusted_text/* oneLine */.TN)(names, untrusted_text/* QUOTE_LIMITS */.gJ.short)}"` : '';
}
/** A status the server answered instead of the JSON asked for, in words. */
function statusFailure(reply, url, resource, 
/** The schemes the token was sent with ("Bearer and Basic"); undefined without a token. */
authTried, 
/** What analysis token the token is (`analysisTokenKind`); undefined for a user token. */
analysisToken) {
    const retryAfter = (0,transport/* headerValue */.Z)(reply, 'retry-after');
    return {
        error: statusError(reply, url, resource, authTried, analysisToken),
        fault: { kind: 'status', status: reply.status, retryAfter },
        cause: `HTTP ${reply.status}`
    };
}
function statusError(reply, url, resource, authTried, analysisToken) {
    const { status } = reply;
    const at = `(HTTP ${status} at ${(0,origin/* shownUrl */.zA)(url)})`;
    const words = serverWords(reply);
    // The server's own words first: they name the task, the analysis or the permission (a 401's
    // "Authentication required" adds nothing to ours).
    const said = words && status !== 401 ? `The server says: ${words}. ` : '';
    const failed = (message, fields = {}) => new errors/* ServerRequestError */.hP(message, status, { ...fields, origin: url.origin });
    switch (status) {
        case 401:
            return failed((0,src_words/* msg */.ab) `${said}${authTried
                ? `The server rejected the token ${at}, sent with ${authTried} authentication: it is wrong, expired or revoked. Create a user token (My Account → Security) and store it as the SONAR_TOKEN secret.`
                : (0,src_words/* msg */.ab) `The server requires a token ${at} and none was given: set ${(0,src_words/* theVariableOrSetting */.rk)('token')}.`}`);
        case 403:
            // A real server refuses analysis tokens what needs Browse, whatever their user may do.
            if (analysisToken) {
                return failed(`${said}The token may not read ${resource.what} ${at}: it is ${analysisToken}. SonarQube lets analysis tokens submit analyses and read their tasks and gates (a project analysis token its own project's only), and refuses them what needs Browse: a project's analyses, background tasks, measures and hotspots. Use a user token (squ_…, My Account → Security) of a user with the Browse permission on the project.`, { analysisToken });
            }
            return failed(`${said}The token may not read ${resource.what} ${at}: its user needs the Browse permission on the project, and Execute Analysis to read analysis tasks. Use a token of such a user, or a project analysis token.`);
        case 404: {
            // A server without the address answers in these words (SonarQube 10.7, recorded).
            const noSuchAddress = words?.startsWith('"Unknown url') === true;
            const advice = (noSuchAddress && resource.advice.unknownUrl) || resource.advice.notFound;
            return failed((0,src_words/* msg */.ab) `${said}${advice} ${at}`);
        }
        case 400:
            return failed((0,src_words/* msg */.ab) `${said}${resource.advice.badRequest} ${at}`);
        default:
            return failed(`The server failed to answer for ${resource.what} ${at}${words ? `: ${words}` : ''}.`);
    }
}
/** The most error messages quoted from one reply. */
const MAX_SERVER_MESSAGES = 3;
/**
 * The server's own words from `{"errors":[{"msg":"..."}]}`, quoted and bounded; entries that are
 * not of that shape are skipped. undefined when the body holds none.
 */
function serverWords(reply) {
    let body;
    try {
        body = parseJsonBody(reply.body, reply.headers);
    }
    catch {
        return undefined;
    }
    const errors = body?.errors;
    if (!Array.isArray(errors))
        return undefined;
    const messages = [];
    for (const entry of errors) {
        const msg = entry?.msg;
        if (typeof msg === 'string' && msg.trim() !== '') {
            messages.push(`"${(0,untrusted_text/* oneLine */.TN)(msg.trim(), untrusted_text/* QUOTE_LIMITS */.gJ.long)}"`);
        }
        if (messages.length === MAX_SERVER_MESSAGES)
            break;
    }
    return messages.length ? messages.join('; ') : undefined;
}
function certificateAdvice(code, rootCertGiven) {
    if (rootCertGiven) {
        return (0,src_words/* msg */.ab) `TLS certificate not trusted (${code}) even with ${(0,src_words/* setting */.Pe)('rootCert')}: it must hold, as PEM, the CA certificate that issued the server's certificate (or an intermediate of its chain), and the server's certificate must name the host of the URL.`;
    }
    return code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
        ? (0,src_words/* msg */.ab) `TLS certificate not trusted (${code}): the server's certificate is self-signed. Set ${(0,src_words/* settingOrVariable */.Od)('rootCert')} to that certificate (PEM), or give the server one that a CA issued.`
        : (0,src_words/* msg */.ab) `TLS certificate not trusted (${code}). For a server behind a private CA, set ${(0,src_words/* settingOrVariable */.Od)('rootCert')} to that CA's certificate (PEM).`;
}

// EXTERNAL MODULE: ./src/http/retry-policy.ts
var retry_policy = __nccwpck_require__(7593);
;// CONCATENATED MODULE: ./src/sonar/server-kind.ts
/**
 * Which server the action talks to, as far as it changes what the action sends: SonarQube Cloud
 * (sonarcloud.io, sonarqube.us) or a SonarQube server of a known version. The report file tells:
 * its host, its `organization` (written only for SonarQube Cloud) and its `serverVersion`.
 */
const CLOUD_HOSTS = ['sonarcloud.io', 'sonarqube.us'];
/**
 * @example serverKind(new URL('https://sonar.example.com'), { serverVersion: '9.9.4.87374' }) // { cloud: false, version: [9, 9] }
 */
function serverKind(serverUrl, report = {}) {
    const host = serverUrl.hostname.toLowerCase();
    const cloud = CLOUD_HOSTS.some((cloudHost) => host === cloudHost || host.endsWith(`.${cloudHost}`)) ||
        report.organization !== undefined;
    const version = /^(\d{1,4})\.(\d{1,4})(?:\.|$)/.exec(report.serverVersion ?? '');
    return {
        cloud,
        version: !cloud && version ? [Number(version[1]), Number(version[2])] : undefined
    };
}
/** true when the server's version is known to be at least `major.minor`. */
function atLeast(kind, major, minor) {
    if (!kind.version)
        return false;
    const [hasMajor, hasMinor] = kind.version;
    return hasMajor > major || (hasMajor === major && hasMinor >= minor);
}
/**
 * How the token is sent first: `Bearer` on SonarQube Cloud and SonarQube 10.0 and later, which
 * document it; Basic (the token as user, empty password) on 9.x and older and when the version is
 * unknown, since every version takes it. The client tries the other once after a 401.
 */
function firstAuthScheme(kind) {
    return kind.cloud || atLeast(kind, 10, 0) ? 'bearer' : 'basic';
}
/**
 * Whether `api/ce/task` must be asked for a finished task's warnings
 * (`additionalFields=warnings`): on the cloud and on SonarQube before 10.1, which send them only
 * when asked. 10.1 and later send them always; a server of unknown version is not asked (most
 * are recent, and the report file, which names the version, is the usual source).
 */
function asksForTaskWarnings(kind) {
    return kind.cloud || (kind.version !== undefined && !atLeast(kind, 10, 1));
}

;// CONCATENATED MODULE: ./src/sonar/types.ts
/**
 * The server's Web API as the action reads it: the shapes of `api/ce/task` and
 * `api/qualitygates/project_status`, and the decoders that check a reply has them. Real servers
 * add fields (caycStatus, period, ignoredConditions...) and drop some (errorThreshold on old
 * warning-only conditions): unknown fields are ignored, missing optional ones stay undefined.
 */


/** A reply that is JSON but not of the expected shape; the caller turns it into a user message. */
class UnexpectedShape extends Error {
}
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * Statuses are words (PENDING, IN_PROGRESS, OK, ERROR...). Anything else — new lines above all,
 * which could smuggle workflow commands into the log — means the reply is not a server's.
 */
const STATUS_WORD = /^[A-Z][A-Z_]{0,39}$/;
function statusWord(value, where) {
    if (typeof value !== 'string' || !STATUS_WORD.test(value)) {
        throw new UnexpectedShape(`${where} is ${typeof value === 'string' ? `"${(0,untrusted_text/* oneLine */.TN)(value, 60)}"` : (0,untrusted_text/* oneLine */.TN)(String(JSON.stringify(value)), 60)}, not a status word like OK or ERROR`);
    }
    return value;
}
/** An id the server sends: one that cannot be an id means the reply is not a server's. */
function optionalId(value, where) {
    const id = optionalString(value);
    if (id === undefined || id === '')
        return undefined;
    const problem = (0,identifier/* idProblem */.l)(id);
    if (problem)
        throw new UnexpectedShape(`${where} "${(0,untrusted_text/* oneLine */.TN)(id, 60)}" ${problem}: it is not an id`);
    return id;
}
const optionalString = (value) => typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
/** A branch name the server could have stored: 1 to 255 characters, none a control character. */
const branchName = (value) => typeof value === 'string' && value.length <= 255 && /^[^\p{Cc}]+$/u.test(value)
    ? value
    : undefined;
/** Decodes the body of `GET api/ce/task?id=`. */
/** `api/system/status`'s reply: `{"id", "version", "status": "UP"}`. */
function decodeSystemStatus(body) {
    if (!isObject(body) || typeof body['status'] !== 'string') {
        throw new UnexpectedShape('expected {"status": ...}');
    }
    return { status: statusWord(body['status'], 'status') };
}
function decodeTask(body) {
    const task = isObject(body) ? body['task'] : undefined;
    if (!isObject(task) || task['status'] === undefined) {
        throw new UnexpectedShape('expected {"task": {"status": ...}}');
    }
    return {
        id: optionalString(task['id']) ?? '',
        status: statusWord(task['status'], 'task.status'),
        analysisId: optionalId(task['analysisId'], 'task.analysisId'),
        errorMessage: optionalString(task['errorMessage']),
        errorType: optionalString(task['errorType']),
        warnings: Array.isArray(task['warnings'])
            ? task['warnings'].filter((w) => typeof w === 'string')
            : [],
        componentKey: optionalString(task['componentKey']),
        branch: optionalString(task['branch']) || undefined,
        branchType: optionalString(task['branchType']) || undefined,
        pullRequest: optionalString(task['pullRequest']) || undefined,
        executionTimeMs: optionalCount(task['executionTimeMs'])
    };
}
/** Decodes the body of `GET api/qualitygates/project_status`. */
function decodeProjectStatus(body) {
    const projectStatus = isObject(body) ? body['projectStatus'] : undefined;
    if (!isObject(projectStatus) || projectStatus['status'] === undefined) {
        throw new UnexpectedShape('expected {"projectStatus": {"status": ...}}');
    }
    const conditions = Array.isArray(projectStatus['conditions']) ? projectStatus['conditions'] : [];
    const periods = projectStatus['periods'];
    const ignored = projectStatus['ignoredConditions'];
    return {
        status: statusWord(projectStatus['status'], 'projectStatus.status'),
        conditions: conditions.filter(isObject).map(decodeCondition),
        period: decodePeriod(projectStatus['period'] ?? (Array.isArray(periods) ? periods[0] : undefined)),
        caycStatus: optionalString(projectStatus['caycStatus']) || undefined,
        ignoredConditions: typeof ignored === 'boolean' ? ignored : undefined
    };
}
function decodePeriod(period) {
    if (!isObject(period))
        return undefined;
    const mode = optionalString(period['mode']);
    if (!mode)
        return undefined;
    return {
        mode,
        date: optionalString(period['date']) || undefined,
        parameter: optionalString(period['parameter']) || undefined
    };
}
/** A whole number of at least 0 (a duration, a count), or undefined. */
function optionalCount(value) {
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
function decodeCondition(condition) {
    const periodIndex = condition['periodIndex'];
    return {
        status: condition['status'] === undefined
            ? 'NONE'
            : statusWord(condition['status'], 'a condition status'),
        metricKey: optionalString(condition['metricKey']) ?? 'unknown metric',
        comparator: optionalString(condition['comparator']),
        errorThreshold: optionalString(condition['errorThreshold']),
        warningThreshold: optionalString(condition['warningThreshold']),
        actualValue: optionalString(condition['actualValue']),
        periodIndex: typeof periodIndex === 'number' ? periodIndex : undefined
    };
}
/** Decodes a page of `GET api/metrics/search` (`{metrics, total, p, ps}`); odd entries are skipped. */
function decodeMetricsPage(body) {
    const metrics = isObject(body) ? body['metrics'] : undefined;
    if (!isObject(body) || !Array.isArray(metrics)) {
        throw new UnexpectedShape('expected {"metrics": [...]}');
    }
    const total = body['total'];
    return {
        metrics: metrics.filter(isObject).flatMap((metric) => {
            const [key, name, type] = [metric['key'], metric['name'], metric['type']];
            return typeof key === 'string' && typeof name === 'string' && typeof type === 'string'
                ? [{ key, name, type }]
                : [];
        }),
        total: typeof total === 'number' && Number.isSafeInteger(total) ? total : metrics.length
    };
}
/**
 * Decodes `GET api/ce/component` (`{queue: [...], current: {...}}`): how long the last finished
 * task (`current`) took to process, when it succeeded and says so.
 */
function decodeLastProcessingMs(body) {
    if (!isObject(body) || !Array.isArray(body['queue'])) {
        throw new UnexpectedShape('expected {"queue": [...], "current": {...}}');
    }
    const current = body['current'];
    if (!isObject(current) || current['status'] !== 'SUCCESS')
        return undefined;
    return optionalCount(current['executionTimeMs']);
}
/** Decodes `GET api/project_analyses/search`: `{paging, analyses: [{key, date, revision}]}`. */
function decodeProjectAnalyses(body) {
    if (!isObject(body) || !Array.isArray(body['analyses'])) {
        throw new UnexpectedShape('expected {"analyses": [...]}');
    }
    const analyses = body['analyses'].flatMap((analysis, index) => {
        if (!isObject(analysis))
            return [];
        const key = optionalId(analysis['key'], `analyses[${index}].key`);
        if (key === undefined)
            return [];
        const revision = optionalString(analysis['revision']);
        return [
            {
                key,
                date: (0,untrusted_text/* oneLine */.TN)(optionalString(analysis['date']) ?? '', 60),
                revision: revision && /^[0-9a-f]{7,64}$/i.test(revision) ? revision.toLowerCase() : undefined
            }
        ];
    });
    const paging = body['paging'];
    const total = isObject(paging) ? paging['total'] : undefined;
    return {
        analyses,
        total: typeof total === 'number' && Number.isSafeInteger(total) ? total : analyses.length
    };
}
/** Decodes `GET api/ce/component` whole: `{queue: [...], current: {...}}`. */
function decodeComponentTasks(body) {
    if (!isObject(body) || !Array.isArray(body['queue'])) {
        throw new UnexpectedShape('expected {"queue": [...], "current": {...}}');
    }
    const task = (value, where) => {
        if (!isObject(value) || value['status'] === undefined)
            return undefined;
        return {
            id: optionalId(value['id'], `${where}.id`) ?? '',
            status: statusWord(value['status'], `${where}.status`),
            branch: optionalString(value['branch']) || undefined,
            pullRequest: optionalString(value['pullRequest']) || undefined,
            errorMessage: optionalString(value['errorMessage']),
            submittedAt: optionalString(value['submittedAt']),
            executionTimeMs: optionalCount(value['executionTimeMs']),
            analysisId: optionalId(value['analysisId'], `${where}.analysisId`)
        };
    };
    return {
        queue: body['queue'].flatMap((value, index) => task(value, `queue[${index}]`) ?? []),
        current: task(body['current'], 'current')
    };
}
/** Decodes `GET api/project_branches/list`: the names of the project's branches, main first. */
function decodeBranchNames(body) {
    if (!isObject(body) || !Array.isArray(body['branches'])) {
        throw new UnexpectedShape('expected {"branches": [...]}');
    }
    const branches = body['branches'].filter(isObject);
    const named = (branch) => (typeof branch['name'] === 'string' ? [branch['name']] : []);
    return [
        ...branches.filter((branch) => branch['isMain'] === true).flatMap(named),
        ...branches.filter((branch) => branch['isMain'] !== true).flatMap(named)
    ];
}
/**
 * Decodes `GET api/project_pull_requests/list`: `{pullRequests: [{key, analysisDate, ...}]}`,
 * every pull request of the project in one unpaged reply (its size bounded by the transport).
 */
function decodePullRequests(body) {
    if (!isObject(body) || !Array.isArray(body['pullRequests'])) {
        throw new UnexpectedShape('expected {"pullRequests": [...]}');
    }
    return body['pullRequests'].filter(isObject).flatMap((pull) => {
        const key = optionalString(pull['key']);
        if (!key)
            return [];
        const date = optionalString(pull['analysisDate']);
        const [base, target] = [branchName(pull['base']), branchName(pull['target'])];
        return [
            {
                key,
                analysisDate: date ? (0,untrusted_text/* oneLine */.TN)(date, 60) : undefined,
                ...(base ? { base } : {}),
                ...(target ? { target } : {})
            }
        ];
    });
}
/**
 * Decodes `GET api/measures/component?metricKeys=alert_status,quality_gate_details` as the gate
 * of the branch's or pull request's latest analysis: `alert_status` is its status, and
 * `quality_gate_details` (a JSON string: `{level, conditions: [{metric, op, period?, error,
 * warning?, actual, level}], ignoredConditions}`) its conditions. No `alert_status`: the project
 * has no gate (NONE).
 */
function decodeGateMeasures(body) {
    const component = isObject(body) ? body['component'] : undefined;
    if (!isObject(component) || !Array.isArray(component['measures'])) {
        throw new UnexpectedShape('expected {"component": {"measures": [...]}}');
    }
    const measures = component['measures'].filter(isObject);
    const value = (metric) => optionalString(measures.find((measure) => measure['metric'] === metric)?.['value']);
    const status = value('alert_status');
    let details;
    try {
        details = JSON.parse(value('quality_gate_details') ?? '{}');
    }
    catch {
        throw new UnexpectedShape('quality_gate_details is not JSON');
    }
    const conditions = isObject(details) && Array.isArray(details['conditions']) ? details['conditions'] : [];
    const ignored = isObject(details) ? details['ignoredConditions'] : undefined;
    return {
        status: status === undefined ? 'NONE' : statusWord(status, 'alert_status'),
        conditions: conditions.filter(isObject).map((condition) => decodeCondition({
            status: condition['level'],
            metricKey: condition['metric'],
            comparator: condition['op'],
            errorThreshold: condition['error'],
            warningThreshold: condition['warning'],
            actualValue: condition['actual'],
            periodIndex: condition['period']
        })),
        ignoredConditions: typeof ignored === 'boolean' ? ignored : undefined
    };
}

;// CONCATENATED MODULE: ./src/sonar/issues.ts
/**
 * `api/issues/search` as the action reads it: which parameters each server generation takes for
 * "the open issues of this analysis's new code", and the decoder that checks a reply page.
 * Facts from the server's own web service changelog:
 * - `componentKeys` was renamed `components` in 10.2 (the old name stays a deprecated key), and
 *   a server before 10.2 ignores `components`, which would return every project's issues: the
 *   new name only to servers known to be 10.2 or later.
 * - `sinceLeakPeriod` was deprecated in 9.4 for `inNewCodePeriod` and removed in 10.0, where it
 *   would be ignored (all the branch's issues): the old name only to servers known to be older
 *   than 9.4, and to SonarQube Cloud, whose API keeps it.
 * - `resolved=false` (open issues) is in every generation; `statuses`/`resolutions` were
 *   deprecated in 10.4 for `issueStatuses`, which older servers do not know.
 * - `severity` and `type` are deprecated in 10.4 for `impacts` (10.2+): both are read.
 * - `ps` is at most 500, and no page past the 10,000th result is served.
 */



/** The largest page api/issues/search serves, and the last result it serves at all. */
const ISSUES_PAGE_SIZE = 500;
const ISSUES_RESULT_WINDOW = 10_000;
/**
 * The query of one page: the project (and branch or pull request), open issues only, new ones
 * only, with the rules' names, in each generation's parameter names.
 *
 * @example issuesQuery('shop', { kind: 'new-code', branch: 'main' }, { cloud: false, version: [10, 7] }, 1).toString()
 * // 'components=shop&resolved=false&ps=500&p=1&additionalFields=rules&branch=main&inNewCodePeriod=true'
 */
function issuesQuery(projectKey, scope, kind, page) {
    const components = !kind.cloud && atLeast(kind, 10, 2) ? 'components' : 'componentKeys';
    const query = new URLSearchParams({
        [components]: projectKey,
        resolved: 'false',
        ps: String(ISSUES_PAGE_SIZE),
        p: String(page),
        additionalFields: 'rules'
    });
    const olderThan94 = kind.version !== undefined && !atLeast(kind, 9, 4);
    return withScope(query, scope, kind.cloud || olderThan94 ? 'sinceLeakPeriod' : 'inNewCodePeriod');
}
/**
 * The query narrowed to the scope: a pull request's own (all new by definition), or the
 * branch's new code, asked with `newCode`, the parameter the server's generation reads.
 */
function withScope(query, scope, newCode) {
    if (scope.kind === 'pull-request') {
        query.set('pullRequest', scope.pullRequest);
        return query;
    }
    if (scope.branch !== undefined)
        query.set('branch', scope.branch);
    query.set(newCode, 'true');
    return query;
}
const issues_isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const issues_text = (value) => (typeof value === 'string' ? value : undefined);
/** A line number: a whole number of at least 1, or undefined. */
const lineNumber = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
/** An offset in a line: a whole number of at least 0, or undefined. */
const offset = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
/** Severity and type words: upper case, short; anything else is dropped. */
const WORD = /^[A-Z][A-Z_]{0,39}$/;
const word = (value) => {
    const found = issues_text(value);
    return found !== undefined && WORD.test(found) ? found : undefined;
};
/**
 * Decodes one page of `GET api/issues/search`. An issue without a key, rule, message or
 * component is skipped (the reply is still used); a reply without `issues` is not the server's.
 * `total` is `paging.total` (9.8+) or the deprecated top-level `total`.
 */
function decodeIssuesPage(body) {
    const issues = issues_isObject(body) ? body['issues'] : undefined;
    if (!issues_isObject(body) || !Array.isArray(issues)) {
        throw new UnexpectedShape('expected {"issues": [...]}');
    }
    const paths = new Map();
    for (const component of arrayOf(body['components'])) {
        const [key, path] = [issues_text(component['key']), issues_text(component['path'])];
        if (key !== undefined && path !== undefined)
            paths.set(key, path);
    }
    const ruleNames = new Map();
    for (const rule of arrayOf(body['rules'])) {
        const [key, name] = [issues_text(rule['key']), issues_text(rule['name'])];
        if (key !== undefined && name !== undefined)
            ruleNames.set(key, name);
    }
    const paging = issues_isObject(body['paging']) ? body['paging'] : {};
    const total = [paging['total'], body['total']].find((value) => typeof value === 'number' && Number.isSafeInteger(value));
    const decoded = issues.filter(issues_isObject).flatMap((issue) => decodeIssue(issue, paths));
    return { issues: decoded, ruleNames, total: Math.max(0, total ?? decoded.length) };
}
function decodeIssue(issue, paths) {
    const [key, rule, message, component] = ['key', 'rule', 'message', 'component'].map((name) => issues_text(issue[name]));
    if (!key || (0,identifier/* idProblem */.l)(key) || !rule || message === undefined || !component)
        return [];
    const project = issues_text(issue['project']);
    const fromKey = project !== undefined && component.startsWith(`${project}:`)
        ? component.slice(project.length + 1)
        : undefined;
    return [
        {
            key,
            rule,
            message,
            component,
            path: paths.get(component) ?? fromKey,
            line: lineNumber(issue['line']),
            textRange: decodeTextRange(issue['textRange']),
            severity: word(issue['severity']),
            type: word(issue['type']),
            impacts: arrayOf(issue['impacts']).flatMap((impact) => {
                const [quality, severity] = [word(impact['softwareQuality']), word(impact['severity'])];
                return quality && severity ? [{ softwareQuality: quality, severity }] : [];
            }),
            cleanCodeAttribute: word(issue['cleanCodeAttribute'])
        }
    ];
}
function decodeTextRange(value) {
    if (!issues_isObject(value))
        return undefined;
    const startLine = lineNumber(value['startLine']);
    const endLine = lineNumber(value['endLine']);
    if (startLine === undefined || endLine === undefined || endLine < startLine)
        return undefined;
    return {
        startLine,
        endLine,
        startOffset: offset(value['startOffset']),
        endOffset: offset(value['endOffset'])
    };
}
function arrayOf(value) {
    return Array.isArray(value) ? value.filter(issues_isObject) : [];
}

;// CONCATENATED MODULE: ./src/sonar/hotspots.ts
/**
 * A branch's or pull request's security hotspots still to review (`GET api/hotspots/search`,
 * Browse). Checked against the server's sources (hotspot/ws/SearchAction.java and
 * ws-hotspots.proto): public since 9.8 (internal from 8.1), the project named `projectKey` (10.2
 * renames it `project` and keeps `projectKey` as its deprecated name), new code asked with
 * `sinceLeakPeriod` before 9.5 and `inNewCodePeriod` from 9.5 (ignored for a pull request, whose
 * hotspots are all its own), `ps` at most 500.
 */



/** How many hotspots a verdict names: the first few; the count says the rest. */
const HOTSPOTS_LISTED = 5;
/**
 * The query of the first page: the hotspots to review of the project's branch (its new code) or
 * pull request, in the parameter names of the server's generation.
 *
 * @example hotspotsQuery('shop', { kind: 'new-code', branch: 'main' }, { cloud: false, version: [9, 4] }).toString()
 * // 'projectKey=shop&status=TO_REVIEW&ps=5&p=1&branch=main&sinceLeakPeriod=true'
 */
function hotspotsQuery(projectKey, scope, kind) {
    const query = new URLSearchParams({
        projectKey,
        status: 'TO_REVIEW',
        ps: String(HOTSPOTS_LISTED),
        p: '1'
    });
    const olderThan95 = kind.version !== undefined && !atLeast(kind, 9, 5);
    return withScope(query, scope, olderThan95 ? 'sinceLeakPeriod' : 'inNewCodePeriod');
}
const hotspots_isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const hotspots_text = (value) => (typeof value === 'string' ? value : undefined);
const PROBABILITY = /^(HIGH|MEDIUM|LOW)$/;
/** How many entries of a reply are read at most. */
const MAX_READ = 100;
/**
 * Decodes the first page of `GET api/hotspots/search`: `{paging: {total}, hotspots: [{key,
 * component, message, line, vulnerabilityProbability}], components: [{key, path}]}`. A hotspot
 * without a key or message is left out; a reply without `hotspots` is not the server's.
 */
function decodeHotspotsPage(body) {
    const hotspots = hotspots_isObject(body) ? body['hotspots'] : undefined;
    if (!hotspots_isObject(body) || !Array.isArray(hotspots)) {
        throw new UnexpectedShape('expected {"hotspots": [...]}');
    }
    const components = Array.isArray(body['components']) ? body['components'] : [];
    const paths = new Map();
    for (const component of components.slice(0, 100)) {
        if (!hotspots_isObject(component))
            continue;
        const key = hotspots_text(component['key']);
        const path = hotspots_text(component['path']);
        if (key !== undefined && path !== undefined)
            paths.set(key, path);
    }
    // Asked for HOTSPOTS_LISTED: a longer reply is read no further than MAX_READ entries.
    const decoded = hotspots.slice(0, MAX_READ).flatMap((hotspot) => {
        if (!hotspots_isObject(hotspot))
            return [];
        const key = hotspots_text(hotspot['key']);
        const message = hotspots_text(hotspot['message']);
        if (!key || !message)
            return [];
        const line = hotspot['line'];
        const probability = hotspots_text(hotspot['vulnerabilityProbability']);
        return [
            {
                key,
                message,
                path: paths.get(hotspots_text(hotspot['component']) ?? ''),
                line: typeof line === 'number' && Number.isSafeInteger(line) && line >= 1 ? line : undefined,
                probability: probability && PROBABILITY.test(probability) ? probability : undefined
            }
        ];
    });
    const listed = decoded.slice(0, HOTSPOTS_LISTED);
    const paging = body['paging'];
    const total = hotspots_isObject(paging) ? paging['total'] : undefined;
    return {
        hotspots: listed,
        total: typeof total === 'number' && Number.isSafeInteger(total) && total >= decoded.length
            ? total
            : decoded.length
    };
}

;// CONCATENATED MODULE: ./src/sonar/measures.ts
/**
 * A branch's or pull request's measures (`GET api/measures/component`, Browse): the figures of
 * what changed in a verdict (coverage and duplication, on new code and overall). Checked against
 * the server's sources (measure/ws/ComponentAction.java and MeasureDtoToWsMeasure.java): a
 * measure on new code (`new_*`) never has a top-level `value`; 8.1 to 9.9 give it as
 * `periods: [{index, value}]` (deprecated since 8.1) and as `period: {index, value}`, 10.0 and
 * later as `period` alone; any other measure has `value` (older servers add its variation over the
 * new code period in `period`, which is not its value).
 */

/** How many measures a reply may hold: far more than are ever asked for. */
const MAX_MEASURES = 100;
/** A metric key as the server writes them. */
const METRIC_KEY = /^[a-z][a-z0-9_]{0,99}$/;
/**
 * A number as the server writes a measure: `81.2`, `0`, `-3.5`, and a double as Java writes it,
 * with every digit (`82.50562381034781`) or, below 0.001, in its exponent form (`1.0E-4`).
 */
const DECIMAL = /^-?\d{1,15}(\.\d{1,20})?(E-?\d{1,3})?$/;
const measures_isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * Decodes `GET api/measures/component`: `{component: {measures: [{metric, value | period |
 * periods}]}}` as the numbers it holds, by metric key, from every generation's shape. A measure
 * whose key or value is not one the server writes is left out (a metric with no value yet, say);
 * a reply without `component.measures` is not the server's.
 *
 * @example decodeMeasureValues({ component: { measures: [{ metric: 'new_coverage', period: { index: 1, value: '81.2' } }] } }) // Map { 'new_coverage' => 81.2 }
 */
function decodeMeasureValues(body) {
    const component = measures_isObject(body) ? body['component'] : undefined;
    const measures = measures_isObject(component) ? component['measures'] : undefined;
    if (!Array.isArray(measures)) {
        throw new UnexpectedShape('expected {"component": {"measures": [...]}}');
    }
    const values = new Map();
    for (const measure of measures.slice(0, MAX_MEASURES)) {
        if (!measures_isObject(measure))
            continue;
        const metric = measure['metric'];
        if (typeof metric !== 'string' || !METRIC_KEY.test(metric))
            continue;
        const value = measures_valueOf(measure);
        if (value !== undefined)
            values.set(metric, value);
    }
    return values;
}
/**
 * A measure's number: its own `value`; a measure on new code has none, and its number is its
 * `period`'s, else its first `periods`'.
 */
function measures_valueOf(measure) {
    const period = measure['period'];
    const periods = measure['periods'];
    const first = Array.isArray(periods) ? periods[0] : undefined;
    const text = [
        measure['value'],
        measures_isObject(period) ? period['value'] : undefined,
        measures_isObject(first) ? first['value'] : undefined
    ].find((value) => typeof value === 'string' && DECIMAL.test(value));
    const value = typeof text === 'string' ? Number(text) : undefined;
    return value !== undefined && Number.isFinite(value) ? value : undefined;
}

;// CONCATENATED MODULE: ./src/sonar/token-expiration.ts
/**
 * The token's expiry, as servers send it on authenticated replies
 * (`SonarQube-Authentication-Token-Expiration: 2025-06-01T00:00:00+0000`, for tokens that expire),
 * and the warning the action gives when it is near, as the scanner does: within 7 days.
 */
const TOKEN_EXPIRATION_HEADER = 'sonarqube-authentication-token-expiration';
/** How near the expiry must be for a warning: the scanner's own threshold. */
const WARN_DAYS_BEFORE_EXPIRY = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The header's date (`yyyy-MM-dd'T'HH:mm:ssZ`, the offset with or without a colon), or undefined
 * when it is not one.
 *
 * @example parseTokenExpiration('2025-06-01T00:00:00+0000') // Date 2025-06-01T00:00:00.000Z
 */
function parseTokenExpiration(value) {
    const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:?\d{2})$/.exec(value?.trim() ?? '');
    if (!match)
        return undefined;
    const [, time, zone = 'Z'] = match;
    const offset = zone === 'Z' ? zone : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    const at = Date.parse(`${time}${offset}`);
    return Number.isNaN(at) ? undefined : new Date(at);
}
/**
 * The warning to give for a token that expires at `expiresAt`, or undefined when it is more than
 * 7 days away.
 *
 * @example tokenExpiryWarning(new Date('2025-06-01T00:00:00Z'), Date.parse('2025-05-29T00:00:00Z'))
 * // 'The token expires on 2025-06-01 (in 3 days): …'
 */
function tokenExpiryWarning(expiresAt, nowEpochMs) {
    const leftMs = expiresAt.getTime() - nowEpochMs;
    if (leftMs > WARN_DAYS_BEFORE_EXPIRY * DAY_MS)
        return undefined;
    const date = expiresAt.toISOString().slice(0, 10);
    const days = Math.floor(leftMs / DAY_MS);
    const when = leftMs <= 0
        ? 'has expired'
        : days === 0
            ? 'expires today'
            : `expires in ${days} ${days === 1 ? 'day' : 'days'}`;
    return `The token ${when} (${date}): checks with it will fail from then on. Create a new token on the server (My Account → Security) and update the SONAR_TOKEN secret.`;
}

;// CONCATENATED MODULE: ./src/sonar/client.ts
















const UNKNOWN_SERVER = { cloud: false, version: undefined };
const MAX_REDIRECTS = 5;
/**
 * The least time a request is given, even near or just past the deadline: a poll or gate read
 * that starts then must have a chance to bring a verdict that is there. Nothing runs past
 * deadline + DEADLINE_GRACE_MS: that is the exact bound of the overall time-out.
 */
const DEADLINE_GRACE_MS = 1000;
/** The largest page api/metrics/search gives, and the most pages read (its own limit: 10,000). */
const METRICS_PAGE_SIZE = 500;
const MAX_METRICS_PAGES = 20;
/**
 * The one HTTP client of the action: the token sent as the server generation documents it
 * (Bearer or Basic, the other once after a 401) and only to the server's origin, per-request
 * time-outs, retries inside the overall deadline, JSON checks, and a message a user can act on for
 * every failure.
 */
class SonarClient {
    options;
    /** The scheme the token is sent with; switched once after a 401. */
    scheme;
    schemeSwitched = false;
    /** A 2xx reply came with the scheme: a later 401 is not the scheme's fault. */
    schemeAccepted = false;
    expirationSeen = false;
    serverBase;
    transport;
    rootCertGiven;
    /** Every form of the token: removed from each reply before anything is made of it. */
    secrets;
    /**
     * What a message asks the reader to check about the project: the project setting and, in
     * `scope`, the branch's or pull request's setting; or where the key came from when no setting
     * gave it.
     */
    keysFrom(scope = '') {
        return this.options.projectKeyFrom ?? (0,src_words/* msg */.ab) `${(0,src_words/* theSetting */.w7)('project')}${scope}`;
    }
    constructor(options) {
        // Defaults by ??, not by spreading: an option passed as undefined still gets its default.
        this.options = {
            ...options,
            requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
            random: options.random ?? Math.random,
            onRetry: options.onRetry ?? (() => { }),
            kind: options.kind ?? UNKNOWN_SERVER,
            onTokenExpiration: options.onTokenExpiration ?? (() => { })
        };
        this.scheme = firstAuthScheme(this.options.kind);
        // The spec: make the server address end in '/' before appending the API path.
        this.serverBase = (0,origin/* serverBase */.pT)(options.serverUrl);
        this.rootCertGiven = options.rootCert !== undefined;
        this.secrets = options.token === undefined ? [] : (0,src_secrets/* tokenForms */.py)(options.token);
        this.transport = new transport/* HttpTransport */.G5({
            userAgent: options.userAgent,
            rootCert: options.rootCert,
            maxBodyBytes: options.maxBodyBytes
        });
    }
    /**
     * `GET <taskUrl>`: the compute-engine task the analysis submitted. Servers that send a finished
     * task's warnings only when asked (the cloud, SonarQube before 10.1) are asked for them.
     */
    async getTask(taskUrl, taskId) {
        const task = (0,untrusted_text/* oneLine */.TN)(taskId);
        const url = new URL(taskUrl);
        if (asksForTaskWarnings(this.options.kind) && !url.searchParams.has('additionalFields')) {
            url.searchParams.set('additionalFields', 'warnings');
        }
        return this.getJson(url, {
            what: `task ${task}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `Task ${task} was not found: the report file may come from another server or an earlier run, or ${(0,src_words/* theSetting */.w7)('task')} is wrong. On SonarCloud, also check that the token belongs to the project's organization.`,
                badRequest: (0,src_words/* msg */.ab) `The server refused the request for task ${task}: check ${(0,src_words/* theSetting */.w7)('task')} or the report file's ceTaskId.`
            },
            decode: decodeTask
        });
    }
    /**
     * `GET <server>/api/system/status`'s `status`: UP, STARTING, DB_MIGRATION_NEEDED... (no
     * permission needed). Asked once, not tried again: it tells whether a server that stopped
     * answering is starting again.
     */
    async getSystemStatus() {
        const reply = await this.getJson(new URL('api/system/status', this.serverBase), {
            what: "the server's status",
            advice: {
                notFound: 'The server has no api/system/status.',
                badRequest: 'The server refused the request for its status.'
            },
            decode: decodeSystemStatus,
            once: true
        });
        return reply.status;
    }
    /** `GET <server>/api/qualitygates/project_status?analysisId=`: the gate of one analysis. */
    async getProjectStatus(analysisId) {
        const url = new URL(`api/qualitygates/project_status?analysisId=${encodeURIComponent(analysisId)}`, this.serverBase);
        const analysis = (0,untrusted_text/* oneLine */.TN)(analysisId);
        return this.getJson(url, {
            what: `the quality gate status of analysis ${analysis}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `Analysis ${analysis} was not found: check ${(0,src_words/* theSetting */.w7)('analysis')}, or the analysis was deleted by the server's housekeeping.`,
                badRequest: (0,src_words/* msg */.ab) `The server refused the request for analysis ${analysis}: check ${(0,src_words/* theSetting */.w7)('analysis')}.`
            },
            decode: decodeProjectStatus
        });
    }
    /**
     * The gate of a branch's or pull request's newest analysis
     * (`GET api/qualitygates/project_status?projectKey=` with `branch` or `pullRequest`, Browse):
     * for a pull request, whose analyses the server lists by no key.
     */
    async getScopeStatus(projectKey, on) {
        const url = new URL('api/qualitygates/project_status', this.serverBase);
        url.searchParams.set('projectKey', projectKey);
        if (on.branch !== undefined)
            url.searchParams.set('branch', on.branch);
        else if (on.pullRequest !== undefined)
            url.searchParams.set('pullRequest', on.pullRequest);
        const where = `${(0,untrusted_text/* oneLine */.TN)(projectKey)}${scopeWords(on)}`;
        return this.getJson(url, {
            what: `the quality gate status of ${where}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `The server knows no analysis of ${where}: check ${this.keysFrom((0,src_words/* msg */.ab) ` and ${(0,src_words/* theSetting */.w7)('pullRequest')}`)}.`,
                badRequest: `The server refused the request for the quality gate of ${where}.`
            },
            decode: decodeProjectStatus
        });
    }
    /**
     * The project's pull requests and the date of each one's newest analysis
     * (`GET api/project_pull_requests/list`, Browse or Execute Analysis): the server lists a pull
     * request's analyses nowhere else.
     */
    async getPullRequests(projectKey) {
        const url = new URL('api/project_pull_requests/list', this.serverBase);
        url.searchParams.set('project', projectKey);
        const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
        return this.getJson(url, {
            what: `the pull requests of ${project}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `The server knows no project ${project}: check ${this.keysFrom()}, and that the token may browse the project.`,
                unknownUrl: 'The server has no pull requests at all: Community Edition analyses the main branch only.',
                badRequest: `The server refused the request for the pull requests of ${project}.`
            },
            decode: decodePullRequests
        });
    }
    /**
     * Every metric the server defines (`GET api/metrics/search`, page by page), for the names and
     * value types of metrics the action does not know. Read once: a failure is not tried again.
     */
    async getMetrics() {
        const metrics = [];
        for (let page = 1; page <= MAX_METRICS_PAGES; page++) {
            const url = new URL(`api/metrics/search?ps=${METRICS_PAGE_SIZE}&p=${page}`, this.serverBase);
            const reply = await this.getJson(url, {
                what: 'the metric definitions',
                advice: {
                    notFound: 'The server has no api/metrics/search.',
                    badRequest: 'The server refused the metrics request.'
                },
                decode: decodeMetricsPage,
                once: true
            });
            metrics.push(...reply.metrics);
            if (reply.metrics.length === 0 || page * METRICS_PAGE_SIZE >= reply.total)
                break;
        }
        return metrics;
    }
    /**
     * The newest analyses of a project's branch or pull request (`GET api/project_analyses/search`,
     * Browse permission), newest first: the main branch's without either.
     */
    async getProjectAnalyses(projectKey, on) {
        const url = new URL('api/project_analyses/search', this.serverBase);
        url.searchParams.set('project', projectKey);
        if (on.branch !== undefined)
            url.searchParams.set('branch', on.branch);
        if (on.pullRequest !== undefined)
            url.searchParams.set('pullRequest', on.pullRequest);
        url.searchParams.set('ps', String(ANALYSES_PAGE_SIZE));
        const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
        const where = scopeWords(on);
        return this.getJson(url, {
            what: `the analyses of ${project}${where}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `The server knows no project ${project}${where}: check ${this.keysFrom(on.branch !== undefined ? (0,src_words/* msg */.ab) ` and ${(0,src_words/* theSetting */.w7)('branch')}` : on.pullRequest !== undefined ? (0,src_words/* msg */.ab) ` and ${(0,src_words/* theSetting */.w7)('pullRequest')}` : '')}, and that the token may browse the project.`,
                badRequest: (0,src_words/* msg */.ab) `The server refused the request for the analyses of ${project}${where}: check ${this.keysFrom()}${on.pullRequest !== undefined ? `; a server that analyses one branch only (Community Edition) has no pull requests` : ''}.`
            },
            decode: decodeProjectAnalyses
        });
    }
    /**
     * The gate of a branch's or pull request's latest analysis from its measures
     * (`GET api/measures/component`, `alert_status` and `quality_gate_details`, Browse): where
     * `project_status` is gone, and only while the analysis asked for is the newest. Read once.
     */
    async getGateMeasures(projectKey, on) {
        const url = new URL('api/measures/component', this.serverBase);
        url.searchParams.set('component', projectKey);
        if (on.branch !== undefined)
            url.searchParams.set('branch', on.branch);
        else if (on.pullRequest !== undefined)
            url.searchParams.set('pullRequest', on.pullRequest);
        url.searchParams.set('metricKeys', 'alert_status,quality_gate_details');
        const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
        return this.getJson(url, {
            what: `the quality gate measures of ${project}${scopeWords(on)}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `The server knows no project ${project}${scopeWords(on)}: check ${this.keysFrom()}.`,
                badRequest: `The server refused the request for the quality gate measures of ${project}.`
            },
            decode: decodeGateMeasures,
            once: true
        });
    }
    /**
     * Measures of a branch or pull request (`GET api/measures/component`, Browse), as numbers by
     * metric key, each generation's shape read (see measures.ts). Read once: they are never the
     * verdict, so a failure is not tried again.
     */
    async getMeasures(projectKey, on, metricKeys) {
        const url = new URL('api/measures/component', this.serverBase);
        url.searchParams.set('component', projectKey);
        if (on.branch !== undefined)
            url.searchParams.set('branch', on.branch);
        else if (on.pullRequest !== undefined)
            url.searchParams.set('pullRequest', on.pullRequest);
        url.searchParams.set('metricKeys', metricKeys.join(','));
        const where = `${(0,untrusted_text/* oneLine */.TN)(projectKey)}${scopeWords(on)}`;
        return this.getJson(url, {
            what: `the measures of ${where}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `The server knows no project ${where}: check ${this.keysFrom()}.`,
                badRequest: `The server refused the request for the measures of ${where}.`
            },
            decode: decodeMeasureValues,
            once: true
        });
    }
    /**
     * The first security hotspots to review of a branch's new code or a pull request, and how many
     * there are (`GET api/hotspots/search`, Browse), in the parameters of the server's generation
     * (see hotspots.ts). Read once.
     */
    async getHotspots(projectKey, scope) {
        const query = hotspotsQuery(projectKey, scope, this.options.kind);
        const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
        return this.getJson(new URL(`api/hotspots/search?${query.toString()}`, this.serverBase), {
            what: `the security hotspots of ${project}`,
            advice: {
                notFound: `The server has no api/hotspots/search (before 8.1), or does not know the project ${project}.`,
                badRequest: `The server refused the hotspots request for ${project}.`
            },
            decode: decodeHotspotsPage,
            once: true
        });
    }
    /**
     * The names of the project's branches, main first (`GET api/project_branches/list`, Browse),
     * to say what the server has when a branch asked for is not among them. Read once.
     */
    async getBranchNames(projectKey) {
        const url = new URL('api/project_branches/list', this.serverBase);
        url.searchParams.set('project', projectKey);
        const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
        return this.getJson(url, {
            what: `the branches of ${project}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `The server knows no project ${project}: check ${this.keysFrom()}.`,
                badRequest: `The server refused the request for the branches of ${project}.`
            },
            decode: decodeBranchNames,
            once: true
        });
    }
    /**
     * The project's background tasks: those queued or running, and the last one that ended
     * (`GET api/ce/component`, Browse permission).
     */
    async getComponentTasks(projectKey) {
        const url = new URL('api/ce/component', this.serverBase);
        url.searchParams.set('component', projectKey);
        const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
        return this.getJson(url, {
            what: `the background tasks of ${project}`,
            advice: {
                notFound: (0,src_words/* msg */.ab) `The server knows no project ${project}: check ${this.keysFrom()}.`,
                badRequest: `The server refused the request for the background tasks of ${project}.`
            },
            decode: decodeComponentTasks
        });
    }
    /**
     * How long the project's last finished analysis took to process (`GET api/ce/component`,
     * Browse permission), or undefined when the server names none. Read once: a failure is not
     * tried again.
     */
    async getPreviousProcessingMs(projectKey) {
        const url = new URL(`api/ce/component?component=${encodeURIComponent(projectKey)}`, this.serverBase);
        return this.getJson(url, {
            what: `the last analysis of ${(0,untrusted_text/* oneLine */.TN)(projectKey)}`,
            advice: {
                notFound: `The server does not know the project ${(0,untrusted_text/* oneLine */.TN)(projectKey)}.`,
                badRequest: 'The server refused the request for the last analysis.'
            },
            decode: decodeLastProcessingMs,
            once: true
        });
    }
    /**
     * One page of the project's open new issues (`GET api/issues/search`, Browse permission), in
     * the parameters the server's generation takes (see issuesQuery). Read once: a failure is not
     * tried again, since the verdict never waits on the issues.
     */
    async getIssuesPage(projectKey, scope, page) {
        const query = issuesQuery(projectKey, scope, this.options.kind, page);
        const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
        return this.getJson(new URL(`api/issues/search?${query.toString()}`, this.serverBase), {
            what: `the new issues of ${project}`,
            advice: {
                notFound: `The server has no api/issues/search, or does not know the project ${project}.`,
                badRequest: `The server refused the issues request for ${project}.`
            },
            decode: decodeIssuesPage,
            once: true
        });
    }
    /** `GET <server>/api/ce/task?id=`: a task by its id on this server. */
    getTaskById(taskId) {
        return this.getTask(this.taskUrl(taskId), taskId);
    }
    /** The task address for a task id on this server: `<server>/api/ce/task?id=<id>`. */
    taskUrl(taskId) {
        return new URL(`api/ce/task?id=${encodeURIComponent(taskId)}`, this.serverBase);
    }
    /** Ends the kept-alive connections; the client reconnects if used again. */
    close() {
        this.transport.close();
    }
    async getJson(url, resource) {
        if (!(0,origin/* isSameOrigin */.J6)(url, this.options.serverUrl)) {
            throw new errors/* UnsafeRequestError */.uP((0,src_words/* msg */.ab) `Refusing to send the token to ${(0,origin/* shownUrl */.zA)(url, 'origin')}: the task address is not on the server ${(0,origin/* shownUrl */.zA)(this.options.serverUrl, 'origin')}. The report file may be tampered with or from another server; set ${(0,src_words/* setting */.Pe)('host')} to the server you trust to build the task address from it.`);
        }
        const { clock, deadline } = this.options;
        for (let attempt = 0;; attempt++) {
            let failed;
            try {
                const reply = await this.authenticated(url, resource);
                if (reply.status < 200 || reply.status >= 300) {
                    failed = statusFailure(reply, url, resource, this.authTried(), analysisTokenKind(this.options.token));
                }
                else {
                    this.noteTokenExpiration(reply);
                    const decoded = decodeJson(url, reply, resource);
                    if (!('failed' in decoded))
                        return decoded.value;
                    failed = decoded.failed;
                }
            }
            catch (error) {
                // The one failure that arises outside the family: the transport's, worded here.
                if (!(error instanceof transport/* TransportFailure */.Az))
                    throw error;
                failed = transportFailure(error, url, resource, this.rootCertGiven);
            }
            if (resource.once)
                throw failed.error;
            const decision = (0,retry_policy/* decideRetry */.tE)(failed.fault, attempt, deadline - clock.now(), this.options.random, Date.now());
            if (!decision.retry) {
                if (!decision.why)
                    throw failed.error;
                const { message, status, nodeCode, analysisToken, noReply, origin } = failed.error;
                throw new errors/* ServerRequestError */.hP((0,src_words/* msg */.ab) `${message} ${decision.why}`, status, {
                    nodeCode,
                    analysisToken,
                    noReply,
                    origin,
                    cause: failed.error
                });
            }
            this.options.onRetry(`${failed.cause} for ${resource.what}; trying again in ${decision.delayMs} ms (try ${attempt + 2}).`);
            await clock.sleep(decision.delayMs);
        }
    }
    /**
     * One GET with the token; after a 401, the same GET once more with the other scheme (servers
     * before 10.0 take only Basic; some proxies and the cloud may take only Bearer). The scheme that
     * works is kept for every later request: once the server has taken it, a 401 (a server starting
     * again answers so before its sessions are ready) does not switch it.
     */
    async authenticated(url, resource) {
        const reply = await this.followRedirects(url, resource);
        this.noteAccepted(reply);
        if (reply.status !== 401 ||
            this.options.token === undefined ||
            this.schemeSwitched ||
            this.schemeAccepted) {
            return reply;
        }
        const tried = this.scheme;
        this.schemeSwitched = true;
        this.scheme = otherScheme(tried);
        this.options.onRetry(`HTTP 401 with ${SCHEME_NAMES[tried]} authentication for ${resource.what}; trying ${SCHEME_NAMES[this.scheme]} once.`);
        return this.noteAccepted(await this.followRedirects(url, resource));
    }
    /** A 2xx reply: the server took the token with the scheme it was sent with. */
    noteAccepted(reply) {
        if (reply.status >= 200 && reply.status < 300)
            this.schemeAccepted = true;
        return reply;
    }
    /** Which schemes the token was sent with, for the 401 message; undefined without a token. */
    authTried() {
        if (this.options.token === undefined)
            return undefined;
        const schemes = this.schemeSwitched ? [otherScheme(this.scheme), this.scheme] : [this.scheme];
        return schemes.map((scheme) => SCHEME_NAMES[scheme]).join(' and ');
    }
    /** The token's expiry from the first reply that gives one. */
    noteTokenExpiration(reply) {
        if (this.expirationSeen)
            return;
        const expiresAt = parseTokenExpiration((0,transport/* headerValue */.Z)(reply, TOKEN_EXPIRATION_HEADER));
        if (!expiresAt)
            return;
        this.expirationSeen = true;
        this.options.onTokenExpiration(expiresAt);
    }
    /** One GET, following same-origin redirects by hand so the token never leaves the server. */
    async followRedirects(start, resource) {
        let url = start;
        for (let hop = 0;; hop++) {
            const reply = await this.send(url, resource);
            const location = (0,transport/* headerValue */.Z)(reply, 'location');
            if (reply.status < 300 || reply.status >= 400 || reply.status === 304 || !location) {
                return reply;
            }
            const next = redirectTarget(location, url, resource);
            if (!(0,origin/* isAllowedRedirect */.vU)(url, next)) {
                throw new errors/* UnsafeRequestError */.uP((0,src_words/* msg */.ab) `Refusing to follow a redirect from ${(0,origin/* shownUrl */.zA)(url, 'origin')} to ${(0,origin/* shownUrl */.zA)(next, 'origin')} with the token: redirects are followed only on the same server (or its https:// address). Set ${(0,src_words/* setting */.Pe)('host')} to the address the server really answers on.`);
            }
            if (hop + 1 >= MAX_REDIRECTS) {
                throw new errors/* ServerRequestError */.hP((0,src_words/* msg */.ab) `Too many redirects (${MAX_REDIRECTS}) starting at ${(0,origin/* shownUrl */.zA)(start)}: set ${(0,src_words/* setting */.Pe)('host')} to the address the server really answers on.`, reply.status);
            }
            url = next;
        }
    }
    /** One request, body included, within its time-out and never past deadline + grace. */
    async send(url, resource) {
        const { deadline, clock, requestTimeoutMs, token } = this.options;
        // Up to the deadline, or 1 s if that is less, but never past deadline + grace.
        const now = clock.now();
        const hardLeftMs = deadline + DEADLINE_GRACE_MS - now;
        if (hardLeftMs <= 0)
            throw deadlineReached(url, resource);
        const leftMs = Math.min(Math.max(deadline - now, DEADLINE_GRACE_MS), hardLeftMs);
        const cutByDeadline = leftMs < requestTimeoutMs;
        const headers = { accept: 'application/json' };
        if (token !== undefined)
            headers['authorization'] = authorization(token, this.scheme);
        try {
            const reply = await this.transport.get(url, headers, Math.min(leftMs, requestTimeoutMs));
            return replyWithoutToken(reply, this.secrets);
        }
        catch (error) {
            if (cutByDeadline && error instanceof transport/* TransportFailure */.Az && error.reason === 'timeout') {
                throw deadlineReached(url, resource, error);
            }
            throw error;
        }
    }
}
/** A request the overall deadline cut short: a time-out, not a server fault. */
function deadlineReached(url, resource, cause) {
    return new errors/* TimeoutError */.MU((0,src_words/* msg */.ab) `The overall time-out (${(0,src_words/* setting */.Pe)('timeout')}) ran out while waiting for ${resource.what} from ${(0,origin/* shownUrl */.zA)(url)}.`, cause === undefined ? undefined : { cause });
}
/** A redirect's Location as a URL, or a clear refusal: only http(s) addresses are followed. */
function redirectTarget(location, from, resource) {
    let next;
    try {
        next = new URL(location, from);
    }
    catch {
        next = undefined;
    }
    const quoted = `"${(0,untrusted_text/* oneLine */.TN)(location, untrusted_text/* QUOTE_LIMITS */.gJ.short)}"`;
    if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
        throw new errors/* ServerRequestError */.hP((0,src_words/* msg */.ab) `The server redirected the request for ${resource.what} to ${next ? quoted : `${quoted}, which is not an address`}: only http:// and https:// addresses on the same server are followed. Set ${(0,src_words/* setting */.Pe)('host')} to the address the server really answers on.`);
    }
    if (next.username || next.password) {
        throw new errors/* UnsafeRequestError */.uP(`Refusing to follow a redirect to an address with credentials in it (${(0,origin/* shownUrl */.zA)(next, 'origin')}): the action sends only its own token.`);
    }
    return next;
}
/**
 * A 2xx reply decoded, or why not: a body cut off mid-JSON is a failed try that may heal on
 * another; any other body or shape that is not the API's is thrown, as it will not.
 */
function decodeJson(url, reply, resource) {
    const from = `for ${resource.what} from ${(0,origin/* shownUrl */.zA)(url)}`;
    let json;
    try {
        json = parseJsonBody(reply.body, reply.headers);
    }
    catch (error) {
        if (!(error instanceof BodyProblem))
            throw error;
        const failure = new errors/* ServerRequestError */.hP((0,src_words/* msg */.ab) `The reply ${from} ${error.said}.`, reply.status, {
            cause: error
        });
        if (!error.truncated)
            throw failure;
        return { failed: { error: failure, fault: { kind: 'transient' }, cause: 'truncated body' } };
    }
    try {
        return { value: resource.decode(json) };
    }
    catch (error) {
        if (!(error instanceof UnexpectedShape))
            throw error;
        throw new errors/* ServerRequestError */.hP(`Unexpected reply ${from}: ${error.message}. Is this a SonarQube or SonarCloud server?`, reply.status, { cause: error });
    }
}
/**
 * The reply with every form of the token removed from its headers and its body, so that nothing
 * made of the server's text (a link, a value cut to a length, a quoted error) can hold it: a
 * sink recognises the token's forms, not what is made of them. The one place the server's
 * replies lose the token (docs/security.md). A body is decoded only when it holds one of them,
 * or escapes (`\u0073`, `\"`) that could spell one once parsed (a binary body stays as it is).
 */
function replyWithoutToken(reply, secrets) {
    if (secrets.length === 0)
        return reply;
    const headers = {};
    for (const [name, value] of Object.entries(reply.headers)) {
        headers[name] = Array.isArray(value)
            ? value.map((each) => (0,src_secrets/* redactSecrets */.fp)(each, secrets))
            : value === undefined
                ? undefined
                : (0,src_secrets/* redactSecrets */.fp)(value, secrets);
    }
    const body = secrets.some((secret) => secret !== '' && reply.body.includes(secret))
        ? Buffer.from((0,src_secrets/* redactSecrets */.fp)(reply.body.toString('utf8'), secrets))
        : reply.body;
    return { ...reply, headers, body: body.includes('\\') ? escapedTokenOut(body, secrets) : body };
}
/**
 * A JSON body whose strings spell a form of the token with escapes, written again without it;
 * any other body (one that is not JSON included) as it is, for the reader to judge.
 */
function escapedTokenOut(body, secrets) {
    let changed = false;
    let json;
    try {
        json = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''), (_, value) => {
            if (typeof value !== 'string')
                return value;
            const without = (0,src_secrets/* redactSecrets */.fp)(value, secrets);
            changed ||= without !== value;
            return without;
        });
    }
    catch {
        return body;
    }
    return changed ? Buffer.from(JSON.stringify(json)) : body;
}
/** How many analyses one request lists: the newest are the ones a step waits for. */
const ANALYSES_PAGE_SIZE = 100;
/** ` on branch release/2.4`, ` on pull request 42`, or nothing for the main branch. */
function scopeWords(on) {
    if (on.branch !== undefined)
        return ` on branch ${(0,untrusted_text/* oneLine */.TN)(on.branch)}`;
    if (on.pullRequest !== undefined)
        return ` on pull request ${(0,untrusted_text/* oneLine */.TN)(on.pullRequest)}`;
    return '';
}

;// CONCATENATED MODULE: ./src/gate/evaluate.ts
/**
 * The spec's rule: a condition is ERROR when `actualValue` compares to `errorThreshold` in the
 * comparator's direction (GT: greater, LT: less; EQ and NE from old servers: equal, not equal).
 * Returns undefined when the rule cannot be applied: no threshold, no value, an unknown
 * comparator, or GT/LT on values that are not numbers.
 *
 * @example isConditionBreached({ comparator: 'LT', errorThreshold: '80', actualValue: '75.5', ... }) // true
 */
function isConditionBreached(condition) {
    const { comparator, errorThreshold, actualValue } = condition;
    if (errorThreshold === undefined || actualValue === undefined)
        return undefined;
    const actual = toNumber(actualValue);
    const threshold = toNumber(errorThreshold);
    const numeric = actual !== undefined && threshold !== undefined;
    switch (comparator) {
        case 'GT':
            return numeric ? actual > threshold : undefined;
        case 'LT':
            return numeric ? actual < threshold : undefined;
        case 'EQ':
            return numeric ? actual === threshold : actualValue === errorThreshold;
        case 'NE':
            return numeric ? actual !== threshold : actualValue !== errorThreshold;
        default:
            return undefined;
    }
}
/** Applies the rule to every condition and marks where it disagrees with the server. */
function evaluateConditions(conditions) {
    return conditions.map((condition) => {
        const breached = isConditionBreached(condition);
        const recomputed = breached === undefined ? undefined : breached ? 'ERROR' : 'OK';
        return {
            condition,
            recomputed,
            agreesWithServer: recomputed === undefined || (recomputed === 'ERROR') === (condition.status === 'ERROR')
        };
    });
}
function toNumber(value) {
    if (value.trim() === '')
        return undefined;
    const number = Number(value);
    return Number.isFinite(number) ? number : undefined;
}

// EXTERNAL MODULE: ./src/findings/finding.ts
var finding = __nccwpck_require__(4879);
;// CONCATENATED MODULE: ./src/gate/new-issues.ts




/**
 * How many issues are read per analysis: 10 pages of 500, well inside the server's own window
 * of 10,000. Past them the count still says how many there are.
 */
const NEW_ISSUE_LIMITS = { pages: 10, issues: 10 * ISSUES_PAGE_SIZE };
/**
 * The open new issues of an analysis (see IssueScope), page by page, at most
 * NEW_ISSUE_LIMITS.pages pages: one request per 500 issues. Never throws: a token without the
 * Browse permission (403) or any other failure is a reason, and the verdict stays as it is.
 *
 * @example const issues = await readNewIssues(client, 'shop', { kind: 'new-code', branch: undefined }, context)
 */
async function readNewIssues(client, projectKey, scope, context) {
    const issues = [];
    const ruleNames = new Map();
    let total = 0;
    let requests = 0;
    try {
        for (let page = 1; page <= NEW_ISSUE_LIMITS.pages; page++) {
            requests++;
            const reply = await client.getIssuesPage(projectKey, scope, page);
            issues.push(...reply.issues.slice(0, NEW_ISSUE_LIMITS.issues - issues.length));
            for (const [key, name] of reply.ruleNames)
                ruleNames.set(key, name);
            total = Math.max(reply.total, issues.length);
            const served = page * ISSUES_PAGE_SIZE;
            if (reply.issues.length < ISSUES_PAGE_SIZE || served >= total)
                break;
            if (served >= ISSUES_RESULT_WINDOW || issues.length >= NEW_ISSUE_LIMITS.issues)
                break;
        }
    }
    catch (error) {
        return { read: false, reason: failureReason(error, issues.length) };
    }
    const full = { ...context, projectKey };
    return {
        read: true,
        scope,
        findings: issues.map((issue) => (0,finding/* toFinding */.N6)(issue, ruleNames, full)),
        total,
        requests
    };
}
function failureReason(error, readSoFar) {
    const partly = readSoFar > 0 ? ` (after ${readSoFar} of them)` : '';
    if (error instanceof errors/* ServerRequestError */.hP && error.status === 403) {
        return `The token may not browse the project's issues (HTTP 403)${partly}: new issues are not shown. Give the token's user the Browse permission on the project to see them.`;
    }
    return (0,src_words/* msg */.ab) `The new issues could not be read${partly}: ${(0,errors/* saidOf */.Jo)(error)}`;
}

// EXTERNAL MODULE: ./src/gate/what-changed.ts
var what_changed = __nccwpck_require__(6400);
// EXTERNAL MODULE: ./src/run-scope.ts
var run_scope = __nccwpck_require__(7303);
;// CONCATENATED MODULE: ./src/gate/analysis-sightings.ts
/**
 * One poll of the wait for a project's analysis (wait-for-analysis.ts): what it reads of the
 * server for a branch or for a pull request, and what it saw: the analysis, or what is pending
 * and what the server has instead.
 */





/** How many of the project's branches or pull requests a message lists when one is unknown. */
const BRANCHES_LISTED = 20;
/**
 * A branch's poll: its newest analyses (the commit's among them, or the newest), else the
 * project's tasks. An unknown branch is refused at once, with the branches the server has,
 * unless a commit's first scan may be coming. `read`: the tasks this poll already read.
 */
async function lookAtBranch(server, projectKey, on, commits, expected, now, read) {
    const tasks = () => (read ? Promise.resolve(read) : readTasks(server, projectKey, now));
    let page;
    try {
        page = await server.getProjectAnalyses(projectKey, on);
    }
    catch (error) {
        const { branch } = on;
        if (branch === undefined || !(error instanceof errors/* ServerRequestError */.hP) || error.status !== 404) {
            throw error;
        }
        if (!expected)
            throw await unknownScope(server, projectKey, { branch }, error);
        return {
            ...(await tasks()),
            unknown: () => unknownScopeWords(server, projectKey, { branch })
        };
    }
    const found = pick(page, commits);
    if (found)
        return { found };
    if (commits.length > 0 && page.analyses.length > 0 && page.analyses.every((a) => !a.revision)) {
        const where = `${(0,untrusted_text/* oneLine */.TN)(projectKey)}${scopeWords(on)}`;
        throw new errors/* AnalysisNotFoundError */.g2((0,src_words/* msg */.ab) `The analyses of ${where} record no commit (scans without SCM data, e.g. no .git folder or sonar.scm.disabled): the analysis of ${(0,run_scope/* shortShas */.Q)(commits)} cannot be told from the others. Run the scan with the repository's history, or leave ${(0,src_words/* setting */.Pe)('commit')} out to check the newest analysis.`);
    }
    return { ...(await tasks()), newest: page.analyses[0] };
}
/**
 * A branch's poll when no commit is asked for: the project's tasks first, and while a task of
 * the branch is queued or running, or its newest failed, nothing more: the analysis that task
 * makes is the newest, not the one before it (read after the tasks, so that a task seen ended
 * has its analysis listed). Else the branch's newest analysis (lookAtBranch).
 */
async function lookAtNewest(server, projectKey, on, now) {
    const read = await readTasks(server, projectKey, now);
    if (unsettled(read.tasks, on, []))
        return read;
    return lookAtBranch(server, projectKey, on, [], false, now, read);
}
/**
 * Whether a task of the scope is queued or running, or its newest failed (which ends the wait,
 * wait-for-analysis.ts): then no analysis of it is taken.
 */
function unsettled(tasks, on, commits) {
    const ended = tasks.current && isAwaited(tasks.current, on, commits) ? tasks.current : undefined;
    return (tasks.queue.some((task) => isAwaited(task, on, commits)) ||
        ended?.status === 'FAILED' ||
        ended?.status === 'CANCELED');
}
/**
 * A pull request's poll: the project's tasks, and while none of the pull request's is pending
 * and its newest did not fail, the project's pull requests with the date of each one's newest
 * analysis (the server lists a pull request's analyses nowhere else, and records no commit of
 * them it shows): that analysis, if made after `since`.
 */
async function lookAtPullRequest(server, projectKey, pullRequest, since, expected, now) {
    const read = await readTasks(server, projectKey, now);
    const { tasks } = read;
    const on = { pullRequest };
    if (unsettled(tasks, on, []))
        return read;
    const ended = tasks.current && inScope(tasks.current, on) ? tasks.current : undefined;
    const pulls = await server.getPullRequests(projectKey);
    const pull = pulls.find(({ key }) => key === pullRequest);
    if (!pull) {
        const unknown = () => Promise.resolve(pullRequestsWords(projectKey, pullRequest, pulls));
        if (!expected)
            throw new errors/* AnalysisNotFoundError */.g2((0,src_words/* msg */.ab) `${await unknown()}: check ${(0,src_words/* theSetting */.w7)('pullRequest')}.`);
        return { ...read, unknown };
    }
    const date = pull.analysisDate;
    if (date === undefined)
        return read;
    const at = Date.parse(date);
    if (since && !(at >= since.at))
        return { ...read, newest: { date } };
    // The project's last finished task names the analysis when it is this pull request's.
    const key = ended?.status === 'SUCCESS' ? ended.analysisId : undefined;
    const basis = since
        ? `made after ${since.what} (${isoSeconds(since.at)})`
        : "not confirmed to be this run's: the server records no commit for a pull request's analysis, and the run did not say when its scan started";
    return { found: { key, date, revision: undefined, newest: true, basis } };
}
/** The commit's analysis among the newest, or the newest when no commit is asked for. */
function pick(page, commits) {
    const [newest] = page.analyses;
    const found = commits.length > 0
        ? page.analyses.find(({ revision }) => revision !== undefined && commits.includes(revision))
        : newest;
    return found && { ...found, newest: found === newest };
}
/** Whether a task is of the branch or pull request waited for (a task names its own). */
function inScope(task, on) {
    if (on.pullRequest !== undefined)
        return task.pullRequest === on.pullRequest;
    if (task.pullRequest !== undefined)
        return false;
    // A task that names no branch is the main branch's (a server of one branch names none, and its
    // main branch is the only one there is): it may be the one waited for.
    return on.branch === undefined || task.branch === undefined || task.branch === on.branch;
}
/**
 * Whether a task is one the wait is for (inScope); for the newest analysis of the main branch
 * named by no name, only a task that names no branch: the main branch's name is not known, and
 * another branch's scan must not hold the wait.
 */
function isAwaited(task, on, commits) {
    if (commits.length === 0 && on.branch === undefined && on.pullRequest === undefined) {
        return task.branch === undefined && task.pullRequest === undefined;
    }
    return inScope(task, on);
}
/** The project's tasks, and when the server measured them (halfway through the request). */
async function readTasks(server, projectKey, now) {
    const sentAt = now();
    const tasks = await server.getComponentTasks(projectKey);
    return { tasks, tasksAt: (sentAt + now()) / 2 };
}
/**
 * A 404 for a branch: the project's branches, when they can be read, say whether the project or
 * the branch is unknown, and which branches there are (the first BRANCHES_LISTED).
 */
async function unknownScope(server, projectKey, on, cause) {
    let names;
    try {
        names = await server.getBranchNames(projectKey);
    }
    catch {
        return cause;
    }
    return new errors/* AnalysisNotFoundError */.g2((0,src_words/* msg */.ab) `${branchesWords(projectKey, on.branch, names)}. Check ${(0,src_words/* theSetting */.w7)('branch')}; a server that analyses one branch only (Community Edition) has its main branch alone.`, { cause });
}
/** For a time-out: the branches the server has, or why they could not be read. */
async function unknownScopeWords(server, projectKey, on) {
    try {
        return branchesWords(projectKey, on.branch, await server.getBranchNames(projectKey));
    }
    catch {
        return `the project ${(0,untrusted_text/* oneLine */.TN)(projectKey)} has no branch "${(0,untrusted_text/* oneLine */.TN)(on.branch)}" on the server yet`;
    }
}
function branchesWords(projectKey, branch, names) {
    return `The project ${(0,untrusted_text/* oneLine */.TN)(projectKey)} has no branch "${(0,untrusted_text/* oneLine */.TN)(branch)}" on the server: it has ${listed(names)}`;
}
function pullRequestsWords(projectKey, pullRequest, pulls) {
    const none = pulls.length === 0
        ? ' (a server that analyses one branch only, Community Edition, has none)'
        : '';
    return `The project ${(0,untrusted_text/* oneLine */.TN)(projectKey)} has no pull request ${(0,untrusted_text/* oneLine */.TN)(pullRequest)} on the server: it has ${listed(pulls.map(({ key }) => key))}${none}`;
}
/** Names as a message lists them: the first BRANCHES_LISTED, quoted, and how many more. */
function listed(names) {
    const shown = names.slice(0, BRANCHES_LISTED).map((name) => `"${(0,untrusted_text/* oneLine */.TN)(name)}"`);
    const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
    return `${shown.join(', ') || 'none'}${more}`;
}
/** A time as the log shows it: ISO 8601 to the second, UTC. */
function isoSeconds(at) {
    return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// EXTERNAL MODULE: ./src/gate/poll-plan.ts
var poll_plan = __nccwpck_require__(716);
// EXTERNAL MODULE: ./src/gate/wait-for-task.ts
var wait_for_task = __nccwpck_require__(8648);
;// CONCATENATED MODULE: ./src/gate/wait-for-analysis.ts








/**
 * Waits for the analysis of `commit` on the branch or pull request: each poll lists the newest
 * analyses, and while the commit's is not among them, the project's background tasks, to say
 * what is pending and to end at once when the newest task of that branch or pull request failed.
 * Without a commit, the branch's newest analysis: each poll reads the tasks first, and while a
 * task of the branch is queued or running, waits for the analysis it makes rather than taking
 * the one before it (and ends at once when it failed). A pull request's analyses record no commit
 * the server shows: its newest analysis is taken once none of its tasks is pending, and, when the
 * run says when its scan started (`since`), only if made after that. A branch or pull request the
 * server does not know is waited for while a commit is (its first scan may be coming), and
 * refused at once otherwise, with the names the server has. One line of the log each time what
 * it waits for changes. Never sleeps past the deadline; two requests a poll at most (and the
 * branches' list to refuse an unknown one), none once found.
 *
 * @example const found = await waitForAnalysis({ server: client, projectKey: 'shop', on: { branch: 'main' }, commits, clock, startedAt, deadline, intervalMs: 1000, log })
 */
async function waitForAnalysis(options) {
    const { clock, deadline, log } = options;
    const wanted = wantedOf(options);
    const seen = { last: undefined, pending: [] };
    const timedOut = (cause) => analysisTimeout(wanted, seen, options, cause);
    // Polls keep a fixed cadence from the step's start, the first at once, or gather around the
    // end the running task and the previous analysis predict.
    const cadence = { startedAt: options.startedAt, initialWaitMs: 0, intervalMs: options.intervalMs };
    let prediction;
    let lastPollAt;
    const watch = taskWatch();
    let said = '';
    for (;;) {
        const pollAt = (0,poll_plan/* nextPollAt */.m)(cadence, lastPollAt, prediction);
        const waitMs = Math.min(pollAt, deadline) - clock.now();
        if (waitMs > 0)
            await clock.sleep(waitMs);
        if (clock.now() >= deadline)
            throw await timedOut();
        lastPollAt = Math.max(pollAt, clock.now());
        const unseen = watch.endedUnseen();
        if (unseen) {
            const task = await endedAs(options.server, unseen.id, timedOut);
            if (task && (task.status === 'FAILED' || task.status === 'CANCELED')) {
                throw taskFailed(wanted, task);
            }
            continue;
        }
        let sighting;
        try {
            sighting = await look(options, wanted);
        }
        catch (error) {
            if (error instanceof errors/* TimeoutError */.MU)
                throw await timedOut(error);
            throw error;
        }
        if ('found' in sighting)
            return sighting.found;
        seen.last = sighting;
        const { tasks } = sighting;
        seen.pending = tasks.queue.filter((task) => isAwaited(task, options.on, options.commits));
        const ended = tasks.current && isAwaited(tasks.current, options.on, options.commits)
            ? tasks.current
            : undefined;
        if (seen.pending.length === 0 && ended && ['FAILED', 'CANCELED'].includes(ended.status)) {
            throw taskFailed(wanted, ended);
        }
        watch.saw(seen.pending, tasks.current);
        if (!wanted.expected && seen.pending.length === 0 && !sighting.newest) {
            throw new errors/* AnalysisNotFoundError */.g2((0,src_words/* msg */.ab) `${wanted.where} has no analysis yet, and no analysis of it is queued or running: run the scan first, or check ${(0,src_words/* setting */.Pe)('branch')} or ${(0,src_words/* setting */.Pe)('pullRequest')}.`);
        }
        const line = waitingLine(wanted, sighting, seen.pending.length, options.on);
        // One line each time what is waited for changes; its text tells.
        if ((0,src_words/* textOf */.b6)(line) !== said)
            log.info(line);
        said = (0,src_words/* textOf */.b6)(line);
        if (options.adaptive && !prediction)
            prediction = predicted(tasks, seen.pending, sighting.tasksAt);
    }
}
function wantedOf({ projectKey, on, commits, since: given }) {
    const pullRequest = on.pullRequest;
    const commit = commits.length > 0 && pullRequest === undefined ? (0,run_scope/* shortShas */.Q)(commits) : undefined;
    const newest = commits.length === 0 && pullRequest === undefined;
    const project = (0,untrusted_text/* oneLine */.TN)(projectKey);
    const since = pullRequest !== undefined ? given : undefined;
    const sinceWords = since ? ` since ${isoSeconds(since.at)} (${since.what})` : '';
    let what = `an analysis${sinceWords}`;
    if (newest)
        what = 'the newest analysis';
    if (commit)
        what = `the analysis of ${commit}`;
    return {
        project,
        where: `${project}${scopeWords(on)}`,
        pullRequest,
        commit,
        newest,
        since,
        sinceWords,
        what,
        expected: commits.length > 0 || since !== undefined
    };
}
/** One look at the server for what is wanted: a pull request's, a branch's newest, or a commit's. */
function look(options, wanted) {
    const { server, projectKey, on, commits, clock } = options;
    const now = () => clock.now();
    if (wanted.pullRequest !== undefined) {
        return lookAtPullRequest(server, projectKey, wanted.pullRequest, wanted.since, wanted.expected, now);
    }
    if (wanted.newest)
        return lookAtNewest(server, projectKey, on, now);
    return lookAtBranch(server, projectKey, on, commits, wanted.expected, now);
}
function analysisTimeout(wanted, { last, pending }, { clock, startedAt, deadline }, cause) {
    return whatWasSeen(last, wanted.newest ? pending : [], wanted.pullRequest !== undefined).then((seen) => {
        const advice = wanted.newest
            ? 'The server has not processed its scan yet (see the Background Tasks page)'
            : `The scan may not have run for this ${wanted.pullRequest !== undefined ? 'pull request' : 'commit'}, or its task may still be queued`;
        return new errors/* TimeoutError */.MU((0,src_words/* msg */.ab) `Timed out after ${(0,wait_for_task/* seconds */.Y)(clock.now() - startedAt)} waiting for ${wanted.what} of ${wanted.where}: ${seen}. ${advice}; raise ${(0,src_words/* setting */.Pe)('timeout')} (now ${(0,wait_for_task/* seconds */.Y)(deadline - startedAt)}).`, cause && { cause });
    });
}
function taskFailed(wanted, task) {
    return new errors/* TaskFailedError */.zX(`The newest background task of ${wanted.where}, ${(0,untrusted_text/* oneLine */.TN)(task.id)}, ended ${(0,untrusted_text/* oneLine */.TN)(task.status)} before ${wanted.what} appeared: ${task.errorMessage ? (0,untrusted_text/* oneLine */.TN)(task.errorMessage, untrusted_text/* QUOTE_LIMITS */.gJ.long) : 'the server gave no reason'}. See the project's Background Tasks page on the server.`);
}
/**
 * The tasks of what is wanted seen queued or running; once all have ended while the project's
 * last task names another (api/ce/component's `current` is of any branch), the newest of them,
 * for the next poll to read alone, so that its failure ends the wait too.
 */
function taskWatch() {
    const watched = new Map();
    let unseen;
    return {
        saw(pending, current) {
            for (const task of pending)
                watched.set(task.id, task);
            if (pending.length > 0 || watched.size === 0)
                return;
            const newestSeen = [...watched.values()].at(-1);
            watched.clear();
            if (newestSeen && current?.id !== newestSeen.id)
                unseen = newestSeen;
        },
        endedUnseen() {
            const task = unseen;
            unseen = undefined;
            return task;
        }
    };
}
/**
 * The line that says what the wait is waiting for: the analysis not there yet; the one a scan of
 * the branch, queued or running, makes; the first of a branch or pull request the server does
 * not know.
 */
function waitingLine(wanted, sighting, pending, on) {
    const { where, pullRequest } = wanted;
    if (sighting.unknown) {
        const scope = pullRequest !== undefined ? 'pull request' : 'branch';
        return (0,src_words/* msg */.ab) `The server has no ${scope} ${(0,untrusted_text/* oneLine */.TN)(pullRequest ?? on.branch ?? '')} of ${wanted.project} yet: waiting for its first analysis (or check ${(0,src_words/* theSetting */.w7)(pullRequest !== undefined ? 'pullRequest' : 'branch')}); ${pending} pending.`;
    }
    if (wanted.newest && pending > 0) {
        return `A scan of ${where} is queued or running: waiting for its analysis, the newest, rather than taking the one before it; ${pending} pending.`;
    }
    const of = wanted.commit ? `${wanted.commit} of ${where}` : `${where}${wanted.sinceWords}`;
    return `No analysis of ${of} yet; ${pending} pending.`;
}
/**
 * What the server had when the time ran out, for the time-out's message: the branches or pull
 * requests it has when the one asked for is unknown; else, waiting for a branch's newest, its task
 * still queued or running (`pending`); else its newest analysis (a pull request's by its date, a branch's by its commit);
 * else that there is none.
 */
async function whatWasSeen(last, pending, pullRequest) {
    if (last?.unknown)
        return last.unknown();
    const running = pending.find((task) => task.status === 'IN_PROGRESS') ?? pending[0];
    if (running) {
        const state = running.status === 'IN_PROGRESS' ? 'still running' : 'still queued';
        return `its task ${(0,untrusted_text/* oneLine */.TN)(running.id)} is ${state}${pending.length > 1 ? `, ${pending.length} pending in all` : ''}`;
    }
    if (!last?.newest)
        return 'there is none yet';
    if (pullRequest)
        return `its newest analysis is of ${last.newest.date}`;
    const revision = last.newest.revision ? last.newest.revision.slice(0, 7) : 'no recorded commit';
    return `the newest is of ${revision} (${last.newest.date})`;
}
/**
 * A task that ended unseen, as the server tells it; undefined when it may not be read (a Browse
 * token) or cannot be: the wait goes on as before.
 */
async function endedAs(server, taskId, timedOut) {
    try {
        return await server.getTaskById(taskId);
    }
    catch (error) {
        if (error instanceof errors/* TimeoutError */.MU)
            throw await timedOut(error);
        return undefined;
    }
}
/**
 * The end of the branch's running task, when the project's last finished analysis says how long
 * one takes (api/ce/component gives both): undefined until a task of the branch runs.
 */
function predicted(tasks, pending, polledAt) {
    const running = pending.find((task) => task.status === 'IN_PROGRESS');
    const previous = tasks.current;
    if (!running || running.executionTimeMs === undefined)
        return undefined;
    if (!previous || previous.status !== 'SUCCESS' || previous.executionTimeMs === undefined) {
        return undefined;
    }
    return (0,poll_plan/* predictEnd */.R)(polledAt, running.executionTimeMs, previous.executionTimeMs);
}

;// CONCATENATED MODULE: ./src/gate/check.ts













/**
 * The client for a target's server: the token only to its origin, the overall deadline, the
 * token's expiry and the retries reported in the log. Several targets on one server share it,
 * and with it one kept-alive connection.
 */
function clientFor(target, settings, deps) {
    const { clock, deadline, log } = deps;
    return new SonarClient({
        serverUrl: target.serverUrl,
        token: settings.token,
        rootCert: settings.rootCert,
        userAgent: deps.userAgent,
        kind: target.kind,
        onTokenExpiration: (expiresAt) => {
            const warning = tokenExpiryWarning(expiresAt, clock.now());
            if (warning)
                log.warning(warning);
        },
        clock,
        deadline,
        random: deps.random,
        onRetry: (message) => log.info(message),
        projectKeyFrom: projectKeyFrom(target)
    });
}
/**
 * Where a target's project key came from, as a message asks to check it: the project setting
 * (the client's default) for a project's analysis; else what the user gave, the report file or
 * the task or analysis whose project it is.
 */
function projectKeyFrom(target) {
    if (target.wait === 'commit')
        return undefined;
    // Several report files on one server share a client: the words name none of them.
    if (target.reportFile !== undefined)
        return 'the projectKey of the report file';
    return target.wait === 'task' ? (0,src_words/* theSetting */.w7)('task') : (0,src_words/* theSetting */.w7)('analysis');
}
/**
 * The check of one analysis: wait for its task (unless the target is an analysis already), read
 * its quality gate and re-evaluate the conditions. Throws an ExplainedError on any failure; an
 * ERROR gate is a result, not an exception: the caller decides whether it fails the job.
 *
 * @example const result = await checkTarget(target, clientFor(target, settings, deps), settings, deps)
 */
async function checkTarget(target, client, settings, deps) {
    let finished;
    let found;
    let analysisId;
    if (target.wait === 'task') {
        finished = await waitFor(target, client, settings, deps);
        analysisId = finished.analysisId;
    }
    else if (target.wait === 'commit') {
        found = await waitForCommit(target, client, settings, deps);
        analysisId = found.key;
    }
    else {
        analysisId = target.analysisId;
    }
    const projectKey = target.projectKey ?? finished?.componentKey;
    // The branch or pull request: as the task says, or as the settings asked for.
    const on = target.wait === 'commit'
        ? target.on
        : { branch: finished?.branch, pullRequest: finished?.pullRequest };
    const { gate, fromMeasures } = await readGate(client, analysisId, {
        projectKey,
        on,
        newest: found?.newest,
        log: deps.log
    });
    const conditions = await withServerMetrics(gate.conditions, client, deps.log);
    const { newIssues, whatChanged } = projectKey
        ? await readBesideTheGate(client, target, settings, deps, { projectKey, on, analysisId })
        : {};
    return {
        status: gate.status,
        qualityGateStatus: check_toQualityGateStatus(gate.status),
        analysisId,
        taskId: target.wait === 'task' ? target.taskId : undefined,
        serverUrl: target.serverUrl.href,
        dashboardUrl: target.dashboardUrl ?? dashboardFor(target.serverUrl, projectKey, on),
        projectKey,
        conditions: evaluateConditions(conditions),
        taskWarnings: finished?.warnings ?? [],
        elapsedMs: deps.clock.now() - deps.startedAt,
        branch: on.branch,
        branchType: finished?.branchType,
        pullRequest: on.pullRequest,
        ...(found
            ? {
                analysis: {
                    date: found.date,
                    revision: found.revision,
                    newest: found.newest,
                    ...(found.basis ? { basis: found.basis } : {})
                }
            }
            : {}),
        ...(fromMeasures ? { gateFromMeasures: true } : {}),
        period: gate.period,
        caycStatus: gate.caycStatus,
        ignoredConditions: gate.ignoredConditions,
        newIssues,
        ...(whatChanged ? { whatChanged } : {})
    };
}
/**
 * What the check reads once the gate is known, all at once: none changes the verdict, and each
 * failure is a line of its own. The new issues, unknown rather than none when the token may not
 * see them; what changed; and a warning when the analysis is not of the run's commit.
 */
async function readBesideTheGate(client, target, settings, deps, analysis) {
    const { projectKey, on, analysisId } = analysis;
    const [readIssues, whatChanged] = await Promise.all([
        readNewIssues(client, projectKey, issueScope(on), {
            serverUrl: target.serverUrl,
            branch: on.branch,
            pullRequest: on.pullRequest,
            locate: deps.locateFiles?.(target) ?? (() => undefined)
        }),
        (0,what_changed/* readWhatChanged */.dU)(client, projectKey, on),
        target.wait !== 'commit' && settings.runCommit && analysisId
            ? warnOfAnotherCommit(client, { projectKey, on, analysisId }, settings.runCommit, deps.log)
            : undefined
    ]);
    const newIssues = unlessHidden(readIssues, whatChanged);
    if (newIssues)
        deps.log.info(newIssuesLine(newIssues));
    if (whatChanged)
        deps.log.info((0,what_changed/* whatChangedLine */.r6)(whatChanged));
    return { newIssues, whatChanged };
}
/**
 * The analysis's gate from api/qualitygates/project_status (by its key; a pull request's analysis
 * the server did not name, by the pull request, whose newest it is); where the server answers that
 * with 404 or 410 (an endpoint gone), from the measures of the branch's or pull request's latest
 * analysis, but only when that is this analysis (known from the wait, or asked of a branch), and
 * said in the log. Any other failure, or an analysis that is not the latest, keeps the server's
 * refusal.
 */
async function readGate(client, analysisId, about) {
    const { projectKey, on, log } = about;
    try {
        const gate = analysisId !== undefined
            ? await client.getProjectStatus(analysisId)
            : await client.getScopeStatus(projectKey ?? '', on);
        return { gate, fromMeasures: false };
    }
    catch (error) {
        const gone = error instanceof errors/* ServerRequestError */.hP && (error.status === 404 || error.status === 410);
        if (!gone || !projectKey)
            throw error;
        const newest = about.newest ??
            (on.pullRequest === undefined &&
                (await client.getProjectAnalyses(projectKey, on).then((page) => page.analyses[0]?.key === analysisId, () => false)));
        if (!newest)
            throw error;
        const gate = await client.getGateMeasures(projectKey, on);
        log.info(`api/qualitygates/project_status answered ${error.status}: the gate is read from the measures of ${(0,untrusted_text/* oneLine */.TN)(projectKey)}${scopeWords(on)}, whose latest analysis is this one.`);
        return { gate, fromMeasures: true };
    }
}
/**
 * One warning when the server records another commit for the analysis than the one the run
 * names (Settings.runCommit): read from its branch's newest analyses, when it is among them (a
 * pull request's analyses record none the server shows). Any failure to read them says nothing:
 * the check goes on as it is.
 */
async function warnOfAnotherCommit(client, analysis, commit, log) {
    const { projectKey, on, analysisId } = analysis;
    if (on.pullRequest !== undefined)
        return;
    const page = await client.getProjectAnalyses(projectKey, on).catch(() => undefined);
    const revision = page?.analyses.find(({ key }) => key === analysisId)?.revision;
    if (!revision || commit.startsWith(revision))
        return;
    log.warning((0,src_words/* msg */.ab) `${(0,src_words/* settingTitle */.h3)('commit')} names commit ${commit.slice(0, 7)}, but the server records ${revision.slice(0, 7)} for the analysis checked, ${(0,untrusted_text/* oneLine */.TN)(analysisId)} of ${(0,untrusted_text/* oneLine */.TN)(projectKey)}${scopeWords(on)}: the verdict is that commit's. Check ${(0,src_words/* setting */.Pe)('commit')}, or leave it out to take the CI's commit.`);
}
/** A pull request's issues when the analysis is of one, else the branch's new code. */
function issueScope(on) {
    return on.pullRequest
        ? { kind: 'pull-request', pullRequest: on.pullRequest }
        : { kind: 'new-code', branch: on.branch };
}
/** Waits for the commit's analysis (or takes the newest), in one collapsed group of the log. */
async function waitForCommit(target, client, settings, { clock, startedAt, deadline, log }) {
    // A pull request's analyses record no commit the server shows: its newest is the one.
    const what = target.commits.length > 0 && target.on.pullRequest === undefined
        ? `the analysis of ${(0,run_scope/* shortShas */.Q)(target.commits)}`
        : 'the newest analysis';
    log.startGroup(`Waiting for ${what} of ${(0,untrusted_text/* oneLine */.TN)(target.projectKey)}${scopeWords(target.on)}`);
    try {
        const found = await waitForAnalysis({
            server: client,
            projectKey: target.projectKey,
            on: target.on,
            commits: target.commits,
            ...(target.since ? { since: target.since } : {}),
            clock,
            startedAt,
            deadline,
            intervalMs: settings.intervalMs,
            adaptive: settings.adaptivePolling,
            log
        });
        if (found.basis) {
            log.info(`Taking the newest analysis of ${(0,untrusted_text/* oneLine */.TN)(target.projectKey)}${scopeWords(target.on)}, ${found.date}: ${found.basis}.`);
            return found;
        }
        const revision = found.revision
            ? ` of ${found.revision.slice(0, 7)}`
            : ', which records no commit';
        log.info(`Analysis ${(0,untrusted_text/* oneLine */.TN)(found.key ?? '')}${revision}, ${found.date}${found.newest ? '' : ' (a newer analysis of it has landed since)'}.`);
        return found;
    }
    finally {
        log.endGroup();
    }
}
/** What was read, in one line: the count, and where the count goes past what was read. */
function newIssuesLine(newIssues) {
    if (!newIssues.read)
        return newIssues.reason;
    const { findings, total, requests } = newIssues;
    const shown = findings.length < total ? `; the first ${findings.length} are shown` : '';
    return `New issues: ${total}${shown} (${requests} ${requests === 1 ? 'request' : 'requests'}).`;
}
/**
 * The conditions, each with the server's definition of its metric when the action does not know
 * the metric itself (custom metrics, software quality metrics...): its name and value type, read
 * once from api/metrics/search. A token that may not read them (403) changes nothing: the keys
 * are shown; any other failure says so in one line. The verdict never waits on a retry for this.
 */
async function withServerMetrics(conditions, client, log) {
    if (conditions.every(({ metricKey }) => (0,metrics/* isKnownMetric */.Oi)(metricKey)))
        return conditions;
    let definitions;
    try {
        definitions = await client.getMetrics();
    }
    catch (error) {
        if (!(error instanceof errors/* ServerRequestError */.hP && error.status === 403)) {
            log.info((0,src_words/* msg */.ab) `Metric names could not be read, so metric keys are shown: ${(0,errors/* saidOf */.Jo)(error)}`);
        }
        return conditions;
    }
    const byKey = new Map(definitions.map((definition) => [definition.key, definition]));
    return conditions.map((condition) => {
        const metric = byKey.get(condition.metricKey);
        return metric ? { ...condition, metric } : condition;
    });
}
/** Waits for the target's task, its polls logged in one collapsed group. */
async function waitFor(target, client, settings, { clock, startedAt, deadline, log }) {
    log.startGroup(`Waiting for analysis task ${target.taskId}`);
    try {
        const taskUrl = target.taskUrl ?? client.taskUrl(target.taskId);
        // Any failure (a token without Browse on the project...) leaves the fixed cadence.
        const { projectKey } = target;
        const readPreviousProcessingMs = settings.adaptivePolling && projectKey
            ? () => client.getPreviousProcessingMs(projectKey).catch(() => undefined)
            : undefined;
        return await (0,wait_for_task/* waitForTask */.a)({
            taskId: target.taskId,
            fetchTask: () => client.getTask(taskUrl, target.taskId),
            clock,
            startedAt,
            deadline,
            initialWaitMs: settings.initialWaitMs,
            intervalMs: settings.intervalMs,
            onPoll: (task, elapsedMs) => log.info(`${(0,untrusted_text/* oneLine */.TN)(task.status)} after ${(0,wait_for_task/* seconds */.Y)(elapsedMs)}`),
            readPreviousProcessingMs,
            serverNotUp: () => serverNotUp(client),
            onOutage: (words) => log.info(words),
            onPrediction: ({ endsAt, earlyMs, lateMs }) => log.info(`The project's previous analysis predicts the end at about ${(0,wait_for_task/* seconds */.Y)(endsAt - startedAt)}: polling closer together from ${(0,wait_for_task/* seconds */.Y)(endsAt - earlyMs - startedAt)} to ${(0,wait_for_task/* seconds */.Y)(endsAt + lateMs - startedAt)}.`)
        });
    }
    finally {
        log.endGroup();
    }
}
/**
 * The new issues as read, unless the server hid them: it answers a user who may not browse the
 * project no issues rather than a refusal (SonarQube 9.9, 10.7 and 26.9 alike), so none read
 * beside a measures or hotspots read refused to the same user token (403) is not known to be none.
 */
function unlessHidden(newIssues, whatChanged) {
    if (!newIssues?.read || newIssues.total > 0 || !whatChanged)
        return newIssues;
    const refused = [whatChanged.newCode, whatChanged.hotspots].some((part) => 'unread' in part && part.browseRefused);
    if (!refused)
        return newIssues;
    return {
        read: false,
        reason: "New issues: not known. The server answered none, but it hides a project's issues from a user who may not browse it, and it refused this token the project's measures or hotspots (HTTP 403). Give the token's user the Browse permission on the project to see them."
    };
}
/**
 * Whether the server says it is not up: api/system/status answers another status than UP (STARTING,
 * DB_MIGRATION_RUNNING...), 5xx or nothing. A 4xx says nothing of it (a proxy that blocks the
 * address): then it is taken to be up, and the task is asked for.
 */
async function serverNotUp(client) {
    try {
        return (await client.getSystemStatus()) !== 'UP';
    }
    catch (error) {
        return error instanceof errors/* ServerRequestError */.hP && (error.noReply || (error.status ?? 0) >= 500);
    }
}
/**
 * The SonarSource action's `quality-gate-status` for a gate status. A status this action does
 * not know (FAILED, say, which no server sends for a gate) is NONE: only ERROR fails.
 *
 * @example toQualityGateStatus('ERROR') // 'FAILED'
 */
function check_toQualityGateStatus(status) {
    switch (status) {
        case 'OK':
            return 'PASSED';
        case 'WARN':
            return 'WARN';
        case 'ERROR':
            return 'FAILED';
        default:
            return 'NONE';
    }
}
function dashboardFor(server, projectKey, on) {
    if (!projectKey)
        return undefined;
    const url = new URL('dashboard', (0,origin/* serverBase */.pT)(server));
    url.searchParams.set('id', projectKey);
    if (on.pullRequest)
        url.searchParams.set('pullRequest', on.pullRequest);
    else if (on.branch)
        url.searchParams.set('branch', on.branch);
    return url.href;
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
;// CONCATENATED MODULE: ./src/gate/targets.ts










/** The most analyses one step checks: a glob matching more is too wide. */
const MAX_ANALYSES = 50;
/** Characters that make a report files line a glob rather than a path. */
const GLOB_CHARACTERS = /[*?[]/;
/**
 * The analyses to check: the analysis or task asked for by its id, or else the report files the
 * report files setting's lines name or match (the first default location when it is empty).
 * A file found twice, or two files for the same task, are checked once. A report file that
 * cannot be used is returned with its error, so the others are still checked; finding no file
 * at all throws a ReportFileError that names every line.
 *
 * @example await findTargets(settings, { cwd: process.cwd(), log, findFiles })
 */
async function findTargets(settings, sources) {
    const host = settings.hostUrl;
    const known = (server) => ({ serverUrl: server, kind: serverKind(server) });
    const manual = { dashboardUrl: undefined, projectKey: undefined };
    if (host && settings.analysisId) {
        const target = {
            wait: 'analysis',
            ...known(host),
            analysisId: settings.analysisId,
            ...manual
        };
        return [{ source: `analysis ${(0,untrusted_text/* oneLine */.TN)(settings.analysisId)}`, target }];
    }
    if (host && settings.taskId) {
        const target = {
            wait: 'task',
            ...known(host),
            taskId: settings.taskId,
            taskUrl: undefined,
            ...manual
        };
        return [{ source: `task ${(0,untrusted_text/* oneLine */.TN)(settings.taskId)}`, target }];
    }
    // A report file that quotes the token loses it before anything is made of its values.
    if (host && settings.projectKeys.length > 0) {
        const on = { branch: settings.branch, pullRequest: settings.pullRequest };
        return settings.projectKeys.map((projectKey) => ({
            source: `${projectKey}${scopeWords(on)}`,
            target: {
                wait: 'commit',
                ...known(host),
                projectKey,
                on,
                commits: settings.commits,
                ...(settings.since ? { since: settings.since } : {}),
                dashboardUrl: undefined
            }
        }));
    }
    const read = reportTextWithoutToken(sources.readFile ?? readTextFile, settings.token);
    if (settings.reportFiles.length === 0) {
        const report = await loadReportFile(undefined, sources.cwd, read);
        return [{ source: report.file, target: reportTarget(report, host) }];
    }
    const files = await reportFiles(settings.reportFiles, sources);
    const found = await Promise.all(files.map(async (file) => {
        try {
            return {
                source: file,
                target: reportTarget(await loadReportFile(file, sources.cwd, read), host)
            };
        }
        catch (error) {
            return { source: file, projectKey: undefined, error: (0,errors/* asError */.zR)(error) };
        }
    }));
    return withoutRepeatedTasks(found, sources.log);
}
/** The report's target: its task on its server (or on the host setting, when set). */
function reportTarget(report, host) {
    // With the host setting, the task address is built from it, never taken from the file.
    const { serverUrl, taskUrl } = taskAddress(report, host);
    return {
        wait: 'task',
        serverUrl,
        kind: serverKind(serverUrl, report),
        taskId: report.ceTaskId,
        taskUrl,
        dashboardUrl: report.dashboardUrl?.href,
        projectKey: report.projectKey,
        reportFile: report.file
    };
}
/**
 * The files the lines name: a path as it is (a missing one is reported as missing), a glob
 * expanded, unless a file has that very name (`reports[1]/report-task.txt`). Each file once, in
 * the order of the lines; at most MAX_ANALYSES.
 */
async function reportFiles(lines, sources) {
    const files = new Map();
    for (const line of lines) {
        const matches = GLOB_CHARACTERS.test(line) && sources.findFiles && !(await exists(sources.cwd, line))
            ? await sources.findFiles(line, sources.cwd, MAX_ANALYSES + 1)
            : [line];
        if (matches.length === 0)
            sources.log.info(`No report file matches ${shown(line)}.`);
        for (const file of matches) {
            const key = external_node_path_default().resolve(sources.cwd, file);
            if (!files.has(key))
                files.set(key, file);
        }
        if (files.size > MAX_ANALYSES) {
            throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `${(0,src_words/* setting */.Pe)('reportFile')} matches more than ${MAX_ANALYSES} report files (${shown(line)} among them): one step checks at most ${MAX_ANALYSES} analyses. Narrow the globs, e.g. services/*/target/sonar/report-task.txt rather than **/report-task.txt, which also finds copies in dependencies.`);
        }
    }
    // One path that is missing keeps its own message (where scanners write the file); several
    // lines of which none finds a file are named together.
    const found = [...files.values()];
    const nothing = files.size === 0 ||
        (lines.length > 1 &&
            !(await Promise.all(found.map((file) => exists(sources.cwd, file)))).some(Boolean));
    if (nothing) {
        throw new errors/* ReportFileError */.tG((0,src_words/* msg */.ab) `No report file matches ${(0,src_words/* setting */.Pe)('reportFile')}: ${lines.map(shown).join(', ')} (relative to ${shown(sources.cwd)}). Run this step after the analyses, in the same job and working directory; scanners write report-task.txt in .scannerwork/, target/sonar/, build/sonar/ or .sonarqube/out/.sonar/.`);
    }
    return found;
}
/** Two report files for the same task on the same server: the first is kept, the other logged. */
function withoutRepeatedTasks(found, log) {
    const seen = new Map();
    return found.filter((entry) => {
        if (!('target' in entry) || entry.target.wait !== 'task')
            return true;
        const key = `${(0,origin/* serverBase */.pT)(entry.target.serverUrl).href} ${entry.target.taskId}`;
        const first = seen.get(key);
        if (first === undefined) {
            seen.set(key, entry.source);
            return true;
        }
        log.info(`${shown(entry.source)} is for the same task as ${shown(first)} (${(0,untrusted_text/* oneLine */.TN)(entry.target.taskId)}): it is checked once.`);
        return false;
    });
}
async function exists(cwd, file) {
    try {
        await (0,promises_.stat)(external_node_path_default().resolve(cwd, file));
        return true;
    }
    catch {
        return false;
    }
}
function shown(text) {
    return `"${(0,untrusted_text/* oneLine */.TN)(text, untrusted_text/* QUOTE_LIMITS */.gJ.long)}"`;
}
/** `read`, with every form of the token removed from the text it returns. */
function reportTextWithoutToken(read, token) {
    const forms = token ? (0,src_secrets/* tokenForms */.py)(token) : [];
    if (forms.length === 0)
        return read;
    return async (file) => {
        const text = await read(file);
        return text === undefined ? undefined : (0,src_secrets/* redactSecrets */.fp)(text, forms);
    };
}

;// CONCATENATED MODULE: ./src/gate/check-analyses.ts







/**
 * The whole check, for every analysis the settings name: each is waited for and read at the same
 * time under the one overall time-out, with one client (and one kept-alive connection) per
 * server. One analysis that cannot be read does not lose the others' verdicts: each outcome says
 * what became of its analysis. Throws only when there is nothing to check (no report file).
 *
 * With one analysis the log is written as it happens; with several, each analysis's lines are
 * kept and written in one group, named for its project, when it is done, so they never mix.
 *
 * @example const outcomes = await checkQualityGates(readSettings(core.getInput, process.env), deps)
 */
async function checkQualityGates(settings, deps) {
    const found = await findTargets(settings, deps);
    const { repoRoot } = deps;
    const locateFiles = repoRoot === undefined
        ? undefined
        : (target) => locator(analysisBaseDir(target.reportFile, deps.cwd), repoRoot, deps.fileExists);
    const clients = new Map();
    const clientOf = ({ target }) => {
        const key = (0,origin/* serverBase */.pT)(target.serverUrl).href;
        let client = clients.get(key);
        if (!client) {
            client = clientFor(target, settings, deps);
            clients.set(key, client);
        }
        return client;
    };
    const several = found.length > 1;
    if (several) {
        deps.log.info(`Checking ${found.length} analyses at once: ${found.map(({ source }) => quoted(source)).join(', ')}.`);
    }
    try {
        return await Promise.all(found.map(async (entry) => {
            const group = several ? groupedLog(deps.log) : undefined;
            const projectKey = 'target' in entry ? entry.target.projectKey : undefined;
            try {
                if (!('target' in entry))
                    throw entry.error;
                const log = group ?? deps.log;
                const result = await checkTarget(entry.target, clientOf(entry), settings, {
                    ...deps,
                    log,
                    locateFiles
                });
                return { read: true, source: entry.source, result };
            }
            catch (error) {
                const failure = (0,errors/* asError */.zR)(error);
                group?.info((0,src_words/* msg */.ab) `The gate could not be read: ${(0,errors/* saidOf */.Jo)(failure)}`);
                return {
                    read: false,
                    source: entry.source,
                    projectKey,
                    message: (0,errors/* saidOf */.Jo)(failure),
                    error: failure
                };
            }
            finally {
                group?.writeAs(projectKey ?? entry.source);
            }
        }));
    }
    finally {
        for (const client of clients.values())
            client.close();
    }
}
/**
 * A Log that keeps its lines and writes them, in one group, when `writeAs` is called: groups
 * cannot nest or interleave in the runner's log, so a group asked for inside becomes a line.
 */
function groupedLog(log) {
    const lines = [];
    return {
        info: (message) => lines.push(() => log.info(message)),
        warning: (message) => lines.push(() => log.warning(message)),
        notice: (message) => lines.push(() => log.notice(message)),
        startGroup: (name) => lines.push(() => log.info(name)),
        endGroup: () => { },
        writeAs(title) {
            log.startGroup(`Analysis of ${(0,untrusted_text/* oneLine */.TN)(title, untrusted_text/* QUOTE_LIMITS */.gJ.long)}`);
            try {
                for (const line of lines.splice(0))
                    line();
            }
            finally {
                log.endGroup();
            }
        }
    };
}
function quoted(text) {
    return (0,untrusted_text/* oneLine */.TN)(text, untrusted_text/* QUOTE_LIMITS */.gJ.long);
}

// EXTERNAL MODULE: ./src/fail-policy.ts
var fail_policy = __nccwpck_require__(6654);
// EXTERNAL MODULE: ./src/gate/outcome.ts
var gate_outcome = __nccwpck_require__(5163);
// EXTERNAL MODULE: ./src/report/analysis-warning.ts
var analysis_warning = __nccwpck_require__(2207);
// EXTERNAL MODULE: ./src/report/dashboard-link.ts
var dashboard_link = __nccwpck_require__(67);
// EXTERNAL MODULE: ./src/report/evidence-link.ts
var evidence_link = __nccwpck_require__(3398);
// EXTERNAL MODULE: ./src/report/summary.ts
var report_summary = __nccwpck_require__(7994);
// EXTERNAL MODULE: ./src/report/wording.ts
var wording = __nccwpck_require__(5594);
;// CONCATENATED MODULE: ./src/report/gate-messages.ts
/**
 * The gate's verdict as the messages the step writes beside its summary: the message a failing
 * step fails with (`Quality Gate Failure` and why), and the log's warnings and notices about a
 * gate (analysis warnings, a WARN, NONE or unknown gate, conditions where the rule disagrees).
 */








/**
 * `Quality Gate Failure` and why: for an ERROR gate each failing condition in words (the first
 * 20, then how many more); for a WARN gate that the policy fails on, each warning condition; for
 * NONE, that the project has no gate; for a status no server sends, which it is. The message the
 * step fails with; the log's gate escapes it.
 */
function gateFailureMessage(result) {
    const where = result.projectKey ? ` for ${(0,untrusted_text/* oneLine */.TN)(result.projectKey, untrusted_text/* QUOTE_LIMITS */.gJ.short)}` : '';
    const dashboard = (0,dashboard_link/* dashboardAddress */.v)(result.dashboardUrl, result.serverUrl);
    const link = dashboard ? [`Details: ${dashboard.href}`] : [];
    const kind = (0,fail_policy/* statusClass */.hI)(result.status);
    if (kind === 'ERROR' || kind === 'WARN') {
        const { head, lines } = conditionLines(result, kind);
        const why = kind === 'WARN' ? (0,src_words/* msg */.ab) `the gate is WARN, which ${(0,src_words/* setting */.Pe)('failingStatuses')} names: ` : '';
        return (0,src_words/* joined */.oR)([(0,src_words/* msg */.ab) `Quality Gate Failure${where}: ${why}${head}`, ...lines, ...link], '\n');
    }
    const why = result.status === 'NONE'
        ? (0,src_words/* msg */.ab) `the project has no quality gate (NONE), which ${(0,src_words/* setting */.Pe)('failingStatuses')} names: assign a quality gate to the project on the server.`
        : (0,src_words/* msg */.ab) `the gate's status is "${(0,untrusted_text/* oneLine */.TN)(result.status, untrusted_text/* QUOTE_LIMITS */.gJ.short)}", which no server sends for a gate; ${(0,src_words/* setting */.Pe)('failingStatuses')} names NONE, which covers it.`;
    return (0,src_words/* joined */.oR)([(0,src_words/* msg */.ab) `Quality Gate Failure${where}: ${why}`, ...link], '\n');
}
/**
 * The conditions of one status in words, each with its evidence (the first 20, then how many
 * more), after a count: "2 of 5 conditions failed." / "1 of 5 conditions warned."
 */
function conditionLines(result, status) {
    const matching = result.conditions.filter(({ condition }) => condition.status === status);
    const listed = matching.slice(0, report_summary/* SUMMARY_LIMITS */.QF.failuresListed);
    const lines = listed.map((evaluated) => {
        const evidence = (0,evidence_link/* evidenceUrl */.j)(result, evaluated.condition);
        return `- ${(0,wording/* describeCondition */.pu)(evaluated)}${evidence ? ` (${evidence})` : ''}`;
    });
    if (matching.length > listed.length) {
        lines.push((0,src_words/* msg */.ab) `- … and ${matching.length - listed.length} more: see ${(0,src_words/* place */.ik)('details')}`);
    }
    const total = result.conditions.length;
    if (status === 'WARN' && matching.length === 0) {
        return { head: `none of its ${total} conditions is WARN on the server.`, lines };
    }
    const verb = status === 'ERROR' ? 'failed' : 'warned';
    return { head: `${matching.length} of ${total} conditions ${verb}.`, lines };
}
/**
 * Annotations: task warnings, a WARN, NONE or unknown gate, and conditions where the rule
 * disagrees. Server text is cut here and escaped by the log's gate.
 */
function annotateGate(result, log, policy = fail_policy/* FAIL_ON_ERROR */.qJ) {
    const warnings = result.taskWarnings.slice(0, report_summary/* SUMMARY_LIMITS */.QF.warnings);
    for (const warning of warnings)
        log.warning(`Analysis warning: ${(0,analysis_warning/* analysisWarningText */.g)(warning)}`);
    if (result.taskWarnings.length > warnings.length) {
        log.info(`${result.taskWarnings.length - warnings.length} more analysis warnings not shown.`);
    }
    // A status the step fails on is said by the failure message itself.
    if (!(0,fail_policy/* failsUnder */.mS)(result.status, policy))
        annotatePassingStatus(result, log);
    const disagreeing = result.conditions.filter((evaluated) => !evaluated.agreesWithServer);
    for (const evaluated of disagreeing.slice(0, report_summary/* SUMMARY_LIMITS */.QF.notices)) {
        log.notice(`The server says ${(0,untrusted_text/* oneLine */.TN)(evaluated.condition.status, untrusted_text/* QUOTE_LIMITS */.gJ.short)} for ${(0,wording/* describeCondition */.pu)(evaluated)}, the rule says ${evaluated.recomputed}: the server's verdict is used.`);
    }
    if (disagreeing.length > report_summary/* SUMMARY_LIMITS */.QF.notices) {
        log.info(`${disagreeing.length - report_summary/* SUMMARY_LIMITS */.QF.notices} more conditions where the rule disagrees with the server.`);
    }
}
/** The warning of a gate that passed without being OK: WARN (and which conditions), NONE, unknown. */
function annotatePassingStatus(result, log) {
    if (result.status === 'WARN') {
        const { head, lines } = conditionLines(result, 'WARN');
        log.warning((0,src_words/* joined */.oR)([`Quality Gate passed with warnings (WARN): ${head}`, ...lines], '\n'));
    }
    else if (result.status === 'NONE') {
        log.warning((0,src_words/* msg */.ab) `No Quality Gate is set for this project (NONE): the check passes. Assign a quality gate on the server to make it meaningful, or name NONE in ${(0,src_words/* setting */.Pe)('failingStatuses')} to fail without one.`);
    }
    else if (!(0,report_summary/* isKnownStatus */.ih)(result.status)) {
        log.warning((0,src_words/* msg */.ab) `Unknown Quality Gate status "${(0,untrusted_text/* oneLine */.TN)(result.status, untrusted_text/* QUOTE_LIMITS */.gJ.short)}": ${(0,src_words/* setting */.Pe)('failingStatuses')} does not name NONE, so the check passes (quality-gate-status NONE).`);
    }
}

;// CONCATENATED MODULE: ./src/report/verdict.ts





/**
 * The step's verdict under the policy, with the message it fails with: `Quality Gate Failure`
 * and why for each gate that fails (its failing conditions, or the status policy names), after
 * one line per analysis that could not be read.
 *
 * @example const verdict = stepVerdict(outcomes, settings.policy); if (verdict.kind !== 'passed') throw …
 */
function stepVerdict(outcomes, policy = fail_policy/* FAIL_ON_ERROR */.qJ) {
    const results = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result] : []));
    const failures = results
        .filter(({ status }) => (0,fail_policy/* failsUnder */.mS)(status, policy))
        .map(gateFailureMessage);
    const unread = outcomes.filter((outcome) => !outcome.read);
    const [only] = unread;
    if (only && outcomes.length === 1) {
        return { kind: 'unread', message: only.message, alone: true, errors: [only.error] };
    }
    if (unread.length > 0) {
        const lines = unread.map((outcome) => (0,src_words/* msg */.ab) `- ${(0,untrusted_text/* oneLine */.TN)((0,gate_outcome/* projectName */.j)(outcome), untrusted_text/* QUOTE_LIMITS */.gJ.long)}: ${(0,src_words/* firstLine */.TM)(outcome.message)}`);
        const head = `${unread.length} of ${outcomes.length} analyses could not be read: their gates are unknown.`;
        return {
            kind: 'unread',
            message: (0,src_words/* joined */.oR)([head, ...lines, ...failures], '\n'),
            alone: false,
            errors: unread.map((outcome) => outcome.error)
        };
    }
    if (failures.length > 0)
        return { kind: 'gate-failed', message: (0,src_words/* joined */.oR)(failures, '\n') };
    const named = outcomes.length > 1;
    return {
        kind: 'passed',
        statuses: results.map(({ projectKey, status }) => `${named ? `${(0,untrusted_text/* oneLine */.TN)(projectKey ?? '', untrusted_text/* QUOTE_LIMITS */.gJ.short)} ` : ''}Quality Gate status: ${(0,untrusted_text/* oneLine */.TN)(status, untrusted_text/* QUOTE_LIMITS */.gJ.short)}`)
    };
}

;// CONCATENATED MODULE: ./src/cli/exit-codes.ts

/**
 * The command's exit codes, for a CI step to tell a failed gate from a broken check:
 * - 0: every gate passed (OK, WARN, NONE), or an ERROR gate with --no-fail;
 * - 1: a quality gate failed (ERROR);
 * - 2: bad usage or settings: an option, the environment, a report file that is missing or not
 *   a scanner's, a result file that cannot be written; running it again changes nothing;
 * - 3: no verdict: the server could not be read (unreachable, refused, an answer that is not
 *   its API's, a redirect that would send the token elsewhere), the analysis task failed or was
 *   canceled, or the time-out was reached; running it again later may pass.
 */
const EXIT = { passed: 0, gateFailed: 1, usage: 2, noVerdict: 3 };
/**
 * When several apply (one analysis unread, another's gate failed, a result file not written):
 * usage first, then no verdict, then a failed gate. A failed gate is only reported as such when
 * every analysis was checked as asked.
 */
const PRECEDENCE = [EXIT.usage, EXIT.noVerdict, EXIT.gateFailed, EXIT.passed];
/**
 * The exit code of each error code: 2 for what the user must fix in the command line, the
 * environment, the report file or a result file's path; 3 for what leaves the gate unknown (the
 * server, the task, the time-out, the unforeseen). A failed gate is a verdict, not an error: its
 * 1 comes from the verdict. Every code has its row, so a new code needs its choice here.
 */
const EXIT_CODE_OF = {
    ERR_USAGE: EXIT.usage,
    ERR_SETTINGS: EXIT.usage,
    ERR_REPORT_FILE: EXIT.usage,
    ERR_RESULT_FILE: EXIT.usage,
    ERR_UNSAFE_REQUEST: EXIT.noVerdict,
    ERR_SERVER_REQUEST: EXIT.noVerdict,
    ERR_TASK_FAILED: EXIT.noVerdict,
    ERR_TIMEOUT: EXIT.noVerdict,
    ERR_NO_ANALYSIS: EXIT.noVerdict,
    ERR_UNEXPECTED: EXIT.noVerdict
};
/**
 * The exit code of a failure, by its code (EXIT_CODE_OF); an error outside the family is
 * unforeseen: 3.
 *
 * @example exitCodeOfError(new TimeoutError('Timed out …')) // 3
 */
function exitCodeOfError(error) {
    return EXIT_CODE_OF[(0,errors/* codeOf */.$N)(error)];
}
/**
 * The exit code of a finished check: from the step's verdict (stepVerdict), with each analysis
 * that could not be read counting by its own failure.
 *
 * @example exitCodeOfVerdict(stepVerdict(outcomes), { failStep: true }) // 1 for an ERROR gate
 */
function exitCodeOfVerdict(verdict, { failStep }) {
    switch (verdict.kind) {
        case 'passed':
            return EXIT.passed;
        case 'gate-failed':
            return failStep ? EXIT.gateFailed : EXIT.passed;
        case 'unread':
            return worstExitCode(verdict.errors.map(exitCodeOfError));
    }
}
/** The code that wins among several (PRECEDENCE); 0 for none. */
function worstExitCode(codes) {
    return PRECEDENCE.find((code) => codes.includes(code)) ?? EXIT.passed;
}

// EXTERNAL MODULE: ./src/cli/names.ts
var names = __nccwpck_require__(2010);
;// CONCATENATED MODULE: external "node:util"
const external_node_util_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");
// EXTERNAL MODULE: ./src/settings.ts
var src_settings = __nccwpck_require__(8750);
// EXTERNAL MODULE: ./src/report/pull-request-comment-body.ts
var pull_request_comment_body = __nccwpck_require__(9996);
;// CONCATENATED MODULE: ./package.json
const package_namespaceObject = /*#__PURE__*/JSON.parse('{"UU":"sonar-quality-gate-check","rE":"1.0.0"}');
;// CONCATENATED MODULE: ./src/cli/version.ts

/** The command's version: package.json's, bundled into dist/cli.js at build time. */
const VERSION = package_namespaceObject.rE;
/**
 * The command's name, as published and installed: package.json's name, which is also its one
 * `bin` (a test holds them together), so `npx <name>` and the installed command agree.
 */
const COMMAND = package_namespaceObject.UU;

;// CONCATENATED MODULE: ./src/cli/options.ts









/** A mistake on the command line: its message says what is wrong; the exit code is 2. */
class UsageError extends errors/* ExplainedError */.hM {
    static code = 'ERR_USAGE';
    constructor(message, options) {
        super(UsageError.code, message, options);
    }
}
const OPTIONS = {
    report: { type: 'string', short: 'r', multiple: true },
    host: { type: 'string' },
    'task-id': { type: 'string' },
    'analysis-id': { type: 'string' },
    project: { type: 'string', multiple: true },
    branch: { type: 'string' },
    'pull-request': { type: 'string' },
    commit: { type: 'string' },
    timeout: { type: 'string' },
    'initial-delay': { type: 'string' },
    interval: { type: 'string' },
    'no-fail': { type: 'boolean' },
    'fail-on': { type: 'string', multiple: true },
    'root-cert-file': { type: 'string' },
    json: { type: 'string' },
    junit: { type: 'string' },
    markdown: { type: 'string' },
    sarif: { type: 'string' },
    codequality: { type: 'string' },
    decorate: { type: 'boolean' },
    'comment-when': { type: 'string' },
    'inline-limit': { type: 'string' },
    'inline-severity': { type: 'string' },
    'bitbucket-server': { type: 'string' },
    'bitbucket-project': { type: 'string' },
    'bitbucket-repo': { type: 'string' },
    'github-repository': { type: 'string' },
    'gitlab-url': { type: 'string' },
    'gitlab-project': { type: 'string' },
    'gitea-url': { type: 'string' },
    'gitea-repository': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' }
};
/**
 * The command line, parsed with Node's own `util.parseArgs`: unknown options, positional
 * arguments, a value-taking option given twice or with an empty value, and two result files on
 * standard output are usage errors.
 *
 * @example parseCommandLine(['--report', '*\/.scannerwork/report-task.txt', '--junit', 'gate.xml'])
 */
function parseCommandLine(argv) {
    let parsed;
    try {
        parsed = (0,external_node_util_namespaceObject.parseArgs)({
            args: [...argv],
            options: OPTIONS,
            strict: true,
            allowPositionals: false,
            tokens: true
        });
    }
    catch (error) {
        throw new UsageError(usageMessage((0,errors/* asError */.zR)(error)), { cause: error });
    }
    const { values, tokens } = parsed;
    if (values.help)
        return { kind: 'help' };
    if (values.version)
        return { kind: 'version' };
    const seen = new Set();
    for (const token of tokens) {
        if (token.kind !== 'option')
            continue;
        const option = OPTIONS[token.name];
        if (option.type !== 'string')
            continue;
        if (token.value === undefined || token.value.trim() === '') {
            throw new UsageError(`--${token.name} is empty: give it a value, or leave it out.`);
        }
        if (!('multiple' in option) && seen.has(token.name)) {
            throw new UsageError(`--${token.name} is given twice: give it once.`);
        }
        seen.add(token.name);
    }
    const files = {
        json: values.json,
        junit: values.junit,
        markdown: values.markdown,
        sarif: values.sarif,
        codequality: values.codequality
    };
    const onStdout = Object.entries(files).filter(([, file]) => file === '-');
    if (onStdout.length > 1) {
        throw new UsageError(`${onStdout.map(([name]) => `--${name}`).join(' and ')} both write to standard output (-): give at most one of them -, the others a file.`);
    }
    return {
        kind: 'check',
        reports: values.report ?? [],
        host: values.host,
        taskId: values['task-id'],
        analysisId: values['analysis-id'],
        projects: values.project ?? [],
        branch: values.branch,
        pullRequest: values['pull-request'],
        review: reviewOption(values['pull-request'], (values.project ?? []).length > 0, values.decorate ?? false),
        platform: platformOptions(values, values.decorate ?? false),
        commit: commitOption(values.commit, (values.project ?? []).length > 0, values.decorate ?? false),
        timeout: values.timeout,
        initialDelay: values['initial-delay'],
        interval: values.interval,
        noFail: values['no-fail'] ?? false,
        failingStatuses: values['fail-on'] ?? [],
        rootCertFile: values['root-cert-file'],
        files,
        decorate: values.decorate ?? false,
        commentWhen: commentWhen(values['comment-when'], values.decorate ?? false),
        inlineLimit: inlineLimit(values['inline-limit'], values.decorate ?? false),
        inlineSeverity: inlineSeverity(values['inline-severity'], values.decorate ?? false),
        bitbucketServer: bitbucketServer(values, values.decorate ?? false)
    };
}
/** --bitbucket-server, --bitbucket-project and --bitbucket-repo: all three, with --decorate. */
function bitbucketServer(values, decorate) {
    const names = ['bitbucket-server', 'bitbucket-project', 'bitbucket-repo'];
    const given = names.filter((name) => typeof values[name] === 'string');
    if (given.length === 0)
        return undefined;
    withDecorate(given[0], decorate);
    if (given.length < names.length) {
        throw new UsageError(`${given.map((name) => `--${name}`).join(' and ')} ${given.length === 1 ? 'is' : 'are'} given without ${names
            .filter((name) => !given.includes(name))
            .map((name) => `--${name}`)
            .join(' and ')}: Bitbucket Data Center's repository needs all three.`);
    }
    return {
        url: String(values['bitbucket-server']).trim(),
        project: String(values['bitbucket-project']).trim(),
        repository: String(values['bitbucket-repo']).trim()
    };
}
/** The options that name a platform's repository or project, each with --decorate. */
function platformOptions(values, decorate) {
    const text = (name) => typeof values[name] === 'string' ? values[name].trim() : undefined;
    for (const name of [
        'github-repository',
        'gitlab-url',
        'gitlab-project',
        'gitea-url',
        'gitea-repository'
    ]) {
        if (text(name) !== undefined)
            withDecorate(name, decorate);
    }
    const [giteaUrl, giteaRepository] = [text('gitea-url'), text('gitea-repository')];
    if ((giteaUrl === undefined) !== (giteaRepository === undefined)) {
        throw new UsageError(`${giteaUrl === undefined ? '--gitea-repository is given without --gitea-url' : '--gitea-url is given without --gitea-repository'}: a Gitea or Forgejo repository needs both (outside Gitea and Forgejo Actions).`);
    }
    const gitlab = text('gitlab-url') !== undefined || text('gitlab-project') !== undefined
        ? { url: text('gitlab-url'), project: text('gitlab-project') }
        : undefined;
    return {
        githubRepository: text('github-repository'),
        gitlab,
        gitea: giteaUrl && giteaRepository ? { url: giteaUrl, repository: giteaRepository } : undefined
    };
}
/**
 * --pull-request without --project: the pull or merge request --decorate writes to, so only
 * with --decorate (without --decorate the settings refuse it, as ever: it chooses an analysis of
 * a project), and a number.
 */
function reviewOption(value, project, decorate) {
    if (value === undefined || project || !decorate)
        return undefined;
    const number = value.trim();
    if (!/^[1-9][0-9]{0,9}$/.test(number)) {
        throw new UsageError(`--pull-request "${value.slice(0, 80)}" is not a pull or merge request's number: without --project it names the one review --decorate writes to.`);
    }
    return number;
}
/**
 * --commit: with --project, as given (the settings check it); without, the commit to decorate,
 * so only with --decorate, and one full SHA: it does not choose the analysis checked (the report
 * file's task, or --task-id or --analysis-id, does).
 */
function commitOption(value, project, decorate) {
    if (value === undefined || project)
        return value;
    if (!decorate) {
        throw new UsageError("--commit is given without --project or --decorate: with --project it says which commit's analysis to check; without, which commit --decorate decorates (the analysis checked is the report file's). Give --project, or --decorate, or leave --commit out.");
    }
    const sha = value.trim().toLowerCase();
    if (!(0,src_settings/* isFullSha */.Wf)(sha)) {
        throw new UsageError(`--commit "${value.slice(0, 80)}" is not one full commit SHA: without --project it names the one commit --decorate decorates (40 hexadecimal characters, as git rev-parse HEAD prints them).`);
    }
    return sha;
}
/** An option of the decoration given without --decorate: a usage error. */
function withDecorate(option, decorate) {
    if (!decorate) {
        throw new UsageError(`--${option} is given without --decorate: it shapes the decoration, and only --decorate decorates.`);
    }
}
/** The most comments on the issues' lines started a run, by default. */
const INLINE_COMMENTS_PER_RUN = 10;
/** --inline-limit: a whole number from 0 (no discussions) to 100 (default 10). */
function inlineLimit(value, decorate) {
    if (value === undefined)
        return INLINE_COMMENTS_PER_RUN;
    withDecorate('inline-limit', decorate);
    const limit = Number(value.trim());
    if (!/^\d{1,3}$/.test(value.trim()) || limit > 100) {
        throw new UsageError(`--inline-limit "${value.slice(0, 40)}" is not a whole number from 0 to 100: the most discussions a run starts on the diff (0: none).`);
    }
    return limit;
}
/** --inline-severity: one of the severities, most severe first (default info: every issue). */
function inlineSeverity(value, decorate) {
    if (value === undefined)
        return 'info';
    withDecorate('inline-severity', decorate);
    const known = finding/* SEVERITY_ORDER */.B.find((severity) => severity === value.trim().toLowerCase());
    if (!known) {
        throw new UsageError(`--inline-severity "${value.slice(0, 40)}" is not one of ${finding/* SEVERITY_ORDER */.B.join(', ')}: the least severe issue that gets a discussion.`);
    }
    return known;
}
/** --comment-when: one of COMMENT_WHEN, and only with --decorate (default always). */
function commentWhen(value, decorate) {
    if (value === undefined)
        return 'always';
    withDecorate('comment-when', decorate);
    const known = pull_request_comment_body/* COMMENT_WHEN */.dh.find((when) => when === value.trim().toLowerCase());
    if (!known) {
        throw new UsageError(`--comment-when "${value.slice(0, 40)}" is not one of ${pull_request_comment_body/* COMMENT_WHEN */.dh.join(', ')}.`);
    }
    return known;
}
/**
 * An option that tries to pass the token (`--token`, `--sonar-token`, `--login`, the scanner's
 * old `sonar.login`, `--password`): the token has no option, it would show in process lists.
 */
const TOKEN_OPTION = /^--?(?:sonar[-._]?)?(?:token|login|password)$/i;
/** parseArgs's own message, without its advice for positional arguments. */
function usageMessage(error) {
    const { code } = error;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
        const option = /'([^']*)'/.exec(error.message)?.[1] ?? '';
        if (TOKEN_OPTION.test(option)) {
            return `Unknown option ${option}: the token is never an option (it would show in process lists). Set the SONAR_TOKEN environment variable instead, e.g. from your CI's secret store.`;
        }
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
        const argument = /'([^']*)'/.exec(error.message)?.[1];
        return `Unexpected argument${argument === undefined ? '' : ` "${argument}"`}: every value follows its option (--report ${argument ?? '<path>'} for a report file).`;
    }
    return error.message.replace(/\.?$/, '.');
}
/**
 * The settings' text, from the command line. The token, and the host and CA certificate when no
 * option gives them, come from the environment (SONAR_TOKEN, SONAR_HOST_URL, SONAR_ROOT_CERT:
 * see COMMAND_NAMES and withVariables).
 */
function commandSettings(line, rootCert) {
    return {
        reportFile: line.reports.join('\n'),
        host: line.host,
        rootCert,
        timeout: line.timeout,
        initialDelay: line.initialDelay,
        interval: line.interval,
        failStep: line.noFail ? 'false' : 'true',
        failingStatuses: line.failingStatuses.join(','),
        task: line.taskId,
        analysis: line.analysisId,
        project: line.projects.join('\n'),
        branch: line.branch,
        // Without --project and with --decorate, --pull-request is the review decorated alone.
        pullRequest: line.review === undefined ? line.pullRequest : undefined,
        // Without --project, --commit is the decoration's commit alone: the analysis is the task's.
        commit: line.projects.length > 0 ? line.commit : undefined
    };
}
/** The scanners' default locations, one per line under the option's description. */
const DEFAULT_REPORTS = DEFAULT_REPORT_LOCATIONS.map(({ file }) => `${' '.repeat(28)}${file}`).join(',\n');
/** `--help`: every option with its default, the environment and the exit codes. */
const USAGE = `Usage: ${COMMAND} [options]

Waits for a SonarQube or SonarCloud analysis to finish and fails when its quality gate fails,
saying which conditions failed. Run it after the scanner, in the same working directory.

Options:
  -r, --report <path|glob>  the scanner's report-task.txt; repeat it, or use globs (** for any
                            folders; hidden folders are searched), to check several analyses
                            at once (default: the first of
${DEFAULT_REPORTS})
      --host <url>          the server's address; the task address is built from it
                            (default: SONAR_HOST_URL, else the report's serverUrl)
      --task-id <id>        check this analysis task instead of a report file (needs a host)
      --analysis-id <id>    read the gate of this analysis at once, no task (needs a host)
      --project <key>       check this project's analysis instead of a report file: the
                            commit's, waited for until it appears; repeat it for several
                            projects (needs a host)
      --branch <name>       with --project: the branch analysed (default: the CI's branch,
                            else the project's main branch)
      --pull-request <id>   with --project: the pull or merge request analysed (default: the
                            CI's). Without --project, with --decorate: the pull or merge
                            request decorated, instead of the CI's
      --commit <sha>        with --project: the full SHA whose analysis to wait for (default:
                            the CI's commit; none: the newest analysis). Without --project,
                            with --decorate: the commit decorated, instead of the CI's (the
                            analysis checked stays the report file's; a warning when the
                            server records another commit for it)
      --timeout <seconds>   overall time-out, counted from the start (default ${src_settings/* DEFAULTS */.zY.timeout})
      --initial-delay <ms>  wait before the first poll (default ${src_settings/* DEFAULTS */.zY.initialDelay})
      --interval <ms>       wait between polls (default ${src_settings/* DEFAULTS */.zY.interval}, closer together around
                            the end the project's previous analysis predicts; a value given
                            is kept exactly)
      --fail-on <statuses>  the gate statuses that fail (exit 1), comma-separated: ERROR, WARN,
                            NONE (no gate, or a status no server sends); must include ERROR
                            (default ERROR; ERROR,WARN,NONE fails on anything but OK)
      --no-fail             report a failed gate without failing: exit 0 (default: exit 1)
      --root-cert-file <file>
                            PEM file of an extra CA, trusted for this command's requests only
                            (default: the PEM text in SONAR_ROOT_CERT)
      --json <file>         write every analysis's result as JSON (the action's results output,
                            with its new issues)
      --junit <file>        write a JUnit XML report: one testsuite per analysis, one testcase
                            per condition, a failure for each ERROR
      --markdown <file>     write the summary (Markdown with HTML blocks), e.g. for a GitLab
                            merge-request note
      --sarif <file>        write the new issues as SARIF 2.1.0 (GitHub code scanning, Azure
                            DevOps, Jenkins Warnings NG)
      --codequality <file>  write the new issues as GitLab's Code Quality report
                            (artifacts:reports:codequality)
                            (each: - for standard output; default: none)
      --decorate            a status per project and, on a pull or merge request, one
                            comment per project edited in place and the new issues on the
                            changed lines (one review on GitHub and Gitea), or a Code
                            Insights report (Bitbucket): GitLab CI, Bitbucket Pipelines,
                            Azure Pipelines, Gitea and Forgejo Actions are found by their
                            variables; GitHub from Jenkins, CircleCI, Buildkite, Azure
                            Pipelines or GitHub Actions with GITHUB_TOKEN set; elsewhere
                            the options below name the repository. Never changes the
                            verdict or the exit code: a failure is one warning; it ends at
                            most ${src_deadline/* DECORATION_ALLOWANCE_MS */.VB / 1000} s past --timeout
      --comment-when <when> with --decorate: always (default), failed (no new note while
                            the gate passes) or changed (only when the verdict changed)
      --inline-limit <n>    with --decorate: at most n discussions or threads started on the
                            diff a run, for the most severe new issues (default 10; 0: none)
      --inline-severity <s> with --decorate: the least severe issue that gets one: blocker,
                            high, medium, low or info (default info)
      --github-repository <owner/name>
                            with --decorate, from any CI: the GitHub repository (the API:
                            GITHUB_API_URL, default api.github.com; token: GITHUB_TOKEN)
      --gitlab-url <url>, --gitlab-project <id or path>
                            with --decorate, from any CI: the GitLab project (token:
                            GITLAB_TOKEN; default: the Jenkins GitLab plugin's variables)
      --gitea-url <url>, --gitea-repository <owner/name>
                            with --decorate, from any CI: the Gitea or Forgejo repository
                            (token: GITEA_TOKEN)
      --bitbucket-server <url>, --bitbucket-project <key>, --bitbucket-repo <slug>
                            with --decorate, from any CI: Bitbucket Data Center's repository
                            (a Code Insights report and a build status on --commit, else
                            the CI's commit; token: BITBUCKET_TOKEN, an HTTP access token)
  -h, --help                show this help and exit
  -v, --version             show the version and exit

Environment:
  SONAR_TOKEN       the token (never an option: it would show in process lists); none for a
                    public project
  SONAR_HOST_URL    the server's address, when --host is not given
  SONAR_ROOT_CERT   PEM text of an extra CA, when --root-cert-file is not given
  GITLAB_TOKEN      with --decorate: a project or group access token with the api scope
                    (sent to CI_API_V4_URL's origin only)
  BITBUCKET_TOKEN   with --decorate in Bitbucket Pipelines: a repository access token
                    (sent to Bitbucket's API only; BITBUCKET_API_URL overrides its address)
  GITHUB_TOKEN      with --decorate for GitHub: a token that may write commit statuses and
                    pull requests (sent to GITHUB_API_URL's origin only)
  GITEA_TOKEN       with --decorate for Gitea or Forgejo: an access token (FORGEJO_TOKEN, or
                    in their Actions GITHUB_TOKEN, when unset)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   honoured; loopback addresses never use a proxy
  NO_COLOR          no colours; FORCE_COLOR=1: colours even when not on a terminal or in CI
                    (by default colours only on a terminal, never with CI set)

Exit codes:
  0  every gate passed (OK, and WARN and NONE unless --fail-on names them), or failed with
     --no-fail
  1  a quality gate failed (ERROR, or a status --fail-on names)
  2  bad usage or settings: an option, the environment, the report file, a result file
  3  no verdict: the server could not be read, the analysis task failed, or the time-out was
     reached

The log goes to standard error; standard output holds only what --help, --version or a
result file given as - writes.
`;

;// CONCATENATED MODULE: ./node_modules/balanced-match/dist/esm/index.js
const balanced = (a, b, str) => {
    const ma = a instanceof RegExp ? maybeMatch(a, str) : a;
    const mb = b instanceof RegExp ? maybeMatch(b, str) : b;
    const r = ma !== null && mb != null && range(ma, mb, str);
    return (r && {
        start: r[0],
        end: r[1],
        pre: str.slice(0, r[0]),
        body: str.slice(r[0] + ma.length, r[1]),
        post: str.slice(r[1] + mb.length),
    });
};
const maybeMatch = (reg, str) => {
    const m = str.match(reg);
    return m ? m[0] : null;
};
const range = (a, b, str) => {
    let begs, beg, left, right = undefined, result;
    let ai = str.indexOf(a);
    let bi = str.indexOf(b, ai + 1);
    let i = ai;
    if (ai >= 0 && bi > 0) {
        if (a === b) {
            return [ai, bi];
        }
        begs = [];
        left = str.length;
        while (i >= 0 && !result) {
            if (i === ai) {
                begs.push(i);
                ai = str.indexOf(a, i + 1);
            }
            else if (begs.length === 1) {
                const r = begs.pop();
                if (r !== undefined)
                    result = [r, bi];
            }
            else {
                beg = begs.pop();
                if (beg !== undefined && beg < left) {
                    left = beg;
                    right = bi;
                }
                bi = str.indexOf(b, i + 1);
            }
            i = ai < bi && ai >= 0 ? ai : bi;
        }
        if (begs.length && right !== undefined) {
            result = [left, right];
        }
    }
    return result;
};
//# sourceMappingURL=index.js.map
;// CONCATENATED MODULE: ./node_modules/brace-expansion/dist/esm/index.js

const escSlash = '\0SLASH' + Math.random().toFixed(16) + '\0';
const escOpen = '\0OPEN' + Math.random().toFixed(16) + '\0';
const escClose = '\0CLOSE' + Math.random().toFixed(16) + '\0';
const escComma = '\0COMMA' + Math.random().toFixed(16) + '\0';
const escPeriod = '\0PERIOD' + Math.random().toFixed(16) + '\0';
const escSlashPattern = new RegExp(escSlash, 'g');
const escOpenPattern = new RegExp(escOpen, 'g');
const escClosePattern = new RegExp(escClose, 'g');
const escCommaPattern = new RegExp(escComma, 'g');
const escPeriodPattern = new RegExp(escPeriod, 'g');
const slashPattern = /\\\\/g;
const openPattern = /\\{/g;
const closePattern = /\\}/g;
const commaPattern = /\\,/g;
const periodPattern = /\\\./g;
const EXPANSION_MAX = 100_000;
// `EXPANSION_MAX` caps the *number* of expansions, but not their length. An
// input like `'{a,b}'.repeat(1500)` stays under that count - its output is
// truncated to 100k results - while making every result ~1500 characters
// long. The result set, and the intermediate arrays built while combining
// brace sets, then grow large enough to exhaust memory and crash the process
// (CVE-2026-14257). `EXPANSION_MAX_LENGTH` bounds the total number of
// characters the accumulator may hold at any point, so memory stays flat no
// matter how many brace groups are chained. The limit sits well above any
// realistic expansion (100k results hitting `EXPANSION_MAX` measure ~1M
// characters) so legitimate input is unaffected.
const EXPANSION_MAX_LENGTH = 4_000_000;
// `expand_` recurses once per level of brace *nesting* - both when expanding a
// set's comma members and when re-wrapping a set whose body is a single part.
// The CVE-2026-14257 fix made the *tail* iterative (recursion on `m.post`, one
// level per chained group), which left nesting depth unbounded: about 3,100
// levels of `{{{...a,b...}}}` - only ~6KB of input - exhausted the native stack
// and crashed the process. `EXPANSION_MAX_DEPTH` bounds how deep the parser
// will follow nesting. It sits far above any realistic pattern and well below
// the depth at which the stack runs out.
const EXPANSION_MAX_DEPTH = 1_000;
// Bash keeps a quirk where a brace group followed by a comma set still expands
// (`{a},b}`). The parser implements it by rewriting the string and restarting
// the scan, absorbing one `}` per pass. `n` trailing braces therefore cost `n`
// full passes over a string that itself grows by one `escClose` sentinel each
// time - quadratic in `n`, with a ~26x constant from the sentinel's length.
// 128KB of `'{a}' + '}'.repeat(n) + ',z}'` blocked the event loop for 27
// seconds to produce two results. `EXPANSION_MAX_REWRITES` bounds how many
// times the scan may restart. Real `{a},b}` input needs a handful.
const EXPANSION_MAX_REWRITES = 1_000;
// `EXPANSION_MAX_STEPS` bounds the work one `expand` call does, which `max`,
// `maxLength` and `maxDepth` don't: nested sets are rescanned at every level
// and chained groups each rebuild up to `max` results, so 2KB of input could
// block the event loop for over 30 seconds. Each character scanned, result
// built and sequence value generated is a step, and each `expand_` call costs
// `CALL_STEPS` more. Past the budget, the set being expanded and everything
// after it stay literal. A glob needs a few hundred steps, and nesting all the
// way to `EXPANSION_MAX_DEPTH` about 4M.
const EXPANSION_MAX_STEPS = 20_000_000;
// What one `expand_` call costs on top of what it scans and builds. Setting
// one up takes about as long as scanning 16 characters, and a set whose
// results are wrapped to be expanded again makes one call per result, each
// scanning and building next to nothing: 64KB of
// `('{{' + ','.repeat(316) + '}{' + ','.repeat(316) + '}}').repeat(n)` made
// 4M such calls, which spent the budget three times as slowly as anything
// else.
const CALL_STEPS = 16;
function numeric(str) {
    return !isNaN(str) ? parseInt(str, 10) : str.charCodeAt(0);
}
function escapeBraces(str) {
    return str
        .replace(slashPattern, escSlash)
        .replace(openPattern, escOpen)
        .replace(closePattern, escClose)
        .replace(commaPattern, escComma)
        .replace(periodPattern, escPeriod);
}
function unescapeBraces(str) {
    return str
        .replace(escSlashPattern, '\\')
        .replace(escOpenPattern, '{')
        .replace(escClosePattern, '}')
        .replace(escCommaPattern, ',')
        .replace(escPeriodPattern, '.');
}
// Like `target.push(...items)` but doesn't overflow the stack
function pushAll(target, items) {
    for (let i = 0; i < items.length; i++) {
        target.push(items[i]);
    }
}
// `balanced`, run on `masked` (see `maskUnmatchedOpens`), sliced from `str`
// and charged for the characters it walks: up to the group's `}`, or the
// whole string when there is no match or unmatched `{` come first, which
// `unmatched` then flags for masking. Once a call overdraws the budget, it
// and every later one return undefined, so the rest stays literal.
function balancedWithBudget(str, masked, budget) {
    if (budget.remaining < 0) {
        return undefined;
    }
    const r = range('{', '}', masked);
    const unmatched = r !== undefined && masked.indexOf('{') < r[0];
    budget.remaining -= r && !unmatched ? r[1] + 1 : str.length;
    if (!r || budget.remaining < 0) {
        return undefined;
    }
    return {
        end: r[1],
        pre: str.slice(0, r[0]),
        body: str.slice(r[0] + 1, r[1]),
        post: str.slice(r[1] + 1),
        unmatched,
    };
}
// `masked` with every `{` that has no matching `}` swapped for a `\0`, which
// keeps the length, so a scan of it still lines up with the string it was
// made from. Such a `{` is literal either way, but `balanced` only learns that
// one is unmatched by reading to the end of the string, so with one at the
// head of every group (`'{a,{b,c}'.repeat(n)`) each scan read the rest of the
// input. That was quadratic, and once the step budget charged for it, it ran
// out partway through and left the rest literal. A scan of the masked copy
// stops at the group's `}`. It is one pass, charged as such.
function maskUnmatchedOpens(masked, budget) {
    budget.remaining -= masked.length;
    const open = [];
    for (let i = 0; i < masked.length; i++) {
        const c = masked.charCodeAt(i);
        if (c === 0x7b) {
            open.push(i);
        }
        else if (c === 0x7d && open.length) {
            open.pop();
        }
    }
    let out = '';
    let last = 0;
    for (let i = 0; i < open.length; i++) {
        const at = open[i];
        out += masked.slice(last, at) + '\0';
        last = at + 1;
    }
    return out + masked.slice(last);
}
// Whether `str` has a `,` not followed by another `,`, with a `}` after it on
// the same line - what `/,(?!,).*\}/.test(str)` asks, answered in one pass from
// the end. The regex tries every `,` and backtracks through the rest of its
// line from each, which is quadratic, and the `{a},b}` rewrite asks again on
// every pass. Like a scan, it is charged for the whole string and refused if
// that overdraws the budget.
function commaSetFollows(str, budget) {
    budget.remaining -= str.length;
    if (budget.remaining < 0) {
        return false;
    }
    // Whether a `}` follows the current position before the line ends
    let close = false;
    for (let i = str.length - 1; i >= 0; i--) {
        const c = str.charCodeAt(i);
        if (c === 0x7d) {
            close = true;
        }
        else if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) {
            // A line terminator, which `.` does not match
            close = false;
        }
        else if (c === 0x2c && close && str.charCodeAt(i + 1) !== 0x2c) {
            return true;
        }
    }
    return false;
}
/**
 * Basically just str.split(","), but handling cases
 * where we have nested braced sections, which should be
 * treated as individual members, like {a,{b,c},d}
 *
 * Returns `undefined` if the step budget runs out before the whole set is
 * split, since splitting what is left on every comma would tear apart the
 * nested sets it still holds.
 */
function parseCommaParts(str, budget) {
    const parts = [];
    // Walk the brace groups iteratively. Recursing on `post` once per group let a
    // chain of them exhaust the stack - the parsing-side counterpart to
    // the `expand_` overflow fixed for CVE-2026-14257, and not something `max` or
    // `maxLength` can bound, since it happens before expansion.
    //
    // The part the next chunk continues
    let carry = '';
    for (;;) {
        // A set's body holds no unmatched `{`, so there is nothing to mask.
        const m = balancedWithBudget(str, str, budget);
        if (budget.remaining < 0) {
            return undefined;
        }
        if (!m) {
            const tail = str.split(',');
            tail[0] = carry + tail[0];
            pushAll(parts, tail);
            return parts;
        }
        const { pre, body, post } = m;
        const p = pre.split(',');
        p[0] = carry + p[0];
        p[p.length - 1] += '{' + body + '}';
        if (!post.length) {
            pushAll(parts, p);
            return parts;
        }
        carry = p.pop();
        pushAll(parts, p);
        str = post;
    }
}
// An option that is left out, or that is NaN, gets its default. Every
// comparison against NaN is false, so a NaN bound would never be reached:
// `{ maxSteps: NaN }` let 15KB of input block the event loop for 16 seconds,
// and `{ maxDepth: NaN }` overflowed the stack again (CVE-2026-102278). Pass
// `Infinity` to lift a bound.
function bound(value, fallback) {
    return value === undefined || isNaN(value) ? fallback : value;
}
function expand(str, options = {}) {
    if (!str) {
        return [];
    }
    const max = bound(options.max, EXPANSION_MAX);
    const maxLength = bound(options.maxLength, EXPANSION_MAX_LENGTH);
    const maxDepth = bound(options.maxDepth, EXPANSION_MAX_DEPTH);
    const maxRewrites = bound(options.maxRewrites, EXPANSION_MAX_REWRITES);
    const maxSteps = bound(options.maxSteps, EXPANSION_MAX_STEPS);
    // I don't know why Bash 4.3 does this, but it does.
    // Anything starting with {} will have the first two bytes preserved
    // but *only* at the top level, so {},a}b will not expand to anything,
    // but a{},b}c will be expanded to [a}c,abc].
    // One could argue that this is a bug in Bash, but since the goal of
    // this module is to match Bash's rules, we escape a leading {}
    if (str.slice(0, 2) === '{}') {
        str = '\\{\\}' + str.slice(2);
    }
    return expand_(escapeBraces(str), max, maxLength, maxDepth, 0, maxRewrites, { remaining: maxSteps }, true).map(unescapeBraces);
}
function embrace(str) {
    return '{' + str + '}';
}
function isPadded(el) {
    return /^-?0\d/.test(el);
}
function lte(i, y) {
    return i <= y;
}
function gte(i, y) {
    return i >= y;
}
// Build `{ acc[a] + pre + values[v] }` for every combination, capping the
// number of results at `max` and the total number of characters at `maxLength`.
// This is the one place output grows, so bounding it here keeps the single
// accumulator - and therefore memory - flat regardless of how many brace groups
// are combined (CVE-2026-14257). Each result built is a step, since `max` and
// `maxLength` bound one combination, not how many brace groups are combined.
function combine(acc, pre, values, max, maxLength, dropEmpties, budget) {
    const out = [];
    let length = 0;
    // Bash drops empty results at the top level, and they don't count against
    // `max`, so `max` bounds the number of *kept* results. Only an empty
    // `acc[a] + pre` can make one, so for those the empty values are skipped
    // without being visited. Visiting them one at a time let a set of empties
    // cost `acc.length * values.length` while keeping nothing.
    let nonEmpty;
    outer: for (let a = 0; a < acc.length; a++) {
        const prefix = acc[a] + pre;
        let vs = values;
        if (dropEmpties && !prefix) {
            if (!nonEmpty)
                nonEmpty = values.filter(v => v);
            vs = nonEmpty;
        }
        for (let v = 0; v < vs.length; v++) {
            if (out.length >= max)
                break outer;
            const expansion = prefix + vs[v];
            if (length + expansion.length > maxLength)
                break outer;
            out.push(expansion);
            length += expansion.length;
        }
    }
    budget.remaining -= out.length;
    return out;
}
// The expansion values of a single numeric (`1..5`) or alphabetic (`a..e..2`)
// sequence body, or `undefined` if the step budget runs out generating them.
function expandSequence(body, isAlphaSequence, max, maxLength, budget) {
    const n = body.split(/\.\./);
    const N = [];
    // A sequence body always splits into two or three parts, but the compiler
    // can't know that.
    /* c8 ignore start */
    if (n[0] === undefined || n[1] === undefined) {
        return N;
    }
    /* c8 ignore stop */
    const x = numeric(n[0]);
    const y = numeric(n[1]);
    const width = Math.max(n[0].length, n[1].length);
    let incr = n.length === 3 && n[2] !== undefined ?
        Math.max(Math.abs(numeric(n[2])), 1)
        : 1;
    let test = lte;
    const reverse = y < x;
    if (reverse) {
        incr *= -1;
        test = gte;
    }
    const pad = n.some(isPadded);
    // A padded value is built a character at a time to `width`, which the input
    // sets, so it costs one step per character: 64KB of
    // `('{' + '0'.repeat(100) + '..99999}').repeat(n)` took 7 seconds charged
    // one step per value.
    const cost = pad ? width : 1;
    let length = 0;
    for (let i = x; test(i, y) && N.length < max; i += incr) {
        // Each value is a step. `max` and `maxLength` bound one sequence, but a
        // chain of them still generated up to `max` values each, however few
        // combining could keep.
        budget.remaining -= cost;
        if (budget.remaining < 0) {
            return undefined;
        }
        let c;
        if (isAlphaSequence) {
            c = String.fromCharCode(i);
            if (c === '\\') {
                c = '';
            }
        }
        else {
            c = String(i);
            if (pad) {
                const need = width - c.length;
                if (need > 0) {
                    const z = new Array(need + 1).join('0');
                    if (i < 0) {
                        c = '-' + z + c.slice(1);
                    }
                    else {
                        c = z + c;
                    }
                }
            }
        }
        if (length + c.length > maxLength)
            break;
        N.push(c);
        length += c.length;
    }
    return N;
}
function expand_(str, max, maxLength, maxDepth, depth, maxRewrites, budget, isTop) {
    // An overdraft here makes the first scan refuse, so `str` stays literal.
    budget.remaining -= CALL_STEPS;
    // Too deeply nested to keep following: treat the rest as literal, the same
    // way a group that cannot expand is already handled. Truncating rather than
    // throwing keeps `expand` total, matching `max` and `maxLength`.
    if (depth > maxDepth) {
        return [str];
    }
    // Consume the string's top-level brace groups left to right, threading a
    // running set of combined prefixes (`acc`). Expanding the tail iteratively -
    // rather than recursing on `m.post` once per group - keeps the native stack
    // depth constant, so deeply chained input (`'{a,b}'.repeat(3000)`) can no
    // longer overflow the stack, and leaves a single accumulator whose size
    // `maxLength` bounds directly (CVE-2026-14257).
    let acc = [''];
    // Bash drops empty results, but only when the *first* top-level group is a
    // comma set - a sequence like `{a..\}` may legitimately yield ''. The drop
    // is on the final strings, so it is applied to whichever `combine` produces
    // them (the one with no brace set left in the tail).
    // How many times the `{a},b}` rewrite below has restarted the scan. Each pass
    // re-reads the whole string, so leaving this unbounded is quadratic.
    let rewrites = 0;
    let dropEmpties = false;
    let firstGroup = true;
    // `str` with its unmatched `{` masked, once a scan has run into them
    let masked = str;
    for (;;) {
        const m = balancedWithBudget(str, masked, budget);
        // No brace set left, or no step budget left to look for one: the rest of
        // the string is literal.
        if (!m) {
            return combine(acc, str, [''], max, maxLength, dropEmpties, budget);
        }
        if (m.unmatched) {
            masked = maskUnmatchedOpens(masked, budget);
        }
        // no need to expand pre, since it is guaranteed to be free of brace-sets
        const pre = m.pre;
        // This set and the rest of the string, literal: for a set that cannot
        // expand, and for one the step budget runs out on. Once it is overdrawn,
        // every set still being expanded, at every level, stays literal like this -
        // otherwise each level above would go on combining, and wrapping and
        // expanding again, results the budget was too small for.
        const literal = () => combine(acc, pre + '{' + m.body + '}' + m.post, [''], max, maxLength, dropEmpties, budget);
        if (/\$$/.test(pre)) {
            acc = combine(acc, pre + '{' + m.body + '}', [''], max, maxLength, dropEmpties && !m.post.length, budget);
            firstGroup = false;
            if (!m.post.length)
                break;
            str = m.post;
            masked = masked.slice(m.end + 1);
            continue;
        }
        const isNumericSequence = /^-?\d+\.\.-?\d+(?:\.\.-?\d+)?$/.test(m.body);
        const isAlphaSequence = /^[a-zA-Z]\.\.[a-zA-Z](?:\.\.-?\d+)?$/.test(m.body);
        const isSequence = isNumericSequence || isAlphaSequence;
        const isOptions = m.body.indexOf(',') >= 0;
        if (!isSequence && !isOptions) {
            // {a},b}
            if (rewrites < maxRewrites && commaSetFollows(m.post, budget)) {
                rewrites++;
                str = m.pre + '{' + m.body + escClose + m.post;
                // Taking a `}` away never gives an unmatched `{` a partner, so what
                // is masked stays unmatched. The `{` it closed can be left without
                // one, and the next scan masks it.
                masked =
                    masked.slice(0, m.end) + escClose + masked.slice(m.end + 1);
                isTop = true;
                continue;
            }
            // Nothing here expands, so the whole remaining string is literal.
            return literal();
        }
        if (firstGroup) {
            dropEmpties = isTop && !isSequence;
            firstGroup = false;
        }
        let values;
        if (isSequence) {
            values = expandSequence(m.body, isAlphaSequence, max, maxLength, budget);
            if (!values) {
                return literal();
            }
        }
        else {
            let n = parseCommaParts(m.body, budget);
            // The step budget ran out partway through the set.
            if (!n) {
                return literal();
            }
            if (n.length === 1 && n[0] !== undefined) {
                // x{{a,b}}y ==> x{a}y x{b}y
                n = expand_(n[0], max, maxLength, maxDepth, depth + 1, maxRewrites, budget, false).map(embrace);
                // The step budget ran out expanding the set's only part.
                if (budget.remaining < 0) {
                    return literal();
                }
                //XXX is this necessary? Can't seem to hit it in tests.
                /* c8 ignore start */
                if (n.length === 1) {
                    const next = combine(acc, pre + n[0], [''], max, maxLength, dropEmpties && !m.post.length, budget);
                    if (budget.remaining < 0) {
                        return literal();
                    }
                    acc = next;
                    if (!m.post.length)
                        break;
                    str = m.post;
                    masked = masked.slice(m.end + 1);
                    continue;
                }
                /* c8 ignore stop */
            }
            // Values that `combine` is going to drop as empty produce no result, so
            // they must not count against `max` - otherwise `{a,,b}` with `max: 2`
            // would stop at `['a', '']` and yield one result instead of two. Skipping
            // them outright keeps `values` bounded while leaving `max` a bound on
            // *kept* results.
            let dropsEmpties = dropEmpties && !m.post.length && !pre;
            for (let d = 0; dropsEmpties && d < acc.length; d++) {
                if (acc[d]) {
                    dropsEmpties = false;
                }
            }
            values = [];
            let valuesLength = 0;
            outer: for (let j = 0; j < n.length; j++) {
                const expanded = expand_(n[j], max, maxLength, maxDepth, depth + 1, maxRewrites, budget, false);
                // The step budget ran out expanding a member.
                if (budget.remaining < 0) {
                    return literal();
                }
                for (let k = 0; k < expanded.length; k++) {
                    const v = expanded[k];
                    if (dropsEmpties && !v)
                        continue;
                    if (values.length >= max ||
                        valuesLength + v.length > maxLength) {
                        break outer;
                    }
                    values.push(v);
                    valuesLength += v.length;
                }
            }
        }
        const next = combine(acc, pre, values, max, maxLength, dropEmpties && !m.post.length, budget);
        // The step budget ran out combining the set's values in.
        if (budget.remaining < 0) {
            return literal();
        }
        acc = next;
        if (!m.post.length)
            break;
        str = m.post;
        masked = masked.slice(m.end + 1);
    }
    return acc;
}
//# sourceMappingURL=index.js.map
;// CONCATENATED MODULE: ./node_modules/@isaacs/nonrecursive-glob-match/dist/esm/numeric-range.js
// One digit, or a class of digits from a to b.
const digit = (a, b) => a === b ?
    { t: 'lit', ch: String(a) }
    : { t: 'class', re: new RegExp(`^[${a}-${b}]$`) };
const prefix = (d, alts) => alts.map(s => [digit(d, d), ...s]);
// The digit strings from a to b, which have the same length.
const fixed = (a, b) => {
    if (!a)
        return [[]];
    let lo = +a[0];
    let hi = +b[0];
    const ra = a.slice(1);
    const rb = b.slice(1);
    if (lo === hi)
        return prefix(lo, fixed(ra, rb));
    const zeros = '0'.repeat(ra.length);
    const nines = '9'.repeat(ra.length);
    const out = [];
    if (ra !== zeros)
        out.push(...prefix(lo++, fixed(ra, nines)));
    const last = rb === nines ? [] : prefix(hi--, fixed(zeros, rb));
    if (lo <= hi) {
        out.push([digit(lo, hi), ...Array.from(ra, () => digit(0, 9))]);
    }
    out.push(...last);
    return out;
};
// The numbers from a to b, where 0 <= a <= b. If width is set, each
// one has leading zeros to make it that many digits.
const nonneg = (a, b, width) => {
    if (width) {
        return fixed(String(a).padStart(width, '0'), String(b).padStart(width, '0'));
    }
    const out = [];
    for (let len = String(a).length; len <= String(b).length; len++) {
        const lo = Math.max(a, len === 1 ? 0 : 10 ** (len - 1));
        const hi = Math.min(b, 10 ** len - 1);
        out.push(...fixed(String(lo), String(hi)));
    }
    return out;
};
/**
 * The strings that the bash brace expansion `{lo..hi}` makes, as
 * the alternatives of an `@(...)` extglob. Each one is a sequence of
 * digits and digit classes, so there are only a few of them, even for
 * a large range.
 *
 * If either end has a leading zero, such as `{01..10}`, each number
 * has leading zeros to make it as long as the longer end, counting a
 * `-` sign. So `{-05..3}` makes `-05` to `-01`, then `000` to `003`.
 *
 * Returns undefined if either end is not a safe integer.
 */
const numericRange = (loStr, hiStr) => {
    let lo = Number(loStr);
    let hi = Number(hiStr);
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi))
        return;
    if (lo > hi)
        [lo, hi] = [hi, lo];
    const padded = /^-?0\d/.test(loStr) || /^-?0\d/.test(hiStr);
    const width = padded ? Math.max(loStr.length, hiStr.length) : 0;
    const out = [];
    if (lo < 0) {
        const neg = nonneg(Math.max(-hi, 1), -lo, width && width - 1);
        out.push(...neg.map(s => [{ t: 'lit', ch: '-' }, ...s]));
    }
    if (hi >= 0)
        out.push(...nonneg(Math.max(lo, 0), hi, width));
    return out;
};
//# sourceMappingURL=numeric-range.js.map
;// CONCATENATED MODULE: ./node_modules/@isaacs/nonrecursive-glob-match/dist/esm/parse-class.js
// translate the various posix character classes into unicode properties
// this works across all unicode locales
// { <posix class>: [<translation>, negated]
const posixClasses = {
    '[:alnum:]': ['\\p{L}\\p{Nl}\\p{Nd}'],
    '[:alpha:]': ['\\p{L}\\p{Nl}'],
    '[:ascii:]': ['\\x' + '00-\\x' + '7f'],
    '[:blank:]': ['\\p{Zs}\\t'],
    '[:cntrl:]': ['\\p{Cc}'],
    '[:digit:]': ['\\p{Nd}'],
    '[:graph:]': ['\\p{Z}\\p{C}', true],
    '[:lower:]': ['\\p{Ll}'],
    '[:print:]': ['\\p{C}', true],
    '[:punct:]': ['\\p{P}\\p{S}'],
    '[:space:]': ['\\p{Z}\\t\\r\\n\\v\\f'],
    '[:upper:]': ['\\p{Lu}'],
    '[:word:]': ['\\p{L}\\p{Nl}\\p{Nd}\\p{Pc}'],
    '[:xdigit:]': ['A-Fa-f0-9'],
};
// only need to escape a few things inside of brace expressions
// escapes: [ \ ] -
const braceEscape = (s) => s.replace(/[[\]\\-]/g, '\\$&');
const noMatch = /$./;
// Takes a glob string at a posix brace expression. Returns a RegExp
// that tests one character, and the number of glob chars consumed.
// If the class is not closed, consumed is 0, and the `[` must be
// treated as a literal character.
// Out of order ranges are removed. If nothing is left, the RegExp
// is `/$./`, and the rest of the glob is consumed, so that the
// whole glob cannot match.
const parseClass = (glob, position, nocase = false, form) => {
    // normalize one class member, if it stays one code point
    const norm = (c) => {
        const n = form ? c.normalize(form) : c;
        return [...n].length === 1 ? n : c;
    };
    const pos = position;
    /* c8 ignore start */
    if (glob.charAt(pos) !== '[') {
        throw new Error('not in a brace expression');
    }
    /* c8 ignore stop */
    const ranges = [];
    const negs = [];
    let i = pos + 1;
    let sawStart = false;
    let escaping = false;
    let negate = false;
    let endPos = pos;
    let rangeStart = '';
    WHILE: while (i < glob.length) {
        const c = String.fromCodePoint(glob.codePointAt(i));
        if ((c === '!' || c === '^') && i === pos + 1) {
            negate = true;
            i++;
            continue;
        }
        if (c === ']' && sawStart && !escaping) {
            endPos = i + 1;
            break;
        }
        sawStart = true;
        if (c === '\\') {
            if (!escaping) {
                escaping = true;
                i++;
                continue;
            }
            // escaped \ char, fall through and treat like normal char
        }
        if (c === '[' && !escaping) {
            // either a posix class, a collation equivalent, or just a [
            for (const [cls, [unip, neg]] of Object.entries(posixClasses)) {
                if (glob.startsWith(cls, i)) {
                    // invalid, [a-[] is fine, but not [a-[:alpha]]
                    if (rangeStart) {
                        return [noMatch, glob.length - pos];
                    }
                    i += cls.length;
                    if (neg)
                        negs.push(unip);
                    else
                        ranges.push(unip);
                    continue WHILE;
                }
            }
        }
        // now it's just a normal character, effectively
        escaping = false;
        const n = norm(c);
        if (rangeStart) {
            // throw this range away if it's not valid, but others
            // can still match.
            if (n.codePointAt(0) > rangeStart.codePointAt(0)) {
                ranges.push(braceEscape(rangeStart) + '-' + braceEscape(n));
            }
            else if (n === rangeStart) {
                ranges.push(braceEscape(n));
            }
            rangeStart = '';
            i += c.length;
            continue;
        }
        // now might be the start of a range.
        // can be either c-d or c-] or c<more...>] or c] at this point
        if (glob.startsWith('-]', i + c.length)) {
            ranges.push(braceEscape(n + '-'));
            i += c.length + 1;
            continue;
        }
        if (glob.startsWith('-', i + c.length)) {
            rangeStart = n;
            i += c.length + 1;
            continue;
        }
        // not the start of a range, just a single character
        ranges.push(braceEscape(n));
        i += c.length;
    }
    if (endPos < i) {
        // didn't see the end of the class, not a valid class,
        // but might still be valid as a literal match.
        return [noMatch, 0];
    }
    // if we got no ranges and no negates, then we have a range that
    // cannot possibly match anything, and that poisons the whole glob
    if (!ranges.length && !negs.length) {
        return [noMatch, glob.length - pos];
    }
    const sranges = '[' + (negate ? '^' : '') + ranges.join('') + ']';
    const snegs = '[' + (negate ? '' : '^') + negs.join('') + ']';
    const comb = '^' +
        (ranges.length && negs.length ? '(' + sranges + '|' + snegs + ')'
            : ranges.length ? sranges
                : snegs);
    return [new RegExp(comb, nocase ? 'iu' : 'u'), endPos - pos];
};
//# sourceMappingURL=parse-class.js.map
;// CONCATENATED MODULE: ./node_modules/@isaacs/nonrecursive-glob-match/dist/esm/index.js


// the end of the pattern, or of a negated sub-pattern
const MATCH = { t: 'match', id: 0 };
const extTypes = '!?+*@';
const lit = (ch) => ({ t: 'lit', ch });
const reEscape = (s) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
// a RegExp that only matches `s`, with unicode case folding
const newFoldRe = (s) => new RegExp(`^${reEscape(s)}$`, 'iu');
// foldRe for one literal char. The same chars are in most patterns,
// so keep them. A RegExp without the `g` or `y` flag has no state to
// share.
const foldCache = new Map();
const foldRe = (ch) => {
    let re = foldCache.get(ch);
    if (!re) {
        re = newFoldRe(ch);
        if (foldCache.size >= 1000)
            foldCache.clear();
        foldCache.set(ch, re);
    }
    return re;
};
const litMatch = (l, c) => {
    if (c === l.ch)
        return true;
    if (!l.re)
        return false;
    const code = c.charCodeAt(0);
    if (code >= 128)
        return l.re.test(c);
    const ascii = (l.ascii ??= new Uint8Array(128));
    ascii[code] ||= l.re.test(c) ? 1 : 2;
    return ascii[code] === 1;
};
const tokenize = (p, nocase, noext, form, mark) => {
    const toks = [];
    for (let i = 0; i < p.length;) {
        const c = String.fromCodePoint(p.codePointAt(i));
        if (mark) {
            // a \ before a range would only escape its first char
            const m = c === '\\' && p.startsWith(mark, i + 1) ? 1 : 0;
            if (m || c === mark) {
                const start = i + m + mark.length;
                const end = p.indexOf(mark, start);
                const r = /^(-?\d+)\.\.(-?\d+)$/.exec(p.slice(start, end));
                const alts = end !== -1 && r && numericRange(r[1], r[2]);
                if (alts) {
                    toks.push({ t: 'ext', type: '@', alts });
                    i = end + mark.length;
                    continue;
                }
            }
        }
        if (c === '\\') {
            // a trailing \ is a literal \
            const e = p.codePointAt(i + 1);
            const ch = e === undefined ? c : String.fromCodePoint(e);
            toks.push(lit(ch));
            i += 1 + ch.length;
            continue;
        }
        if (c === '[') {
            const [re, consumed] = parseClass(p, i, nocase, form);
            if (consumed) {
                toks.push({ t: 'class', re });
                i += consumed;
                continue;
            }
        }
        if (!noext && extTypes.includes(c) && p[i + 1] === '(') {
            toks.push({ t: 'open', type: c });
            i += 2;
            continue;
        }
        toks.push(!noext && c === '|' ? { t: 'bar' }
            : !noext && c === ')' ? { t: 'close' }
                : c === '*' ? { t: 'star' }
                    : c === '?' ? { t: 'any' }
                        : lit(c));
        i += c.length;
    }
    return toks;
};
// map each open token index to the index of its close token
const pair = (toks) => {
    const pairs = new Map();
    const stack = [];
    toks.forEach((tok, i) => {
        if (tok.t === 'open')
            stack.push(i);
        else if (tok.t === 'close' && stack.length)
            pairs.set(stack.pop(), i);
    });
    return pairs;
};
// build the alternatives between start and end. An open token that
// is not closed is never inside a closed extglob, so bar and close
// tokens are only literal at the top level.
const build = (toks, pairs, start, end, top) => {
    let seq = [];
    const alts = [seq];
    for (let i = start; i < end; i++) {
        const tok = toks[i];
        const close = pairs.get(i);
        if (tok.t === 'open' && close !== undefined) {
            const sub = build(toks, pairs, i + 1, close, false);
            seq.push({ t: 'ext', type: tok.type, alts: sub });
            i = close;
        }
        else if (tok.t === 'bar' && !top) {
            alts.push((seq = []));
        }
        else if (tok.t === 'open') {
            seq.push(lit(tok.type), lit('('));
        }
        else if (tok.t === 'bar') {
            seq.push(lit('|'));
        }
        else if (tok.t === 'close') {
            seq.push(lit(')'));
        }
        else {
            seq.push(tok);
        }
    }
    return alts;
};
// normalize each run of literal chars as one string, so that a char
// and the combining marks after it compose (or decompose) together.
// Syntax is already parsed, so a char that normalizes to a syntax
// char (such as full-width `＊` in NFKC) stays a literal.
const normalize = (items, form) => {
    const out = [];
    let run = '';
    const flush = () => {
        for (const ch of run.normalize(form))
            out.push(lit(ch));
        run = '';
    };
    for (const it of items) {
        if (it.t === 'lit') {
            run += it.ch;
            continue;
        }
        flush();
        out.push(it.t === 'ext' ?
            { ...it, alts: it.alts.map(a => normalize(a, form)) }
            : it);
    }
    flush();
    return out;
};
// the start node, and the number of node ids. Ids are dense, from 0
// for the match node.
const compile = (items, nocase) => {
    let id = 1;
    const split = (out) => ({ t: 'split', id: id++, out });
    const seq = (items, next) => items.reduceRight((next, it) => item(it, next), next);
    const item = (it, next) => {
        switch (it.t) {
            case 'lit':
                const re = nocase ? foldRe(it.ch) : undefined;
                return { t: 'lit', id: id++, ch: it.ch, re, next };
            case 'any':
            case 'star':
                return { t: it.t, id: id++, next };
            case 'class':
                return { t: 'class', id: id++, re: it.re, next };
        }
        const alts = (next) => it.alts.map(a => seq(a, next));
        switch (it.type) {
            case '@':
                return split(alts(next));
            case '?':
                return split([next, ...alts(next)]);
            case '!':
                return { t: 'neg', id: id++, sub: split(alts(MATCH)), next };
        }
        // * and +, loop back after each match
        const after = split([]);
        const entry = split(alts(after));
        after.out.push(next, entry);
        return it.type === '*' ? after : entry;
    };
    const start = seq(items, MATCH);
    return [start, id];
};
// one line per node, in the order that a walk from the start
// reaches them. Edges point to node ids. The nodes of a negated
// sub-pattern are indented under their negation.
const show = (start) => {
    const lines = [];
    const seen = new Set();
    const ref = (n) => (n.t === 'match' ? 'match' : String(n.id));
    const walk = (n, indent) => {
        if (n.t === 'match' || seen.has(n))
            return;
        seen.add(n);
        const line = (desc) => lines.push(`${indent}${n.id}: ${desc}`);
        switch (n.t) {
            case 'split':
                line(`split -> ${n.out.map(ref).join(', ')}`);
                for (const o of n.out)
                    walk(o, indent);
                return;
            case 'neg':
                line(`!(${ref(n.sub)}) -> ${ref(n.next)}`);
                walk(n.sub, indent + '  ');
                return walk(n.next, indent);
            case 'lit':
                line(`${JSON.stringify(n.ch)} -> ${ref(n.next)}`);
                break;
            case 'class':
                line(`${n.re} -> ${ref(n.next)}`);
                break;
            default:
                line(`${n.t === 'any' ? '?' : '*'} -> ${ref(n.next)}`);
        }
        walk(n.next, indent);
    };
    walk(start, '');
    return [`start -> ${ref(start)}`, ...lines].join('\n');
};
// The threads at one position in the string. Each node thread is
// only kept once, and runs with the same state are only kept once,
// so that identical threads merge. The match node is not in
// `threads`, because it can not step. It sets `match` instead.
class State {
    // set by the Sim, to mark the nodes that this state has
    gen;
    threads = [];
    match = false;
    runs = [];
    // the sorted ids of the threads, with 0 for a match, once the
    // state is done
    ids = [];
    constructor(gen) {
        this.gen = gen;
    }
    // no threads, so nothing more can match
    get dead() {
        return !this.threads.length && !this.match && !this.runs.length;
    }
}
// true if the two states hold the same threads
const sameState = (a, b) => {
    if (a.ids.length !== b.ids.length)
        return false;
    if (a.runs.length !== b.runs.length)
        return false;
    if (a.ids.some((id, i) => id !== b.ids[i]))
        return false;
    return a.runs.every(r => b.runs.some(o => o.neg === r.neg && sameState(o.state, r.state)));
};
const marks = (size) => ({
    has: new Float64Array(size),
    seen: new Float64Array(size),
    gen: 0,
});
class Sim {
    // `.` and `..` only match literal dots, even with `dot:true`
    dots;
    // the string starts with `.`, and `dot:true` is not set
    dotStart;
    #marks;
    constructor(dots, dotStart, marks) {
        this.dots = dots;
        this.dotStart = dotStart;
        this.#marks = marks;
    }
    state() {
        return new State(++this.#marks.gen);
    }
    // sort the ids of a state, once it has all of its threads
    done(state) {
        state.ids = state.threads.map(n => n.id).sort((a, b) => a - b);
        if (state.match)
            state.ids.unshift(MATCH.id);
        return state;
    }
    // true the first time that the state walks through the node, so
    // that loops in the graph stop
    #visit(state, node) {
        const { seen } = this.#marks;
        if (seen[node.id] === state.gen)
            return false;
        seen[node.id] = state.gen;
        return true;
    }
    #addThread(state, node) {
        const { has } = this.#marks;
        if (has[node.id] === state.gen)
            return false;
        has[node.id] = state.gen;
        state.threads.push(node);
        return true;
    }
    // wildcards only match a leading dot if `dot:true`. In a negated
    // sub-pattern, this does not apply, because the negation itself
    // can not match a leading dot.
    restricted(i, top) {
        return top && (this.dots || (this.dotStart && i === 0));
    }
    add(state, node, i, top) {
        switch (node.t) {
            case 'split':
                if (!this.#visit(state, node))
                    return;
                for (const o of node.out)
                    this.add(state, o, i, top);
                return;
            case 'neg':
                if (!this.#visit(state, node))
                    return;
                const sub = this.state();
                this.add(sub, node.sub, i, false);
                this.done(sub);
                return this.addRun(state, { t: 'run', neg: node, state: sub }, i, top);
            case 'star':
                // a * can not start a dotfile, even if it matches nothing
                if (this.restricted(i, top))
                    return;
                if (this.#addThread(state, node))
                    this.add(state, node.next, i, top);
                return;
            case 'match':
                state.match = true;
                return;
            default:
                this.#addThread(state, node);
        }
    }
    addRun(state, run, i, top) {
        for (const r of state.runs) {
            if (r.neg === run.neg && sameState(r.state, run.state))
                return;
        }
        state.runs.push(run);
        if (!run.state.match) {
            this.add(state, run.neg.next, i, top);
        }
    }
    // the threads after char `c`, at index `i`
    step(state, c, i, top) {
        const next = this.state();
        for (const th of state.threads) {
            switch (th.t) {
                case 'lit':
                    if (litMatch(th, c)) {
                        this.add(next, th.next, i + 1, top);
                    }
                    break;
                case 'any':
                    if (!this.restricted(i, top))
                        this.add(next, th.next, i + 1, top);
                    break;
                case 'class':
                    if (!this.restricted(i, top) && th.re.test(c)) {
                        this.add(next, th.next, i + 1, top);
                    }
                    break;
                case 'star':
                    if (!this.restricted(i, top))
                        this.add(next, th, i + 1, top);
            }
        }
        if (!this.restricted(i, top)) {
            for (const run of state.runs) {
                // a sub-pattern with no threads can not match again, so the
                // run stays the same
                if (run.state.dead) {
                    this.addRun(next, run, i + 1, top);
                    continue;
                }
                const sub = this.step(run.state, c, i, false);
                this.addRun(next, { t: 'run', neg: run.neg, state: sub }, i + 1, top);
            }
        }
        return this.done(next);
    }
}
// A canonical key for the threads in a state. States with the same
// key hold the same threads, so they match the same strings.
const stateKey = (state) => {
    const ids = state.ids.join();
    if (!state.runs.length)
        return ids;
    const runs = state.runs.map(r => `${r.neg.id}(${stateKey(r.state)})`);
    return `${ids}|${runs.sort().join('|')}`;
};
// The cache can hold about this many chars of state keys and
// transitions. When it is full, it is cleared, so that a pattern
// can not use an unbounded amount of memory.
const DFA_BUDGET = 1 << 18;
// A cache of the states that the simulation reaches, built as the
// matcher is used. Each char of a string is then one Map lookup,
// once the states that it leads to are known.
//
// The dot rules only restrict the first char of a dotfile (strings
// that are only `.` or `..` do not use the cache). So a dotfile
// starts at its own state, which takes its first step with the
// restriction, and every other state takes steps without it.
class Dfa {
    #start;
    #states = new Map();
    #size = 0;
    #plain;
    #dotStart;
    #sim;
    #dotSim;
    constructor(start, marks) {
        this.#start = start;
        this.#sim = new Sim(false, false, marks);
        this.#dotSim = new Sim(false, true, marks);
    }
    #make(state) {
        return {
            state,
            match: state.match,
            dead: state.dead,
            next: new Map(),
        };
    }
    #intern(state) {
        const key = stateKey(state);
        const found = this.#states.get(key);
        if (found)
            return found;
        if (this.#size > DFA_BUDGET)
            this.#clear();
        const d = this.#make(state);
        this.#states.set(key, d);
        this.#size += key.length + 1;
        return d;
    }
    #clear() {
        this.#states.clear();
        this.#size = 0;
        this.#plain = undefined;
        this.#dotStart = undefined;
    }
    start(dotStart) {
        if (dotStart) {
            if (this.#dotStart)
                return this.#dotStart;
            const state = this.#dotSim.state();
            this.#dotSim.add(state, this.#start, 0, true);
            return (this.#dotStart = this.#make(this.#dotSim.done(state)));
        }
        if (this.#plain)
            return this.#plain;
        const state = this.#sim.state();
        this.#sim.add(state, this.#start, 0, true);
        return (this.#plain = this.#intern(this.#sim.done(state)));
    }
    // the next state, after a miss in `d.ascii`
    next(d, c) {
        const code = c.charCodeAt(0);
        const found = code < 128 ? undefined : d.next.get(c);
        if (found)
            return found;
        // the dotfile start is not in the cache, so it is never shared
        const n = d === this.#dotStart ?
            this.#intern(this.#dotSim.step(d.state, c, 0, true))
            : this.#intern(this.#sim.step(d.state, c, 1, true));
        if (code < 128) {
            if (!d.ascii) {
                d.ascii = new Array(128);
                this.#size += 128;
            }
            d.ascii[code] = n;
        }
        else {
            d.next.set(c, n);
        }
        this.#size++;
        return n;
    }
}
// the nodes in order, if the graph is a single chain
const linear = (start) => {
    const nodes = [];
    for (let n = start; n.t !== 'match'; n = n.next) {
        if (n.t === 'split' || n.t === 'neg')
            return undefined;
        nodes.push(n);
    }
    return nodes;
};
// Match a chain of nodes. Each node other than `*` matches exactly
// one char, so on a failure it is enough to go back to the last `*`
// and let it match one more char. This takes at most
// nodes.length * chars.length steps.
const testLinear = (nodes, chars, start, end) => {
    let ni = 0;
    let ci = start;
    let starNi = -1;
    let starCi = 0;
    while (ci < end) {
        const n = nodes[ni];
        if (n?.t === 'star') {
            starNi = ni++;
            starCi = ci;
            continue;
        }
        const c = chars[ci];
        if (n &&
            (n.t === 'any' ||
                (n.t === 'lit' && litMatch(n, c)) ||
                (n.t === 'class' && n.re.test(c)))) {
            ni++;
            ci++;
            continue;
        }
        if (starNi === -1)
            return false;
        ni = starNi + 1;
        ci = ++starCi;
    }
    while (nodes[ni]?.t === 'star')
        ni++;
    return ni === nodes.length;
};
// The least and most chars that the items can match. These are only
// bounds: a negation can match a string of any length, so it counts
// as 0 to Infinity.
const lengths = (items) => {
    let min = 0;
    let max = 0;
    for (const it of items) {
        const [lo, hi] = itemLengths(it);
        min += lo;
        max += hi;
    }
    return [min, max];
};
const itemLengths = (it) => {
    if (it.t === 'star')
        return [0, Infinity];
    if (it.t !== 'ext')
        return [1, 1];
    if (it.type === '!')
        return [0, Infinity];
    const alts = it.alts.map(lengths);
    const min = Math.min(...alts.map(a => a[0]));
    const max = Math.max(...alts.map(a => a[1]));
    // a loop of alternatives that only match the empty string is empty
    const loop = max === 0 ? 0 : Infinity;
    return (it.type === '@' ? [min, max]
        : it.type === '?' ? [0, max]
            : it.type === '*' ? [0, loop]
                : [min, loop]);
};
// true if the chars from `start` match the literals
const hasAffix = (lits, chars, start) => {
    for (let j = 0; j < lits.length; j++) {
        if (!litMatch(lits[j], chars[start + j]))
            return false;
    }
    return true;
};
// a `/`, or half of a surrogate pair
const slashOrSurrogate = /[/\ud800-\udfff]/;
const surrogate = /[\ud800-\udfff]/;
// a string can be indexed by code point, unless it has surrogate
// pairs
const codePoints = (s) => surrogate.test(s) ? [...s] : s;
const noSlash = (s) => {
    if (s.includes('/')) {
        throw new Error('can only match a single path portion, got: ' + s);
    }
};
class Matcher {
    pattern;
    options;
    #start;
    // the number of node ids
    #size;
    #marks;
    // the Sim for strings that are only `.` or `..`
    #dotsSim;
    // the string to compare, if the pattern has no magic. With
    // `nocase:true`, the RegExp that folds case is made when it is
    // first used.
    #literal;
    #literalFold = false;
    #literalRe;
    // the nodes between the prefix and suffix, if the graph is a
    // single chain
    #linear;
    // the linear nodes are only `*` and `?`, so the length bounds and
    // the prefix and suffix decide the match
    #wild = false;
    // the least and most chars that a match can have
    #min = 0;
    #max = Infinity;
    // the literals that a match must start and end with. Each one
    // matches exactly one char, and they are distinct items in the
    // pattern, so a string that does not have them can not match.
    #prefix = [];
    #suffix = [];
    // the prefix and suffix as strings, if they do not fold case
    #prefixStr;
    #suffixStr;
    // there is a prefix or suffix to check
    #affix = false;
    #dfa;
    #form;
    constructor(pattern, options = {}) {
        if (pattern.includes('/')) {
            throw new Error('can only match a single path portion, got pattern: ' + pattern);
        }
        this.pattern = pattern;
        this.options = options;
        const { nocase = false, noext = false, normalize: n } = options;
        this.#form = n === true ? 'NFC' : n || undefined;
        // a pattern that is only an empty extglob is a literal string,
        // except for `!()`, which matches any non-empty string
        const literal = /^[?*+@]\(\)$/.test(pattern);
        const toks = tokenize(pattern, nocase, noext || literal, this.#form, options.rangeMark);
        let [items] = build(toks, pair(toks), 0, toks.length, true);
        if (this.#form)
            items = normalize(items, this.#form);
        const [start, size] = compile(items, nocase);
        this.#start = start;
        this.#size = size;
        if (items.every(it => it.t === 'lit')) {
            this.#literal = items.map(it => it.ch).join('');
            this.#literalFold = nocase;
        }
        else {
            const lit = (it) => it.t !== 'lit' ? undefined
                : nocase ? { ch: it.ch, re: foldRe(it.ch) }
                    : { ch: it.ch };
            for (const it of items) {
                const l = lit(it);
                if (!l)
                    break;
                this.#prefix.push(l);
            }
            for (let j = items.length - 1; j >= 0; j--) {
                const l = lit(items[j]);
                if (!l)
                    break;
                this.#suffix.unshift(l);
            }
            this.#affix = !!(this.#prefix.length || this.#suffix.length);
            if (!nocase) {
                this.#prefixStr = this.#prefix.map(l => l.ch).join('');
                this.#suffixStr = this.#suffix.map(l => l.ch).join('');
            }
            this.#linear = linear(this.#start)?.slice(this.#prefix.length, -this.#suffix.length || undefined);
            this.#wild = !!this.#linear?.every(n => n.t === 'star' || n.t === 'any');
            const [min, max] = lengths(items);
            this.#min = min;
            this.#max = max;
        }
    }
    test(s) {
        // The `/` check uses the string as given, so with normalization it
        // is a separate step. Otherwise, one scan finds both a `/` and the
        // surrogate pairs that stop the string being indexed by code point.
        if (this.#form) {
            noSlash(s);
            return this.#test(s.normalize(this.#form));
        }
        if (slashOrSurrogate.test(s)) {
            noSlash(s);
            return this.#test(s, [...s]);
        }
        return this.#test(s, s);
    }
    /**
     * The same as {@link Matcher#test}, but the string is not checked
     * for `/` chars, so the result for a string that has one is not
     * defined. Only use it for a string that is known to be one path
     * portion, such as a part of a path that was split on `/`. It can
     * be faster, because some patterns do not need to look at each char
     * of the string.
     */
    testUnchecked(s) {
        return this.#test(this.#form ? s.normalize(this.#form) : s);
    }
    // Test a string that has no `/`. `chars` indexes it by code point.
    // If it is not given, it is only found if a step needs it.
    #test(s, chars) {
        if (this.#literal !== undefined) {
            return this.#literalFold ?
                (this.#literalRe ??= newFoldRe(this.#literal)).test(s)
                : s === this.#literal;
        }
        // the length check means that the prefix and suffix do not
        // overlap. Without the chars, the length in code points is from
        // half of the UTF-16 length (if each one is a surrogate pair) to
        // all of it, which is often enough to know.
        const min = this.#min;
        const max = this.#max;
        if (chars === undefined) {
            const most = s.length;
            const least = (most + 1) >> 1;
            if (most < min || least > max)
                return false;
            if (least < min || most > max)
                chars = codePoints(s);
        }
        if (chars !== undefined &&
            (chars.length < min || chars.length > max)) {
            return false;
        }
        const prefix = this.#prefix.length;
        if (this.#affix) {
            if (this.#prefixStr !== undefined && this.#suffixStr !== undefined) {
                if (!s.startsWith(this.#prefixStr) ||
                    !s.endsWith(this.#suffixStr)) {
                    return false;
                }
            }
            else {
                chars ??= codePoints(s);
                const end = chars.length - this.#suffix.length;
                if (!hasAffix(this.#prefix, chars, 0) ||
                    !hasAffix(this.#suffix, chars, end)) {
                    return false;
                }
            }
        }
        const dotStart = !this.options.dot && s.startsWith('.');
        if (this.#linear) {
            // `.` and `..` only match literal dots, even with `dot:true`
            if (s === '.' || s === '..')
                return false;
            // only a literal can match the leading dot. A `*` can not
            // start a dotfile, even if it matches nothing.
            if (dotStart && !prefix)
                return false;
            if (this.#wild)
                return true;
            chars ??= codePoints(s);
            const end = chars.length - this.#suffix.length;
            return testLinear(this.#linear, chars, prefix, end);
        }
        chars ??= codePoints(s);
        if (s === '.' || s === '..') {
            this.#marks ??= marks(this.#size);
            const sim = (this.#dotsSim ??= new Sim(true, false, this.#marks));
            const start = sim.state();
            sim.add(start, this.#start, 0, true);
            let state = sim.done(start);
            for (let i = 0; i < chars.length; i++) {
                state = sim.step(state, chars[i], i, true);
            }
            return state.match;
        }
        this.#marks ??= marks(this.#size);
        const dfa = (this.#dfa ??= new Dfa(this.#start, this.#marks));
        let d = dfa.start(dotStart);
        // read char codes from the string, so that a one-char string is
        // only made for a cache miss
        const str = chars === s;
        for (let i = 0; i < chars.length; i++) {
            if (d.dead)
                return false;
            const code = str ? s.charCodeAt(i) : chars[i].charCodeAt(0);
            d = d.ascii?.[code] ?? dfa.next(d, chars[i]);
        }
        return d.match;
    }
    /** a readable listing of the state machine */
    toString() {
        return show(this.#start);
    }
}
//# sourceMappingURL=index.js.map
;// CONCATENATED MODULE: ./node_modules/minimatch/dist/esm/assert-valid-pattern.js
const MAX_PATTERN_LENGTH = 1024 * 64;
const assertValidPattern = (pattern) => {
    if (typeof pattern !== 'string') {
        throw new TypeError('invalid pattern');
    }
    if (pattern.length > MAX_PATTERN_LENGTH) {
        throw new TypeError('pattern is too long');
    }
};
//# sourceMappingURL=assert-valid-pattern.js.map
;// CONCATENATED MODULE: ./node_modules/minimatch/dist/esm/escape.js
/**
 * Escape all magic characters in a glob pattern.
 *
 * If the {@link MinimatchOptions.windowsPathsNoEscape}
 * option is used, then characters are escaped by wrapping in `[]`, because
 * a magic character wrapped in a character class can only be satisfied by
 * that exact character.  In this mode, `\` is _not_ escaped, because it is
 * not interpreted as a magic character, but instead as a path separator.
 *
 * If the {@link MinimatchOptions.magicalBraces} option is used,
 * then braces (`{` and `}`) will be escaped.
 *
 * A leading `#` or `!` is escaped as well, so that the result is never a
 * comment or a negated pattern. In `windowsPathsNoEscape` mode, a leading
 * `!` is written as `@(!)`, because `[!` starts a negated class.
 */
const escape_escape = (s, { windowsPathsNoEscape = false, magicalBraces = false, } = {}) => {
    // don't need to escape +@! because we escape the parens
    // that make those magic, and escaping ! as [!] isn't valid,
    // because [!]] is a valid glob class meaning not ']'.
    // However, at the start of the pattern, '!' negates the pattern and
    // '#' makes it a comment, so the first character is handled below.
    const e = magicalBraces ?
        windowsPathsNoEscape ? s.replace(/[?*()[\]{}]/g, '[$&]')
            : s.replace(/[?*()[\]\\{}]/g, '\\$&')
        : windowsPathsNoEscape ? s.replace(/[?*()[\]]/g, '[$&]')
            : s.replace(/[?*()[\]\\]/g, '\\$&');
    const c = e.charAt(0);
    if (c === '#') {
        return (windowsPathsNoEscape ? '[#]' : '\\#') + e.slice(1);
    }
    if (c === '!') {
        // '[!]' can not be used, because '[!' starts a negated class, and
        // '\' is a path separator in windowsPathsNoEscape mode. '@(!)'
        // matches only '!'. If extglobs are disabled with `noext`, it
        // matches nothing, rather than everything.
        return (windowsPathsNoEscape ? '@(!)' : '\\!') + e.slice(1);
    }
    return e;
};
//# sourceMappingURL=escape.js.map
;// CONCATENATED MODULE: ./node_modules/minimatch/dist/esm/unescape.js
/**
 * Un-escape a string that has been escaped with {@link escape}.
 *
 * If the {@link MinimatchOptions.windowsPathsNoEscape} option is used, then
 * square-bracket escapes are removed, but not backslash escapes.
 *
 * For example, it will turn the string `'[*]'` into `*`, but it will not
 * turn `'\\*'` into `'*'`, because `\` is a path separator in
 * `windowsPathsNoEscape` mode.
 *
 * When `windowsPathsNoEscape` is not set, then both square-bracket escapes and
 * backslash escapes are removed.
 *
 * Slashes (and backslashes in `windowsPathsNoEscape` mode) cannot be escaped
 * or unescaped.
 *
 * When `magicalBraces` is not set, escapes of braces (`{` and `}`) will not be
 * unescaped.
 */
const unescape_unescape = (s, { windowsPathsNoEscape = false, magicalBraces = true, } = {}) => {
    // escape() writes a leading '!' as '@(!)' in windowsPathsNoEscape mode
    if (windowsPathsNoEscape && s.startsWith('@(!)')) {
        return ('!' + unescape_unescape(s.slice(4), { windowsPathsNoEscape, magicalBraces }));
    }
    if (magicalBraces) {
        return windowsPathsNoEscape ?
            s.replace(/\[([^/\\])\]/g, '$1')
            : s
                .replace(/((?!\\).|^)\[([^/\\])\]/g, '$1$2')
                .replace(/\\([^/])/g, '$1');
    }
    return windowsPathsNoEscape ?
        s.replace(/\[([^/\\{}])\]/g, '$1')
        : s
            .replace(/((?!\\).|^)\[([^/\\{}])\]/g, '$1$2')
            .replace(/\\([^/{}])/g, '$1');
};
//# sourceMappingURL=unescape.js.map
;// CONCATENATED MODULE: ./node_modules/minimatch/dist/esm/index.js





const DEFAULT_BRACE_EXPAND_MAX = 100_000;
const DEFAULT_GLOB_STAR_RECURSION_MAX = 200;
// avoid the annoying deprecation flag lol
const AWE_KEY = ('allowWindow' + 'sEscape');
const minimatch = (p, pattern, options) => {
    assertValidPattern(pattern);
    // shortcut: comments match nothing.
    if (!options?.nocomment && pattern.charAt(0) === '#') {
        return false;
    }
    return cachedMinimatch(pattern, options).match(p);
};
// The Minimatch objects that minimatch() used most recently, by options
// and then by pattern. When the cache is full, it becomes the old one,
// and the objects used from the old one are moved back to a new one.
// So it keeps 256 to 512 objects.
// The patterns can come from users, so the cache is also bounded by
// the total weight of the objects (see cacheWeight()), and an object
// that is too heavy is never kept. Otherwise a few unique patterns
// with large brace expansions would fill the heap.
let cache = new Map();
let oldCache = new Map();
let cacheSize = 0;
let cacheTotalWeight = 0;
const cacheMax = 256;
const cacheMaxWeight = 1 << 15;
const cacheMaxEntryWeight = 1 << 12;
// About the memory that a compiled object keeps: the pattern and the
// expanded patterns, of which each row in set is made.
const cacheWeight = (mm) => {
    let w = mm.pattern.length;
    for (const s of mm.globSet) {
        w += s.length + 1;
        if (w > cacheMaxEntryWeight)
            break;
    }
    return w;
};
// tsc fails here if a new option is in neither type. Add it to
// optionsKey() too.
const allOptionsKeyed = true;
void allOptionsKeyed;
// 0, 1 or 2 for undefined, falsy or truthy.
const tri = (v) => v === undefined ? 0
    : v ? 2
        : 1;
// The weight of each boolean option's base-3 digit in the key. The
// weights below 24 are for optimizationLevel (1), platform (3) and
// windowsPathsNoEscape (12). tsc fails here if a boolean option is
// not in the list.
const booleanWeights = new Map(Object.keys({
    nobrace: 0,
    nocomment: 0,
    nonegate: 0,
    noglobstar: 0,
    noext: 0,
    nonull: 0,
    partial: 0,
    dot: 0,
    nocase: 0,
    nocaseMagicOnly: 0,
    magicalBraces: 0,
    matchBase: 0,
    flipNegate: 0,
    preserveMultipleSlashes: 0,
    windowsNoMagicRoot: 0,
}).map((k, i) => [k, 24 * 3 ** i]));
// The cache key for a set of options. It is a number, unless an
// option is set to a value that the number can not show, such as
// normalize or an uncommon platform. Then it is a JSON string.
// The defaults give 0, the same key as no options.
// It only reads the keys that are set, so that the speed does not
// depend on the shape of the options object.
const optionsKey = (o) => {
    let n = 0;
    let wpe = false;
    // inherited keys too, because Minimatch reads them
    // oxlint-disable-next-line guard-for-in
    for (const k in o) {
        const v = o[k];
        switch (k) {
            // the same test as the Minimatch constructor
            case 'windowsPathsNoEscape':
                if (v)
                    wpe = true;
                break;
            case AWE_KEY:
                if (v === false)
                    wpe = true;
                break;
            case 'platform': {
                // the same test as the Minimatch constructor
                const p = v || defaultPlatform;
                if (p === defaultPlatform)
                    break;
                if (p === 'darwin')
                    n += 3;
                else if (p === 'win32')
                    n += 6;
                else if (p === 'linux')
                    n += 9;
                else
                    return JSON.stringify(o);
                break;
            }
            case 'optimizationLevel':
                // The same tests as Minimatch: 1 when undefined, then >= 2,
                // >= 1, or else 0. The default level 1 adds 0.
                if (v === undefined)
                    break;
                n +=
                    v >= 2 ? 1
                        : v >= 1 ? 0
                            : 2;
                break;
            case 'braceExpandMax':
                if (v !== undefined && v !== DEFAULT_BRACE_EXPAND_MAX) {
                    return JSON.stringify(o);
                }
                break;
            case 'maxGlobstarRecursion':
                if (v !== undefined && v !== DEFAULT_GLOB_STAR_RECURSION_MAX) {
                    return JSON.stringify(o);
                }
                break;
            case 'normalize':
                if (v !== undefined)
                    return JSON.stringify(o);
                break;
            default:
                // unknown keys have no weight
                n += (booleanWeights.get(k) ?? 0) * tri(v);
        }
    }
    return wpe ? n + 12 : n;
};
// A copy, so a later change to the options can not change it. Unlike
// a spread, it keeps the inherited keys, which optionsKey() and the
// Minimatch constructor also read.
const copyOptions = (o) => {
    const copy = {};
    // oxlint-disable-next-line guard-for-in
    for (const k in o)
        copy[k] = o[k];
    return copy;
};
const cachedMinimatch = (pattern, options) => {
    const key = options ? optionsKey(options) : 0;
    let mm = cache.get(key)?.get(pattern);
    if (mm)
        return mm;
    mm =
        oldCache.get(key)?.get(pattern) ??
            new Minimatch(pattern, copyOptions(options));
    const weight = cacheWeight(mm);
    // too big to keep, so it is compiled again each time
    if (weight > cacheMaxEntryWeight)
        return mm;
    if (cacheSize >= cacheMax ||
        cacheTotalWeight + weight > cacheMaxWeight) {
        oldCache = cache;
        cache = new Map();
        cacheSize = 0;
        cacheTotalWeight = 0;
    }
    let byPattern = cache.get(key);
    if (!byPattern)
        cache.set(key, (byPattern = new Map()));
    byPattern.set(pattern, mm);
    cacheSize++;
    cacheTotalWeight += weight;
    return mm;
};
/* c8 ignore start */
const defaultPlatform = (typeof process === 'object' && process ?
    process.env?.__MINIMATCH_TESTING_PLATFORM__ || process.platform
    : 'posix');
const path = {
    win32: { sep: '\\' },
    posix: { sep: '/' },
};
/* c8 ignore stop */
const sep = defaultPlatform === 'win32' ? path.win32.sep : path.posix.sep;
minimatch.sep = sep;
const GLOBSTAR = Symbol('globstar **');
minimatch.GLOBSTAR = GLOBSTAR;
const filter = (pattern, options) => {
    let mm;
    return (p) => (mm ??= cachedMinimatch(pattern, options)).match(p);
};
minimatch.filter = filter;
const ext = (a, b = {}) => Object.assign({}, a, b);
const defaults = (def) => {
    if (!def || typeof def !== 'object' || !Object.keys(def).length) {
        return minimatch;
    }
    const orig = minimatch;
    const m = (p, pattern, options = {}) => orig(p, pattern, ext(def, options));
    return Object.assign(m, {
        Minimatch: class Minimatch extends orig.Minimatch {
            constructor(pattern, options = {}) {
                super(pattern, ext(def, options));
            }
            static defaults(options) {
                return orig.defaults(ext(def, options)).Minimatch;
            }
        },
        unescape: (s, options = {}) => orig.unescape(s, ext(def, options)),
        escape: (s, options = {}) => orig.escape(s, ext(def, options)),
        filter: (pattern, options = {}) => orig.filter(pattern, ext(def, options)),
        defaults: (options) => orig.defaults(ext(def, options)),
        braceExpand: (pattern, options = {}) => orig.braceExpand(pattern, ext(def, options)),
        match: (list, pattern, options = {}) => orig.match(list, pattern, ext(def, options)),
        sep: orig.sep,
        GLOBSTAR: GLOBSTAR,
    });
};
minimatch.defaults = defaults;
// Brace expansion:
// a{b,c}d -> abd acd
// a{b,}c -> abc ac
// a{0..3}d -> a0d a1d a2d a3d
// a{b,c{d,e}f}g -> abg acdfg acefg
// a{b,c}d{e,f}g -> abdeg acdeg abdeg abdfg
//
// Invalid sets are not expanded.
// a{2..}b -> a{2..}b
// a{b}c -> a{b}c
const braceExpand = (pattern, options = {}) => {
    assertValidPattern(pattern);
    // Thanks to Yeting Li <https://github.com/yetingli> for
    // improving this regexp to avoid a ReDOS vulnerability.
    if (options.nobrace || !/\{(?:(?!\{).)*\}/.test(pattern)) {
        // shortcut. no need to expand.
        return [pattern];
    }
    // brace-expansion turns each escaped backslash '\\' into a single '\',
    // which then escapes the next character instead, and can turn an
    // escaped magic character (for example '\\\*') into a live one.
    // Double every pair, so an escaped backslash comes back out still
    // escaped. The parity of each run of backslashes is unchanged.
    let p = pattern.replace(/\\\\/g, '\\\\\\\\');
    // brace-expansion does not know about [...] classes. In
    // windowsPathsNoEscape mode, escape() writes a literal brace as '[{]'
    // or '[}]'. Escape the brace for brace-expansion, which removes that
    // backslash again, leaving '[{]' or '[}]'.
    if (options.windowsPathsNoEscape || options[AWE_KEY] === false) {
        p = p.replace(/\[([{}])\]/g, '[\\$1]');
    }
    return expand(p, { max: options.braceExpandMax });
};
minimatch.braceExpand = braceExpand;
// A numeric range with at least this many values is matched as one
// pattern portion, rather than expanded. For a glob walk, that is
// one directory read, in place of a stat for each value.
const RANGE_MIN = 100;
// a {lo..hi} range that is not escaped, and not a ${...} variable
const rangeRe = /(?<![\\$])\{(-?\d+)\.\.(-?\d+)\}/g;
// true if a range mark in this portion is inside a `!(...)`,
// `*(...)` or `+(...)` extglob. Those repeat or negate their
// contents, so one Matcher for the whole range does not match the
// same strings as the union of one pattern per value. For example,
// `*({1..100})` would match `510` as `5` then `10`, and `!({1..100})`
// would not match `5`, but every expanded pattern except `!(5)` does.
// `@(...)` and `?(...)` are fine: they pick one value at most.
const inRepeatOrNegExt = (portion, mark) => {
    const stack = [];
    for (let i = 0; i < portion.length; i++) {
        const c = portion.charAt(i);
        if (c === '\\') {
            i++;
        }
        else if (c === mark) {
            if (stack.some(t => t !== '@' && t !== '?'))
                return true;
        }
        else if (portion.charAt(i + 1) === '(' && '!?+*@'.includes(c)) {
            stack.push(c);
            i++;
        }
        else if (c === ')') {
            stack.pop();
        }
    }
    return false;
};
const match = (list, pattern, options = {}) => {
    const mm = new Minimatch(pattern, options);
    list = list.filter(f => mm.match(f));
    if (mm.options.nonull && !list.length) {
        list.push(pattern);
    }
    return list;
};
minimatch.match = match;
const globMagic = /[?*]|[+@!]\(.*?\)|\[|\]/;
// Index of the `]` that closes the class that starts at `start`,
// or -1 if it is not closed. Posix classes such as `[:alpha:]` are
// not skipped, so this can find a `]` before the real end. That
// only makes a class look less like a literal.
const classEnd = (pattern, start) => {
    let i = start + 1;
    if (pattern.charAt(i) === '!' || pattern.charAt(i) === '^')
        i++;
    let sawStart = false;
    for (; i < pattern.length; i++) {
        const c = pattern.charAt(i);
        if (c === ']' && sawStart)
            return i;
        sawStart = true;
        if (c === '\\')
            i++;
    }
    return -1;
};
// If a path portion pattern has no magic, return the string it
// matches. Otherwise, return undefined. This can report magic for
// a pattern that is in fact literal (eg, `[]`), but never the
// reverse, so a string result is always safe to compare directly.
const literal = (pattern, noext) => {
    if (!noext && (pattern === '+()' || pattern === '@()'))
        return pattern;
    let lit = '';
    for (let i = 0; i < pattern.length; i++) {
        const c = pattern.charAt(i);
        if (c === '\\') {
            // a trailing \ is a literal \
            lit += pattern.charAt(++i) || c;
        }
        else if (c === '*' || c === '?') {
            return undefined;
        }
        else if (c === '[') {
            const close = classEnd(pattern, i);
            if (close === -1) {
                // not closed, so the [ is a literal
                lit += c;
                continue;
            }
            // a class of one char, such as `[*]` or `[\b]`, is a literal
            let body = pattern.slice(i + 1, close);
            if (body.startsWith('\\'))
                body = body.slice(1);
            if ([...body].length !== 1 || '!^'.includes(pattern.charAt(i + 1))) {
                return undefined;
            }
            lit += body;
            i = close;
        }
        else if (!noext &&
            '+@!'.includes(c) &&
            pattern.charAt(i + 1) === '(' &&
            pattern.includes(')', i + 2)) {
            return undefined;
        }
        else {
            lit += c;
        }
    }
    return lit;
};
// The matching engine compiles and walks extglobs recursively, so a
// path portion with very many extglobs (nested, such as `*(*(*(a)))`,
// or in a row, such as `?(a)?(a)?(a)`) can exhaust the call stack.
// Portions with more than this many extglobs are rejected.
const MAX_EXTGLOBS = 256;
// The number of extglob openers, such as `*(`, in a path portion
// pattern. Chars in a class are counted too, so this can be more than
// the number of extglobs, but never less.
const extglobCount = (pattern) => {
    let n = 0;
    for (let i = 0; i < pattern.length - 1; i++) {
        const c = pattern.charAt(i);
        if (c === '\\') {
            i++;
        }
        else if ('+@!?*'.includes(c) && pattern.charAt(i + 1) === '(') {
            n++;
            i++;
        }
    }
    return n;
};
const assertValidExtglobs = (pattern) => {
    if (extglobCount(pattern) > MAX_EXTGLOBS) {
        throw new TypeError('pattern has too many extglobs');
    }
};
// True if the portion pattern has the same meaning as an alternative
// inside `@(...)`. It must not have a `|` or `)` that is not in a
// closed extglob (those are literal at the top level), an extglob
// that is not closed (the `)` of the `@(...)` would close it), or a
// trailing `\` (it would escape the next `|`). A pattern that is
// only an empty extglob, such as `?()`, is literal on its own, but
// not in `@(...)`. Posix classes such as `[:alpha:]` can hide a `]`
// from classEnd, so patterns with them are not merged.
const extSafe = (pattern) => {
    if (/^[?*+@]\(\)$/.test(pattern) || pattern.includes('[:'))
        return false;
    let depth = 0;
    for (let i = 0; i < pattern.length; i++) {
        const c = pattern.charAt(i);
        if (c === '\\') {
            if (++i === pattern.length)
                return false;
        }
        else if (c === '[') {
            const close = classEnd(pattern, i);
            if (close !== -1)
                i = close;
        }
        else if ('+@!?*'.includes(c) && pattern.charAt(i + 1) === '(') {
            depth++;
            i++;
        }
        else if (c === ')') {
            if (!depth--)
                return false;
        }
        else if (c === '|' && !depth) {
            return false;
        }
    }
    return !depth;
};
// The last path that Minimatch#match split, and its parts. A path is
// often tested against many patterns in a row (such as a list of
// ignore patterns), so this saves splitting it again. The parts are
// never changed, so they can be shared.
let lastSplit;
// The last path that Minimatch#match checked before splitting it. If
// the same path is checked again, it is being tested against many
// patterns, so it is split and the parts are kept for the others.
let lastChecked;
// true if a pattern portion that is not ** matches a path portion.
// An empty path portion only matches an empty pattern portion. A path
// portion never has a `/`, so the Matcher does not need to check it.
const portionMatch = (p, f) => typeof p === 'string' ? f === p : f !== '' && p.testUnchecked(f);
// Where the last portion of a row matches in a path: the start of the
// last portion of the path, or of the one before a trailing `/`. -1 if
// it matches neither.
const endIndex = (p, last, lastStart, prev, prevStart) => portionMatch(p, last) ? lastStart
    : prev !== undefined && portionMatch(p, prev) ? prevStart
        : -1;
const isDots = (p) => p === '.' || p === '..';
// a Windows drive letter portion, like `c:`
const isDrive = (p) => typeof p === 'string' && /^[a-z]:$/i.test(p);
// true for the `UNC` portion of a long UNC root, //?/UNC/host/share
const isLongUNC = (p) => typeof p === 'string' && /^unc$/i.test(p);
// The index of the host in a row or split path that starts with a
// Windows UNC root: 2 for `//host/share`, and 4 for
// `//?/UNC/host/share`. Otherwise -1. `//?/c:` is not one.
const uncHost = (p) => {
    if (p[0] !== '' || p[1] !== '')
        return -1;
    const h = p[2] !== '?' ? 2
        : isLongUNC(p[3]) ? 4
            : -1;
    const host = p[h];
    const share = p[h + 1];
    return (h !== -1 &&
        host !== undefined &&
        host !== '' &&
        host !== GLOBSTAR &&
        share !== undefined &&
        share !== '' &&
        share !== GLOBSTAR) ?
        h
        : -1;
};
// true if ** can walk the path portion: not `.` or `..`, and not a
// dotfile unless `dot` is set
const walkable = (p, dot) => !isDots(p) && (dot || !p.startsWith('.'));
// True if a portion of the path from `start` to `end` can not be
// walked by **: one that starts with `.`, or with `dot`, one that is
// `.` or `..`. `start` is the start of a portion, and `end` is the end
// of the path, or just after a separator.
const dotPortion = (f, start, end, dot, sep) => {
    for (let k = start; k < end;) {
        if (f.charCodeAt(k) === 46) {
            if (!dot)
                return true;
            const n = f.charCodeAt(k + 1) === 46 ? k + 2 : k + 1;
            if (n >= end || isSep(f.charCodeAt(n), sep))
                return true;
        }
        // the start of the next portion, after any run of separators
        const s = nextSep(f, k, sep);
        if (s === -1)
            return false;
        k = s + 1;
        while (k < end && isSep(f.charCodeAt(k), sep))
            k++;
    }
    return false;
};
const isSep = (c, sep) => sep === '/' ? c === 47
    : sep === '\\' ? c === 92
        : c === 47 || c === 92;
// the index of the first separator at or after `from`, or -1
const nextSep = (f, from, sep) => {
    if (sep !== 'both')
        return f.indexOf(sep, from);
    const s = f.indexOf('/', from);
    const b = f.indexOf('\\', from);
    return (s === -1 ? b
        : b === -1 ? s
            : Math.min(s, b));
};
// the index of the last separator at or before `from`, or -1
const lastSep = (f, from, sep) => sep !== 'both' ?
    f.lastIndexOf(sep, from)
    : Math.max(f.lastIndexOf('/', from), f.lastIndexOf('\\', from));
// What parse() returns in place of a Matcher while make() builds and
// merges the rows. Most of the Matchers in rows that are merged would
// never be used, so they are only made for the rows that are left.
const PENDING = {};
class Minimatch {
    options;
    set;
    pattern;
    windowsPathsNoEscape;
    nonegate;
    negate;
    comment;
    empty;
    preserveMultipleSlashes;
    partial;
    globSet;
    globParts;
    nocase;
    isWindows;
    platform;
    windowsNoMagicRoot;
    maxGlobstarRecursion;
    // the path can be checked against the last portion, and the string
    // portions, of each row before it is split. See #canMatch.
    #endCheck;
    #literalCheck;
    // level 2 resolves `.` and `..` portions in the path
    #level2;
    // the unicode normalization form, if any
    #form;
    // the string portions of each row in the set
    #literals = [];
    // the rows that #canMatch can match without splitting the path
    #shapes = [];
    // the rows whose last portion can be checked against the path's
    #endRows = [];
    // brace expansion can make the same portion in many rows, so they
    // share one Matcher, and the states that it caches
    #matchers = new Map();
    // parse() returns PENDING in place of a Matcher
    #pending = false;
    // the char that marks numeric ranges in globSet, if any
    #rangeMark;
    // the GlobstarParts of each pattern row, by start index and partial
    #globstarParts = new WeakMap();
    constructor(pattern, options = {}) {
        assertValidPattern(pattern);
        options = options || {};
        this.options = options;
        this.maxGlobstarRecursion =
            options.maxGlobstarRecursion ?? DEFAULT_GLOB_STAR_RECURSION_MAX;
        this.pattern = pattern;
        this.platform = options.platform || defaultPlatform;
        this.isWindows = this.platform === 'win32';
        this.windowsPathsNoEscape =
            !!options.windowsPathsNoEscape || options[AWE_KEY] === false;
        if (this.windowsPathsNoEscape) {
            this.pattern = this.pattern.replace(/\\/g, '/');
        }
        this.preserveMultipleSlashes = !!options.preserveMultipleSlashes;
        this.negate = false;
        this.nonegate = !!options.nonegate;
        this.comment = false;
        this.empty = false;
        this.partial = !!options.partial;
        this.nocase = !!this.options.nocase;
        this.windowsNoMagicRoot =
            options.windowsNoMagicRoot !== undefined ?
                options.windowsNoMagicRoot
                : !!(this.isWindows && this.nocase);
        this.globSet = [];
        this.globParts = [];
        this.set = [];
        this.#endCheck = !this.preserveMultipleSlashes;
        this.#level2 = (options.optimizationLevel ?? 1) >= 2;
        const n = options.normalize;
        this.#form = n === true ? 'NFC' : n || undefined;
        // make the set of Matchers etc.
        this.make();
        // On Windows, the portions of a row up to its drive letter or UNC
        // share are skipped or compared without case, if the path has one
        // too. So the checks only use the portions after it.
        const drives = this.set.map(row => this.#rootIndex(row));
        this.#endRows = this.set.map((row, r) => this.#endCheck && row.length - 1 > drives[r]);
        // with the end check, the last portion is already checked
        this.#literals = this.set.map((row, r) => {
            const end = this.#endRows[r] ? row.length - 1 : row.length;
            const lits = row
                .slice(drives[r] + 1, end)
                .filter((p) => typeof p === 'string' && !!p);
            return [...new Set(lits)];
        });
        this.#literalCheck = this.#literals.some(l => l.length);
        this.#shapes = this.set.map((row, r) => {
            const [p0, p1, p2] = row;
            if (this.#endRows[r] && row.length === 2) {
                if (p0 === GLOBSTAR && p1 !== GLOBSTAR)
                    return 'tail';
            }
            // the basename of a path that is split on / is its last portion,
            // or the one before a trailing /, the same as the end check
            if (this.#endRows[r] &&
                options.matchBase &&
                row.length === 1 &&
                p0 !== GLOBSTAR &&
                p0 !== '') {
                return 'base';
            }
            // the portion must not be a root, or '', which can be a
            // different portion on Windows (where //x paths get an extra '')
            if (!this.#endCheck || drives[r] !== -1)
                return undefined;
            if (row.length === 3 &&
                p0 === GLOBSTAR &&
                p2 === GLOBSTAR &&
                p1 !== GLOBSTAR &&
                p1 !== '' &&
                // the portion between is only matched below this limit
                this.maxGlobstarRecursion > 0) {
                return 'mid';
            }
            if (row.length === 2 &&
                p1 === GLOBSTAR &&
                p0 !== GLOBSTAR &&
                p0 !== '') {
                return 'head';
            }
            return undefined;
        });
    }
    // a string portion of a pattern, normalized if the option is set
    #norm(p) {
        return this.#form ? p.normalize(this.#form) : p;
    }
    // On Windows, the index of the last root portion of a row, as
    // #matchRow finds it: 0 for `c:/...`, 3 for `//?/c:/...` and
    // `//host/share/...`, and 5 for `//?/UNC/host/share/...`. Otherwise
    // -1.
    #rootIndex(row) {
        if (!this.isWindows)
            return -1;
        if (isDrive(row[0]))
            return 0;
        const uncDrive = row[0] === '' && row[1] === '' && row[2] === '?' && isDrive(row[3]);
        if (uncDrive)
            return 3;
        const h = uncHost(row);
        return h === -1 ? -1 : h + 1;
    }
    hasMagic() {
        if (this.options.magicalBraces && this.set.length > 1) {
            return true;
        }
        for (const pattern of this.set) {
            for (const part of pattern) {
                if (typeof part !== 'string')
                    return true;
            }
        }
        return false;
    }
    make() {
        const pattern = this.pattern;
        const options = this.options;
        // empty patterns and comments match nothing.
        if (!options.nocomment && pattern.charAt(0) === '#') {
            this.comment = true;
            return;
        }
        if (!pattern) {
            this.empty = true;
            return;
        }
        // step 1: figure out negation, etc.
        this.parseNegate();
        // step 2: expand braces
        this.globSet = [...new Set(this.#expandBraces())];
        // step 3: now we have a set, so turn each one into a series of
        // path-portion matching patterns.
        // These will be Matchers, except in the case of "**", which is
        // set to the GLOBSTAR object for globstar behavior,
        // and will not contain any / characters
        //
        // First, we preprocess to make the glob pattern sets a bit simpler
        // and deduped.  There are some perf-killing patterns that can cause
        // problems with a glob walk, but we can simplify them down a bit.
        const rawGlobParts = this.globSet.map(s => this.#slashSplit(s));
        this.globParts = this.preprocess(rawGlobParts);
        // glob --> Matchers
        this.#pending = true;
        let set = this.globParts.map((s, _, __) => {
            if (this.isWindows && this.windowsNoMagicRoot) {
                // check if it's a drive or unc path. The root of a long UNC
                // path, //?/UNC/host/share, is 6 portions.
                const n = s[2] === '?' && isLongUNC(s[3]) ? 6 : 4;
                const isUNC = s[0] === '' &&
                    s[1] === '' &&
                    (s[2] === '?' || !globMagic.test(s[2])) &&
                    s.slice(3, n).every(p => !globMagic.test(p));
                const isDrive = /^[a-z]:/i.test(s[0]);
                if (isUNC) {
                    return [
                        ...s.slice(0, n).map(p => this.#norm(p)),
                        ...s.slice(n).map(ss => this.parse(ss)),
                    ];
                }
                else if (isDrive) {
                    return [
                        this.#norm(s[0]),
                        ...s.slice(1).map(ss => this.parse(ss)),
                    ];
                }
            }
            return s.map(ss => this.parse(ss));
        });
        // filter out everything that didn't compile properly.
        this.set = set.filter(s => s.indexOf(false) === -1);
        // do not treat the ? in UNC paths as magic
        if (this.isWindows) {
            for (let i = 0; i < this.set.length; i++) {
                const p = this.set[i];
                if (p[0] === '' &&
                    p[1] === '' &&
                    this.globParts[i][2] === '?' &&
                    (isDrive(p[3]) || isLongUNC(this.globParts[i][3]))) {
                    if (isLongUNC(this.globParts[i][3]))
                        p[3] = 'UNC';
                    p[2] = '?';
                }
            }
        }
        // with noext, `@(...)` would be literal
        if (!options.noext)
            this.mergeRows();
        this.#pending = false;
        this.set.forEach((row, i) => {
            for (let k = 0; k < row.length; k++) {
                if (row[k] === PENDING) {
                    row[k] = this.parse(this.globParts[i][k]);
                }
            }
        });
    }
    // Merge rows that only differ in one portion, where each of them
    // is a Matcher, into one row that matches any of them with
    // `@(a|b|...)`. Then a path is only walked once for all of them,
    // for example with `**/*.{js,ts}`.
    mergeRows() {
        let merged = true;
        while (merged) {
            merged = false;
            // a single row cannot be merged with anything
            if (this.set.length < 2)
                return;
            let keys = this.#mergeKeys();
            const len = Math.max(0, ...this.set.map(r => r.length));
            for (let k = 0; k < len; k++) {
                // the rows that are the same other than at portion k, keyed
                // by the ids of the parts before k and the parts after k,
                // which are at most the number of rows
                const groups = new Map();
                const R = this.set.length + 1;
                this.set.forEach((row, i) => {
                    if (!(row[k] instanceof Matcher || row[k] === PENDING) ||
                        !extSafe(this.globParts[i][k])) {
                        return;
                    }
                    const { pre, suf } = keys[i];
                    const key = pre[k] * R + suf[k + 1];
                    const g = groups.get(key);
                    if (g)
                        g.push(i);
                    else
                        groups.set(key, [i]);
                });
                const drop = new Set();
                for (const g of groups.values()) {
                    if (g.length < 2)
                        continue;
                    const [first, ...rest] = g;
                    const alts = g.map(i => this.globParts[i][k]);
                    const glob = `@(${alts.join('|')})`;
                    // merging is only an optimization, so leave the rows as they
                    // are if the merged portion would have too many extglobs
                    if (extglobCount(glob) > MAX_EXTGLOBS)
                        continue;
                    this.globParts[first][k] = glob;
                    this.set[first][k] = this.parse(glob);
                    for (const i of rest)
                        drop.add(i);
                }
                if (drop.size) {
                    merged = true;
                    this.set = this.set.filter((_, i) => !drop.has(i));
                    this.globParts = this.globParts.filter((_, i) => !drop.has(i));
                    // every merge drops a row, so this happens at most once per row
                    if (this.set.length < 2)
                        return;
                    keys = this.#mergeKeys();
                }
            }
        }
    }
    // For each row, number ids for its prefixes and suffixes, such that
    // pre[k] identifies parts[0..k) and suf[k] identifies parts[k..n).
    // Two rows are the same other than at portion k exactly when they
    // have the same pre[k] and suf[k + 1]. This is linear in the size of
    // the rows, where joining the whole row for every k was quadratic.
    #mergeKeys() {
        const partIds = new Map();
        const ids = this.globParts.map(parts => parts.map(s => {
            let id = partIds.get(s);
            if (id === undefined)
                partIds.set(s, (id = partIds.size));
            return id;
        }));
        // ids are only compared at the same k, so they are numbered per
        // portion, with 0 for the empty prefix or suffix. Then they are
        // at most the number of rows, and id * P + part id is a safe
        // integer key for any set that fits in memory.
        const P = partIds.size;
        const len = Math.max(0, ...ids.map(r => r.length));
        const keys = ids.map(r => ({
            pre: [0],
            suf: new Array(r.length + 1).fill(0),
        }));
        for (let k = 0; k < len; k++) {
            const m = new Map();
            ids.forEach((r, i) => {
                if (k >= r.length)
                    return;
                const { pre } = keys[i];
                const key = pre[k] * P + r[k];
                let id = m.get(key);
                if (id === undefined)
                    m.set(key, (id = m.size + 1));
                pre.push(id);
            });
        }
        for (let k = len - 1; k >= 0; k--) {
            const m = new Map();
            ids.forEach((r, i) => {
                if (k >= r.length)
                    return;
                const { suf } = keys[i];
                const key = suf[k + 1] * P + r[k];
                let id = m.get(key);
                if (id === undefined)
                    m.set(key, (id = m.size + 1));
                suf[k] = id;
            });
        }
        return keys;
    }
    // various transforms to equivalent pattern sets that are
    // faster to process in a filesystem walk.  The goal is to
    // eliminate what we can, and push all ** patterns as far
    // to the right as possible, even if it increases the number
    // of patterns that we have to process.
    preprocess(globParts) {
        // if we're not in globstar mode, then turn ** into *
        if (this.options.noglobstar) {
            for (const partset of globParts) {
                for (let j = 0; j < partset.length; j++) {
                    if (partset[j] === '**') {
                        partset[j] = '*';
                    }
                }
            }
        }
        const { optimizationLevel = 1 } = this.options;
        if (optimizationLevel >= 2) {
            // aggressive optimization for the purpose of fs walking
            globParts = this.firstPhasePreProcess(globParts);
            globParts = this.secondPhasePreProcess(globParts);
        }
        else if (optimizationLevel >= 1) {
            // just basic optimizations to remove some .. parts
            globParts = this.levelOneOptimize(globParts);
        }
        else {
            // just collapse multiple ** portions into one
            globParts = this.adjascentGlobstarOptimize(globParts);
        }
        return globParts;
    }
    // just get rid of adjascent ** portions
    adjascentGlobstarOptimize(globParts) {
        return globParts.map(parts => {
            let gs = -1;
            while (-1 !== (gs = parts.indexOf('**', gs + 1))) {
                let i = gs;
                while (parts[i + 1] === '**') {
                    i++;
                }
                if (i !== gs) {
                    parts.splice(gs, i - gs);
                }
            }
            return parts;
        });
    }
    // get rid of adjascent ** and resolve .. portions
    levelOneOptimize(globParts) {
        return globParts.map(parts => {
            // .. can not remove the root of a Windows path
            const root = this.#rootIndex(parts) + 1;
            parts = parts.reduce((set, part) => {
                const prev = set[set.length - 1];
                if (part === '**' && prev === '**') {
                    return set;
                }
                if (part === '..') {
                    if (set.length > root &&
                        prev &&
                        prev !== '..' &&
                        prev !== '.' &&
                        prev !== '**') {
                        set.pop();
                        return set;
                    }
                }
                set.push(part);
                return set;
            }, []);
            return parts.length === 0 ? [''] : parts;
        });
    }
    // Check the path against each row before it is split. 'no' if no
    // row can match, so it does not need to be split. 'yes' if a row of
    // `**` and one more portion matches. 'maybe' if it must be split to
    // know. None of this applies with partial, where the path can end
    // before the row does.
    //
    // On Windows, `\` is a separator in the path too, and the portions of
    // a row up to its drive letter or UNC share are not checked (see
    // #rootIndex).
    //
    // Each string portion of a row must be a portion of the path, so the
    // path must contain it. Level 2 can only take portions out of the
    // path, so this is still true then.
    //
    // The last portion of a row must match the last portion of the path,
    // or the one before a trailing `/` (as a/* and a/**/* match a/b/).
    // This does not apply to rows that end in **, rows that end in a
    // root, or preserveMultipleSlashes (which can leave more
    // than one '' at the end). At level 2, it does not apply if that
    // portion is `.` or `..`, which can be
    // resolved away. Level 2 only takes other portions out of the
    // middle of the path.
    //
    // A row of `**/x` then matches if the ** can walk the portions
    // before the one that x matches, the same as #matchGlobstar. At
    // level 2, this is only known if none of them are `.` or `..`, so
    // that the path does not change when it is resolved.
    #canMatch(f) {
        const sep = !this.isWindows || !f.includes('\\') ? '/'
            : f.includes('/') ? 'both'
                : '\\';
        // the portions that f.split(/\/+/) would end with, and where they
        // start in f, found when a row needs them. `ends` is 0 until they
        // are found, then 1, or -1 if they can not be used.
        let ends = this.#endCheck ? 0 : -1;
        let last = '';
        let lastStart = 0;
        let prev;
        let prevStart = 0;
        const dot = !!this.options.dot;
        // A string compare is cheaper than includes(), and a Matcher test
        // costs more, so the cheaper check goes first.
        ROWS: for (let r = 0; r < this.set.length; r++) {
            const row = this.set[r];
            const p = row[row.length - 1];
            let end = ends !== -1 && this.#endRows[r] && p !== GLOBSTAR;
            if (end && ends === 0) {
                const i = lastSep(f, f.length, sep);
                lastStart = i + 1;
                last = f.slice(lastStart);
                if (last === '' && i >= 0) {
                    let j = i;
                    while (j > 0 && isSep(f.charCodeAt(j - 1), sep))
                        j--;
                    prevStart = j === 0 ? 0 : lastSep(f, j - 1, sep) + 1;
                    prev = f.slice(prevStart, j);
                }
                const resolves = this.#level2 &&
                    (isDots(last) ||
                        (last === '' && prev !== undefined && isDots(prev)));
                ends = resolves ? -1 : 1;
                end = !resolves;
            }
            let tailStart = -1;
            if (end && typeof p === 'string') {
                tailStart = endIndex(p, last, lastStart, prev, prevStart);
                if (tailStart === -1)
                    continue;
            }
            if (this.#literalCheck) {
                for (const l of this.#literals[r]) {
                    if (!f.includes(l))
                        continue ROWS;
                }
            }
            if (end && typeof p === 'object') {
                tailStart = endIndex(p, last, lastStart, prev, prevStart);
                if (tailStart === -1)
                    continue;
            }
            const shape = this.#shapes[r];
            if (shape === 'base' && end)
                return 'yes';
            if (shape === 'tail' && end) {
                if (this.#level2 && dotPortion(f, 0, tailStart, true, sep)) {
                    return 'maybe';
                }
                if (!dotPortion(f, 0, tailStart, dot, sep))
                    return 'yes';
                continue;
            }
            if (shape === 'mid' || shape === 'head') {
                const m = this.#walk(f, row, shape === 'head', dot, sep);
                if (m !== 'no')
                    return m;
                continue;
            }
            return 'maybe';
        }
        return 'no';
    }
    // Match a row of a known shape against the split path, the same as
    // #matchGlobstar and #matchGlobStarBodySections do. None of these
    // rows have a drive letter, so they start at the first portion.
    #matchShape(file, row, shape) {
        const dot = !!this.options.dot;
        const n = file.length;
        if (shape === 'head') {
            // x, then at least one portion that ** can walk
            if (n < 2 || !portionMatch(row[0], file[0])) {
                return false;
            }
            for (let i = 1; i < n; i++)
                if (!walkable(file[i], dot))
                    return false;
            return true;
        }
        const x = row[1];
        if (shape === 'tail') {
            // x is the last portion, or the one before a trailing ''
            let t = n - 1;
            if (!portionMatch(x, file[t])) {
                if (file[t] !== '' || n === 1 || !portionMatch(x, file[--t])) {
                    return false;
                }
            }
            for (let i = 0; i < t; i++)
                if (!walkable(file[i], dot))
                    return false;
            return true;
        }
        // mid: the first x that ** can walk to, with a portion after it,
        // and ** can walk all of those
        for (let k = 0; k < n; k++) {
            if (portionMatch(x, file[k]) && k + 1 < n) {
                let i = k + 1;
                while (i < n && walkable(file[i], dot))
                    i++;
                if (i === n)
                    return true;
            }
            if (!walkable(file[k], dot))
                return false;
        }
        return false;
    }
    // Match a row of `**/x/**` or `x/**` against the path, the same as
    // #matchGlobstar and #matchGlobStarBodySections do once it is split.
    // x must match a portion (the first one, for `x/**`), the ** before
    // it must be able to walk the portions before that one, and there
    // must be a portion after it, which the ** after it can walk. At
    // level 2, this is only known if no portion is `.` or `..`.
    #walk(f, row, head, dot, sep) {
        if (this.#level2 && dotPortion(f, 0, f.length, true, sep))
            return 'maybe';
        const x = row[head ? 0 : 1];
        // the last portion has none after it, so it can not be x
        let s = 0;
        for (let e = nextSep(f, s, sep); e !== -1; e = nextSep(f, s, sep)) {
            // the start of the next portion
            let next = e + 1;
            while (next < f.length && isSep(f.charCodeAt(next), sep))
                next++;
            const hit = typeof x === 'string' ?
                e - s === x.length && f.startsWith(x, s)
                : e > s && x.testUnchecked(f.slice(s, e));
            if (hit && !dotPortion(f, next, f.length, dot, sep))
                return 'yes';
            if (head || dotPortion(f, s, next, dot, sep))
                return 'no';
            s = next;
        }
        return 'no';
    }
    // the last split, if it was the same path with the same split
    // settings
    #cachedSplit(f) {
        const last = lastSplit;
        return (last?.f === f &&
            last.isWindows === this.isWindows &&
            last.preserveMultipleSlashes === this.preserveMultipleSlashes &&
            last.normalize === this.#form) ?
            last
            : undefined;
    }
    // split a path for match(), and keep the parts for the next call
    #split(f) {
        const { isWindows, preserveMultipleSlashes } = this;
        // windows: need to use /, not \
        let parts = this.#slashSplit(isWindows ? f.split('\\').join('/') : f);
        // normalize each portion, so that a char that normalizes to `/`
        // does not make a new portion
        const normalize = this.#form;
        if (normalize)
            parts = parts.map(p => p.normalize(normalize));
        lastSplit = {
            f,
            isWindows,
            preserveMultipleSlashes,
            normalize,
            parts,
        };
        return lastSplit;
    }
    // resolve `.` and `..` portions of a path, for level 2
    #levelTwoFileOptimize(file) {
        // work on a copy, so that the cached parts do not change
        const parts = [...file];
        let didSomething = false;
        do {
            didSomething = false;
            // <pre>/<e>/<rest> -> <pre>/<rest>
            if (!this.preserveMultipleSlashes) {
                for (let i = 1; i < parts.length - 1; i++) {
                    const p = parts[i];
                    // don't squeeze out UNC patterns
                    if (i === 1 && p === '' && parts[0] === '')
                        continue;
                    if (p === '.' || p === '') {
                        didSomething = true;
                        parts.splice(i, 1);
                        i--;
                    }
                }
                if (parts[0] === '.' &&
                    parts.length === 2 &&
                    (parts[1] === '.' || parts[1] === '')) {
                    didSomething = true;
                    parts.pop();
                }
            }
            // <pre>/<p>/../<rest> -> <pre>/<rest>
            // .. can not remove the root of a Windows path
            const root = this.#rootIndex(parts) + 1;
            let dd = root;
            while (-1 !== (dd = parts.indexOf('..', dd + 1))) {
                const p = parts[dd - 1];
                if (p && p !== '.' && p !== '..' && p !== '**') {
                    didSomething = true;
                    parts.splice(dd - 1, 2);
                    dd = Math.max(dd - 2, root);
                }
            }
        } while (didSomething);
        return parts.length === 0 ? [''] : parts;
    }
    // First phase: single-pattern processing
    // <pre> is 1 or more portions
    // <rest> is 1 or more portions
    // <p> is any portion other than ., .., '', or **
    // <e> is . or ''
    //
    // **/.. is *brutal* for filesystem walking performance, because
    // it effectively resets the recursive walk each time it occurs,
    // and ** cannot be reduced out by a .. pattern part like a regexp
    // or most strings (other than .., ., and '') can be.
    //
    // <pre>/**/../<p>/<p>/<rest> -> {<pre>/../<p>/<p>/<rest>,<pre>/**/<p>/<p>/<rest>}
    // <pre>/<e>/<rest> -> <pre>/<rest>
    // <pre>/<p>/../<rest> -> <pre>/<rest>
    // **/**/<rest> -> **/<rest>
    //
    // **/*/<rest> -> */**/<rest> <== not valid because ** doesn't follow
    // this WOULD be allowed if ** did follow symlinks, or * didn't
    firstPhasePreProcess(globParts) {
        // each **/.. split doubles the patterns, and adds a copy of the
        // whole pattern. Throw if either gets too large. A partial split
        // would match some paths and not others, depending on which rows
        // the pass reached first.
        const { braceExpandMax = DEFAULT_BRACE_EXPAND_MAX } = this.options;
        let splitCells = 0;
        const maxSplitCells = 1_000_000;
        let didSomething = false;
        do {
            didSomething = false;
            // <pre>/**/../<p>/<p>/<rest> -> {<pre>/../<p>/<p>/<rest>,<pre>/**/<p>/<p>/<rest>}
            for (let parts of globParts) {
                let gs = -1;
                while (-1 !== (gs = parts.indexOf('**', gs + 1))) {
                    let gss = gs;
                    while (parts[gss + 1] === '**') {
                        // <pre>/**/**/<rest> -> <pre>/**/<rest>
                        gss++;
                    }
                    // eg, if gs is 2 and gss is 4, that means we have 3 **
                    // parts, and can remove 2 of them.
                    if (gss > gs) {
                        parts.splice(gs + 1, gss - gs);
                    }
                    let next = parts[gs + 1];
                    const p = parts[gs + 2];
                    const p2 = parts[gs + 3];
                    if (next !== '..')
                        continue;
                    if (!p ||
                        p === '.' ||
                        p === '..' ||
                        !p2 ||
                        p2 === '.' ||
                        p2 === '..') {
                        continue;
                    }
                    // Check before changing parts or allocating the new row.
                    const addedCells = parts.length - 1;
                    if (globParts.length >= braceExpandMax ||
                        splitCells + addedCells > maxSplitCells) {
                        throw new RangeError(`optimizationLevel 2: too many patterns from '**/..'`);
                    }
                    didSomething = true;
                    // edit parts in place, and push the new one
                    parts.splice(gs, 1);
                    const other = parts.slice(0);
                    other[gs] = '**';
                    splitCells += addedCells;
                    globParts.push(other);
                    gs--;
                }
                // <pre>/<e>/<rest> -> <pre>/<rest>
                if (!this.preserveMultipleSlashes) {
                    for (let i = 1; i < parts.length - 1; i++) {
                        const p = parts[i];
                        // don't squeeze out UNC patterns
                        if (i === 1 && p === '' && parts[0] === '')
                            continue;
                        if (p === '.' || p === '') {
                            didSomething = true;
                            parts.splice(i, 1);
                            i--;
                        }
                    }
                    if (parts[0] === '.' &&
                        parts.length === 2 &&
                        (parts[1] === '.' || parts[1] === '')) {
                        didSomething = true;
                        parts.pop();
                    }
                }
                // <pre>/<p>/../<rest> -> <pre>/<rest>
                // .. can not remove the root of a Windows path
                const root = this.#rootIndex(parts) + 1;
                let dd = root;
                while (-1 !== (dd = parts.indexOf('..', dd + 1))) {
                    const p = parts[dd - 1];
                    if (p && p !== '.' && p !== '..' && p !== '**') {
                        didSomething = true;
                        const needDot = dd === 1 && parts[dd + 1] === '**';
                        const splin = needDot ? ['.'] : [];
                        parts.splice(dd - 1, 2, ...splin);
                        if (parts.length === 0)
                            parts.push('');
                        dd = Math.max(dd - 2, root);
                    }
                }
            }
        } while (didSomething);
        return globParts;
    }
    // second phase: multi-pattern dedupes
    // {<pre>/<rest>,<pre>/<rest>} -> <pre>/<rest>
    // {<pre>/*/<rest>,<pre>/<p>/<rest>} -> <pre>/*/<rest>
    secondPhasePreProcess(globParts) {
        const keys = new Set();
        const rows = globParts.filter(parts => {
            const key = parts.join('/');
            if (keys.has(key))
                return false;
            keys.add(key);
            return true;
        });
        // A row is covered by another row that has `*` at some positions,
        // and is the same at all others. Collect each distinct set of `*`
        // positions, then look up each row with `*` put at those positions.
        const stars = new Map();
        for (const parts of rows) {
            const s = [];
            for (let i = 0; i < parts.length; i++) {
                if (parts[i] === '*')
                    s.push(i);
            }
            if (s.length)
                stars.set(s.join(','), s);
        }
        // Each row is checked against each set of `*` positions, so skip
        // this if there are too many. The patterns match the same paths
        // either way.
        if (!stars.size || rows.length * stars.size > 100_000)
            return rows;
        const { dot } = this.options;
        return rows.filter(parts => {
            for (const s of stars.values()) {
                if (s[s.length - 1] >= parts.length)
                    continue;
                const c = [...parts];
                let ok = true;
                let changed = false;
                for (const i of s) {
                    const p = parts[i];
                    if (p === '*')
                        continue;
                    if (!p || p === '**' || (!dot && p.startsWith('.'))) {
                        ok = false;
                        break;
                    }
                    c[i] = '*';
                    changed = true;
                }
                if (ok && changed && keys.has(c.join('/')))
                    return false;
            }
            return true;
        });
    }
    parseNegate() {
        if (this.nonegate)
            return;
        const pattern = this.pattern;
        let negate = false;
        let negateOffset = 0;
        for (let i = 0; i < pattern.length && pattern.charAt(i) === '!'; i++) {
            negate = !negate;
            negateOffset++;
        }
        if (negateOffset)
            this.pattern = pattern.slice(negateOffset);
        this.negate = negate;
    }
    // Match the parts of a path against one row of the set. `resolved`
    // is the parts after level 2 resolves `.` and `..` in them, or the
    // same parts below level 2. Set partial to true to test if, for
    // example, "/a/b" matches the start of "/*/b/*/d". Partial means, if
    // you run out of file before you run out of pattern, then that's
    // fine, as long as all the parts match.
    #matchRow(file, resolved, pattern, partial) {
        let fileStartIndex = 0;
        let patternStartIndex = 0;
        // UNC paths like //?/X:/... can match X:/... and vice versa, and
        // //?/UNC/host/share/... can match //host/share/... and vice versa.
        // Drive letters in absolute drive or unc paths, and the host and
        // share of UNC paths, are always compared case-insensitively.
        const fh = this.isWindows ? uncHost(resolved) : -1;
        const ph = fh === -1 ? -1 : uncHost(pattern);
        if (ph !== -1) {
            const host = pattern[ph];
            const share = pattern[ph + 1];
            if (typeof host !== 'string' || typeof share !== 'string') {
                // a host or share with magic is matched as usual
                fileStartIndex = fh;
                patternStartIndex = ph;
            }
            else if (resolved[fh].toLowerCase() === host.toLowerCase() &&
                resolved[fh + 1].toLowerCase() === share.toLowerCase()) {
                fileStartIndex = fh + 2;
                patternStartIndex = ph + 2;
            }
        }
        else if (this.isWindows) {
            const fileDrive = typeof file[0] === 'string' && /^[a-z]:$/i.test(file[0]);
            const fileUNC = !fileDrive &&
                file[0] === '' &&
                file[1] === '' &&
                file[2] === '?' &&
                /^[a-z]:$/i.test(file[3]);
            const patternDrive = typeof pattern[0] === 'string' && /^[a-z]:$/i.test(pattern[0]);
            const patternUNC = !patternDrive &&
                pattern[0] === '' &&
                pattern[1] === '' &&
                pattern[2] === '?' &&
                typeof pattern[3] === 'string' &&
                /^[a-z]:$/i.test(pattern[3]);
            const fdi = fileUNC ? 3
                : fileDrive ? 0
                    : undefined;
            const pdi = patternUNC ? 3
                : patternDrive ? 0
                    : undefined;
            if (typeof fdi === 'number' && typeof pdi === 'number') {
                const [fd, pd] = [
                    file[fdi],
                    pattern[pdi],
                ];
                // the drives match, so start matching after them
                if (fd.toLowerCase() === pd.toLowerCase()) {
                    patternStartIndex = pdi + 1;
                    fileStartIndex = fdi + 1;
                }
            }
        }
        // the drive letters are found in the parts before level 2 resolves
        // them, and the match uses the resolved parts
        file = resolved;
        if (pattern.includes(GLOBSTAR)) {
            return this.#matchGlobstar(file, pattern, partial, fileStartIndex, patternStartIndex);
        }
        return this.#matchOne(file, pattern, partial, fileStartIndex, patternStartIndex);
    }
    #matchGlobstar(file, pattern, partial, fileIndex, patternIndex) {
        const { head, body, tail, segments } = this.#getGlobstarParts(pattern, partial, patternIndex);
        // check the head, from the current file/pattern index.
        if (head.length) {
            const headEnd = fileIndex + head.length;
            if (!this.#matchOne(file, head, partial, fileIndex, 0, headEnd)) {
                return false;
            }
            fileIndex += head.length;
            patternIndex += head.length;
        }
        // now we know the head matches!
        // if the last portion is not empty, it MUST match the end
        // check the tail
        let fileTailMatch = 0;
        if (tail.length) {
            // if head + tail > file, then we cannot possibly match
            if (tail.length + fileIndex > file.length)
                return false;
            // try to match the tail
            let tailStart = file.length - tail.length;
            if (this.#matchOne(file, tail, partial, tailStart, 0)) {
                fileTailMatch = tail.length;
            }
            else {
                // affordance for stuff like a/**/* matching a/b/
                // if the last file portion is '', and there's more to the pattern
                // then try without the '' bit.
                if (file[file.length - 1] !== '' ||
                    fileIndex + tail.length === file.length) {
                    return false;
                }
                tailStart--;
                if (!this.#matchOne(file, tail, partial, tailStart, 0)) {
                    return false;
                }
                fileTailMatch = tail.length + 1;
            }
        }
        // now we know the tail matches!
        // the middle is zero or more portions wrapped in **, possibly
        // containing more ** sections.
        // so a/**/b/**/c/**/d has become **/b/**/c/**
        // if it's empty, it means a/**/b, just verify we have no bad dots
        // if there's no tail, so it ends on /**, then we must have *something*
        // after the head, or it's not a matc
        if (!body.length) {
            let sawSome = !!fileTailMatch;
            for (let i = fileIndex; i < file.length - fileTailMatch; i++) {
                const f = String(file[i]);
                sawSome = true;
                if (f === '.' ||
                    f === '..' ||
                    (!this.options.dot && f.startsWith('.'))) {
                    return false;
                }
            }
            // in partial mode, we just need to get past all file parts
            return partial || sawSome;
        }
        // now we know that there's one or more body sections, which can
        // be matched anywhere from the 0 index (because the head was pruned)
        // through to the length-fileTailMatch index.
        return !!this.#matchGlobStarBodySections(file, segments, file.length - fileTailMatch, fileIndex, 0, partial, 0, !!fileTailMatch, new Set());
    }
    // Split the pattern into head, tail, and middle of ** delimited
    // parts. The tail has to be at the end, and the others just have to
    // be found in order from the head. These only depend on the pattern
    // row, so they are kept for the next path.
    #getGlobstarParts(pattern, partial, patternIndex) {
        let byStart = this.#globstarParts.get(pattern);
        if (!byStart) {
            byStart = [];
            this.#globstarParts.set(pattern, byStart);
        }
        const key = patternIndex * 2 + (partial ? 1 : 0);
        const found = byStart[key];
        if (found)
            return found;
        const firstgs = pattern.indexOf(GLOBSTAR, patternIndex);
        const lastgs = pattern.lastIndexOf(GLOBSTAR);
        const head = pattern.slice(patternIndex, firstgs);
        const body = pattern.slice(firstgs + 1, partial ? undefined : lastgs);
        const tail = partial ? [] : pattern.slice(lastgs + 1);
        // split the body up into sections, and note the number of
        // portions that must come after the start of each one
        const segments = [[[], 0]];
        let current = segments[0];
        let nonGsParts = 0;
        const nonGsPartsSums = [0];
        for (const b of body) {
            if (b === GLOBSTAR) {
                nonGsPartsSums.push(nonGsParts);
                current = [[], 0];
                segments.push(current);
            }
            else {
                current[0].push(b);
                nonGsParts++;
            }
        }
        // the portions in this section and the ones after it
        segments.forEach((b, i) => {
            b[1] = nonGsParts - nonGsPartsSums[i];
        });
        const parts = { head, body, tail, segments };
        byStart[key] = parts;
        return parts;
    }
    // return false for "nope, not matching"
    // return null for "not matching, cannot keep trying"
    #matchGlobStarBodySections(file, 
    // pattern section, and the portions that it and the rest need
    bodySegments, 
    // the end of the file portions that the body can match
    fileLength, fileIndex, bodyIndex, partial, globStarDepth, sawTail, 
    // the places that a walk has already tried, as
    // bodyIndex * (file.length + 1) + fileIndex. A walk from a place
    // does the same no matter how it got there, and it only comes back
    // if it found no match, so a walk that gets to one stops.
    tried) {
        // take the first body segment, and walk from fileIndex to its "after"
        // value at the end
        // If it doesn't match at that position, we increment, until we hit
        // that final possible position, and give up.
        // If it does match, then advance and try to rest.
        // If any of them fail we keep walking forward.
        // this is still a bit recursively painful, but it's more constrained
        // than previous implementations, because we never test something that
        // can't possibly be a valid matching condition.
        const bs = bodySegments[bodyIndex];
        if (!bs) {
            // with partial, the body is the rest of the pattern, so it
            // matches if no portions are left, or only the '' of a trailing
            // / (as a/* matches a/b/). A ** at the end walks them as its own
            // empty section.
            if (partial) {
                return (fileIndex >= fileLength ||
                    (fileIndex === fileLength - 1 && file[fileIndex] === ''));
            }
            // just make sure that there's no bad dots before the tail
            for (let i = fileIndex; i < fileLength; i++) {
                sawTail = true;
                const f = file[i];
                if (f === '.' ||
                    f === '..' ||
                    (!this.options.dot && f.startsWith('.'))) {
                    return false;
                }
            }
            return sawTail;
        }
        // have a non-globstar body section to test, up to the last index
        // where it can start
        const [body, need] = bs;
        // with partial, the path can end before the body does
        const after = partial ? fileLength : fileLength - need;
        while (fileIndex <= after) {
            const key = bodyIndex * (file.length + 1) + fileIndex;
            if (tried.has(key))
                return false;
            tried.add(key);
            const m = this.#matchOne(file, body, partial, fileIndex, 0, fileIndex + body.length);
            // if limit exceeded, no match. intentional false negative,
            // acceptable break in correctness for security.
            if (m && globStarDepth < this.maxGlobstarRecursion) {
                // match! see if the rest match. if so, we're done!
                const sub = this.#matchGlobStarBodySections(file, bodySegments, fileLength, fileIndex + body.length, bodyIndex + 1, partial, globStarDepth + 1, sawTail, tried);
                if (sub !== false) {
                    return sub;
                }
            }
            // the ** does not walk past the last place the body can start
            if (fileIndex === after)
                break;
            const f = file[fileIndex];
            if (f === '.' ||
                f === '..' ||
                (!this.options.dot && f.startsWith('.'))) {
                return false;
            }
            fileIndex++;
        }
        // walked off. no point continuing
        return partial || null;
    }
    #matchOne(file, pattern, partial, fileIndex, patternIndex, 
    // only match the file portions before this index
    fileEnd = file.length) {
        let fi;
        let pi;
        let pl;
        let fl;
        for (fi = fileIndex,
            pi = patternIndex,
            fl = Math.min(fileEnd, file.length),
            pl = pattern.length; fi < fl && pi < pl; fi++, pi++) {
            let p = pattern[pi];
            let f = file[fi];
            // should be impossible.
            /* c8 ignore start */
            if (p === false || p === GLOBSTAR) {
                return false;
            }
            /* c8 ignore stop */
            // something other than **
            // non-magic patterns just have to match exactly
            // patterns with magic have been turned into Matchers.
            if (!portionMatch(p, f))
                return false;
        }
        // Note: ending in / means that we'll get a final ""
        // at the end of the pattern.  This can only match a
        // corresponding "" at the end of the file.
        // If the file ends in /, then it can only match a
        // a pattern that ends in /, unless the pattern just
        // doesn't have any more for it. But, a/b/ should *not*
        // match "a/b/*", even though * can match "", except in
        // partial mode, where it might simply not be reached yet.
        // However, a/b/ should still satisfy a/*
        // now either we fell off the end of the pattern, or we're done.
        if (fi === fl && pi === pl) {
            // ran out of pattern and filename at the same time.
            // an exact hit!
            return true;
        }
        else if (fi === fl) {
            // ran out of file, but still had pattern left.
            // this is ok if we're doing the match as part of
            // a glob fs traversal.
            return partial;
        }
        else if (pi === pl) {
            // ran out of pattern, still have file left.
            // this is only acceptable if we're on the very last
            // empty segment of a file with a trailing slash.
            // a/* should match a/b/
            return fi === fl - 1 && file[fi] === '';
            /* c8 ignore start */
        }
        else {
            // should be unreachable.
            throw new Error('wtf?');
        }
        /* c8 ignore stop */
    }
    braceExpand() {
        return braceExpand(this.pattern, this.options);
    }
    // Expand braces, except numeric ranges such as {0..999} with at
    // least RANGE_MIN values. Each of those stays in its pattern as
    // `<mark>0..999<mark>`, for the Matcher to test. If a range might
    // be inside a [...] class, expand all of them instead.
    #expandBraces() {
        const { pattern } = this;
        if (this.options.nobrace)
            return this.braceExpand();
        let code = 0xe000;
        while (pattern.includes(String.fromCharCode(code))) {
            if (++code > 0xf8ff)
                return this.braceExpand();
        }
        const mark = String.fromCharCode(code);
        let found = false;
        const marked = pattern.replace(rangeRe, (m, lo, hi) => {
            const a = Number(lo);
            const b = Number(hi);
            if (!Number.isSafeInteger(a) ||
                !Number.isSafeInteger(b) ||
                Math.abs(a - b) + 1 < RANGE_MIN) {
                return m;
            }
            found = true;
            return `${mark}${lo}..${hi}${mark}`;
        });
        if (!found)
            return this.braceExpand();
        const set = braceExpand(marked, this.options);
        for (const p of set) {
            for (const portion of p.split('/')) {
                const c = portion.indexOf('[');
                if (c !== -1 && c < portion.lastIndexOf(mark)) {
                    return this.braceExpand();
                }
                if (!this.options.noext && inRepeatOrNegExt(portion, mark)) {
                    return this.braceExpand();
                }
            }
        }
        this.#rangeMark = mark;
        return set;
    }
    parse(pattern) {
        assertValidPattern(pattern);
        const options = this.options;
        // shortcuts
        if (pattern === '**')
            return GLOBSTAR;
        if (pattern === '')
            return '';
        const { nocase, nocaseMagicOnly, noext = false, dot, normalize, } = options;
        const rangeMark = this.#rangeMark;
        const lit = rangeMark && pattern.includes(rangeMark) ?
            undefined
            : literal(pattern, noext);
        // in nocase mode, a literal with cased chars still needs a
        // Matcher, unless nocaseMagicOnly is set.
        if (lit !== undefined &&
            !(nocase &&
                !nocaseMagicOnly &&
                pattern.toUpperCase() !== pattern.toLowerCase())) {
            return this.#norm(lit);
        }
        if (this.#pending)
            return PENDING;
        let m = this.#matchers.get(pattern);
        if (!m) {
            if (!noext)
                assertValidExtglobs(pattern);
            m = new Matcher(pattern, {
                nocase,
                noext,
                dot,
                normalize,
                ...(rangeMark && { rangeMark }),
            });
            this.#matchers.set(pattern, m);
        }
        return m;
    }
    #slashSplit(p) {
        // if p starts with // on windows, we preserve that
        // so that UNC paths aren't broken.  Otherwise, any number of
        // / characters are coalesced into one, unless
        // preserveMultipleSlashes is set to true.
        if (this.preserveMultipleSlashes) {
            return p.split('/');
        }
        else if (this.isWindows && /^\/\/[^/]+/.test(p)) {
            // add an extra '' for the one we lose
            return ['', ...p.split(/\/+/)];
        }
        else {
            return p.split(/\/+/);
        }
    }
    match(f, partial = this.partial) {
        // short-circuit in the case of busted things.
        // comments, etc.
        if (this.comment) {
            return false;
        }
        if (this.empty) {
            return f === '';
        }
        if (f === '/' && partial) {
            return true;
        }
        const options = this.options;
        // treat the test path as a set of pathparts. If it was not just
        // split or checked, check that it can match before splitting it.
        let split = this.#cachedSplit(f);
        if (!split) {
            // the checks look at the path as given, so not if it is
            // normalized
            if (!partial &&
                !this.#form &&
                (this.#endCheck || this.#literalCheck) &&
                lastChecked !== f) {
                lastChecked = f;
                const can = this.#canMatch(f);
                if (can === 'no')
                    return options.flipNegate ? false : this.negate;
                if (can === 'yes')
                    return options.flipNegate ? true : !this.negate;
            }
            split = this.#split(f);
        }
        const ff = split.parts;
        // the parts after level 2 resolves them, kept for the next pattern
        // that tests the same path
        const resolved = this.#level2 ?
            (split.resolved ??= this.#levelTwoFileOptimize(ff))
            : ff;
        // just ONE of the pattern sets in this.set needs to match
        // in order for it to be valid.  If negating, then just one
        // match means that we have failed.
        // Either way, return on the first hit.
        const set = this.set;
        // Find the basename of the path by looking for the last non-empty segment
        let filename = ff[ff.length - 1];
        if (!filename) {
            for (let i = ff.length - 2; !filename && i >= 0; i--) {
                filename = ff[i];
            }
        }
        for (let r = 0; r < set.length; r++) {
            const pattern = set[r];
            const shape = partial ? undefined : this.#shapes[r];
            // level 2 does not change a path of one portion
            const hit = shape === 'base' ?
                portionMatch(pattern[0], filename)
                : shape ? this.#matchShape(resolved, pattern, shape)
                    : options.matchBase && pattern.length === 1 ?
                        this.#matchRow([filename], [filename], pattern, partial)
                        : this.#matchRow(ff, resolved, pattern, partial);
            if (hit) {
                if (options.flipNegate) {
                    return true;
                }
                return !this.negate;
            }
        }
        // didn't get any hits.  this is success if it's a negative
        // pattern, failure otherwise.
        if (options.flipNegate) {
            return false;
        }
        return this.negate;
    }
    static defaults(def) {
        return minimatch.defaults(def).Minimatch;
    }
}
/* c8 ignore start */


/* c8 ignore stop */
minimatch.Minimatch = Minimatch;
minimatch.escape = escape_escape;
minimatch.unescape = unescape_unescape;
//# sourceMappingURL=index.js.map
;// CONCATENATED MODULE: ./src/cli/report-globs.ts





/**
 * How far one glob may search below the folder its literal part names: a glob that would walk
 * further is refused with a message, never cut short silently (nothing the action would find is
 * skipped). The action's `@actions/glob` has no such bound; a whole file system is a typo.
 */
const WALK_LIMITS = { depth: 100, entries: 500_000 };
const IS_WINDOWS = process.platform === 'win32';
/**
 * The files a --report glob matches, found as the action finds them with `@actions/glob`, but
 * with minimatch alone and without a line of `::debug::` output: the pattern rooted at `cwd`
 * (relative patterns) with the same minimatch options (dot files and hidden folders such as
 * .scannerwork included, no braces, no extglobs, no negation, case-insensitive on Windows);
 * files only (a pattern that ends with a separator matches folders only, so nothing); symbolic
 * links not followed (a link itself is returned when its name matches); folders entered only
 * when the pattern can match below them. Relative to `cwd`, sorted, at most `limit`.
 *
 * @example await findReportFiles('services/*\/.scannerwork/report-task.txt', process.cwd(), 51)
 */
const findReportFiles = async (pattern, cwd, limit) => {
    // As the action: path.join roots and normalises it (`a/../b` is `b`), the folder escaped.
    const rooted = external_node_path_default().isAbsolute(pattern) ? pattern : external_node_path_default().join(globEscape(cwd), pattern);
    if ((IS_WINDOWS ? /[\\/]$/ : /\/$/).test(rooted))
        return [];
    const matcher = new Minimatch(IS_WINDOWS ? rooted.replace(/\\/g, '/') : rooted, {
        dot: true,
        nobrace: true,
        nocase: IS_WINDOWS,
        nocomment: true,
        noext: true,
        nonegate: true
    });
    const segments = matcher.set[0] ?? [];
    const literal = [];
    for (const segment of segments) {
        if (typeof segment !== 'string')
            break;
        literal.push(segment);
    }
    const root = literal.join('/') || '/';
    // `@actions/glob` tests a path that ends in a globstar with a trailing separator.
    const globstarLast = segments[segments.length - 1] === GLOBSTAR;
    const matches = (file) => matcher.match(globstarLast ? `${file}/` : file);
    const found = [];
    const relative = (file) => external_node_path_default().relative(cwd, file) || file;
    let rootStats;
    try {
        rootStats = await (0,promises_.lstat)(root);
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return [];
        throw searchError(pattern, root, error);
    }
    if (!rootStats.isDirectory())
        return matches(root) ? [relative(root)] : [];
    let entries = 0;
    const stack = [{ folder: root, depth: 0 }];
    while (stack.length > 0 && found.length < limit) {
        const { folder, depth } = stack.pop();
        let children;
        try {
            children = await (0,promises_.readdir)(folder, { withFileTypes: true });
        }
        catch (error) {
            throw searchError(pattern, folder, error);
        }
        entries += children.length;
        if (entries > WALK_LIMITS.entries) {
            throw new errors/* ReportFileError */.tG(`The glob ${report_globs_shown(pattern)} searches more than ${WALK_LIMITS.entries.toLocaleString('en')} files and folders under ${report_globs_shown(root)}: narrow it, e.g. services/*/target/sonar/report-task.txt rather than **/report-task.txt.`);
        }
        const folders = [];
        for (const child of children) {
            const file = external_node_path_default().join(folder, child.name);
            if (child.isDirectory()) {
                if (matcher.match(file, true))
                    folders.push(file);
            }
            else if (matches(file)) {
                found.push(relative(file));
                if (found.length >= limit)
                    break;
            }
        }
        if (folders.length > 0 && depth + 1 > WALK_LIMITS.depth) {
            throw new errors/* ReportFileError */.tG(`The glob ${report_globs_shown(pattern)} searches more than ${WALK_LIMITS.depth} folders deep under ${report_globs_shown(root)}: narrow it.`);
        }
        // Depth first, in the folder's order, as `@actions/glob` walks; sorted at the end anyway.
        for (const child of folders.reverse())
            stack.push({ folder: child, depth: depth + 1 });
    }
    return found.sort();
};
/**
 * A path as a glob that matches only itself, escaped as `@actions/glob` escapes the working
 * directory (so that both finders root a pattern alike): `[x]` is the character x; `\` escapes
 * on Linux and macOS only.
 */
function globEscape(text) {
    return (IS_WINDOWS ? text : text.replace(/\\/g, '\\\\'))
        .replace(/(\[)(?=[^/]+\])/g, '[[]')
        .replace(/\?/g, '[?]')
        .replace(/\*/g, '[*]');
}
function searchError(pattern, folder, error) {
    return new errors/* ReportFileError */.tG(`Cannot search ${report_globs_shown(folder)} for the glob ${report_globs_shown(pattern)}: ${(0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(error), untrusted_text/* QUOTE_LIMITS */.gJ.long)}.`, { cause: error });
}
function report_globs_shown(text) {
    return `"${(0,untrusted_text/* oneLine */.TN)(text, untrusted_text/* QUOTE_LIMITS */.gJ.long)}"`;
}

;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
// EXTERNAL MODULE: ./src/report/summary-text.ts
var summary_text = __nccwpck_require__(2536);
;// CONCATENATED MODULE: ./src/report/overview.ts









const VERDICTS = {
    OK: '✅ passed',
    WARN: '⚠️ passed with warnings',
    ERROR: '❌ failed',
    NONE: '➖ no gate'
};
/** Failing conditions named in a row of the overview; the rest are counted. */
const FAILURES_NAMED = 3;
/**
 * The job summary of several analyses: a verdict for the step, an overview table (project,
 * verdict, failing conditions, link), then one section per project, as renderSummary draws a
 * single one, or the reason it could not be read. Through the summary's sink and within its
 * limit in all: each section gets an equal share of what the overview leaves.
 *
 * @example await summary.write(renderOverviewSummary(outcomes, { sink: sinks.summary }))
 */
function renderOverviewSummary(outcomes, options) {
    const { sink, policy = fail_policy/* FAIL_ON_ERROR */.qJ } = options;
    const unread = outcomes.filter((outcome) => !outcome.read).length;
    const statuses = outcomes.flatMap((outcome) => (outcome.read ? [outcome.result.status] : []));
    const title = unread > 0
        ? `❌ ${unread} of ${outcomes.length} analyses could not be read`
        : (0,src_words/* msg */.ab) `${(0,report_summary/* headline */.Pl)(worstFor(statuses, policy), policy)} (${outcomes.length} analyses)`;
    const head = [
        (0,src_words/* msg */.ab) `<h2>${title}</h2>`,
        '<table>',
        '<thead><tr><th>Project</th><th>Verdict</th><th>Failing conditions</th><th>Analysis</th></tr></thead>',
        '<tbody>',
        ...outcomes.map((outcome) => overviewRow(outcome, policy)),
        '</tbody>',
        '</table>'
    ].map((line) => sink.text(line));
    const share = Math.floor((sink.limit - sink.size((0,report_summary/* blocks */.Bv)(head))) / Math.max(1, outcomes.length));
    const sections = outcomes.map((outcome) => outcome.read
        ? (0,report_summary/* renderSummary */.Br)(outcome.result, {
            sink,
            section: (0,gate_outcome/* projectName */.j)(outcome),
            limit: share,
            fileLink: options.fileLink,
            policy
        })
        : unreadSection(outcome, share, sink));
    const summary = (0,report_summary/* blocks */.Bv)(head) + sections.join('');
    // The parts are bounded; this guard keeps the limit a guarantee, not a sum to trust.
    if (sink.size(summary) <= sink.limit)
        return summary;
    return (0,report_summary/* blocks */.Bv)([head[0], '<p>The summary is too large to show: see the log.</p>']);
}
/**
 * The status the overview's title speaks of: the worst, unless a better one fails the step and
 * the worst does not (policy names NONE, and a WARN gate is the worst).
 */
function worstFor(statuses, policy) {
    const worst = (0,gate_outcome/* worstStatus */.A)(statuses);
    if ((0,fail_policy/* failsUnder */.mS)(worst, policy))
        return worst;
    return statuses.find((status) => (0,fail_policy/* failsUnder */.mS)(status, policy)) ?? worst;
}
function overviewRow(outcome, policy) {
    const project = (0,summary_text/* summaryText */.g5)((0,gate_outcome/* projectName */.j)(outcome));
    if (!outcome.read) {
        return `<tr><td>${project}</td><td>❗ not read</td><td>see below</td><td></td></tr>`;
    }
    const { result } = outcome;
    const failing = result.conditions.filter(({ condition }) => condition.status === 'ERROR');
    const named = failing
        .slice(0, FAILURES_NAMED)
        .map(({ condition }) => (0,summary_text/* summaryText */.g5)((0,wording/* metricName */.Kh)(condition)));
    if (failing.length > named.length)
        named.push(`${failing.length - named.length} more`);
    const verdict = result.status !== 'ERROR' && (0,fail_policy/* failsUnder */.mS)(result.status, policy)
        ? (0,src_words/* msg */.ab) `❌ ${(0,summary_text/* summaryText */.g5)(result.status)}: fails (${(0,src_words/* setting */.Pe)('failingStatuses')})`
        : (VERDICTS[result.status] ?? `❔ ${(0,summary_text/* summaryText */.g5)(result.status)} (unknown: passes)`);
    const dashboard = (0,dashboard_link/* dashboardAddress */.v)(result.dashboardUrl, result.serverUrl);
    const link = dashboard?.onServer
        ? `<a href="${(0,summary_text/* summaryAddress */.hA)(dashboard.href)}">dashboard</a>`
        : '';
    const cells = [project, verdict, named.join(', ') || '–', link];
    return (0,src_words/* msg */.ab) `<tr>${(0,src_words/* joined */.oR)(cells.map((cell) => (0,src_words/* msg */.ab) `<td>${cell}</td>`), '')}</tr>`;
}
/**
 * A project that could not be read: its name and the message, line by line, in characters
 * enough to stay within `share` once escaped (eight bytes a character at most).
 */
function unreadSection(outcome, share, sink) {
    const heading = `<h3>❗ Not read · ${(0,summary_text/* summaryText */.g5)((0,gate_outcome/* projectName */.j)(outcome))}</h3>`;
    const room = Math.max(0, Math.min(report_summary/* SUMMARY_LIMITS */.QF.messageChars, Math.floor(share / 8) - 200));
    const lines = (0,src_words/* linesOf */.Dx)((0,src_words/* cutSaid */.il)(outcome.message, room));
    const text = lines.map((line) => sink.say(line, (plain) => (0,summary_text/* summaryText */.g5)(plain, room))).join('<br>');
    return sink.text((0,report_summary/* blocks */.Bv)([heading, `<p>${text}</p>`]));
}
/**
 * The annotations of every gate read (see `annotate`); with several analyses each message
 * starts with its project's name, so an annotation says whose it is.
 */
function annotateAll(outcomes, log, policy = fail_policy/* FAIL_ON_ERROR */.qJ) {
    for (const outcome of outcomes) {
        if (!outcome.read)
            continue;
        if (outcomes.length === 1) {
            annotateGate(outcome.result, log, policy);
            continue;
        }
        const prefix = `${(0,untrusted_text/* oneLine */.TN)((0,gate_outcome/* projectName */.j)(outcome), untrusted_text/* QUOTE_LIMITS */.gJ.short)}: `;
        annotateGate(outcome.result, {
            info: (message) => log.info((0,src_words/* msg */.ab) `${prefix}${message}`),
            warning: (message) => log.warning((0,src_words/* msg */.ab) `${prefix}${message}`),
            notice: (message) => log.notice((0,src_words/* msg */.ab) `${prefix}${message}`),
            startGroup: (name) => log.startGroup(name),
            endGroup: () => log.endGroup()
        }, policy);
    }
}

;// CONCATENATED MODULE: ./src/cli/new-issues-log.ts



/** New issues listed in the command's log per analysis; the files list them all. */
const ISSUES_LOGGED = 10;
/**
 * The first new issues of each analysis in the command's log, most severe first, one line each:
 * `file:line  SEVERITY  message (rule)`, then how many more and which options write them all.
 * The terminal log's gate shows every control character; server text is kept to one line here.
 *
 * @example logNewIssues(outcomes, log)
 */
function logNewIssues(outcomes, log) {
    const several = outcomes.length > 1;
    for (const outcome of outcomes) {
        if (!outcome.read || !outcome.result.newIssues?.read)
            continue;
        const { findings, total } = outcome.result.newIssues;
        if (total === 0)
            continue;
        const whose = several ? ` of ${(0,untrusted_text/* oneLine */.TN)((0,gate_outcome/* projectName */.j)(outcome), untrusted_text/* QUOTE_LIMITS */.gJ.short)}` : '';
        const listed = (0,finding/* bySeverity */.Np)(findings).slice(0, ISSUES_LOGGED);
        const lines = listed.map((finding) => {
            const place = finding.file ?? finding.serverPath ?? '(no file)';
            const line = finding.region ? `:${finding.region.startLine}` : '';
            return `  ${(0,untrusted_text/* oneLine */.TN)(place, untrusted_text/* QUOTE_LIMITS */.gJ.short)}${line}  ${finding.severityWord}  ${(0,untrusted_text/* oneLine */.TN)(finding.message, untrusted_text/* QUOTE_LIMITS */.gJ.short)} (${(0,untrusted_text/* oneLine */.TN)(finding.rule, untrusted_text/* QUOTE_LIMITS */.gJ.short)})`;
        });
        const more = total - listed.length;
        if (more > 0)
            lines.push(`  … and ${more} more: --sarif, --codequality or --json write them all`);
        log.info([`New issues${whose} (${total}), most severe first:`, ...lines].join('\n'));
    }
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
;// CONCATENATED MODULE: ./src/findings/written-item.ts
/**
 * A value as it is written inside a report made with JSON.stringify(report, null, 2): what the
 * writers hand their sink to fit, so that it measures what the file holds.
 */
/**
 * `value` as an item of an indented array whose items start `indent` spaces in: every line of it
 * indented, as JSON.stringify writes it there.
 *
 * @example writtenItem({ a: 1 }, 2) // '  {\n    "a": 1\n  }'
 */
function writtenItem(value, indent) {
    const pad = ' '.repeat(indent);
    return `${pad}${JSON.stringify(value, null, 2).replaceAll('\n', `\n${pad}`)}`;
}

// EXTERNAL MODULE: ./src/findings/severity-scales.ts
var severity_scales = __nccwpck_require__(487);
;// CONCATENATED MODULE: ./src/findings/code-quality.ts
/**
 * The new issues as a GitLab Code Quality report (`artifacts:reports:codequality`): a JSON array
 * of Code Climate issues, in the subset GitLab reads. What GitLab requires of each item, from its
 * parser: `description`, `fingerprint` and `severity` strings and a `location` object (its JSON
 * schema), and a `location.path` with `location.lines.begin` (its documentation; the path makes
 * the link to the file). GitLab stops reading a report at the first item its schema rejects, so
 * every item here has all of them.
 */




/**
 * Bounds of the report: at most 5,000 issues of an analysis (as many as are read), and `bytes`
 * for the whole file as written (or the sink's smaller limit), whatever the server sent; past
 * them, issues are left out and counted.
 */
const CODE_QUALITY_LIMITS = {
    issuesPerAnalysis: 5_000,
    bytes: 8_000_000,
    description: untrusted_text/* QUOTE_LIMITS */.gJ.long,
    text: untrusted_text/* QUOTE_LIMITS */.gJ.short
};
const SEVERITY = (0,severity_scales/* severityIn */.f)('codeQuality');
/** Code Climate's categories (one is required by its spec) by the server's issue type. */
const CATEGORY = new Map([
    ['BUG', 'Bug Risk'],
    ['VULNERABILITY', 'Security'],
    ['SECURITY_HOTSPOT', 'Security'],
    ['CODE_SMELL', 'Clarity']
]);
/** Items of the array start two spaces in. */
const ARRAY_INDENT = 2;
/**
 * The GitLab Code Quality report of the analyses' findings.
 *
 * - A finding not located in the checkout (no `file`) is left out and counted: GitLab needs a path
 *   in the repository (it links `location.path` at the commit; a report item without one breaks
 *   that link), and the server's own path is not one when the finding has no file.
 * - A finding on a file but no line (a file-level issue) is at line 1, where GitLab can show it.
 * - Each issue's fingerprint is the SHA-256 of its key: stable from one pipeline to the next, so
 *   GitLab tells new issues from resolved ones; an issue that comes twice is written once.
 * - Pass only analyses whose issues were read (see analysisFindings).
 * - The issues are fitted through the file's sink, in order: as many as fit, the rest counted.
 *
 * @example renderCodeQuality(analysisFindings(outcomes), 'sonarqube', sink).json
 */
function renderCodeQuality(analyses, engineName, sink) {
    const engine = (0,untrusted_text/* oneLine */.TN)(engineName, CODE_QUALITY_LIMITS.text);
    const issues = [];
    const fingerprints = new Set();
    let unlocated = 0;
    let omitted = 0;
    for (const analysis of analyses) {
        let taken = 0;
        for (const finding of analysis.findings) {
            if (finding.file === undefined) {
                unlocated++;
                continue;
            }
            const issue = codeQualityIssue(finding, finding.file, engine);
            if (fingerprints.has(issue.fingerprint))
                continue;
            if (taken >= CODE_QUALITY_LIMITS.issuesPerAnalysis) {
                omitted++;
                continue;
            }
            taken++;
            fingerprints.add(issue.fingerprint);
            issues.push(issue);
        }
    }
    // The array as JSON.stringify(issues, null, 2) writes it: `[`, the items, `]`.
    const fitted = sink.fit(issues.map((issue) => writtenItem(issue, ARRAY_INDENT)), {
        head: '[\n',
        foot: '\n]',
        separator: ',\n',
        limit: Math.min(sink.limit, CODE_QUALITY_LIMITS.bytes) - 1
    });
    const json = fitted.shown === 0 ? '[]' : fitted.text;
    return {
        json: `${json}\n`,
        issues: fitted.shown,
        unlocated,
        omitted: omitted + fitted.leftOut
    };
}
function codeQualityIssue(finding, path, engine) {
    const check = (0,untrusted_text/* oneLine */.TN)(finding.rule, CODE_QUALITY_LIMITS.text);
    const description = (0,untrusted_text/* oneLine */.TN)(finding.message, CODE_QUALITY_LIMITS.description);
    const { startLine, endLine } = finding.region ?? {};
    const begin = isLine(startLine) ? startLine : 1;
    const end = isLine(endLine) ? endLine : begin;
    return {
        type: 'issue',
        description: description === '' ? check : description,
        check_name: check,
        fingerprint: (0,external_node_crypto_.createHash)('sha256').update(finding.key).digest('hex'),
        severity: SEVERITY(finding.severity),
        categories: [CATEGORY.get(finding.type ?? '') ?? 'Clarity'],
        engine_name: engine,
        location: { path, lines: end > begin ? { begin, end } : { begin } }
    };
}
const isLine = (value) => value !== undefined && Number.isSafeInteger(value) && value >= 1;

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
const SEVERITY_RANK = { blocker: 0, high: 1, medium: 2, low: 3, info: 4 };
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
        const rule = sarifRule(ruleId, { index, finding, securitySeverity: 'blocker' }, server);
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
        const entry = rules.get(ruleId) ?? { index: rules.size, finding, securitySeverity: undefined };
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
    if (!isCount(startLine))
        return undefined;
    const endLine = isCount(region.endLine) && region.endLine >= startLine ? region.endLine : startLine;
    const columns = isCount(startColumn) && isCount(endColumn) && (endLine > startLine || endColumn > startColumn);
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
    return a !== undefined && SEVERITY_RANK[a] <= SEVERITY_RANK[b] ? a : b;
}
const isCount = (value) => value !== undefined && Number.isSafeInteger(value) && value >= 1;

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
    const cloud = servers.length > 0 && servers.every((server) => serverKind(new URL(server)).cloud);
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

// EXTERNAL MODULE: ./src/fit.ts
var fit = __nccwpck_require__(6184);
// EXTERNAL MODULE: ./src/report/what-changed-block.ts
var what_changed_block = __nccwpck_require__(563);
;// CONCATENATED MODULE: ./src/report/outputs.ts









/** GitHub takes outputs of up to 1 MB: the outputs' sink is built with this limit (UTF-8 bytes). */
const OUTPUT_BYTES = 1_000_000;
/**
 * The outputs of the step, as they are set: through the outputs' sink, each within its limit.
 * With one analysis read, its gate's (`gateOutputs`); with several, `status` and
 * `quality-gate-status` are the worst verdict (ERROR > WARN > NONE > OK) and the
 * single-analysis outputs are empty. `results` always lists every analysis (`resultsOutput`).
 *
 * @example for (const [name, value] of Object.entries(analysesOutputs(outcomes, policy, sink).values)) core.setOutput(name, value)
 */
function analysesOutputs(outcomes, policy, sink) {
    const results = resultsOutput(outcomes, { sink, policy });
    const failedOn = failedStatuses(outcomes, policy);
    const [only] = outcomes;
    if (outcomes.length === 1 && only?.read) {
        const single = gateOutputs(only.result, sink);
        return { ...single, values: { ...single.values, failedOn, results } };
    }
    const worst = worstStatus(outcomes.flatMap((o) => (o.read ? [o.result.status] : [])));
    return {
        values: {
            status: sink.text(worst),
            'quality-gate-status': toQualityGateStatus(worst),
            analysisId: '',
            taskId: '',
            dashboardUrl: '',
            conditions: '[]',
            branch: '',
            pullRequest: '',
            newIssues: '',
            failedOn,
            results
        },
        conditionsLeftOut: 0
    };
}
/**
 * The `failedOn` output: the statuses of the gates that fail the step under the policy (ERROR,
 * WARN, NONE, each once, comma-separated), whether or not the edge lets the step go on for them;
 * empty when none does.
 *
 * @example failedStatuses(outcomes, new Set(['ERROR', 'WARN'])) // 'WARN'
 */
function failedStatuses(outcomes, policy) {
    const failing = new Set(outcomes.flatMap((outcome) => outcome.read && failsUnder(outcome.result.status, policy)
        ? [statusClass(outcome.result.status)]
        : []));
    return FAILING_STATUSES.filter((status) => failing.has(status)).join(',');
}
/**
 * The `results` output: a JSON array with one object per analysis, in the order they were
 * found: projectKey, source (the report file), status, qualityGateStatus, analysisId, taskId,
 * dashboardUrl and conditions (as in the `conditions` output), or projectKey, source and error
 * for one that could not be read, with the error's code (errorCode) and, when a connection
 * failed, Node's (nodeCode). Through the sink and within its limit: each analysis gets an equal
 * share for its conditions. Always valid JSON.
 *
 * @example JSON.parse(resultsOutput(outcomes, { sink }))[0].qualityGateStatus // 'PASSED'
 */
function resultsOutput(outcomes, options) {
    return resultsJson(outcomes, options).json;
}
/**
 * `resultsOutput` with the count of the new issues it holds: with `issues`, each analysis whose
 * issues were read also carries them (`issues`, as many as fit), with `issuesWritten` and
 * `issuesLeftOut` (those the server counts that are not in the file: past what was read, or past
 * the bound). Each analysis is written as its serialised parts (its fields, its conditions' and
 * issues' arrays fitted through the sink), in the order and with the bytes JSON.stringify gives.
 *
 * @example resultsJson(outcomes, { sink, issues: true }).issuesWritten
 */
function resultsJson(outcomes, options) {
    const { sink, policy = fail_policy/* FAIL_ON_ERROR */.qJ } = options;
    const bases = outcomes.map((outcome) => {
        const common = {
            projectKey: outputText((outcome.read ? outcome.result.projectKey : outcome.projectKey) ?? ''),
            source: outputText(outcome.source)
        };
        if (!outcome.read) {
            return sink.text(JSON.stringify({ ...common, ...failureFields(outcome, sink) }));
        }
        const { result } = outcome;
        return sink.text(JSON.stringify({
            ...common,
            status: outputText(result.status),
            qualityGateStatus: result.qualityGateStatus,
            gateFailed: (0,fail_policy/* failsUnder */.mS)(result.status, policy),
            analysisId: outputText(result.analysisId ?? ''),
            taskId: outputText(result.taskId ?? ''),
            dashboardUrl: (0,dashboard_link/* dashboardAddress */.v)(result.dashboardUrl, result.serverUrl)?.href ?? '',
            ...(result.newIssues?.read ? { newIssues: result.newIssues.total } : {}),
            ...(result.whatChanged ? { whatChanged: whatChangedOutput(result, sink) } : {})
        }));
    });
    const frame = sink.size(`[${bases.join(',')}]`) + bases.length * '"conditions":[],'.length;
    const share = Math.max(2, Math.floor((sink.limit - frame) / Math.max(1, outcomes.length)));
    const written = [];
    const items = outcomes.map((outcome, index) => {
        const base = bases[index];
        written.push(0);
        if (!outcome.read)
            return base;
        const newIssues = options.issues ? outcome.result.newIssues : undefined;
        const conditions = conditionsOutput(outcome.result.conditions.map(({ condition }) => condition), sink, newIssues?.read ? Math.floor(share / 4) : share);
        // The base object's fields, then its conditions: `{ ...base, conditions }`.
        const open = `${base.slice(0, -1)},"conditions":${conditions.json}`;
        if (!newIssues?.read)
            return `${open}}`;
        // Counts as wide as they can be, so the room left for the issues is never overstated.
        const widest = `${open},"issuesWritten":9999999,"issuesLeftOut":9999999,"issues":}`;
        const issues = issuesOutput(newIssues.findings, sink, share - sink.size(widest));
        written[index] = issues.shown;
        const counts = `"issuesWritten":${issues.shown},"issuesLeftOut":${newIssues.total - issues.shown}`;
        return `${open},${counts},"issues":${issues.text}}`;
    });
    // Each item is bounded; fitting them keeps the limit a guarantee, not a sum to trust.
    const results = sink.fit(items, { head: '[', foot: ']', separator: ',', limit: sink.limit });
    const issuesWritten = written.slice(0, results.shown).reduce((sum, count) => sum + count, 0);
    const issuesRead = outcomes.reduce((sum, outcome) => sum +
        (options.issues && outcome.read && outcome.result.newIssues?.read
            ? outcome.result.newIssues.findings.length
            : 0), 0);
    return { json: results.text, issuesWritten, issuesOmitted: issuesRead - issuesWritten };
}
/**
 * The findings as a JSON array of objects (key, rule, severity, type, file or the server's
 * path, lines, message, url), each string cut, as many as fit in `limit`.
 */
function issuesOutput(findings, sink, limit) {
    const items = (0,fit/* partsOf */.CI)(findings, (finding) => JSON.stringify({
        key: (0,untrusted_text/* cut */.Jj)(finding.key, untrusted_text/* QUOTE_LIMITS */.gJ.short),
        rule: (0,untrusted_text/* cut */.Jj)(finding.rule, untrusted_text/* QUOTE_LIMITS */.gJ.short),
        severity: finding.severity,
        serverSeverity: finding.severityWord,
        type: finding.type,
        file: finding.file,
        serverPath: finding.serverPath === undefined ? undefined : (0,untrusted_text/* cut */.Jj)(finding.serverPath, untrusted_text/* QUOTE_LIMITS */.gJ.long),
        startLine: finding.region?.startLine,
        endLine: finding.region?.endLine,
        message: (0,untrusted_text/* cut */.Jj)(finding.message, untrusted_text/* QUOTE_LIMITS */.gJ.long),
        url: finding.url
    }));
    return jsonArray(items, sink, limit);
}
/**
 * The outputs of a gate, through the outputs' sink: every value on one line and cut to 1,000
 * characters (`outputText`), the dashboard address only as an http(s) address without
 * credentials, and the conditions as bounded JSON (`conditionsOutput`).
 *
 * @example for (const [name, value] of Object.entries(gateOutputs(result, sink).values)) core.setOutput(name, value)
 */
function gateOutputs(result, sink) {
    const conditions = conditionsOutput(result.conditions.map(({ condition }) => condition), sink);
    const said = (value) => sink.text(value);
    return {
        values: {
            status: said(outputText(result.status)),
            'quality-gate-status': result.qualityGateStatus,
            analysisId: said(outputText(result.analysisId ?? '')),
            taskId: said(outputText(result.taskId ?? '')),
            dashboardUrl: said(dashboardAddress(result.dashboardUrl, result.serverUrl)?.href ?? ''),
            conditions: conditions.json,
            branch: said(outputText(result.branch ?? '')),
            pullRequest: said(outputText(result.pullRequest ?? '')),
            newIssues: newIssuesCount(result)
        },
        conditionsLeftOut: conditions.leftOut
    };
}
/** The count of new issues, or '' when they were not read. */
function newIssuesCount(result) {
    return result.newIssues?.read ? String(result.newIssues.total) : '';
}
/**
 * What changed, as the results say it: `newCode` ({coverage, duplicatedLines} in percent, or
 * {error}), for a pull request `target` ({branch, coverage, duplicatedLines}, or {error}),
 * `hotspotsToReview` with the first `hotspots` ({key, message, path, line, probability, url}) or
 * `hotspotsError`, and `acceptedIssues` and `fixedIssues` where the server counts them. Bounded:
 * five hotspots at most, every string cut.
 */
function whatChangedOutput(result, sink) {
    const { newCode, target, hotspots, issues } = result.whatChanged;
    const figures = (read) => 'unread' in read
        ? { error: outputText(sink.text(read.unread)) }
        : { coverage: read.coverage, duplicatedLines: read.duplication };
    return {
        newCode: figures(newCode),
        ...(target
            ? {
                target: 'unread' in target
                    ? { error: outputText(sink.text(target.unread)) }
                    : { branch: outputText(target.branch), ...figures(target.figures) }
            }
            : {}),
        ...('unread' in hotspots
            ? { hotspotsError: outputText(sink.text(hotspots.unread)) }
            : {
                hotspotsToReview: hotspots.total,
                hotspots: hotspots.hotspots.map((hotspot) => ({
                    key: (0,untrusted_text/* cut */.Jj)(hotspot.key, untrusted_text/* QUOTE_LIMITS */.gJ.short),
                    message: (0,untrusted_text/* cut */.Jj)(hotspot.message, untrusted_text/* QUOTE_LIMITS */.gJ.long),
                    path: hotspot.path === undefined ? undefined : (0,untrusted_text/* cut */.Jj)(hotspot.path, untrusted_text/* QUOTE_LIMITS */.gJ.long),
                    line: hotspot.line,
                    probability: hotspot.probability,
                    url: (0,what_changed_block/* hotspotUrl */.$)(hotspot.key, result)
                }))
            }),
        ...(issues?.accepted === undefined ? {} : { acceptedIssues: issues.accepted }),
        ...(issues?.fixed === undefined ? {} : { fixedIssues: issues.fixed })
    };
}
/** A server value as an output: one line (control characters as escapes), at most 1,000 characters. */
function outputText(value) {
    return (0,untrusted_text/* oneLine */.TN)(value, untrusted_text/* QUOTE_LIMITS */.gJ.long);
}
/**
 * Why an analysis could not be read: the message, the error's code (ERR_SERVER_REQUEST,
 * ERR_TIMEOUT…) and, when a connection failed, Node's code (ECONNREFUSED, CERT_HAS_EXPIRED…).
 */
function failureFields(outcome, sink) {
    const { error } = outcome;
    const nodeCode = error instanceof errors/* ServerRequestError */.hP ? error.nodeCode : undefined;
    return {
        error: outputText(sink.text(outcome.message)),
        errorCode: (0,errors/* codeOf */.$N)(error),
        ...(nodeCode ? { nodeCode: outputText(nodeCode) } : {})
    };
}
/**
 * The `conditions` output: a JSON array of the decoded conditions with the server's key names
 * (status, metricKey, comparator, errorThreshold, warningThreshold, actualValue, periodIndex;
 * undefined ones omitted), each string cut to 200 characters, and as many conditions, in the
 * server's order, as fit in `limit` (the sink's by default). Always valid JSON.
 *
 * @example conditionsOutput(conditions, sink).json // '[{"status":"ERROR","metricKey":"new_coverage",…}]'
 */
function conditionsOutput(conditions, sink, limit = sink.limit) {
    // Each condition is serialised only when fitting reaches it.
    const items = (0,fit/* partsOf */.CI)(conditions, (condition) => JSON.stringify(boundedCondition(condition)));
    const { text, leftOut } = jsonArray(items, sink, limit);
    return { json: text, leftOut };
}
/** Serialised items as a JSON array through the sink: as many as fit, the brackets always. */
function jsonArray(items, sink, limit) {
    return sink.fit(items, { head: '[', foot: ']', separator: ',', limit: Math.max(2, limit) });
}
/** The condition with each string cut; JSON.stringify leaves the undefined ones out. */
function boundedCondition(condition) {
    const bounded = (value) => value === undefined ? undefined : (0,untrusted_text/* cut */.Jj)(value, untrusted_text/* QUOTE_LIMITS */.gJ.short);
    return {
        status: bounded(condition.status),
        metricKey: bounded(condition.metricKey),
        comparator: bounded(condition.comparator),
        errorThreshold: bounded(condition.errorThreshold),
        warningThreshold: bounded(condition.warningThreshold),
        actualValue: bounded(condition.actualValue),
        periodIndex: condition.periodIndex
    };
}

// EXTERNAL MODULE: ./src/sink.ts
var src_sink = __nccwpck_require__(808);
;// CONCATENATED MODULE: ./src/cli/junit.ts









/** The testcase of a gate as a whole, and of an analysis that could not be read. */
const GATE_CASE = 'Quality Gate';
/**
 * The outcomes as a JUnit XML report, in the form of Ant's JUnit schema that Jenkins' `junit`,
 * GitLab's `artifacts:reports:junit` and Azure's `PublishTestResults` read:
 * - one `<testsuite>` per analysis, named for its project (else its report file), with the
 *   gate's status, analysis, task, branch and dashboard as `<properties>`;
 * - one `<testcase>` per condition, named for its metric (`Coverage on New Code (new_coverage)`,
 *   the same from run to run, so a CI's test history follows it), classname the project; a
 *   `<failure type="ERROR">` for each condition the server says is ERROR, in words;
 * - a `Quality Gate` testcase when the conditions alone would not show the verdict (no
 *   conditions, or an ERROR gate without an ERROR condition), failing for ERROR;
 * - for an analysis that could not be read, one failing `Quality Gate` testcase with why.
 *
 * Failing conditions come first; past 100 conditions the rest are counted in `<system-out>`.
 * Every text goes through the sink (the edge's words, every secret removed), then is shown as
 * one visible line where XML needs one, stripped of what XML 1.0 forbids, and escaped: nothing
 * the server sends becomes markup.
 *
 * @example await writeFile('gate.xml', renderJunit(outcomes, { sink, startedAt, hostname: os.hostname(), elapsedMs }))
 */
function renderJunit(outcomes, context) {
    const suites = outcomes.map((outcome, index) => suite(outcome, index, context));
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites>',
        ...suites.flat().map((line) => `  ${line}`),
        '</testsuites>',
        ''
    ].join('\n');
}
function suite(outcome, id, context) {
    const name = token((0,gate_outcome/* projectName */.j)(outcome), context) || 'analysis';
    const { cases, properties, out, elapsedMs } = outcome.read
        ? gateSuite(outcome.result, outcome.source, context.policy ?? fail_policy/* FAIL_ON_ERROR */.qJ)
        : {
            cases: [
                {
                    name: GATE_CASE,
                    failure: {
                        type: 'code' in outcome.error ? String(outcome.error.code) : outcome.error.name,
                        message: (0,src_words/* firstLine */.TM)(outcome.message),
                        text: outcome.message
                    }
                }
            ],
            properties: { projectKey: outcome.projectKey, source: outcome.source },
            out: (0,src_words/* msg */.ab) `The gate could not be read: ${outcome.message}`,
            elapsedMs: context.elapsedMs
        };
    const failures = cases.filter((each) => each.failure).length;
    const head = attributes({
        name,
        package: name,
        id: String(id),
        tests: String(cases.length),
        failures: String(failures),
        errors: '0',
        skipped: '0',
        time: seconds(elapsedMs),
        timestamp: context.startedAt.toISOString().slice(0, 19),
        hostname: token(context.hostname, context) || 'localhost'
    });
    const props = Object.entries(properties).filter((entry) => entry[1] !== undefined && entry[1] !== '');
    return [
        `<testsuite${head}>`,
        '  <properties>',
        ...props.map(([key, value]) => `    <property${attributes({ name: key, value: line(value, context) })}/>`),
        '  </properties>',
        ...cases.flatMap((each) => testcase(each, name, context).map((text) => `  ${text}`)),
        `  <system-out>${junit_text(out, context)}</system-out>`,
        '  <system-err></system-err>',
        '</testsuite>'
    ];
}
function gateSuite(result, source, policy) {
    // A WARN condition fails too when the policy fails a WARN gate.
    const isFailing = ({ condition }) => condition.status === 'ERROR' || (condition.status === 'WARN' && policy.has('WARN'));
    const ordered = [...result.conditions].sort((a, b) => Number(isFailing(b)) - Number(isFailing(a)));
    const shown = ordered.slice(0, report_summary/* SUMMARY_LIMITS */.QF.rows);
    const names = new Map();
    const cases = shown.map((evaluated) => {
        const base = conditionName(evaluated);
        const seen = (names.get(base) ?? 0) + 1;
        names.set(base, seen);
        const words = (0,wording/* describeCondition */.pu)(evaluated);
        return {
            name: seen > 1 ? `${base} #${seen}` : base,
            ...(isFailing(evaluated)
                ? {
                    failure: {
                        type: evaluated.condition.status,
                        message: words,
                        text: failureText(words, evaluated, result)
                    }
                }
                : {})
        };
    });
    const failed = (0,fail_policy/* failsUnder */.mS)(result.status, policy);
    const showsVerdict = result.conditions.length > 0 && (!failed || ordered.some(isFailing));
    if (!showsVerdict) {
        const message = failed ? gateFailureMessage(result) : (0,report_summary/* headline */.Pl)(result.status, policy);
        const type = (0,fail_policy/* statusClass */.hI)(result.status);
        cases.unshift({
            name: GATE_CASE,
            ...(failed
                ? {
                    failure: { type, message: (0,src_words/* firstLine */.TM)(message), text: message }
                }
                : {})
        });
    }
    const dashboard = (0,dashboard_link/* dashboardAddress */.v)(result.dashboardUrl, result.serverUrl)?.href;
    const more = result.conditions.length - shown.length;
    const out = (0,src_words/* joined */.oR)([
        failed
            ? gateFailureMessage(result)
            : (0,src_words/* joined */.oR)([
                (0,src_words/* msg */.ab) `${(0,report_summary/* headline */.Pl)(result.status, policy)} (${(0,untrusted_text/* oneLine */.TN)(result.status)})`,
                ...(dashboard ? [`Details: ${dashboard}`] : [])
            ], '\n'),
        ...(more > 0 ? [`… and ${more} more conditions: see the dashboard.`] : [])
    ], '\n');
    return {
        cases,
        properties: {
            projectKey: result.projectKey,
            source,
            status: result.status,
            qualityGateStatus: result.qualityGateStatus,
            analysisId: result.analysisId,
            taskId: result.taskId,
            branch: result.branch,
            pullRequest: result.pullRequest,
            dashboardUrl: dashboard
        },
        out,
        elapsedMs: result.elapsedMs
    };
}
/** "Coverage on New Code (new_coverage)"; the key alone when the metric has no other name. */
function conditionName(evaluated) {
    const name = (0,wording/* metricName */.Kh)(evaluated.condition);
    const key = (0,untrusted_text/* oneLine */.TN)(evaluated.condition.metricKey);
    return name === key ? key : `${name} (${key})`;
}
/** The condition in words, then its own evidence on the server (else the dashboard). */
function failureText(words, evaluated, result) {
    const details = (0,evidence_link/* evidenceUrl */.j)(result, evaluated.condition) ??
        (0,dashboard_link/* dashboardAddress */.v)(result.dashboardUrl, result.serverUrl)?.href;
    return details ? `${words}\nDetails: ${details}` : words;
}
function testcase(each, classname, context) {
    const head = attributes({ name: token(each.name, context), classname, time: '0' });
    if (!each.failure)
        return [`<testcase${head}/>`];
    const { type, message } = each.failure;
    const failure = attributes({ type: line(type, context), message: line(message, context) });
    return [
        `<testcase${head}>`,
        `  <failure${failure}>${junit_text(each.failure.text, context)}</failure>`,
        '</testcase>'
    ];
}
/** Seconds with milliseconds, as xs:decimal: "2.345". */
function seconds(ms) {
    return (Math.max(0, ms) / 1000).toFixed(3);
}
/**
 * Characters XML 1.0 does not allow at all (not even as references): what `showInvisible` has
 * not already shown as an escape — lone surrogates, U+FFFE and U+FFFF.
 */
const NOT_XML = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;
/** A name or a value on one line: through the sink, cut, invisible characters shown, legal XML. */
function line(value, { sink }) {
    return (0,untrusted_text/* oneLine */.TN)(sink.text(value), untrusted_text/* QUOTE_LIMITS */.gJ.long).replace(NOT_XML, '');
}
/** An xs:token (names): one line, white space collapsed, at most 200 characters. */
function token(value, { sink }) {
    return (0,untrusted_text/* oneLine */.TN)(sink.text(value), untrusted_text/* QUOTE_LIMITS */.gJ.short)
        .replace(NOT_XML, '')
        .replace(/\s+/g, ' ')
        .trim();
}
/** Element text: line feeds kept, each line made visible, the whole cut, legal, escaped. */
function junit_text(value, { sink }) {
    const said = (0,untrusted_text/* cut */.Jj)(sink.text(value), report_summary/* SUMMARY_LIMITS */.QF.messageChars);
    const visible = said
        .split('\n')
        .map((each) => each.split('\t').map(untrusted_text/* showInvisible */.jQ).join('\t'))
        .join('\n');
    return escapeXml(visible.replace(NOT_XML, ''));
}
/** ` name="value"` for each, values escaped for an attribute. */
function attributes(values) {
    return Object.entries(values)
        .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
        .join('');
}
/** `& < > " '` as references: the text stays text, in an element or a quoted attribute. */
function escapeXml(value) {
    return value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[character]);
}

;// CONCATENATED MODULE: ./src/cli/result-files.ts
















/** A result file that could not be written: the exit code is 2. */
class ResultFileError extends errors/* ExplainedError */.hM {
    static code = 'ERR_RESULT_FILE';
    constructor(message, options) {
        super(ResultFileError.code, message, options);
    }
}
const WHAT = {
    json: 'the JSON results',
    junit: 'the JUnit report',
    markdown: 'the Markdown summary',
    sarif: 'the new issues as SARIF',
    codequality: 'the new issues as GitLab Code Quality'
};
/**
 * Each file's sink besides the command's words and the token's forms: the forms the token takes
 * once escaped in HTML, XML or JSON, and the file's limit (the JSON is the action's `results` output,
 * bounded as it is, then indented).
 */
const FILE_SINKS = {
    json: { escapedForms: src_secrets/* jsonForms */.Eg, limit: OUTPUT_BYTES },
    junit: { escapedForms: summary_text/* summaryForms */.cy },
    markdown: { escapedForms: summary_text/* summaryForms */.cy, limit: report_summary/* SUMMARY_LIMITS */.QF.bytes },
    sarif: { escapedForms: src_secrets/* jsonForms */.Eg, limit: SARIF_LIMITS.bytes },
    codequality: { escapedForms: src_secrets/* jsonForms */.Eg, limit: CODE_QUALITY_LIMITS.bytes }
};
/**
 * The result files asked for: `--json` the action's `results` output (indented) with the new
 * issues, `--junit` the JUnit report, `--markdown` the job summary (one analysis's, the overview
 * of several, or the failure summary), `--sarif` and `--codequality` the new issues. Each is
 * written through its own sink: in the command's words, every form of the token removed (as
 * from the action's summary and outputs), within the file's limit. Folders are created; `-` writes to `stdout`. Resolves with one log line
 * per file written (for a file of new issues, how many it holds and how many were left out and
 * why); throws a ResultFileError naming the first that could not be.
 *
 * @example for (const line of await writeResultFiles(line.files, report, { cwd, stdout: process.stdout })) log.info(line)
 */
async function writeResultFiles(files, report, { cwd, stdout }) {
    const lines = [];
    for (const kind of ['json', 'junit', 'markdown', 'sarif', 'codequality']) {
        const file = files[kind];
        if (file === undefined)
            continue;
        const { content, issues } = render(kind, report);
        const shown = file === '-' ? 'standard output' : file;
        const line = issues
            ? issuesFileLine(issues.how, shown, issues, report.outcomes)
            : `Wrote ${WHAT[kind]} to ${shown}.`;
        if (file === '-') {
            stdout.write(content);
            // Standard output holds the file alone; the log still says what it holds.
            if (issues)
                lines.push(line);
            continue;
        }
        const target = external_node_path_default().resolve(cwd, file);
        try {
            await (0,promises_.mkdir)(external_node_path_default().dirname(target), { recursive: true });
            await (0,promises_.writeFile)(target, content);
        }
        catch (error) {
            throw new ResultFileError(`Could not write ${WHAT[kind]} to "${(0,untrusted_text/* oneLine */.TN)(file, untrusted_text/* QUOTE_LIMITS */.gJ.long)}": ${(0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(error), untrusted_text/* QUOTE_LIMITS */.gJ.long)}.`, { cause: error });
        }
        lines.push(line);
    }
    return lines;
}
function render(kind, report) {
    const { outcomes, context, policy } = report;
    const { secrets, ...about } = context;
    const sink = (0,src_sink/* createSink */.O)({ names: names/* COMMAND_NAMES */.n, secrets, ...FILE_SINKS[kind] });
    switch (kind) {
        case 'json': {
            const results = resultsJson(outcomes, { sink, issues: true, policy });
            // Without an analysis whose issues were asked for, the file is the results alone.
            const asked = outcomes.some((outcome) => outcome.read && outcome.result.newIssues);
            const issues = asked
                ? {
                    how: 'in the JSON results',
                    written: results.issuesWritten,
                    omitted: results.issuesOmitted
                }
                : undefined;
            // Indented for a reader; a token that happened to span JSON's own syntax leaves it as is.
            try {
                return { content: `${JSON.stringify(JSON.parse(results.json), null, 2)}\n`, issues };
            }
            catch {
                return { content: `${results.json}\n`, issues };
            }
        }
        case 'junit':
            return { content: renderJunit(outcomes, { ...about, sink, policy }) };
        case 'markdown':
            return { content: markdown(outcomes, policy, sink) };
        case 'sarif': {
            const sarif = renderSarif(analysisFindings(outcomes), sarifTool(outcomes), sink);
            return {
                content: `${sarif.json}\n`,
                issues: {
                    how: 'as SARIF',
                    written: sarif.results,
                    unlocated: sarif.unlocated,
                    omitted: sarif.omitted
                }
            };
        }
        case 'codequality': {
            const report = renderCodeQuality(analysisFindings(outcomes), 'sonarqube', sink);
            return {
                content: `${report.json}\n`,
                issues: {
                    how: 'as GitLab Code Quality',
                    written: report.issues,
                    unlocated: report.unlocated,
                    omitted: report.omitted
                }
            };
        }
    }
}
/** The job summary the action would write for the same outcomes, through the file's sink. */
function markdown(outcomes, policy, sink) {
    const [only] = outcomes;
    if (only && outcomes.length === 1) {
        return only.read
            ? (0,report_summary/* renderSummary */.Br)(only.result, { sink, policy })
            : (0,report_summary/* renderFailureSummary */.Fr)(only.message, sink);
    }
    return renderOverviewSummary(outcomes, { sink, policy });
}

;// CONCATENATED MODULE: ./src/cli/report.ts







/**
 * The outcomes in every destination of the command: the log (each gate's annotations and new
 * issues, unless the check failed alone), then the result files asked for. Returns the exit
 * code a result file that could not be written calls for (2), else 0.
 */
async function reportOutcomes(outcomes, verdict, context) {
    const { settings, log, cwd, stdout } = context;
    if (!(verdict.kind === 'unread' && verdict.alone)) {
        annotateAll(outcomes, log, settings.policy);
        logNewIssues(outcomes, log);
    }
    const about = {
        startedAt: new Date(context.startedAt),
        hostname: safeHostname(),
        secrets: context.secrets,
        elapsedMs: context.now - context.startedAt
    };
    try {
        const report = { outcomes, context: about, policy: settings.policy };
        for (const line of await writeResultFiles(context.files, report, { cwd, stdout })) {
            log.info(line);
        }
        return EXIT.passed;
    }
    catch (error) {
        log.error((0,errors/* saidOf */.Jo)(error));
        return EXIT.usage;
    }
}
/**
 * The verdict, last in the log, as the action words it, and its exit code (see EXIT).
 *
 * @example return endCommand(verdict, settings, log)
 */
function endCommand(verdict, settings, log) {
    switch (verdict.kind) {
        case 'passed':
            for (const status of verdict.statuses)
                log.success(status);
            break;
        case 'gate-failed':
            if (settings.failStep)
                log.error(verdict.message);
            else
                log.warning((0,src_words/* msg */.ab) `${verdict.message}\n--no-fail is given: the exit code is 0.`);
            break;
        case 'unread':
            log.error(verdict.message);
            break;
    }
    return exitCodeOfVerdict(verdict, settings);
}
function safeHostname() {
    try {
        return (0,external_node_os_namespaceObject.hostname)() || 'localhost';
    }
    catch {
        return 'localhost';
    }
}
/**
 * The outcome of a check that found nothing to check (no report file): one unread outcome
 * stands for the whole check, so the verdict and the result files still say what happened.
 */
function wholeCheckFailed(settings, error) {
    const failure = (0,errors/* asError */.zR)(error);
    const source = settings.reportFiles.length > 0 ? settings.reportFiles.join(', ') : 'report-task.txt';
    return { read: false, source, projectKey: undefined, message: (0,errors/* saidOf */.Jo)(failure), error: failure };
}

// EXTERNAL MODULE: ./src/ci/ci-analysis.ts
var ci_analysis = __nccwpck_require__(4385);
;// CONCATENATED MODULE: ./src/cli/root-cert-file.ts




/** The largest CA file read: a whole system bundle is about 200 KiB. */
const MAX_ROOT_CERT_BYTES = 1024 * 1024;
/**
 * The PEM text of --root-cert-file, or a SettingsError that says what is wrong with the file:
 * missing, not a regular file (a pipe or a device is refused at once, never waited on), larger
 * than 1 MiB, or without a certificate block.
 *
 * @example const pem = await readRootCertFile('certs/private-ca.pem', process.cwd())
 */
async function readRootCertFile(file, cwd) {
    const shown = `--root-cert-file "${(0,untrusted_text/* oneLine */.TN)(file, untrusted_text/* QUOTE_LIMITS */.gJ.long)}"`;
    const read = await (0,bounded_file/* readBoundedFile */.M)(external_node_path_default().resolve(cwd, file), MAX_ROOT_CERT_BYTES);
    if (read.outcome === 'missing' || read.outcome === 'unreadable') {
        throw new errors/* SettingsError */.GN(read.outcome === 'missing'
            ? `${shown}: there is no such file. Give the path of the CA certificate (PEM), relative to the working directory.`
            : `${shown} cannot be read: ${(0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(read.error), untrusted_text/* QUOTE_LIMITS */.gJ.long)}.`, { cause: read.error });
    }
    if (read.outcome === 'not-a-file') {
        throw new errors/* SettingsError */.GN(`${shown} is not a regular file: give the CA certificate's file.`);
    }
    if (read.outcome === 'too-large') {
        throw new errors/* SettingsError */.GN(`${shown} is larger than ${MAX_ROOT_CERT_BYTES / 1024 / 1024} MiB: give the CA certificate (PEM) alone.`);
    }
    const text = read.bytes.toString('utf8');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) {
        throw new errors/* SettingsError */.GN(`${shown} holds no PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (a DER file converts with: openssl x509 -inform der -in ca.cer -out ca.pem).`);
    }
    return text;
}

;// CONCATENATED MODULE: ./src/cli/settings.ts





/**
 * The command line (and SONAR_TOKEN, SONAR_HOST_URL, SONAR_ROOT_CERT) as Settings; the CA
 * certificate of --root-cert-file is read first, relative to `cwd`. With --project alone, the
 * branch or pull request and the commit come from the CI it runs in (one line of `log` says so);
 * without --project, --commit is the run's commit (Settings.runCommit), not the analysis's.
 *
 * @example const settings = await readCommandSettings(line, process.env, process.cwd(), log)
 */
async function readCommandSettings(line, env, cwd, log) {
    const rootCert = line.rootCertFile ? await readRootCertFile(line.rootCertFile, cwd) : undefined;
    const settings = (0,src_settings/* readSettings */.sb)((0,src_settings/* withVariables */.sO)(commandSettings(line, rootCert), names/* COMMAND_NAMES */.n, env));
    // Without --project, --commit does not choose the analysis: it is the commit decorated, which
    // the check compares with the one the server records for the analysis.
    if (line.projects.length === 0 && line.commit)
        return { ...settings, runCommit: line.commit };
    return (0,ci_analysis/* withTheCisAnalysis */.p)(settings, env, log);
}

;// CONCATENATED MODULE: ./src/log.ts



/**
 * How many annotations of each level GitHub shows for one step (10 errors, 10 warnings, and the
 * action keeps notices to 10 too): 30 at most, within the 50 GitHub shows for a whole job.
 */
const ANNOTATION_LIMITS = {
    error: 10,
    warning: 10,
    notice: 10
};
/** How long one line of the log may be, and how many lines one message may have. */
const LOG_LIMITS = { lineChars: 4000, messageLines: 100 };
/**
 * The runner's log as a Log, and its sink: every message, whatever it quotes, is said in the
 * edge's words (`names`), has every secret removed and goes through `forTheLog` on its way to the
 * runner, so no text the server sends can become a workflow command.
 *
 * @example const log = runnerLog(core, ACTION_NAMES); log.fail(error.message)
 */
function runnerLog(core, names) {
    let sink = createSink({ names, secrets: [] });
    const safe = (message) => forTheLog(sink.text(message));
    const used = { error: 0, warning: 0, notice: 0 };
    // One error is kept for the failure the step may end with.
    const limit = (level) => ANNOTATION_LIMITS[level] - (level === 'error' ? 1 : 0);
    const annotate = (level, message, where) => {
        if (used[level] >= limit(level)) {
            core.info(safe(msg `${level} (not annotated: GitHub shows ${ANNOTATION_LIMITS[level]} per step): ${message}`));
            return false;
        }
        used[level]++;
        // Annotations stay one annotation: `@actions/core` escapes their line breaks and properties.
        core[level](safe(message), where && safeWhere(where, sink.text));
        return true;
    };
    return {
        info: (message) => core.info(safe(message)),
        warning: (message) => void annotate('warning', message),
        notice: (message) => void annotate('notice', message),
        annotate,
        annotationsLeft: () => ({
            error: limit('error') - used.error,
            warning: limit('warning') - used.warning,
            notice: limit('notice') - used.notice
        }),
        fail: (message) => core.setFailed(safe(message)),
        // A group's name is one line: its line feeds are shown as `\n`.
        startGroup: (name) => core.startGroup(logLine(sink.text(name))),
        endGroup: () => core.endGroup(),
        hideSecrets: (more) => {
            more.forEach((secret) => core.setSecret(secret));
            sink = createSink({ names, secrets: [...sink.secrets, ...more] });
        }
    };
}
/** The annotation's title through the line gate; its file and numbers as the caller checked them. */
function safeWhere(where, text) {
    const title = where.title === undefined ? undefined : logLine(text(where.title));
    return {
        ...where,
        ...(title === undefined ? {} : { title: cut(title, 200) }),
        // The file is the checkout's: one whose name held the token would not be placed, nor leak it.
        ...(where.file === undefined ? {} : { file: text(where.file) })
    };
}
/**
 * The one gate between a message and the runner's log. The message keeps its line feeds (our
 * own messages have several lines); each of its lines goes through `logLine`, and a message of
 * more than 100 lines ends with "… N more lines". A lone CR is not a line break here: it is
 * shown as `\r`, so the runner (which also breaks lines at a lone CR) sees exactly these lines.
 *
 * @example forTheLog('PENDING\r::error::x') // 'PENDING\\r::error::x'
 */
function forTheLog(message) {
    const lines = message.split('\n');
    const shown = lines.slice(0, LOG_LIMITS.messageLines).map(logLine);
    const hidden = lines.length - shown.length;
    if (hidden > 0)
        shown.push(`… ${hidden} more lines`);
    return shown.join('\n');
}
/**
 * One line made safe for the runner, which reads a line as a workflow command when it starts,
 * after white space, with `::`, or when it holds the legacy `##[` anywhere:
 * - every control character but TAB (C0, DEL, C1, CR, LF, U+2028/2029, bidi overrides) is shown
 *   as an escape (`\r`, `\x1B`, `\u202E`);
 * - a line that starts, after white space, with `::` gets a space between the two colons
 *   (`::error::x` → `: :error::x`);
 * - every `##[` gets a space after its first `#` (`##[error]x` → `# #[error]x`);
 * - the line is cut to 4,000 characters, the last an ellipsis.
 *
 * @example logLine('  ::set-output name=a::b ##[error]') // '  : :set-output name=a::b # #[error]'
 */
function logLine(text) {
    const max = LOG_LIMITS.lineChars;
    // Cut before escaping (a huge line costs nothing more) and after (escapes lengthen it).
    const visible = cut(text, max)
        .split('\t')
        .map((part) => showInvisible(part))
        .join('\t');
    return cut(neutraliseCommands(visible), max);
}
function neutraliseCommands(line) {
    // `\s` is every Unicode white space the runner's TrimStart skips.
    return line.replace(/^(\s*):(?=:)/u, '$1: ').replaceAll('##[', '# #[');
}

;// CONCATENATED MODULE: ./src/cli/terminal-log.ts



const STYLES = {
    bold: ['\u001b[1m', '\u001b[22m'],
    red: ['\u001b[31m', '\u001b[39m'],
    yellow: ['\u001b[33m', '\u001b[39m'],
    cyan: ['\u001b[36m', '\u001b[39m'],
    green: ['\u001b[32m', '\u001b[39m']
};
/**
 * Whether the log gets colours. FORCE_COLOR decides when it is set (`0` or `false`: none;
 * anything else: colours, even in CI or into a file); else NO_COLOR set to anything but the empty
 * string means none (no-color.org); else none in CI (CI set, as GitLab, Jenkins' pipelines,
 * Azure, Bitbucket and CircleCI set it) and none when TERM is `dumb`; else colours only on a
 * terminal.
 *
 * @example useColor(process.env, process.stderr.isTTY) // false in a CI log
 */
function useColor(env, isTerminal) {
    const force = env['FORCE_COLOR'];
    if (force !== undefined)
        return !['0', 'false'].includes(force.trim().toLowerCase());
    if (env['NO_COLOR'])
        return false;
    if (env['CI'] && !['0', 'false'].includes(env['CI'].trim().toLowerCase()))
        return false;
    if (env['TERM'] === 'dumb')
        return false;
    return isTerminal;
}
/**
 * The command's log on standard error, as a reader in a terminal or a CI log wants it: plain
 * lines, warnings and notices labelled (in colour when `color`), each analysis of several as a
 * heading with its lines indented under it. Every message goes through `forTheTerminal` first,
 * so no text from the server moves the cursor, clears the screen or sets the colours; the
 * colours are the command's own, added after. The log is a sink: each message is said in the
 * command's words (`names`) and has every secret removed before that.
 *
 * @example const log = terminalLog(process.stderr, { color: useColor(process.env, process.stderr.isTTY), names: COMMAND_NAMES })
 */
function terminalLog(out, { color, names }) {
    let sink = (0,src_sink/* createSink */.O)({ names, secrets: [] });
    let indent = '';
    const paint = (style, text) => color ? `${STYLES[style][0]}${text}${STYLES[style][1]}` : text;
    const write = (message, label, style) => {
        const lines = forTheTerminal(sink.text(message)).split('\n');
        const head = label ? `${paint(label.style, paint('bold', label.text))} ` : '';
        const hanging = ' '.repeat(label ? label.text.length + 1 : 0);
        const shown = lines.map((line, index) => `${indent}${index === 0 ? head : hanging}${style ? paint(style, line) : line}`);
        out.write(`${shown.join('\n')}\n`);
    };
    return {
        info: (message) => write(message),
        warning: (message) => write(message, { text: 'warning:', style: 'yellow' }),
        notice: (message) => write(message, { text: 'notice:', style: 'cyan' }),
        error: (message) => write(message, { text: 'error:', style: 'red' }),
        success: (message) => write(message, undefined, 'green'),
        startGroup: (name) => {
            const title = forTheTerminal(sink.text(name)).replace(/\n/g, '\\n');
            out.write(`${paint('bold', `▸ ${title}`)}\n`);
            indent = '  ';
        },
        endGroup: () => {
            indent = '';
        },
        hideSecrets: (more) => {
            sink = (0,src_sink/* createSink */.O)({ names, secrets: [...sink.secrets, ...more] });
        }
    };
}
/**
 * The one gate between a message and the terminal: the message keeps its line feeds (our own
 * messages have several lines); in each line every control character but TAB, escape sequences
 * included (`\x1B[2J`), and every character that moves text around unseen (CR, U+2028, bidi
 * overrides) is shown as an escape; a line is cut at 4,000 characters, and a message of more
 * than 100 lines ends with "… N more lines".
 *
 * @example forTheTerminal('PENDING\u001b[2J\r') // 'PENDING\\x1B[2J\\r'
 */
function forTheTerminal(message) {
    const lines = message.split('\n');
    const shown = lines.slice(0, LOG_LIMITS.messageLines).map((line) => {
        const max = LOG_LIMITS.lineChars;
        const visible = (0,untrusted_text/* cut */.Jj)(line, max)
            .split('\t')
            .map((part) => (0,untrusted_text/* showInvisible */.jQ)(part))
            .join('\t');
        return (0,untrusted_text/* cut */.Jj)(visible, max);
    });
    const hidden = lines.length - shown.length;
    if (hidden > 0)
        shown.push(`… ${hidden} more lines`);
    return shown.join('\n');
}

;// CONCATENATED MODULE: ./src/cli/main.ts















const USER_AGENT = `${COMMAND}/${VERSION} (node ${process.version})`;
/**
 * The command: command line → settings → the check of every analysis → the log and the result
 * files → the verdict and its exit code (see EXIT). The same core as the action's, with the
 * command's own edges. Every failure is caught here, once, and becomes a line of the log and an
 * exit code.
 *
 * @example process.exitCode = await runCommand({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, startedAt: Date.now() })
 */
async function runCommand(context) {
    const { env, cwd, stdout, stderr, startedAt } = context;
    const color = useColor(env, stderr.isTTY === true);
    const log = terminalLog(stderr, { color, names: names/* COMMAND_NAMES */.n });
    try {
        const line = parseCommandLine(context.argv);
        if (line.kind !== 'check') {
            stdout.write(line.kind === 'help' ? USAGE : `${VERSION}\n`);
            return EXIT.passed;
        }
        const settings = await readCommandSettings(line, env, cwd, log);
        const secrets = settings.token ? (0,src_secrets/* tokenForms */.py)(settings.token) : [];
        log.hideSecrets(secrets);
        const short = settings.token ? (0,src_secrets/* shortTokenWarning */.oI)(settings.token) : undefined;
        if (short)
            log.warning(short);
        const deadline = (0,src_deadline/* overallDeadline */.sI)(startedAt, settings.timeoutMs);
        const outcomes = await checkQualityGates(settings, {
            cwd,
            repoRoot: cwd,
            clock: systemClock,
            startedAt,
            deadline,
            log,
            userAgent: USER_AGENT,
            findFiles: findReportFiles
        }).catch((error) => [wholeCheckFailed(settings, error)]);
        const verdict = stepVerdict(outcomes, settings.policy);
        const files = { settings, log, secrets, files: line.files, cwd, stdout, startedAt };
        const written = await reportOutcomes(outcomes, verdict, { ...files, now: systemClock.now() });
        if (line.decorate) {
            // Platform code loads only when a platform is decorated.
            const { decorate } = await Promise.resolve(/* import() eager */).then(__nccwpck_require__.bind(__nccwpck_require__, 6529));
            await decorate(outcomes, {
                env,
                log,
                secrets,
                policy: settings.policy,
                commentWhen: line.commentWhen,
                inlineLimit: line.inlineLimit,
                inlineSeverity: line.inlineSeverity,
                bitbucketServer: line.bitbucketServer,
                review: line.review,
                platform: line.platform,
                // --commit, checked: with --project the first commit whose analysis was asked for.
                commit: line.commit === undefined ? undefined : (settings.commits[0] ?? line.commit),
                clock: systemClock,
                deadline,
                userAgent: USER_AGENT
            });
        }
        return worstExitCode([written, endCommand(verdict, settings, log)]);
    }
    catch (error) {
        const usage = (0,errors/* codeOf */.$N)(error) === 'ERR_USAGE' || (0,errors/* codeOf */.$N)(error) === 'ERR_SETTINGS';
        log.error(usage ? (0,src_words/* msg */.ab) `${(0,errors/* saidOf */.Jo)(error)}\nRun ${COMMAND} --help for the options.` : (0,errors/* saidOf */.Jo)(error));
        return exitCodeOfError(error);
    }
}

;// CONCATENATED MODULE: ./src/cli/index.ts


// The time-out counts from the process's start, module loading included.
void runCommand({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    startedAt: Math.min(systemClock.now(), Math.round(performance.timeOrigin))
}).then((code) => {
    process.exitCode = code;
});

