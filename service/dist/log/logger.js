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
    // Under load most lines share method, path, status and subject (or reason): the text between
    // the id and the duration, and the part after the duration, are escaped and joined once and
    // reused while they repeat.
    let lastMethod = '';
    let lastPath = '';
    let lastStatus = NaN;
    let middle = '';
    let lastSubject;
    let lastReason;
    let tail = '}\n';
    const request = (id, method, path, status, durationMs, subject, reason) => {
        if (!requestEnabled)
            return;
        if (method !== lastMethod || path !== lastPath || status !== lastStatus) {
            lastMethod = method;
            lastPath = path;
            lastStatus = status;
            middle = `,"method":${jsonString(method)},"path":${jsonString(path)},"status":${status},"durationMs":`;
        }
        if (subject !== lastSubject || reason !== lastReason) {
            lastSubject = subject;
            lastReason = reason;
            tail =
                (subject === undefined ? '' : `,"sub":${jsonString(subject)}`) +
                    (reason === undefined ? '' : `,"reason":${jsonString(reason)}`) +
                    '}\n';
        }
        write(`{"time":"${timestamp()}","level":"info","msg":"request","id":${jsonString(id)}${middle}${durationMs}${tail}`);
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
 * One line per request when its reply is written: its id, method, path without the query,
 * status, duration, and the subject when authenticated or the reason of a 401. Headers are
 * never logged (the id is a checked copy of one, see request-id.ts), so the token cannot
 * appear.
 */
export function logRequest(logger, id, method, path, status, startedAt, subject, reason) {
    logger.request(id, method, path, status, Math.round((performance.now() - startedAt) * 100) / 100, subject, reason);
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
