// The floor of the service benchmark: a bare node:http server that answers every request
// with the same body as `GET /genre`, with no authentication, no CORS and no logging.
// Plain JavaScript run by node alone, on the service's compiled modules in service/dist/ (the bench
// compiles them first). Usage: node bench/service-floor-server.mjs <port> [bare|batched]
//
// - The body is a string, as in the service: Node then sends head and body in one write.
// - With `batched` it writes its replies the way the service does (http/turn-batch.ts), which
//   separates what that I/O pattern gains from what the service's own work costs.
// - node:http comes through require: on Node 22 and later an ESM import of it also loads
//   Node's internal undici, which the floor does not need.
import { Buffer } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parseGenres } from '../service/dist/app/genres.js'
import { createTurnBatch } from '../service/dist/http/turn-batch.js'

const { createServer } = createRequire(import.meta.url)('node:http')

const file = new URL('../service/data/genres.json', import.meta.url).pathname
const body = JSON.stringify(parseGenres(file, readFileSync(file, 'utf8')))
const port = Number(process.argv[2])
const batched = process.argv[3] === 'batched'

const headers = {
  'Content-Type': 'application/json',
  'Content-Length': String(Buffer.byteLength(body))
}
const reply = (res) => {
  res.writeHead(200, headers)
  res.end(body)
}
const send = batched
  ? createTurnBatch(reply, (error) => {
      throw error
    })
  : reply

createServer((_req, res) => send(res)).listen(port, '127.0.0.1')
