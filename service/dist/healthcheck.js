// The container's health check (Containerfile HEALTHCHECK): GET the root target of the service
// in this container, which answers 200 without a token (spec 4.3 rule 1); exit 0 on 200, 1 on
// anything else, within 3 s. It reads only PORT, HOST and BASE_PATH, as the service does.
// node:http through getBuiltinModule, as the service takes it (see http/server.ts).
const { get } = process.getBuiltinModule('node:http');
const env = process.env;
const port = Number(env['PORT']?.trim() || 8080);
const configuredHost = env['HOST']?.trim() ?? '';
// A wildcard address is reached on loopback; a specific one, on itself.
const host = ['', '0.0.0.0', '::'].includes(configuredHost) ? '127.0.0.1' : configuredHost;
const path = `${(env['BASE_PATH']?.trim() ?? '').replace(/\/+$/, '')}/`;
const request = get({ host, port, path, timeout: 3_000 }, (response) => {
    response.resume();
    process.exit(response.statusCode === 200 ? 0 : 1);
});
request.on('timeout', () => request.destroy(new Error('timed out')));
request.on('error', (error) => {
    console.error(`health check: GET http://${host}:${port}${path} failed: ${error.message}`);
    process.exit(1);
});
export {};
