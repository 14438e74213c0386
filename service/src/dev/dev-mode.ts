import type { Logger } from '../log/logger.js'
import { startService } from '../service.js'
import { startExamplePage, type RunningExamplePage } from './example-page.js'
import { DevIdentityProvider, type MintedToken } from './identity-provider.js'
import { DEV_CLIENT_ID, type DevSettings } from './settings.js'

export interface DevMode {
  /** e.g. http://127.0.0.1:8080/ — the service's root target. */
  serviceUrl: string
  /** http://127.0.0.1:<port> — the local identity provider. */
  issuer: string
  /** The browser example on its allowed origin, told where the service is. */
  pageUrl: string
  /** A fresh token the service accepts. */
  mint(): Promise<MintedToken>
  /** Stops the service gracefully, then the page and the provider. */
  close(): Promise<void>
}

/**
 * Starts, all on 127.0.0.1: the local identity provider, the browser example (whose origin
 * becomes ALLOWED_ORIGIN) and the service itself, built by the same `startService` as in
 * production with the provider as its issuer. If one part cannot start, the parts already
 * started are stopped and the error is thrown.
 */
export async function startDevMode(settings: DevSettings, logger: Logger): Promise<DevMode> {
  const stops: (() => Promise<unknown>)[] = []
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) await stop()
  }
  try {
    const provider = await DevIdentityProvider.start(settings.issuerPort, 'DEV_ISSUER_PORT')
    stops.push(() => provider.stop())
    const mint = (): Promise<MintedToken> => provider.mint(DEV_CLIENT_ID)
    // The page's full address is known once the service listens; its origin until then.
    let pageUrl = ''
    const page: RunningExamplePage = await startExamplePage({
      port: settings.pagePort,
      variable: 'DEV_PAGE_PORT',
      mintToken: async () => (await mint()).token,
      address: () => pageUrl || page.origin,
      logger
    })
    stops.push(() => page.stop())
    const config = { ...settings.service, allowedOrigin: page.origin, issuer: provider.issuer }
    const service = await startService(config, logger)
    stops.push(() => service.close())
    pageUrl = `${page.origin}/index.html?api=${queryValue(service.url)}`
    return {
      serviceUrl: service.url,
      issuer: provider.issuer,
      pageUrl,
      mint,
      close: stopAll
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}

/** Encoded for a query value, but keeping `:` and `/` (allowed there) so the address reads well. */
function queryValue(value: string): string {
  return encodeURIComponent(value).replace(/%3A/gi, ':').replace(/%2F/gi, '/')
}

/** The lines printed once everything listens: where each part is and a request to paste. */
export function readyMessage(devMode: DevMode, minted: MintedToken): string {
  const minutes = Math.round((minted.expiresAt.getTime() - Date.now()) / 60_000)
  const until = minted.expiresAt.toISOString().slice(11, 16)
  return [
    `genre service (dev mode) listening on ${devMode.serviceUrl}`,
    `local identity provider (no Google): ${devMode.issuer}`,
    `try it (this token is valid for ${minutes} minutes, until ${until} UTC):`,
    `  curl -H 'Authorization: ${minted.token}' ${devMode.serviceUrl}genre`,
    `browser example: ${devMode.pageUrl}`,
    'Ctrl+C stops everything.',
    ''
  ].join('\n')
}
