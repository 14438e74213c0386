/**
 * The servers the suite's setup started, for a test file: `describe.each(realServers())` runs a
 * block once per version, and nothing (saying why) when the suite is skipped.
 */
import { inject } from 'vitest'
import type { RunningServer } from './server.js'

/** The running servers; none when the suite is skipped. */
export function realServers(): RunningServer[] {
  const servers = inject('realServers')
  if (servers.length === 0)
    console.warn(`Real-server tests skipped: ${inject('realServersSkipped')}`)
  return servers
}
