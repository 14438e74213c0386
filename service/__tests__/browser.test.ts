import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSigningKey,
  LocalIdentityProvider,
  mintIdToken
} from './support/identity-provider.js'
import { launchChromium, noBrowser } from './support/chromium.js'
import { CLIENT_ID, startTestService, type TestService } from './support/test-service.js'

const PAGE = readFileSync(new URL('../../examples/browser-client/index.html', import.meta.url))

async function servePage(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8')
    res.end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

describe.skipIf(noBrowser)('a real browser honours the CORS headers', () => {
  let provider: LocalIdentityProvider
  let service: TestService
  let pages: { server: Server; port: number }[]
  let browser: Browser
  let token: string
  let allowedOrigin: string
  let otherOrigin: string

  beforeAll(async () => {
    const key = await createSigningKey('k')
    provider = await LocalIdentityProvider.start([key])
    token = await mintIdToken(provider, CLIENT_ID, { key })
    pages = [await servePage(), await servePage()]
    // 127.0.0.1 and localhost are different origins to the browser.
    allowedOrigin = `http://127.0.0.1:${pages[0]?.port}`
    otherOrigin = `http://localhost:${pages[1]?.port}`
    service = await startTestService(provider, {
      ALLOWED_ORIGIN: allowedOrigin,
      BASE_PATH: '/api',
      LOG_LEVEL: 'silent'
    })
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await service?.close()
    for (const page of pages ?? []) await new Promise((resolve) => page.server.close(resolve))
    await provider?.stop()
  })

  async function openFrom(origin: string) {
    const context = await browser.newContext()
    // The page's replaceable token source; Google sign-in cannot load on this machine.
    await context.addInitScript({
      content: `window.__ID_TOKEN_SOURCE__ = async () => ${JSON.stringify(token)}`
    })
    const page = await context.newPage()
    await page.goto(`${origin}/index.html?api=${encodeURIComponent(service.url)}`)
    await page.waitForSelector('#status[data-state="loaded"], #status[data-state="error"]')
    const result = {
      state: await page.getAttribute('#status', 'data-state'),
      status: await page.textContent('#status'),
      genres: await page.locator('#genres li').allTextContents()
    }
    await context.close()
    return result
  }

  it('the page on ALLOWED_ORIGIN reads the genres with its token', async () => {
    const result = await openFrom(allowedOrigin)
    expect(result.state).toBe('loaded')
    expect(result.genres).toContain('Science fiction')
    expect(result.genres).toHaveLength(10)
  })

  it('the same page on another origin is blocked by the browser', async () => {
    const result = await openFrom(otherOrigin)
    expect(result.state).toBe('error')
    expect(result.status).toBe('Error: Failed to fetch')
    expect(result.genres).toEqual([])
  })
})
