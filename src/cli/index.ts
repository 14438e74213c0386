#!/usr/bin/env node
import { systemClock } from '../clock.js'
import { runCommand } from './main.js'

// The time-out counts from the process's start, module loading included.
void runCommand({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
  startedAt: Math.min(systemClock.now(), Math.round(performance.timeOrigin))
}).then((code) => {
  process.exitCode = code
})
