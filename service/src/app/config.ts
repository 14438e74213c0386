import { fileURLToPath } from 'node:url'
import { GOOGLE_ISSUER, normaliseIssuer } from '../auth/issuer.js'
import { LOG_LEVELS, type LogLevel } from '../log/logger.js'

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
  logLevel: LogLevel
  verifyCache: boolean
}

/** A setting is missing or invalid; the message names the variable and never echoes secrets. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string
  ) {
    super(`${variable}: ${problem}`)
    this.name = 'ConfigError'
  }
}

export const DEFAULT_GENRES_FILE = fileURLToPath(new URL('../../data/genres.json', import.meta.url))

type Env = Readonly<Record<string, string | undefined>>

export function loadConfig(env: Env): Config {
  return {
    clientId: required(env, 'CLIENT_ID'),
    allowedOrigin: origin(env, 'ALLOWED_ORIGIN'),
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: optional(env, 'HOST') ?? '0.0.0.0',
    basePath: basePath(env, 'BASE_PATH'),
    issuer: issuer(env, 'OIDC_ISSUER'),
    jwksUrl: httpUrl(env, 'OIDC_JWKS_URL'),
    clockToleranceSec: integer(env, 'CLOCK_TOLERANCE_SEC', 30, 0, 3600),
    genresFile: optional(env, 'GENRES_FILE') ?? DEFAULT_GENRES_FILE,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    verifyCache: oneOf(env, 'VERIFY_CACHE', ['on', 'off'] as const, 'on') === 'on'
  }
}

/** An empty value counts as unset, as shells and container runtimes often pass one. */
function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}

function required(env: Env, name: string): string {
  const value = optional(env, name)
  if (value === undefined) throw new ConfigError(name, 'is required')
  return value
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = optional(env, name)
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${value}"`)
  }
  return Number(value)
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = optional(env, name)
  if (value === undefined) return fallback
  const found = allowed.find((candidate) => candidate === value.toLowerCase())
  if (found === undefined) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${value}"`)
  }
  return found
}

/** The browser compares Access-Control-Allow-Origin to its origin byte for byte. */
function origin(env: Env, name: string): string {
  const value = required(env, name)
  let parsed: URL
  try {
    parsed = new URL(value)
  } catch {
    throw new ConfigError(name, `must be an origin such as https://app.example.com, got "${value}"`)
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== value) {
    throw new ConfigError(
      name,
      `must be exactly an origin (scheme://host[:port], no path or trailing slash), got "${value}"`
    )
  }
  return value
}

function basePath(env: Env, name: string): string {
  const value = optional(env, name)
  if (value === undefined) return ''
  if (!value.startsWith('/') || /[?#\s]/.test(value)) {
    throw new ConfigError(name, `must be a path starting with "/", got "${value}"`)
  }
  return value.replace(/\/+$/, '')
}

function issuer(env: Env, name: string): string {
  const value = optional(env, name)
  if (value === undefined) return GOOGLE_ISSUER
  const normalised = normaliseIssuer(value)
  if (normalised === undefined) {
    throw new ConfigError(name, `must be an http(s) URL, got "${value}"`)
  }
  return normalised
}

function httpUrl(env: Env, name: string): URL | undefined {
  const value = optional(env, name)
  if (value === undefined) return undefined
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // reported below
  }
  throw new ConfigError(name, `must be an http(s) URL, got "${value}"`)
}
