import { readConfig, type Config } from '../app/config.js'
import { SettingsReader } from '../app/settings-reader.js'
import { ServiceError } from '../errors.js'
import { LOOPBACK_HOST } from './loopback.js'

/** The audience of dev tokens; not a Google client id, so no Google token is accepted. */
export const DEV_CLIENT_ID = 'genre-dev.localhost'

/** Settings the service reads in dev mode too; the others are dev mode's own (see below). */
const SERVICE_SETTINGS = [
  'PORT',
  'BASE_PATH',
  'CLOCK_TOLERANCE_SEC',
  'GENRES_FILE',
  'LOG_LEVEL',
  'VERIFY_CACHE'
] as const

export interface DevSettings {
  /**
   * The service's settings. Dev mode fixes HOST (loopback), CLIENT_ID (DEV_CLIENT_ID) and
   * the issuer; ALLOWED_ORIGIN and OIDC_ISSUER are the placeholder origin until the example
   * page and the identity provider listen, then their real origins.
   */
  service: Config
  /** Port of the example page (DEV_PAGE_PORT, default 8081); its origin is ALLOWED_ORIGIN. */
  pagePort: number
  /** Port of the local identity provider (DEV_ISSUER_PORT, default 0: a free port). */
  issuerPort: number
}

/** Dev mode trusts a provider that signs tokens for anyone; it never runs in production. */
export class DevModeRefusedError extends ServiceError {
  static readonly code = 'DEV_MODE_REFUSED'
  override readonly code = DevModeRefusedError.code

  constructor() {
    super(
      'NODE_ENV is "production"; dev mode trusts a local identity provider that signs ' +
        'tokens for anyone: use npm run serve'
    )
    this.name = 'DevModeRefusedError'
  }
}

type Env = Readonly<Record<string, string | undefined>>

/**
 * Validates every setting before anything listens; a ConfigError names all the bad ones at
 * once, dev mode's own among the service's.
 */
export function loadDevSettings(env: Env): DevSettings {
  if (env['NODE_ENV']?.trim().toLowerCase() === 'production') throw new DevModeRefusedError()
  const placeholder = `http://${LOOPBACK_HOST}`
  const passed = Object.fromEntries(SERVICE_SETTINGS.map((name) => [name, env[name]]))
  const read = new SettingsReader({
    ...passed,
    CLIENT_ID: DEV_CLIENT_ID,
    ALLOWED_ORIGIN: placeholder,
    HOST: LOOPBACK_HOST,
    OIDC_ISSUER: placeholder,
    DEV_PAGE_PORT: env['DEV_PAGE_PORT'],
    DEV_ISSUER_PORT: env['DEV_ISSUER_PORT']
  })
  const settings = {
    service: readConfig(read),
    pagePort: read.integer('DEV_PAGE_PORT', 8081, 0, 65535),
    issuerPort: read.integer('DEV_ISSUER_PORT', 0, 0, 65535)
  }
  read.check()
  return settings
}
