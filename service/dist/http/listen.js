import { ServiceError } from '../errors.js';
/**
 * A server could not listen. The message is one line that says what was wrong and which
 * setting to change, e.g.
 * `PORT: port 8080 on 0.0.0.0 is in use; set PORT to another port (0 picks a free one)`.
 */
export class ListenError extends ServiceError {
    variable;
    systemCode;
    static code = 'LISTEN_FAILED';
    code = ListenError.code;
    constructor(
    /** The setting the message names. */
    variable, message, 
    /** Node's error code: EADDRINUSE, EACCES, EADDRNOTAVAIL, … */
    systemCode, options) {
        super(message, options);
        this.variable = variable;
        this.systemCode = systemCode;
        this.name = 'ListenError';
    }
}
/** The error code of a failed listen (EADDRINUSE, EACCES, …), if the error has one. */
export function listenErrorCode(error) {
    return error instanceof Error && 'code' in error && typeof error.code === 'string'
        ? error.code
        : undefined;
}
/** Node's listen error as the ListenError a user can act on; `cause` is Node's error. */
export function explainListenError(on, systemCode, cause) {
    const { port, host, portVariable, hostVariable } = on;
    const options = cause === undefined ? undefined : { cause };
    switch (systemCode) {
        case 'EADDRINUSE':
            return new ListenError(portVariable, `${portVariable}: port ${port} on ${host} is in use; set ${portVariable} to another port (0 picks a free one)`, systemCode, options);
        case 'EACCES':
            return new ListenError(portVariable, `${portVariable}: port ${port} on ${host} needs privileges this process lacks (EACCES); set ${portVariable} to 1024 or above`, systemCode, options);
        case 'EADDRNOTAVAIL':
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
            if (hostVariable !== undefined) {
                return new ListenError(hostVariable, `${hostVariable}: ${host} is not an address of this machine (${systemCode}); set ${hostVariable} to one of its addresses, or 0.0.0.0 for all`, systemCode, options);
            }
    }
    return new ListenError(portVariable, `${portVariable}: cannot listen on ${host} port ${port} (${systemCode})`, systemCode, options);
}
/**
 * Listens on `on.host`:`on.port` (0: a free port) and resolves with the port; a failure
 * rejects with a ListenError naming the setting to change.
 *
 * @example
 *   const port = await listen(server, { port: 8080, host: '0.0.0.0', portVariable: 'PORT' })
 */
export async function listen(server, on) {
    await new Promise((resolve, reject) => {
        const failed = (error) => reject(explainListenError(on, listenErrorCode(error) ?? 'unknown error', error));
        server.once('error', failed);
        server.listen(on.port, on.host, () => {
            server.off('error', failed);
            resolve();
        });
    });
    return server.address().port;
}
