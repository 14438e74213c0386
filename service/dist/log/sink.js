import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
const MAX_PENDING_CHARS = 64 * 1024;
export function createBatchingSink(out) {
    let pending = [];
    let pendingChars = 0;
    let scheduled = false;
    const flush = () => {
        scheduled = false;
        if (pending.length === 0)
            return;
        const text = pending.join('');
        pending = [];
        pendingChars = 0;
        out(text);
    };
    return {
        write(line) {
            pending.push(line);
            pendingChars += line.length;
            if (pendingChars >= MAX_PENDING_CHARS)
                flush();
            else if (!scheduled) {
                scheduled = true;
                setImmediate(flush);
            }
        },
        flush
    };
}
const STDOUT = 1;
/**
 * How log text reaches stdout. A file (or /dev/null) gets the string with a synchronous
 * write: through process.stdout, every string would first become a Buffer whose memory goes
 * back only when the garbage collector gets to it, and under load the process grew by 25 MB
 * and more within a minute. A pipe or a terminal goes through process.stdout, which writes strings as
 * they are (Node makes both synchronous on Linux).
 */
export function stdoutWriter() {
    if (isPlainFile())
        return (text) => void writeSync(STDOUT, text);
    return (text) => void process.stdout.write(text);
}
function isPlainFile() {
    try {
        const stat = fstatSync(STDOUT);
        return stat.isFile() || (stat.isCharacterDevice() && !isatty(STDOUT));
    }
    catch {
        return false;
    }
}
