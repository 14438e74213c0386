/**
 * Every error the service throws is a ServiceError with a stable `code` from one union, also on
 * its class as a static (as jose's errors have), so the start-up, the log and the tests tell
 * them apart without matching on words. An error that wraps another keeps it as its `cause`.
 */
export type ServiceErrorCode =
  /** Settings are missing or invalid (ConfigError). */
  | 'CONFIG_INVALID'
  /** The genres file is missing or not a JSON array of `{id, name}` (GenresFileError). */
  | 'GENRES_FILE_INVALID'
  /** A server could not listen (ListenError). */
  | 'LISTEN_FAILED'
  /** Dev mode was started with NODE_ENV=production (DevModeRefusedError). */
  | 'DEV_MODE_REFUSED'
  /** A token is not a verified ID token for the client id (InvalidIdTokenError). */
  | 'ID_TOKEN_INVALID'
  /** The identity provider's key set could not be had (KeySetUnavailableError). */
  | 'KEY_SET_UNAVAILABLE'
  /** An identity-provider document could not be fetched (DocumentFetchError). */
  | 'DOCUMENT_FETCH_FAILED'

/** The root of the service's errors; each subclass fixes its code. */
export abstract class ServiceError extends Error {
  abstract readonly code: ServiceErrorCode
}
