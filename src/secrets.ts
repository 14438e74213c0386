/** What a secret becomes where it is removed. */
export const REDACTED = '***'

/** `Basic base64(token + ':')`: the token as user name with an empty password. */
export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`${token}:`).toString('base64')}`
}

/**
 * Every form of the token that could reach a log, the job summary or an output: itself, the
 * Basic auth header, its base64 part, its URL-encoded form and its form inside a JSON string.
 * The runner masks each of these in the log; `redactSecrets` removes them everywhere else.
 */
export function tokenForms(token: string): string[] {
  const header = basicAuth(token)
  const forms = [
    token,
    header,
    header.slice('Basic '.length),
    encodeURIComponent(token),
    JSON.stringify(token).slice(1, -1)
  ]
  return [...new Set(forms)]
}

/**
 * `text` with every occurrence of every secret replaced by `***`, longest secret first (so a
 * secret inside a longer one leaves nothing of the longer one). The runner masks the log, not
 * the job summary or the output file: everything written there goes through this.
 *
 * @example redactSecrets('echoed squ_abc', tokenForms('squ_abc')) // 'echoed ***'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const longestFirst = secrets.filter((secret) => secret !== '').sort((a, b) => b.length - a.length)
  return longestFirst.reduce((redacted, secret) => redacted.replaceAll(secret, REDACTED), text)
}
