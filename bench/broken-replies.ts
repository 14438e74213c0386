/**
 * How long the client's transport (`src/http/transport.ts`) takes to end each broken or large
 * reply of the fault kit, against a loopback server in this process, beside the floor: a bare
 * `node:http` GET (no agent) that reads the body into a list of chunks, joins them once at the
 * end and drops the connection past 10 MB, the least a bounded client can do. In each round every
 * reply is read by both, in an order that alternates; each run prints per reply the transport's
 * and the floor's medians and the median of the per-round ratios, and the table gives their
 * ranges over the runs. Every read must end as the reply demands (its cause, or the whole task).
 * Exits 1 when any read by the transport takes 2 s or more: none of these may wait for the 10 s
 * request time-out, and a body read in small chunks must be read in linear time.
 *
 * npm run bench:replies -- [--runs 3] [--rounds 10] [--warmup 1]
 */
import { get, type IncomingMessage } from 'node:http'
import { parseArgs } from 'node:util'
import { MAX_BODY_BYTES, HttpTransport, TransportFailure } from '../src/http/transport.js'
import { taskExample } from '../__fixtures__/sonarqube/index.js'
import { brokenReplies } from '../__tests__/fault-kit/faults.js'
import { startLoopbackServer } from '../__tests__/fault-kit/http-server.js'
import { startRawServer } from '../__tests__/fault-kit/raw-server.js'
import { median, printTable, range } from './stats.js'

/** The longest a read by the transport may take. */
const LIMIT_MS = 2000
/** The transport's request time-out, as the client's default. */
const REQUEST_TIMEOUT_MS = 10_000

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '1' }
  }
})
const runs = Number(args.runs)
const rounds = Number(args.rounds)
const warmup = Number(args.warmup)

/** A reply the bench reads, how it must end: a transport cause, or `whole` for the task read. */
interface Reply {
  name: string
  ends: TransportFailure['reason'] | 'whole'
  start(): Promise<{ url: string; close(): Promise<void> }>
}

/** The task, 9 MB long, written in 1 KiB chunks: 20–30 s when every chunk copied the buffer. */
const NINE_MB = JSON.stringify({ ...taskExample, padding: 'x'.repeat(9 * 1024 * 1024) })

const REPLIES: Reply[] = [
  {
    name: 'closed after 10 of 1000 bytes',
    ends: 'truncated',
    start: () => startRawServer((socket) => brokenReplies.closeMidBody(socket))
  },
  {
    name: 'reset after 10 of 1000 bytes',
    ends: 'reset',
    start: () => startRawServer((socket) => brokenReplies.resetMidBody(socket))
  },
  {
    name: 'Content-Length 50 MB, no body',
    ends: 'too-large',
    start: () => startRawServer((socket) => brokenReplies.announcedHuge(socket))
  },
  {
    name: 'an endless chunked body',
    ends: 'too-large',
    start: () => startRawServer((socket) => brokenReplies.endlessBody(socket))
  },
  {
    name: 'a header that is not valid HTTP',
    ends: 'malformed',
    start: () =>
      startRawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nbad header\u0007: x\r\n\r\n'))
  },
  {
    name: '9 MB in 1 KiB chunks',
    ends: 'whole',
    start: () =>
      startLoopbackServer((_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        for (let i = 0; i < NINE_MB.length; i += 1024) response.write(NINE_MB.slice(i, i + 1024))
        response.end()
      })
  }
]

/** One read by the transport, with a fresh connection; how it ended, and its time. */
async function readWithTransport(url: string): Promise<{ ends: string; ms: number }> {
  const transport = new HttpTransport({ userAgent: 'bench', rootCert: undefined })
  const started = performance.now()
  try {
    const reply = await transport.send(
      'GET',
      new URL('/api/ce/task?id=AYBench', url),
      {},
      undefined,
      REQUEST_TIMEOUT_MS
    )
    const ms = performance.now() - started
    return {
      ends: reply.body.length === NINE_MB.length ? 'whole' : `${reply.body.length} bytes`,
      ms
    }
  } catch (error) {
    const ms = performance.now() - started
    return { ends: error instanceof TransportFailure ? error.reason : String(error), ms }
  } finally {
    transport.close()
  }
}

