// The floor of the service benchmark: a bare node:http server that answers every request
// with the same body as `GET /genre`, with no authentication, no CORS and no logging.
// The body is a string, as in the service: Node then sends head and body in one write.
// With `batched` it writes its replies the way the service does (turn-batch.ts), which
// separates what that I/O pattern gains from what the service's own work costs.
import { readFileSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import { parseGenres } from '../src/service/genres.js'
import { createTurnBatch } from '../src/service/turn-batch.js'

const file = new URL('../data/genres.json', import.meta.url).pathname
const body = JSON.stringify(parseGenres(file, readFileSync(file, 'utf8')))
const port = Number(process.argv[2])
const batched = process.argv[3] === 'batched'

const headers = {
  'Content-Type': 'application/json',
  'Content-Length': String(Buffer.byteLength(body))
}
const reply = (res: ServerResponse): void => {
  res.writeHead(200, headers)
  res.end(body)
}
const send = batched
  ? createTurnBatch(reply, (error) => {
      throw error
    })
  : reply

createServer((_req, res) => send(res)).listen(port, '127.0.0.1')
