export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'];
export function createLogger(level, write, now = Date.now) {
    const threshold = LOG_LEVELS.indexOf(level);
    // Many lines share a millisecond under load; format its timestamp once.
    let lastMs = NaN;
    let lastTime = '';
    const timestamp = () => {
        const ms = now();
        if (ms !== lastMs) {
            lastMs = ms;
            lastTime = new Date(ms).toISOString();
        }
        return lastTime;
    };
    const entry = (entryLevel) => {
        const enabled = threshold !== 0 && LOG_LEVELS.indexOf(entryLevel) <= threshold;
        const prefix = `","level":"${entryLevel}","msg":`;
        return (message, fields) => {
            if (!enabled)
                return;
            // Built by hand rather than by spreading into one object: this runs once per request.
            let line = `{"time":"${timestamp()}${prefix}${JSON.stringify(message)}`;
            if (fields !== undefined) {
                for (const name in fields) {
                    const value = fields[name];
                    if (value === undefined)
                        continue;
                    line += `,"${name}":${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
                }
            }
            write(line + '}\n');
        };
    };
    const requestEnabled = threshold >= LOG_LEVELS.indexOf('info');
    // Under load most lines share method, path, status and subject: the text between the time
    // and the duration, and the subject's part, are escaped and joined once and reused.
    let lastMethod = '';
    let lastPath = '';
    let lastStatus = NaN;
    let middle = '';
    let lastSubject;
    let subjectPart = '}\n';
    const request = (method, path, status, durationMs, subject) => {
        if (!requestEnabled)
            return;
        if (method !== lastMethod || path !== lastPath || status !== lastStatus) {
            lastMethod = method;
            lastPath = path;
            lastStatus = status;
            middle =
                `","level":"info","msg":"request","method":${jsonString(method)},` +
                    `"path":${jsonString(path)},"status":${status},"durationMs":`;
        }
        if (subject !== lastSubject) {
            lastSubject = subject;
            subjectPart = subject === undefined ? '}\n' : `,"sub":${jsonString(subject)}}\n`;
        }
        write(`{"time":"${timestamp()}${middle}${durationMs}${subjectPart}`);
    };
    return {
        error: entry('error'),
        warn: entry('warn'),
        info: entry('info'),
        debug: entry('debug'),
        request
    };
}
/**
 * One line per request when its reply is written: method, path without the query, status,
 * duration, and the subject when authenticated. Headers are never logged, so the token
 * cannot appear.
 */
export function logRequest(logger, method, path, status, startedAt, subject) {
    logger.request(method, path, status, Math.round((performance.now() - startedAt) * 100) / 100, subject);
}
/**
 * A string as a JSON string literal, the same text `JSON.stringify` gives. Paths and
 * subjects rarely need escaping, so a scan for `"`, `\`, control characters and surrogates
 * (which JSON.stringify escapes when unpaired) decides whether the cheap form will do.
 */
export function jsonString(value) {
    for (let i = 0; i < value.length; i++) {
        const code = value.charCodeAt(i);
        if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
            return JSON.stringify(value);
        }
    }
    return `"${value}"`;
}
