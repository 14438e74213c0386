import { bodyReply, jsonReply, methodNotAllowed, NOT_FOUND } from '../http/responses.js';
const READ_METHODS = ['GET', 'HEAD'];
/** The service's routes; a new one goes into `protected` (behind the filter) or `root`. */
export function createRoutes(genres) {
    // Built once: the list does not change while the service runs.
    const genresReply = bodyReply(200, JSON.stringify(genres.map(({ id, name }) => ({ id, name }))));
    const statusReply = jsonReply(200, { status: 'ok' });
    const readOnly = methodNotAllowed(READ_METHODS);
    return {
        root: ({ method }) => (READ_METHODS.includes(method) ? statusReply : readOnly),
        protected: ({ method, path }) => {
            if (path !== '/genre')
                return NOT_FOUND;
            return READ_METHODS.includes(method) ? genresReply : readOnly;
        }
    };
}
