/**
 * The service's image, built and run with podman: built from a clean copy of service/ with
 * `--pull=never` (the base image the Containerfile names is used as podman has it, or built
 * from Debian packages by scripts/local-base-image.sh when this machine cannot pull it), then
 * started with its settings from the environment: 200 on `/`, 401 without a token, 200 with a
 * token from the dev identity provider, node as PID 1 and not root, the health check passing,
 * and `podman stop` draining it to exit code 0.
 *
 * Where podman cannot run, the test is skipped and says why; under CI (or with
 * SERVICE_CONTAINER_TEST=required) it fails instead.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BASE_IMAGE,
  buildServiceImage,
  ensureBaseImage,
  podman,
  podmanExec,
  SERVICE_DIR,
  whyPodmanCannotRun
} from '../../bench/podman.js'
import { DevIdentityProvider } from '../src/dev/identity-provider.js'
import { cleanCopyOfService } from './support/clean-copy.js'

const IMAGE = 'localhost/genre-service:test'
const CONTAINER = `genre-service-test-${process.pid}`
const CLIENT_ID = 'container-test.apps.example.com'

const required =
  process.env['SERVICE_CONTAINER_TEST'] === 'required' ||
  !['', '0', 'false', undefined].includes(process.env['CI']?.trim().toLowerCase())
const reason = whyPodmanCannotRun()
if (reason !== undefined && !required) console.warn(`container test skipped: ${reason}`)

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

describe.skipIf(reason !== undefined && !required)(
  `the service's container image${reason === undefined ? '' : ` (cannot run: ${reason})`}`,
  () => {
    let provider: DevIdentityProvider
    let url = ''
    let started = false

    beforeAll(async () => {
      if (reason !== undefined) throw new Error(`the container test must run here: ${reason}`)
      await ensureBaseImage()
      const context = cleanCopyOfService()
      try {
        await buildServiceImage(context, IMAGE)
      } finally {
        rmSync(context, { recursive: true, force: true })
      }
      provider = await DevIdentityProvider.start(0, 'DEV_ISSUER_PORT')
      const port = await freePort()
      url = `http://127.0.0.1:${port}/`
      // The host's network, so that the container listens on loopback and reaches the
      // provider there: no traffic leaves this machine.
      await podman([
        'run',
        '--detach',
        '--name',
        CONTAINER,
        '--network=host',
        `--env=CLIENT_ID=${CLIENT_ID}`,
        '--env=ALLOWED_ORIGIN=https://app.example.com',
        '--env=HOST=127.0.0.1',
        `--env=PORT=${port}`,
        `--env=OIDC_ISSUER=${provider.issuer}`,
        IMAGE
      ])
      started = true
      for (let i = 0; i < 200; i++) {
        const status = await fetch(url).then(
          (response) => response.status,
          () => 0
        )
        if (status !== 0) return
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(
        `the container did not answer on ${url}:\n${await podman(['logs', CONTAINER])}`
      )
    }, 900_000)

    afterAll(async () => {
      if (started) await podman(['rm', '--force', '--time=0', CONTAINER]).catch(() => undefined)
      await provider?.stop()
    })

    it('answers 200 on the root target, without a token', async () => {
      const response = await fetch(url)
      expect([response.status, await response.json()]).toEqual([200, { status: 'ok' }])
    })

    it('answers 401 on /genre without a token', async () => {
      const response = await fetch(`${url}genre`)
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({
        httpStatusCode: 401,
        error: 'Not authorised: could not authenticate user'
      })
    })

    it('answers 200 with the genres for a token of the identity provider', async () => {
      const { token } = await provider.mint(CLIENT_ID)
      const response = await fetch(`${url}genre`, { headers: { Authorization: token } })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual(
        JSON.parse(readFileSync(path.join(SERVICE_DIR, 'data/genres.json'), 'utf8'))
      )
    })

    it('runs node as PID 1, as the node user, with the start command of the package', async () => {
      const cmdline = await podmanExec(CONTAINER, ['cat', '/proc/1/cmdline'])
      expect(cmdline.split('\0').filter((word) => word !== '')).toEqual([
        'node',
        '--max-semi-space-size=2',
        'dist/index.js'
      ])
      expect((await podmanExec(CONTAINER, ['id', '-un'])).trim()).toBe('node')
    })

    it('holds only the production dependencies, the compiled service and the genres', async () => {
      const listing = await podmanExec(CONTAINER, ['ls', '-A', '/app', '/app/node_modules'])
      expect(listing).toBe(
        '/app:\ndata\ndist\nnode_modules\npackage.json\n\n/app/node_modules:\n.package-lock.json\njose\n'
      )
    })

    it('passes its HEALTHCHECK, which GETs the root target', async () => {
      const [image] = JSON.parse(await podman(['image', 'inspect', IMAGE])) as [
        { Healthcheck?: { Test: string[] } }
      ]
      expect(image.Healthcheck?.Test).toEqual(['CMD', 'node', 'dist/healthcheck.js'])
      await podman(['healthcheck', 'run', CONTAINER])
      // And it fails when the root target does not answer 200 (nothing listens on port 1).
      await expect(
        podman(['exec', '--env=PORT=1', CONTAINER, 'node', 'dist/healthcheck.js'])
      ).rejects.toThrow(/health check: GET http:\/\/127\.0\.0\.1:1\/ failed/)
    })

    it('stops gracefully on podman stop: exit code 0, "stopped" logged', async () => {
      await podman(['stop', '--time=10', CONTAINER], 30_000)
      const code = (await podman(['inspect', '--format', '{{.State.ExitCode}}', CONTAINER])).trim()
      const logs = await podman(['logs', CONTAINER])
      expect(code).toBe('0')
      expect(logs.split('\n')[0]).toBe(`genre service listening on ${url}`)
      expect(logs).toMatch(/"msg":"shutting down","signal":"SIGTERM"/)
      expect(logs).toMatch(/"msg":"stopped","outcome":"drained"/)
    }, 30_000)
  }
)

// The test reads the base image's name from the Containerfile; make sure it is still there.
it('the Containerfile names its base image in ARG NODE_IMAGE', () => {
  expect(BASE_IMAGE).toMatch(/^docker\.io\/library\/node:\d+-\w+-slim$/)
  expect(existsSync(path.join(SERVICE_DIR, 'scripts/local-base-image.sh'))).toBe(true)
})
