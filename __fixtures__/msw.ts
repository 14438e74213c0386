import { syncBuiltinESMExports } from 'node:module'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'

/**
 * An msw server for the current test file. `@actions/http-client` reaches `node:http` through
 * its ESM exports, which msw only patches on the CommonJS side: syncing makes it see them.
 *
 * A request no handler answers fails the test that made it, naming the request: the code under
 * test would take msw's refusal for a network failure and carry on, so the test would pass on
 * replies it never meant to give (and a green run would print msw's error blocks). Give every
 * request the test expects a handler, even one whose answer does not matter to it.
 */
export function useMockServer(): ReturnType<typeof setupServer> {
  const server = setupServer()
  const unhandled: string[] = []
  beforeAll(() => {
    server.listen({
      onUnhandledRequest: (request, print) => {
        unhandled.push(`${request.method} ${request.url}`)
        // Refused as msw refuses it: never sent to the network.
        print.error()
      }
    })
    syncBuiltinESMExports()
  })
  afterEach(() => {
    server.resetHandlers()
    const requests = unhandled.splice(0)
    expect(requests, 'requests no msw handler answered').toEqual([])
  })
  afterAll(() => {
    server.close()
    syncBuiltinESMExports()
    // Those of a file's last hooks, after its last test.
    expect(unhandled.splice(0), 'requests no msw handler answered').toEqual([])
  })
  return server
}

/** `api/hotspots/search` of a branch or pull request with no security hotspot to review. */
export function noHotspots(base: string) {
  return http.get(`${base}/api/hotspots/search`, () =>
    HttpResponse.json({ paging: { pageIndex: 1, pageSize: 5, total: 0 }, hotspots: [] })
  )
}

/**
 * What a server answers after the gate when nothing changed, for tests about something else:
 * no measures of new code (`api/measures/component`) and no security hotspot to review.
 */
export function nothingChanged(base: string) {
  return [
    http.get(`${base}/api/measures/component`, ({ request }) =>
      HttpResponse.json({
        component: { key: new URL(request.url).searchParams.get('component'), measures: [] }
      })
    ),
    noHotspots(base)
  ]
}
