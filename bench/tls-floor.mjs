// The floor for a failed connection: start node, make one GET to the address (node:https, or
// node:http for an http:// address, through process.getBuiltinModule, with the CA when one is
// given), print Node's error code and exit 1. Nothing else: no agent, no retries, no words.
// Usage: node bench/tls-floor.mjs <url> [<CA PEM file>]
const url = new URL(process.argv[2])
const caFile = process.argv[3]
const ca = caFile ? process.getBuiltinModule('node:fs').readFileSync(caFile, 'utf8') : undefined
const client = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http')

client
  .get(url, ca ? { ca } : {}, (response) => {
    console.log(`HTTP ${response.statusCode}`)
    process.exit(0)
  })
  .on('error', (error) => {
    console.log(error.code)
    process.exit(1)
  })
