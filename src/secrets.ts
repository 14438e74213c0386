import { basicAuth } from './sonar/client.js'

/**
 * Every form of the token that could reach a log: itself, the Basic auth header, its base64
 * part, and its URL-encoded form. The runner masks each of these.
 */
export function tokenForms(token: string): string[] {
  const header = basicAuth(token)
  const forms = [token, header, header.slice('Basic '.length), encodeURIComponent(token)]
  return [...new Set(forms)]
}
