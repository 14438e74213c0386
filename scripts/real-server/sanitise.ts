/**
 * Makes a real server's reply fit to commit: every value that names this run (ids, dates, commit
 * SHAs and hashes, the server's address, the tokens) replaced by a stable placeholder of the same
 * form, the same value by the same placeholder everywhere, so a reply still refers to another
 * (a task's `analysisId` is the key of an analysis in api/project_analyses/search).
 */

/** A server id: 20 characters of base64url with digits and both cases (AYvAbc-12_...). */
const SERVER_ID =
  /(?<![\w-])(?=[\w-]{0,19}\d)(?=[\w-]{0,19}[A-Z])(?=[\w-]{0,19}[a-z])[\w-]{20}(?![\w-])/g
/** A UUID, as newer servers name branches and tasks. */
const UUID = /(?<![\w-])[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}(?![\w-])/g
/** A commit SHA (40) or a content hash (32), in hexadecimal. */
const HEX = /(?<![\w-])(?:[0-9a-f]{40}|[0-9a-f]{32})(?![\w-])/g
/** A date as the server writes it: 2025-01-15T10:00:00+0000. */
const DATE = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d{4}|Z)/g

/** The address every recorded reply names as its server's. */
export const PLACEHOLDER_SERVER = 'https://sonar.example.com'

export class Sanitiser {
  private readonly seen = new Map<string, string>()
  private readonly counts = { id: 0, uuid: 0, hex: 0, date: 0 }

  /**
   * @param serverUrl the recorded server's address: replaced by PLACEHOLDER_SERVER
   * @param secrets the tokens used: replaced by `<token>` wherever a reply echoes one
   */
  constructor(
    private readonly serverUrl: URL,
    private readonly secrets: readonly string[]
  ) {}

  /** The reply (any JSON value) with every run-specific value replaced. */
  reply(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value)
    if (Array.isArray(value)) return value.map((item) => this.reply(item))
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.reply(item)]))
    }
    return value
  }

  /** One string with every run-specific value replaced. */
  text(value: string): string {
    let out = value
    for (const secret of this.secrets) if (secret !== '') out = out.split(secret).join('<token>')
    const origin = this.serverUrl.origin
    out = out
      .split(origin)
      .join(PLACEHOLDER_SERVER)
      .split(this.serverUrl.host)
      .join('sonar.example.com')
    return out
      .replace(DATE, (found) => this.placeholder(found, 'date'))
      .replace(UUID, (found) => this.placeholder(found, 'uuid'))
      .replace(HEX, (found) => this.placeholder(found, 'hex'))
      .replace(SERVER_ID, (found) => this.placeholder(found, 'id'))
  }

  /** The placeholder of a value, the same for the same value. */
  private placeholder(found: string, kind: keyof Sanitiser['counts']): string {
    const known = this.seen.get(found)
    if (known !== undefined) return known
    const n = ++this.counts[kind]
    const made =
      kind === 'date'
        ? placeholderDate(n, found)
        : kind === 'uuid'
          ? `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
          : kind === 'hex'
            ? String(n).padStart(found.length, '0').replace(/^0/, 'a')
            : `AYplaceholder${String(n).padStart(7, '0')}`
    this.seen.set(found, made)
    return made
  }
}

/** The n-th date seen, in the form it was written in, n minutes after 2025-01-01T00:00:00. */
function placeholderDate(n: number, found: string): string {
  const at = new Date(Date.UTC(2025, 0, 1, 0, n, 0)).toISOString().slice(0, 19)
  const zone = /([+-]\d{4}|Z)$/.exec(found)?.[1] ?? '+0000'
  return `${at}${zone === 'Z' ? 'Z' : '+0000'}`
}
