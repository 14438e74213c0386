/** What a secret becomes where it is removed. */
export const REDACTED = '***'

/** `Basic base64(token + ':')`: the token as user name with an empty password. */
export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`${token}:`).toString('base64')}`
}

/**
 * The shortest token hidden in the log and the files. Sonar's tokens are 40 characters or more;
 * hiding a shorter text would hide every occurrence of it ("Comple***ity" for a token "x"),
 * while a text that short protects nothing.
 */
const MIN_SECRET_LENGTH = 8

/**
 * Every form of the token that could reach a log, the job summary or an output: itself, the
 * Basic auth header, its base64 part, its URL-encoded form and its form inside a JSON string.
 * The runner masks each of these in the log; `redactSecrets` removes them everywhere else. None
 * for a token shorter than MIN_SECRET_LENGTH (see shortTokenWarning).
 */
export function tokenForms(token: string): string[] {
  if (token.length < MIN_SECRET_LENGTH) return []
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
 * The forms secrets take once written inside a JSON string (besides their own), for a JSON
 * destination's sink: a form of the token that is itself quoted in JSON is escaped once more.
 *
 * @example jsonForms(['a"b']) // ['a"b', 'a\\"b']
 */
export function jsonForms(secrets: readonly string[]): string[] {
  return [...new Set([...secrets, ...secrets.map((secret) => JSON.stringify(secret).slice(1, -1))])]
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

/**
 * The warning for a token too short to be one of Sonar's, or undefined. It never quotes the
 * token: it says how long it is and what to check.
 *
 * @example shortTokenWarning('x') // 'SONAR_TOKEN is 1 character long: …'
 */
export function shortTokenWarning(token: string): string | undefined {
  if (token.length >= MIN_SECRET_LENGTH) return undefined
  const length = `${token.length} ${token.length === 1 ? 'character' : 'characters'}`
  return `SONAR_TOKEN is ${length} long, too short to be a Sonar token (those are 40 characters or more): it is not hidden in the log, as hiding it would hide every occurrence of those characters. Check the secret it comes from.`
}
