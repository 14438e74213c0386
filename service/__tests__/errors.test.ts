import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GenresFileError, readGenres } from '../src/app/genres.js'
import { ConfigError } from '../src/app/settings-reader.js'
import { createKeySet, KeySetUnavailableError, readKeySet } from '../src/auth/key-set.js'
import { InvalidIdTokenError, rejected } from '../src/auth/rejection.js'
import { DocumentFetchError, fetchJsonDocument, httpGet } from '../src/auth/remote-json.js'
import { DevModeRefusedError, loadDevSettings } from '../src/dev/settings.js'
import { ServiceError, type ServiceErrorCode } from '../src/errors.js'
import { listen, ListenError } from '../src/http/listen.js'
import { closedPort } from '../../__tests__/fault-kit/http-server.js'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** What a call threw (or undefined). */
async function thrownBy(run: () => unknown): Promise<unknown> {
  try {
    await run()
    return undefined
  } catch (error) {
    return error
  }
}

describe('every error the service throws is a ServiceError with a code of one union', () => {
  const made: [ServiceErrorCode, ServiceError][] = [
    ['CONFIG_INVALID', new ConfigError([{ variable: 'PORT', problem: 'must be a number' }])],
    ['GENRES_FILE_INVALID', new GenresFileError('genres.json', 'is not valid JSON')],
    ['LISTEN_FAILED', new ListenError('PORT', 'PORT: port 80 is in use', 'EADDRINUSE')],
    ['DEV_MODE_REFUSED', new DevModeRefusedError()],
    ['ID_TOKEN_INVALID', rejected('EXPIRED')],
    ['KEY_SET_UNAVAILABLE', new KeySetUnavailableError('HTTP 503')],
    ['DOCUMENT_FETCH_FAILED', new DocumentFetchError('not JSON')]
  ]

  it.each(made)('%s', (code, error) => {
    expect(error).toBeInstanceOf(ServiceError)
    expect(error.code).toBe(code)
    expect((error.constructor as unknown as { code: string }).code).toBe(code)
  })

  it('no two classes share a code', () => {
    const codes = made.map(([code]) => code)
    expect(new Set(codes).size).toBe(codes.length)
  })

  it('a rejected token keeps why in `rejection`, and its phrase in `reason`', () => {
    const error = rejected('WRONG_AUDIENCE')
    expect(error).toBeInstanceOf(InvalidIdTokenError)
    expect(error).toMatchObject({
      code: 'ID_TOKEN_INVALID',
      rejection: 'WRONG_AUDIENCE',
      reason: 'wrong audience',
      message: 'ID token rejected: wrong audience'
    })
  })

  it('dev mode refused in production: DEV_MODE_REFUSED', () => {
    expect(() => loadDevSettings({ NODE_ENV: 'production' })).toThrow(DevModeRefusedError)
  })
})

describe('an error that wraps a failure keeps it as its cause, its words unchanged', () => {
  it('a genres file that cannot be read: Node’s error', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'service-errors-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const file = path.join(dir, 'missing.json')
    const error = await thrownBy(() => readGenres(file))
    expect(error).toBeInstanceOf(GenresFileError)
    expect((error as GenresFileError).message).toBe(`${file}: cannot be read (ENOENT)`)
    expect((error as GenresFileError).cause).toMatchObject({ code: 'ENOENT' })
  })

  it('a port in use: Node’s listen error', async () => {
    const taken = createServer()
    const port = await listen(taken, { port: 0, host: '127.0.0.1', portVariable: 'PORT' })
    cleanups.push(() => new Promise((resolve) => taken.close(resolve)))
    const second = createServer()
    const error = await thrownBy(() =>
      listen(second, { port, host: '127.0.0.1', portVariable: 'PORT' })
    )
    expect(error).toBeInstanceOf(ListenError)
    expect(error).toMatchObject({
      code: 'LISTEN_FAILED',
      systemCode: 'EADDRINUSE',
      message: `PORT: port ${port} on 127.0.0.1 is in use; set PORT to another port (0 picks a free one)`
    })
    expect((error as ListenError).cause).toMatchObject({ code: 'EADDRINUSE' })
  })

  it('a document from an address where nothing listens: Node’s connection error', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/jwks`
    const error = await thrownBy(() =>
      fetchJsonDocument(url, readKeySet, {
        get: httpGet,
        signal: AbortSignal.timeout(2_000),
        timeoutMs: 2_000
      })
    )
    expect(error).toBeInstanceOf(DocumentFetchError)
    expect((error as DocumentFetchError).reason).toBe('network error (ECONNREFUSED)')
    expect((error as DocumentFetchError).cause).toMatchObject({ code: 'ECONNREFUSED' })
  })

  it('a key set that cannot be fetched: the fetch’s error', async () => {
    const url = new URL(`http://127.0.0.1:${await closedPort()}/jwks`)
    const keySet = createKeySet({
      resolveUrl: () => Promise.resolve(url),
      timeoutMs: 2_000,
      cooldownMs: 60_000,
      refreshMs: 60_000
    })
    const error = await thrownBy(() =>
      keySet.getKey({ alg: 'RS256', kid: 'k' }, { payload: '', signature: '' })
    )
    expect(error).toBeInstanceOf(KeySetUnavailableError)
    expect((error as KeySetUnavailableError).message).toBe(
      'key set unavailable: network error (ECONNREFUSED)'
    )
    expect((error as KeySetUnavailableError).cause).toBeInstanceOf(DocumentFetchError)
  })
})
