import { fileURLToPath } from 'node:url'
import { GOOGLE_ISSUER, normaliseIssuer } from '../auth/issuer.js'
import { LOG_LEVELS, type LogLevel } from '../log/logger.js'
import { GenresFileError, readGenres, type Genre } from './genres.js'
import { SettingsReader, shown } from './settings-reader.js'

/** Settings of the service, read from the environment and validated in exactly one place. */
export interface Config {
  clientId: string
  allowedOrigin: string
  port: number
  host: string
  /** '' or a path starting with '/' and without a trailing '/'. */
  basePath: string
  issuer: string
  /** undefined: Google's key set for Google, otherwise found by OIDC discovery. */
  jwksUrl: URL | undefined
  clockToleranceSec: number
  genresFile: string
  /** The genres of GENRES_FILE, read with the settings so that its problems are reported with theirs. */
  genres: readonly Genre[]
  logLevel: LogLevel
  verifyCache: boolean
}

export const DEFAULT_GENRES_FILE = fileURLToPath(new URL('../../data/genres.json', import.meta.url))

type Env = Readonly<Record<string, string | undefined>>

/**
 * The settings table of the README, from `env`. Throws one ConfigError naming every missing or
 * invalid setting, not only the first.
 */
export function loadConfig(env: Env): Config {
  const read = new SettingsReader(env)
  const config = readConfig(read)
  read.check()
  return config
}

/**
 * Reads the service's settings, noting each problem on `read` (dev mode adds its own settings
 * to the same reader, then checks them all together).
 */
export function readConfig(read: SettingsReader): Config {
  const genresFile = read.value('GENRES_FILE') ?? DEFAULT_GENRES_FILE
  return {
    clientId: read.required(
      'CLIENT_ID',
      'the client id your ID tokens are issued for (their "aud"), e.g. 1234-abc.apps.googleusercontent.com'
    ),
    allowedOrigin: origin(read, 'ALLOWED_ORIGIN'),
    port: read.integer('PORT', 8080, 0, 65535),
    host: read.value('HOST') ?? '0.0.0.0',
    basePath: basePath(read, 'BASE_PATH'),
    issuer: issuer(read, 'OIDC_ISSUER'),
    jwksUrl: httpUrl(read, 'OIDC_JWKS_URL'),
    clockToleranceSec: read.integer('CLOCK_TOLERANCE_SEC', 30, 0, 3600),
    genresFile,
    genres: genres(read, 'GENRES_FILE', genresFile),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    verifyCache: read.oneOf('VERIFY_CACHE', ['on', 'off'] as const, 'on') === 'on'
  }
}

/** The browser compares Access-Control-Allow-Origin to its origin byte for byte. */
function origin(read: SettingsReader, name: string): string {
  const value = read.required(
    name,
    'the origin of the web page that calls the service, e.g. https://app.example.com'
  )
  if (value === '') return value
  let parsed: URL | undefined
  try {
    parsed = new URL(value)
  } catch {
    // reported below
  }
  if (parsed === undefined || !['http:', 'https:'].includes(parsed.protocol)) {
    read.problem(name, `must be an origin such as https://app.example.com, got ${shown(value)}`)
  } else if (parsed.origin !== value) {
    read.problem(
      name,
      `must be exactly an origin (scheme://host[:port], no path or trailing slash), got ${shown(value)}`
    )
  }
  return value
}

function basePath(read: SettingsReader, name: string): string {
  const value = read.value(name)
  if (value === undefined) return ''
  if (!value.startsWith('/') || /[?#\s]/.test(value)) {
    read.problem(name, `must be a path starting with "/", e.g. /api, got ${shown(value)}`)
    return ''
  }
  return value.replace(/\/+$/, '')
}

function issuer(read: SettingsReader, name: string): string {
  const value = read.value(name)
  if (value === undefined) return GOOGLE_ISSUER
  const normalised = normaliseIssuer(value)
  if (normalised !== undefined) return normalised
  read.problem(
    name,
    `must be an http(s) URL, e.g. https://login.example.com, got ${shown(value)}; unset it for Google`
  )
  return GOOGLE_ISSUER
}

function httpUrl(read: SettingsReader, name: string): URL | undefined {
  const value = read.value(name)
  if (value === undefined) return undefined
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // reported below
  }
  read.problem(name, `must be an http(s) URL, got ${shown(value)}`)
  return undefined
}

/** Read once, at start: the file is small and the reply built from it never changes. */
function genres(read: SettingsReader, name: string, file: string): readonly Genre[] {
  try {
    return readGenres(file)
  } catch (error) {
    if (!(error instanceof GenresFileError)) throw error
    const unset = read.value(name) === undefined ? '' : ', or unset it for the built-in genres'
    read.problem(
      name,
      `${shown(file)} ${error.problem}; point ${name} at a JSON array of {"id", "name"}${unset}`
    )
    return []
  }
}
