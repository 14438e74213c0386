import { loadConfig } from './app/config.js';
import { ConfigError } from './app/settings-reader.js';
import { ListenError } from './http/listen.js';
import { createLogger } from './log/logger.js';
import { createBatchingSink, stdoutWriter } from './log/sink.js';
import { startService } from './service.js';
// The entry point: the only module that reads process.env and handles signals.
async function main() {
    const config = loadConfig(process.env);
    const sink = createBatchingSink(stdoutWriter());
    const logger = createLogger(config.logLevel, sink.write);
    const service = await startService(config, logger);
    console.log(`genre service listening on ${service.url}`);
    let stopping = false;
    const stop = (signal) => {
        if (stopping)
            return;
        stopping = true;
        logger.info('shutting down', { signal });
        service.close().then((outcome) => {
            logger.info('stopped', { outcome });
            sink.flush();
            process.exit(0);
        }, (error) => {
            // close() does not reject today; should it, one line and exit 1, not a crash on an
            // unhandled rejection with a stack. The error's class name only, as everywhere.
            logger.error('stop failed', { error: error instanceof Error ? error.name : 'unknown' });
            sink.flush();
            process.exit(1);
        });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
}
main().catch((error) => {
    // Catch once at the edge: bad settings and a failed listen are reported by the settings to
    // change, all of them at once; anything else by type only. Never a stack.
    const message = error instanceof ConfigError || error instanceof ListenError
        ? error.message
        : `${error instanceof Error ? error.name : 'Error'}: ${error instanceof Error ? error.message : ''}`;
    console.error(`genre service refused to start: ${message}`);
    process.exit(1);
});
