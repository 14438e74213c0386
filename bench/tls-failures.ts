/**
 * How long each TLS or protocol failure takes the built command to report: `node dist/cli.js`
 * against a loopback server that plays the fault (the fault kit's, in this process), beside the
 * floor, a bare node script that makes the same single request and exits on its error
 * (`tls-floor.mjs`). In each round every fault runs the command and the floor once, in an order
 * that alternates; each run prints per fault the command's and the floor's medians and the
 * median of the per-round ratios, and the table gives their ranges over the runs. Every run must
 * fail with the fault's code after exactly one connection. Exits 1 when any run of the command
 * takes 2 s or more: a failure that waiting does not fix must not wait.
 *
 * npm run bench:tls -- [--runs 3] [--rounds 10] [--warmup 1] [--node <path>]
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import {
  startTlsFaultServer,
  TLS_FAULTS,
  type TlsFault,
  type TlsFaultServer
} from '../__tests__/fault-kit/tls-faults.js'
import { CLI_ENTRY, nodeBinary, REPO, timeChild, type Exit } from '../__fixtures__/built-action.js'
import { TOKEN } from './baselines.js'
import { median, printTable, range } from './stats.js'

/** The longest a run of the command may take: the bound. */
const LIMIT_MS = 2000

const FLOOR = path.join(REPO, 'bench/tls-floor.mjs')

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '1' },
    node: { type: 'string' }
  }
})
const runs = Number(args.runs)
const rounds = Number(args.rounds)
const warmup = Number(args.warmup)
const node = nodeBinary(args.node)
if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run npm run package first.`)

const FAULTS = Object.keys(TLS_FAULTS) as TlsFault[]

/** Runs a child against `server` and checks it made exactly one connection. */
async function oneConnection(
  server: TlsFaultServer,
  what: string,
  run: () => Promise<Exit>
): Promise<Exit> {
  const before = server.connections
  const exit = await run()
  const made = server.connections - before
  if (made !== 1) throw new Error(`${what}: ${made} connections, not 1:\n${exit.stderr}`)
  return exit
}

/**
 * The command as a CI job runs it, with a clean environment: a variable such as
 * NODE_EXTRA_CA_CERTS would slow node's start for both programs and blur the ratio.
 */
function runCommand(server: TlsFaultServer, cwd: string, fault: TlsFault): Promise<Exit> {
  return oneConnection(server, `command, ${fault}`, async () => {
    const exit = await timeChild(
      node,
      [
        CLI_ENTRY,
        '--host',
        server.url,
        '--task-id',
        'AYBenchTask',
        '--initial-delay',
        '0',
        ...(server.rootCertFile ? ['--root-cert-file', server.rootCertFile] : [])
      ],
      { cwd, env: { PATH: process.env['PATH'], SONAR_TOKEN: TOKEN } }
    )
    const lines = exit.stderr.split('\n').filter((line) => line.includes(TLS_FAULTS[fault]))
    if (exit.exitCode !== 3 || lines.length !== 1 || /trying again/.test(exit.stderr)) {
      throw new Error(
        `command, ${fault}: exited ${exit.exitCode}, expected 3 with one line naming ${TLS_FAULTS[fault]}:\n${exit.stderr}`
      )
    }
    return exit
  })
}

function runFloor(server: TlsFaultServer, cwd: string, fault: TlsFault): Promise<Exit> {
  return oneConnection(server, `floor, ${fault}`, async () => {
    const exit = await timeChild(
      node,
      [FLOOR, server.url, ...(server.rootCertFile ? [server.rootCertFile] : [])],
      { cwd, env: { PATH: process.env['PATH'] } }
    )
    if (exit.exitCode !== 1 || exit.stdout.trim() !== TLS_FAULTS[fault]) {
      throw new Error(
        `floor, ${fault}: exited ${exit.exitCode} with "${exit.stdout.trim()}", expected 1 with ${TLS_FAULTS[fault]}`
      )
    }
    return exit
  })
}

interface RunFigures {
  command: number
  floor: number
  ratio: number
}

const servers = new Map<TlsFault, TlsFaultServer>()
const cwd = await mkdtemp(path.join(os.tmpdir(), 'sonar-bench-tls-'))
const figures = new Map<TlsFault, RunFigures[]>(FAULTS.map((fault) => [fault, []]))
/** The slowest run of the command for each fault, warm-up rounds included: the 2 s bound. */
const slowest = new Map<TlsFault, number>(FAULTS.map((fault) => [fault, 0]))
try {
  for (const fault of FAULTS) servers.set(fault, await startTlsFaultServer(fault))
  for (let run = 0; run < runs; run++) {
    const command = new Map<TlsFault, number[]>(FAULTS.map((fault) => [fault, []]))
    const floor = new Map<TlsFault, number[]>(FAULTS.map((fault) => [fault, []]))
    const ratios = new Map<TlsFault, number[]>(FAULTS.map((fault) => [fault, []]))
    for (let round = -warmup; round < rounds; round++) {
      for (const fault of FAULTS) {
        const server = servers.get(fault)!
        // The order alternates each round, so neither program always runs on a warmer machine.
        const floorFirst = round % 2 !== 0
        const first = floorFirst ? await runFloor(server, cwd, fault) : undefined
        const commandExit = await runCommand(server, cwd, fault)
        const floorExit = first ?? (await runFloor(server, cwd, fault))
        slowest.set(fault, Math.max(slowest.get(fault)!, commandExit.ms))
        if (round < 0) continue
        command.get(fault)!.push(commandExit.ms)
        floor.get(fault)!.push(floorExit.ms)
        ratios.get(fault)!.push(commandExit.ms / floorExit.ms)
      }
    }
    for (const fault of FAULTS) {
      figures.get(fault)!.push({
        command: median(command.get(fault)!),
        floor: median(floor.get(fault)!),
        ratio: median(ratios.get(fault)!)
      })
    }
    console.log(`run ${run + 1} of ${runs} done`)
  }
} finally {
  for (const server of servers.values()) await server.close()
  await rm(cwd, { recursive: true, force: true })
}

console.log(
  `\n${runs} runs of ${rounds} rounds (after ${warmup} warm-up) on ${node}, node ${await nodeVersion()}; each cell the range of the runs' medians\n`
)
printTable(
  ['fault', "Node's code", 'command ms', 'floor ms', 'command / floor', 'slowest command ms'],
  FAULTS.map((fault) => {
    const of = figures.get(fault)!
    return [
      fault,
      TLS_FAULTS[fault],
      range(
        of.map((figure) => figure.command),
        1
      ),
      range(
        of.map((figure) => figure.floor),
        1
      ),
      range(
        of.map((figure) => figure.ratio),
        2
      ),
      slowest.get(fault)!.toFixed(1)
    ]
  })
)
const tooSlow = FAULTS.filter((fault) => slowest.get(fault)! >= LIMIT_MS)
if (tooSlow.length > 0) {
  console.log(`\nFAILED: ${tooSlow.join(', ')}: a run of the command took ${LIMIT_MS} ms or more.`)
  process.exitCode = 1
} else {
  console.log(
    `\nEvery run of the command failed in less than ${LIMIT_MS} ms, after one connection.`
  )
}

async function nodeVersion(): Promise<string> {
  const exit = await timeChild(node, ['--version'], {
    cwd: REPO,
    env: { PATH: process.env['PATH'] }
  })
  return exit.stdout.trim()
}
