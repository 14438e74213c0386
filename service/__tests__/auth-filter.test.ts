import { describe, expect, it } from 'vitest'
import { applyFilter, type TokenVerifier } from '../src/auth/filter.js'
import { rejected } from '../src/auth/rejection.js'

// The filter as a pure function: the verifier is a parameter, so no keys or network here.
const verifySync: TokenVerifier = (token) => {
  if (token === 'good') return 'alice'
  throw new Error('bad token')
}
const verifyAsync: TokenVerifier = async (token) => verifySync(token)

const decide = (
  method: string,
  target: string,
  authorization: string | undefined,
  verify: TokenVerifier = verifySync
) => applyFilter({ method, target, authorization }, '/api', verify)

describe('spec 4.3 rules in order, as a pure function', () => {
  it.each([
    ['rule 1 beats everything for the root', 'OPTIONS', '/api/', undefined, 1],
    ['rule 1 ignores the query string', 'GET', '/api/?a=b', 'bad', 1],
    ['rule 2 for OPTIONS elsewhere, even with a bad token', 'OPTIONS', '/api/genre', 'bad', 2],
    ['rule 3 without the header', 'GET', '/api/genre', undefined, 3],
    ['rule 4 with an empty first value', 'GET', '/api/genre', '', 4],
    ['rule 5 when the verifier throws', 'GET', '/api/genre', 'bad', 5],
    ['rule 6 when it verifies', 'GET', '/api/genre', 'good', 6],
    ['rule 6 outside BASE_PATH too (the handler answers 404)', 'GET', '/other', 'good', 6]
  ] as const)('%s', async (_name, method, target, authorization, rule) => {
    expect((await decide(method, target, authorization)).rule).toBe(rule)
    expect((await decide(method, target, authorization, verifyAsync)).rule).toBe(rule)
  })

  it('passes the subject to rule 6', async () => {
    expect(await decide('GET', '/api/genre', 'good', verifyAsync)).toEqual({
      rule: 6,
      kind: 'handler',
      subject: 'alice'
    })
  })

  it('decides synchronously when the verifier answers synchronously (a cache hit)', () => {
    expect(decide('GET', '/api/genre', 'good')).toEqual({
      rule: 6,
      kind: 'handler',
      subject: 'alice'
    })
  })

  it('never rejects, even when the verifier rejects with a non-Error', async () => {
    const rejecting: TokenVerifier = () => Promise.reject('nope')
    await expect(decide('GET', '/api/genre', 'x', rejecting)).resolves.toMatchObject({ rule: 5 })
  })
})

describe('an unauthorised decision carries the reason its log line gives', () => {
  const expiring: TokenVerifier = () => Promise.reject(rejected('EXPIRED'))
  it.each([
    ['rule 3', undefined, verifySync, 'missing'],
    ['rule 4', '', verifySync, 'empty'],
    [
      'rule 5, from the verifier (synchronous)',
      'x',
      () => {
        throw rejected('BAD_SIGNATURE')
      },
      'bad signature'
    ],
    ['rule 5, from the verifier (a rejection)', 'x', expiring, 'expired'],
    ['rule 5, an error that does not explain itself', 'bad', verifySync, 'not verified'],
    ['rule 5, a rejection with a non-Error', 'x', () => Promise.reject('nope'), 'not verified']
  ] as const)('%s', async (_name, authorization, verify, reason) => {
    expect(await decide('GET', '/api/genre', authorization, verify)).toEqual({
      rule: authorization === undefined ? 3 : authorization === '' ? 4 : 5,
      kind: 'unauthorised',
      reason
    })
  })
})
