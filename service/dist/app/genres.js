import { readFileSync, statSync } from 'node:fs';
import { ServiceError } from '../errors.js';
/** The genres file is missing or not a JSON array of `{id, name}`. */
export class GenresFileError extends ServiceError {
    problem;
    static code = 'GENRES_FILE_INVALID';
    code = GenresFileError.code;
    constructor(file, 
    /** What is wrong with the file, e.g. `cannot be read (ENOENT)`. */
    problem, options) {
        super(`${file}: ${problem}`, options);
        this.problem = problem;
        this.name = 'GenresFileError';
    }
}
/** Keeps only `id` and `name`, so the file cannot leak other fields into the reply. */
export function parseGenres(file, text) {
    let value;
    try {
        value = JSON.parse(text);
    }
    catch {
        throw new GenresFileError(file, 'is not valid JSON');
    }
    if (!Array.isArray(value))
        throw new GenresFileError(file, 'must hold a JSON array');
    return value.map((item, index) => {
        const record = typeof item === 'object' && item !== null ? item : {};
        const { id, name } = record;
        if ((typeof id !== 'number' && typeof id !== 'string') || typeof name !== 'string') {
            throw new GenresFileError(file, `item ${index} must be {"id": number|string, "name": string}`);
        }
        return { id, name };
    });
}
/** Far more than a list of genres needs; a larger file is a wrong path (a log, a dump). */
export const MAX_GENRES_FILE_BYTES = 1024 * 1024;
/**
 * Reads and parses the file: synchronously, as it runs once, with the settings, before the
 * service listens. Only a regular file of at most MAX_GENRES_FILE_BYTES is read.
 */
export function readGenres(file) {
    let text;
    try {
        const stat = statSync(file);
        if (!stat.isFile())
            throw new GenresFileError(file, 'is not a file');
        if (stat.size > MAX_GENRES_FILE_BYTES) {
            throw new GenresFileError(file, `is over ${MAX_GENRES_FILE_BYTES} bytes`);
        }
        text = readFileSync(file, 'utf8');
    }
    catch (error) {
        if (error instanceof GenresFileError)
            throw error;
        const code = error instanceof Error && 'code' in error ? String(error.code) : 'read failed';
        throw new GenresFileError(file, `cannot be read (${code})`, { cause: error });
    }
    return parseGenres(file, text);
}
