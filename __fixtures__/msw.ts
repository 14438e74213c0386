import { syncBuiltinESMExports } from 'node:module'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

/**
 * An msw server for the current test file. `@actions/http-client` reaches `node:http` through
 * its ESM exports, which msw only patches on the CommonJS side: syncing makes it see them.
 */
export function useMockServer(): ReturnType<typeof setupServer> {
  const server = setupServer()
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' })
    syncBuiltinESMExports()
  })
  afterEach(() => server.resetHandlers())
  afterAll(() => {
    server.close()
    syncBuiltinESMExports()
  })
  return server
}
