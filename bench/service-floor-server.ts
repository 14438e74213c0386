// The floor of the service benchmark: a bare node:http server that answers every request
// with the same body as `GET /genre`, with no authentication, no CORS and no logging.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { parseGenres } from '../src/service/genres.js'

const file = new URL('../data/genres.json', import.meta.url).pathname
const body = Buffer.from(JSON.stringify(parseGenres(file, readFileSync(file, 'utf8'))))
const port = Number(process.argv[2])

const headers = { 'Content-Type': 'application/json', 'Content-Length': String(body.length) }

createServer((_req, res) => {
  res.writeHead(200, headers)
  res.end(body)
}).listen(port, '127.0.0.1')
