import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_GENRES_FILE, loadConfig } from '../src/app/config.js'

const REQUIRED = { CLIENT_ID: 'client', ALLOWED_ORIGIN: 'https://app.example.com' }

function errorFor(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('defaults of the settings table', () => {
  it('fills every optional setting', () => {
    expect(loadConfig(REQUIRED)).toEqual({
      clientId: 'client',
      allowedOrigin: 'https://app.example.com',
      port: 8080,
      host: '0.0.0.0',
      basePath: '',
      issuer: 'https://accounts.google.com',
      jwksUrl: undefined,
      clockToleranceSec: 30,
      genresFile: DEFAULT_GENRES_FILE,
      logLevel: 'info',
      verifyCache: true
    })
  })

  it('maps the bare Google issuer to its URL and strips a trailing slash of BASE_PATH', () => {
    const config = loadConfig({
      ...REQUIRED,
      OIDC_ISSUER: 'accounts.google.com',
      BASE_PATH: '/api/'
    })
    expect(config.issuer).toBe('https://accounts.google.com')
    expect(config.basePath).toBe('/api')
  })
})

describe('a missing or invalid setting refuses to start, naming the variable', () => {
  it.each([
    [{ ALLOWED_ORIGIN: 'https://a.example' }, 'CLIENT_ID'],
    [{ CLIENT_ID: 'c' }, 'ALLOWED_ORIGIN'],
    [{ ...REQUIRED, CLIENT_ID: '   ' }, 'CLIENT_ID'],
    [{ ...REQUIRED, ALLOWED_ORIGIN: '*' }, 'ALLOWED_ORIGIN'],
    [{ ...REQUIRED, ALLOWED_ORIGIN: 'https://app.example.com/' }, 'ALLOWED_ORIGIN'],
    [{ ...REQUIRED, ALLOWED_ORIGIN: 'https://app.example.com/path' }, 'ALLOWED_ORIGIN'],
    [{ ...REQUIRED, PORT: 'eighty' }, 'PORT'],
    [{ ...REQUIRED, PORT: '70000' }, 'PORT'],
    [{ ...REQUIRED, BASE_PATH: 'api' }, 'BASE_PATH'],
    [{ ...REQUIRED, OIDC_ISSUER: 'not a url' }, 'OIDC_ISSUER'],
    [{ ...REQUIRED, OIDC_JWKS_URL: 'ftp://keys.example.com' }, 'OIDC_JWKS_URL'],
    [{ ...REQUIRED, CLOCK_TOLERANCE_SEC: '-1' }, 'CLOCK_TOLERANCE_SEC'],
    [{ ...REQUIRED, LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ ...REQUIRED, VERIFY_CACHE: 'maybe' }, 'VERIFY_CACHE']
  ])('%o is refused for %s', (env, variable) => {
    const error = errorFor(env)
    expect(error.variable).toBe(variable)
    expect(error.message.startsWith(`${variable}: `)).toBe(true)
  })
})
