import { expect } from 'vitest'
import { mintIdToken, type LocalIdentityProvider, type SigningKey } from './identity-provider.js'
import { CLIENT_ID, type TestService } from './test-service.js'

/** The status of `GET /genre` with a token the provider mints with `signer`. */
export async function genreStatus(
  service: TestService,
  provider: LocalIdentityProvider,
  signer: SigningKey
): Promise<number> {
  const token = await mintIdToken(provider, CLIENT_ID, { key: signer })
  const response = await fetch(`${service.url}genre`, { headers: { Authorization: token } })
  await response.text()
  return response.status
}

/** Waits (real time, up to 2 s) until `condition` holds, then asserts it does. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(condition()).toBe(true)
}
