/**
 * The entry point (`npm start` runs it) refusing to start: every bad setting in one message,
 * a port in use or a host that is not this machine's in one line naming the setting, never a
 * stack, exit code 1 and nothing on stdout.
 */
import { describe, expect, it } from 'vitest'
import { occupiedPort, runEntry, type EntryRun } from './support/entry.js'

const ENTRY = new URL('../src/index.ts', import.meta.url).pathname
const VALID = { CLIENT_ID: 'c', ALLOWED_ORIGIN: 'https://app.example.com', HOST: '127.0.0.1' }

/** The entry run with `env` over the file's base environment, until it exits. */
const start = (env: Record<string, string>): Promise<EntryRun> =>
  runEntry(ENTRY, { PATH: process.env.PATH ?? '', ...env })

describe('the service refuses to start, saying everything to fix at once', () => {
  it('names every missing or invalid setting, each with what to do', async () => {
    const { code, stdout, stderr } = await start({
      ALLOWED_ORIGIN: 'https://app.example.com/',
      PORT: 'eighty',
      OIDC_JWKS_URL: 'ftp://keys.example.com',
      VERIFY_CACHE: 'maybe'
    })
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      [
        'genre service refused to start: 5 settings to fix:',
        '  CLIENT_ID: is required: set it to the client id your ID tokens are issued for ' +
          '(their "aud"), e.g. 1234-abc.apps.googleusercontent.com',
        '  ALLOWED_ORIGIN: must be exactly an origin (scheme://host[:port], no path or trailing ' +
          'slash), got "https://app.example.com/"',
        '  PORT: must be a whole number from 0 to 65535, got "eighty"',
        '  OIDC_JWKS_URL: must be an http(s) URL, got "ftp://keys.example.com"',
        '  VERIFY_CACHE: must be one of on, off, got "maybe"',
        ''
      ].join('\n')
    )
  })

  it('a port in use: one line naming the port and PORT', async () => {
    const taken = await occupiedPort()
    try {
      const { code, stdout, stderr } = await start({ ...VALID, PORT: String(taken.port) })
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr).toBe(
        `genre service refused to start: PORT: port ${taken.port} on 127.0.0.1 is in use; ` +
          'set PORT to another port (0 picks a free one)\n'
      )
    } finally {
      await new Promise((resolve) => taken.server.close(resolve))
    }
  })

  it('a HOST that is not an address of this machine: one line naming HOST', async () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const { code, stdout, stderr } = await start({ ...VALID, HOST: '192.0.2.1', PORT: '0' })
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(
      'genre service refused to start: HOST: 192.0.2.1 is not an address of this machine ' +
        '(EADDRNOTAVAIL); set HOST to one of its addresses, or 0.0.0.0 for all\n'
    )
  })
})
