import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import * as http from 'node:http'
import * as https from 'node:https'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConnectionAgents } from '../../src/http/connection-agents.js'
import { clearProxyVariables } from '../support/proxy-variables.js'

const CLI = path.resolve(import.meta.dirname, '../../dist/cli.js')
describe('connections go through the proxy the environment names, as in every other action', () => {
  let restoreProxyVariables: () => void
  let agents: ConnectionAgents
  beforeEach(() => {
    restoreProxyVariables = clearProxyVariables()
    agents = new ConnectionAgents(undefined)
  })
  afterEach(() => {
    agents.destroy()
    restoreProxyVariables()
  })

  it('without a proxy: one kept-alive agent of the protocol, four connections at a time', async () => {
    const agent = await agents.for(new URL('https://sonar.example.com/api/ce/task'))
    expect(agent).toBeInstanceOf(https.Agent)
    expect(agent).toMatchObject({ keepAlive: true, maxSockets: 4 })
    expect(await agents.for(new URL('https://sonar.example.com/api/qualitygates'))).toBe(agent)
    expect(await agents.for(new URL('http://sonar.example.com/'))).toBeInstanceOf(http.Agent)
    expect(await agents.for(new URL('http://sonar.example.com/'))).not.toBeInstanceOf(https.Agent)
  })

  it('HTTPS_PROXY tunnels https requests through it, with its credentials; http ones go direct', async () => {
    process.env['HTTPS_PROXY'] = 'http://user:secret@proxy.example.com:3128'
    const agent = await agents.for(new URL('https://sonar.example.com/'))
    expect(agent).not.toBeInstanceOf(http.Agent)
    expect((agent as unknown as { proxyOptions: unknown }).proxyOptions).toEqual({
      host: 'proxy.example.com',
      port: '3128',
      proxyAuth: 'user:secret'
    })
    expect(await agents.for(new URL('http://sonar.example.com/'))).toBeInstanceOf(http.Agent)
  })

  it('HTTP_PROXY tunnels http requests', async () => {
    process.env['HTTP_PROXY'] = 'http://proxy.example.com:3128'
    expect(await agents.for(new URL('http://sonar.example.com/'))).not.toBeInstanceOf(http.Agent)
  })

  it('NO_PROXY keeps the hosts it names direct', async () => {
    process.env['HTTPS_PROXY'] = 'http://proxy.example.com:3128'
    process.env['NO_PROXY'] = 'sonar.internal'
    expect(await agents.for(new URL('https://sonar.internal/'))).toBeInstanceOf(https.Agent)
    expect(await agents.for(new URL('https://sonarcloud.io/'))).not.toBeInstanceOf(http.Agent)
  })

  it('the private CA goes to the agents, which open the TLS connections', async () => {
    const withCa = new ConnectionAgents(['-----BEGIN CERTIFICATE-----'])
    process.env['HTTPS_PROXY'] = 'http://proxy.example.com:3128'
    const tunnelling = await withCa.for(new URL('https://sonar.example.com/'))
    expect((tunnelling as unknown as { options: { ca: string[] } }).options.ca).toEqual([
      '-----BEGIN CERTIFICATE-----'
    ])
    withCa.destroy()
  })
})

describe('the command starts without undici, and without TLS for an http:// server', () => {
  it('dist/cli.js bundles no module of undici (HttpClient loads it; the agents do not)', () => {
    const bundle = readFileSync(CLI, 'utf8')
    expect(bundle).not.toContain('UND_ERR')
    expect(bundle).toContain('#!/usr/bin/env node')
  })

  it('node:https, node:tls and node:assert load only when a request needs them', () => {
    const { stdout } = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        // The modules loaded once the bundle is, before any request; then out, before the
        // command goes looking for a report file.
        `await import(${JSON.stringify(pathToFileURL(CLI).href)}); console.log(JSON.stringify(process.moduleLoadList)); process.exit(0)`
      ],
      { encoding: 'utf8', cwd: tmpdir(), env: { PATH: process.env['PATH'] ?? '' } }
    )
    const loaded = JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]') as string[]
    expect(loaded).toContain('NativeModule http')
    expect(loaded.filter((module) => /^NativeModule (https|tls|assert)$/.test(module))).toEqual([])
  })
})
