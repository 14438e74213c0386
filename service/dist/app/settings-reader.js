// Reading settings from the environment so that every problem is found before any is
// reported: a user fixes them all in one go instead of one per start.
import { ServiceError } from '../errors.js';
/**
 * Settings are missing or invalid: every one of them, each on a line of the message that
 * names the variable. Values are shown quoted and shortened; no setting is a secret.
 */
export class ConfigError extends ServiceError {
    problems;
    static code = 'CONFIG_INVALID';
    code = ConfigError.code;
    constructor(problems) {
        const lines = problems.map(({ variable, problem }) => `${variable}: ${problem}`);
        super(lines.length === 1
            ? lines[0]
            : `${lines.length} settings to fix:\n${lines.map((line) => `  ${line}`).join('\n')}`);
        this.problems = problems;
        this.name = 'ConfigError';
    }
}
const MAX_SHOWN_CHARS = 80;
/**
 * A value as a message shows it: as a JSON string, so a line break or a control character in
 * it cannot break the message's lines, and at most 80 characters of it.
 *
 * @example
 *   shown('eighty') // '"eighty"'
 */
export function shown(value) {
    return JSON.stringify(value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value);
}
/**
 * Reads settings from `env`, noting each problem and going on with a fallback, so that
 * `check()` can report all of them at once.
 *
 * @example
 *   const read = new SettingsReader(process.env)
 *   const port = read.integer('PORT', 8080, 0, 65535)
 *   read.check() // throws a ConfigError naming every problem noted
 */
export class SettingsReader {
    env;
    problems = [];
    constructor(env) {
        this.env = env;
    }
    /** The value, trimmed; an empty one counts as unset, as shells and container runtimes often pass one. */
    value(name) {
        const value = this.env[name]?.trim();
        return value === undefined || value === '' ? undefined : value;
    }
    /** Notes that `name` is wrong; `problem` says how, and what to do. */
    problem(name, problem) {
        this.problems.push({ variable: name, problem });
    }
    /** The value, or '' with a problem saying what to set it to (`what`, with an example). */
    required(name, what) {
        const value = this.value(name);
        if (value !== undefined)
            return value;
        this.problem(name, `is required: set it to ${what}`);
        return '';
    }
    integer(name, fallback, min, max) {
        const value = this.value(name);
        if (value === undefined)
            return fallback;
        if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
            this.problem(name, `must be a whole number from ${min} to ${max}, got ${shown(value)}`);
            return fallback;
        }
        return Number(value);
    }
    /** One of `allowed`, compared in lower case. */
    oneOf(name, allowed, fallback) {
        const value = this.value(name);
        if (value === undefined)
            return fallback;
        const found = allowed.find((candidate) => candidate === value.toLowerCase());
        if (found !== undefined)
            return found;
        this.problem(name, `must be one of ${allowed.join(', ')}, got ${shown(value)}`);
        return fallback;
    }
    /** Throws one ConfigError naming every problem noted, if there is any. */
    check() {
        if (this.problems.length > 0)
            throw new ConfigError([...this.problems]);
    }
}
