// The service's container image: its size, and how long it takes from `podman run` to the
// first 200 on `/` and from `podman stop` to the container's exit, against the same for a bare
// node:http server in the same base image (the floor: podman, the runtime and node's own
// start), alternating, over several runs. Run with `npx tsx bench/service-image.ts [--runs 5]`
// where podman runs (see service/README.md, "Container").
import { parseArgs } from 'node:util'
import { createServer } from 'node:net'
import {
  BASE_IMAGE,
  buildServiceImage,
  ensureBaseImage,
  podman,
  SERVICE_DIR,
  whyPodmanCannotRun
} from './podman.js'
import { printTable, range } from './stats.js'

const IMAGE = 'localhost/genre-service:bench'

// The floor: a node:http server answering 200 on every target, stopping on SIGTERM (node is
// PID 1, which has no default signal action). node:http through getBuiltinModule, as in the
// service, so that neither loads undici.
const FLOOR_SCRIPT =
  "const { createServer } = process.getBuiltinModule('node:http');" +
  'const server = createServer((q, s) => s.end(\'{"status":"ok"}\'));' +
  "server.listen(Number(process.env.PORT), '127.0.0.1');" +
  "process.on('SIGTERM', () => server.close(() => process.exit(0)))"

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function firstOk(url: string, deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    const ok = await fetch(url).then(
      (response) => response.status === 200,
      () => false
    )
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`no 200 from ${url}`)
}

/** Milliseconds from `podman run` to the first 200 on `/`, and from `podman stop` to exit. */
async function startAndStop(runArgs: string[]): Promise<{ startMs: number; stopMs: number }> {
  const port = await freePort()
  const name = `genre-service-bench-${process.pid}-${port}`
  const began = performance.now()
  await podman([
    'run',
    '--detach',
    '--name',
    name,
    '--network=host',
    '--env=HOST=127.0.0.1',
    `--env=PORT=${port}`,
    ...runArgs
  ])
  try {
    await firstOk(`http://127.0.0.1:${port}/`, began + 30_000)
    const startMs = performance.now() - began
    const stopping = performance.now()
    await podman(['stop', '--time=10', name], 30_000)
    const stopMs = performance.now() - stopping
    const code = (await podman(['inspect', '--format', '{{.State.ExitCode}}', name])).trim()
    if (code !== '0') throw new Error(`${name} exited ${code}`)
    return { startMs, stopMs }
  } finally {
    await podman(['rm', '--force', '--time=0', name]).catch(() => undefined)
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } })
  const runs = Number(values.runs)
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1')
  const reason = whyPodmanCannotRun()
  if (reason !== undefined) throw new Error(reason)
  await ensureBaseImage()
  await buildServiceImage(SERVICE_DIR, IMAGE)

  const sizeOf = async (image: string): Promise<number> =>
    Number((await podman(['image', 'inspect', '--format', '{{.Size}}', image])).trim()) / 1e6
  const [imageMb, baseMb] = [await sizeOf(IMAGE), await sizeOf(BASE_IMAGE)]

  const service = { start: [] as number[], stop: [] as number[] }
  const floor = { start: [] as number[], stop: [] as number[] }
  for (let run = 0; run < runs; run++) {
    // Alternate which goes first, so neither always meets a warmer cache.
    const order = run % 2 === 0 ? ['floor', 'service'] : ['service', 'floor']
    for (const target of order) {
      const figures =
        target === 'floor'
          ? await startAndStop([BASE_IMAGE, 'node', '-e', FLOOR_SCRIPT])
          : await startAndStop([
              '--env=CLIENT_ID=bench.apps.googleusercontent.com',
              '--env=ALLOWED_ORIGIN=https://app.example.com',
              IMAGE
            ])
      const into = target === 'floor' ? floor : service
      into.start.push(figures.startMs)
      into.stop.push(figures.stopMs)
    }
  }
  const ratios = (a: number[], b: number[]): number[] => a.map((value, i) => value / b[i]!)
  console.log(
    `image ${IMAGE}: ${imageMb.toFixed(1)} MB; its base ${BASE_IMAGE}: ${baseMb.toFixed(1)} MB; the service's own layers: ${(imageMb - baseMb).toFixed(1)} MB`
  )
  console.log(`${runs} runs, each figure the range over the runs (ms):\n`)
  printTable(
    ['container', 'run → first 200 on /', 'stop → exit', 'start, ratio to floor'],
    [
      ['bare node:http (floor)', range(floor.start), range(floor.stop), '1'],
      [
        'the service',
        range(service.start),
        range(service.stop),
        range(ratios(service.start, floor.start), 2)
      ]
    ]
  )
}

main().catch((error: unknown) => {
  console.error(`bench/service-image: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