/** The floor: one bare GET, its body gathered up to the limit; how it ended, and its time. */
function readWithFloor(url: string): Promise<{ ends: string; ms: number }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const done = (ends: string) => resolve({ ends, ms: performance.now() - started })
    const request = get(new URL('/api/ce/task?id=AYBench', url), { agent: false })
    request.on('error', (error: Error & { code?: string }) => done(error.code ?? error.message))
    request.on('response', (response: IncomingMessage) => {
      if (Number(response.headers['content-length']) > MAX_BODY_BYTES) {
        request.destroy()
        return done('too-large')
      }
      const chunks: Buffer[] = []
      let length = 0
      response.on('data', (chunk: Buffer) => {
        length += chunk.length
        if (length > MAX_BODY_BYTES) {
          request.destroy()
          return done('too-large')
        }
        chunks.push(chunk)
      })
      response.on('error', (error: Error & { code?: string }) => done(error.code ?? 'aborted'))
      response.on('end', () => {
        const body = Buffer.concat(chunks)
        done(body.length === NINE_MB.length ? 'whole' : `${body.length} bytes`)
      })
    })
  })
}

interface RunFigures {
  transport: number
  floor: number
  ratio: number
}

const servers = new Map<Reply, { url: string; close(): Promise<void> }>()
const figures = new Map<Reply, RunFigures[]>(REPLIES.map((reply) => [reply, []]))
/** The slowest read by the transport of each reply, warm-up rounds included: the 2 s bound. */
const slowest = new Map<Reply, number>(REPLIES.map((reply) => [reply, 0]))
try {
  for (const reply of REPLIES) servers.set(reply, await reply.start())
  for (let run = 0; run < runs; run++) {
    const transport = new Map<Reply, number[]>(REPLIES.map((reply) => [reply, []]))
    const floor = new Map<Reply, number[]>(REPLIES.map((reply) => [reply, []]))
    const ratios = new Map<Reply, number[]>(REPLIES.map((reply) => [reply, []]))
    for (let round = -warmup; round < rounds; round++) {
      for (const reply of REPLIES) {
        const { url } = servers.get(reply)!
        // The order alternates each round, so neither reader always runs on a warmer process.
        const floorFirst = round % 2 !== 0
        const first = floorFirst ? await readWithFloor(url) : undefined
        const read = await readWithTransport(url)
        const floorRead = first ?? (await readWithFloor(url))
        if (read.ends !== reply.ends) {
          throw new Error(`transport, ${reply.name}: ended ${read.ends}, expected ${reply.ends}`)
        }
        slowest.set(reply, Math.max(slowest.get(reply)!, read.ms))
        if (round < 0) continue
        transport.get(reply)!.push(read.ms)
        floor.get(reply)!.push(floorRead.ms)
        ratios.get(reply)!.push(read.ms / floorRead.ms)
      }
    }
    for (const reply of REPLIES) {
      figures.get(reply)!.push({
        transport: median(transport.get(reply)!),
        floor: median(floor.get(reply)!),
        ratio: median(ratios.get(reply)!)
      })
    }
    console.log(`run ${run + 1} of ${runs} done`)
  }
} finally {
  for (const server of servers.values()) await server.close()
}

console.log(
  `\n${runs} runs of ${rounds} rounds (after ${warmup} warm-up), node ${process.version}; each cell the range of the runs' medians\n`
)
printTable(
  ['reply', 'ends', 'transport ms', 'floor ms', 'transport / floor', 'slowest transport ms'],
  REPLIES.map((reply) => {
    const of = figures.get(reply)!
    return [
      reply.name,
      reply.ends,
      range(
        of.map((figure) => figure.transport),
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
      slowest.get(reply)!.toFixed(1)
    ]
  })
)
const tooSlow = REPLIES.filter((reply) => slowest.get(reply)! >= LIMIT_MS)
if (tooSlow.length > 0) {
  console.log(
    `\nFAILED: ${tooSlow.map((reply) => reply.name).join(', ')}: a read took ${LIMIT_MS} ms or more.`
  )
  process.exitCode = 1
} else {
  console.log(`\nEvery read by the transport ended as it must in less than ${LIMIT_MS} ms.`)
}
