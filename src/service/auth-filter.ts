import { relativePath } from './target.js'

/** What the filter of spec 4.3 decides for one request; the server acts on it. */
export type FilterDecision =
  | { rule: 1; kind: 'root' }
  | { rule: 2; kind: 'preflight' }
  | { rule: 3 | 4 | 5; kind: 'unauthorised' }
  | { rule: 6; kind: 'handler'; subject: string }

export interface FilterInput {
  method: string
  target: string
  /** The first Authorization value as received, undefined when the header is absent. */
  authorization: string | undefined
}

/** Resolves to the subject of a valid ID token; rejects otherwise. */
export type TokenVerifier = (token: string) => Promise<string>

/**
 * Spec 4.3, in order. Pure apart from the verifier it is given; never throws, so the
 * filter itself can never produce a 5xx.
 */
export async function applyFilter(
  input: FilterInput,
  basePath: string,
  verify: TokenVerifier
): Promise<FilterDecision> {
  // 4.3 rule 1: the root target goes to its handler unchanged, no auth, no CORS.
  if (relativePath(input.target, basePath) === '/') return { rule: 1, kind: 'root' }
  // 4.3 rule 2: OPTIONS gets CORS, no handler.
  if (input.method === 'OPTIONS') return { rule: 2, kind: 'preflight' }
  // 4.3 rule 3: no Authorization header.
  if (input.authorization === undefined) return { rule: 3, kind: 'unauthorised' }
  // 4.3 rule 4: the first value is empty.
  if (input.authorization === '') return { rule: 4, kind: 'unauthorised' }
  // 4.3 rule 5: the raw value must verify as an ID token (no "Bearer" word).
  let subject: string
  try {
    subject = await verify(input.authorization)
  } catch {
    return { rule: 5, kind: 'unauthorised' }
  }
  // 4.3 rule 6: the handler runs; its reply gets the CORS headers.
  return { rule: 6, kind: 'handler', subject }
}
