import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_GENRES_FILE, loadConfig } from '../src/app/config.js'
import { MAX_GENRES_FILE_BYTES } from '../src/app/genres.js'
import { ConfigError } from '../src/app/settings-reader.js'

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
      genres: JSON.parse(readFileSync(DEFAULT_GENRES_FILE, 'utf8')),
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
    expect(error.problems.map((problem) => problem.variable)).toEqual([variable])
    expect(error.code).toBe('CONFIG_INVALID')
    expect(error.message.startsWith(`${variable}: `)).toBe(true)
    expect(error.message).not.toContain('\n')
  })
})

describe('every missing or invalid setting is reported at once', () => {
  it('one line per setting, each saying what to do, in the order of the settings table', () => {
    const error = errorFor({
      ALLOWED_ORIGIN: '*',
      PORT: 'eighty',
      LOG_LEVEL: 'verbose',
      GENRES_FILE: '/nowhere/genres.json'
    })
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'CLIENT_ID',
      'ALLOWED_ORIGIN',
      'PORT',
      'GENRES_FILE',
      'LOG_LEVEL'
    ])
    expect(error.message).toBe(
      [
        '5 settings to fix:',
        '  CLIENT_ID: is required: set it to the client id your ID tokens are issued for ' +
          '(their "aud"), e.g. 1234-abc.apps.googleusercontent.com',
        '  ALLOWED_ORIGIN: must be an origin such as https://app.example.com, got "*"',
        '  PORT: must be a whole number from 0 to 65535, got "eighty"',
        '  GENRES_FILE: "/nowhere/genres.json" cannot be read (ENOENT); point GENRES_FILE at a ' +
          'JSON array of {"id", "name"}, or unset it for the built-in genres',
        '  LOG_LEVEL: must be one of silent, error, warn, info, debug, got "verbose"'
      ].join('\n')
    )
  })

  it('says what to set a missing required setting to', () => {
    expect(errorFor({ CLIENT_ID: 'c' }).message).toBe(
      'ALLOWED_ORIGIN: is required: set it to the origin of the web page that calls the ' +
        'service, e.g. https://app.example.com'
    )
  })

  it('shows a value on one line, escaped and shortened', () => {
    const message = errorFor({ ...REQUIRED, BASE_PATH: `api\n${'x'.repeat(200)}` }).message
    expect(message).toBe(
      `BASE_PATH: must be a path starting with "/", e.g. /api, got "api\\n${'x'.repeat(76)}…"`
    )
  })
})

describe('GENRES_FILE is read with the settings, and its problems reported with theirs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'genres-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = (name: string, text: string): string => {
    const at = path.join(dir, name)
    writeFileSync(at, text)
    return at
  }

  it('keeps id and name of each genre', () => {
    const at = file('ok.json', '[{"id":1,"name":"Action","extra":true},{"id":"x","name":"Y"}]')
    expect(loadConfig({ ...REQUIRED, GENRES_FILE: at }).genres).toEqual([
      { id: 1, name: 'Action' },
      { id: 'x', name: 'Y' }
    ])
  })

  it.each([
    ['not JSON', () => file('bad.json', '[{'), 'is not valid JSON'],
    ['not an array', () => file('object.json', '{}'), 'must hold a JSON array'],
    [
      'an item without a name',
      () => file('item.json', '[{"id":1}]'),
      'item 0 must be {"id": number|string, "name": string}'
    ],
    ['a directory', () => dir, 'is not a file'],
    [
      'over the size limit',
      () => file('big.json', ' '.repeat(MAX_GENRES_FILE_BYTES + 1)),
      `is over ${MAX_GENRES_FILE_BYTES} bytes`
    ]
  ])('%s', (_name, make, problem) => {
    const at = make()
    expect(errorFor({ ...REQUIRED, GENRES_FILE: at }).message).toBe(
      `GENRES_FILE: ${JSON.stringify(at)} ${problem}; point GENRES_FILE at a JSON array of ` +
        '{"id", "name"}, or unset it for the built-in genres'
    )
  })
})
