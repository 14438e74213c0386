import { ConfigError } from '../app/settings-reader.js'
import { ListenError } from '../http/listen.js'
import { createBatchingSink } from '../log/sink.js'
import { createLogger } from '../log/logger.js'
import { readyMessage, startDevMode } from './dev-mode.js'
import { DevModeRefusedError, loadDevSettings } from './settings.js'

// Dev mode's entry (`npm run serve:dev`): the only dev module that reads process.env and
// handles signals. The production entry, ../index.ts, imports nothing from this folder.
async function main(): Promise<void> {
  const settings = loadDevSettings(process.env)
  const sink = createBatchingSink((text) => process.stdout.write(text))
  const logger = createLogger(settings.service.logLevel, sink.write)
  const devMode = await startDevMode(settings, logger)
  process.stdout.write(readyMessage(devMode, await devMode.mint()))

  let stopping = false
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    devMode.close().then(
      () => {
        logger.info('stopped')
        sink.flush()
        process.exit(0)
      },
      (error: unknown) => {
        // close() does not reject today; should a part fail to stop, one line and exit 1, not
        // a crash on an unhandled rejection with a stack.
        logger.error('stop failed', { error: error instanceof Error ? error.name : 'unknown' })
        sink.flush()
        process.exit(1)
      }
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

const EXPLAINED = [ConfigError, ListenError, DevModeRefusedError]

main().catch((error: unknown) => {
  // Catch once at the edge: one line, no stack.
  const message = EXPLAINED.some((type) => error instanceof type)
    ? (error as Error).message
    : `${error instanceof Error ? error.name : 'Error'}: ${error instanceof Error ? error.message : ''}`
  console.error(`genre service (dev mode) refused to start: ${message}`)
  process.exit(1)
})
