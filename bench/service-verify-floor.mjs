// The reference of the service benchmark's cold-verification line: plain `crypto.verify` of
// the same RS256 tokens the service verifies with its cache off, in a loop, on one thread.
// Reads `{"publicKeyPem", "tokens", "durationMs"}` on stdin and prints
// `{"verifications", "ms"}`. Usage: node bench/service-verify-floor.mjs < input.json
//
// The signing input and signature of each token are decoded once, before the loop: the
// reference is the signature check alone, nothing of JWT parsing or claim checks.
import { Buffer } from 'node:buffer'
import { createPublicKey, verify } from 'node:crypto'
import { performance } from 'node:perf_hooks'

let input = ''
process.stdin.setEncoding('utf8')
for await (const chunk of process.stdin) input += chunk
const { publicKeyPem, tokens, durationMs } = JSON.parse(input)

const key = createPublicKey(publicKeyPem)
const signed = tokens.map((token) => {
  const dot = token.lastIndexOf('.')
  return {
    data: Buffer.from(token.slice(0, dot)),
    signature: Buffer.from(token.slice(dot + 1), 'base64url')
  }
})

let verifications = 0
const started = performance.now()
let now = started
while (now - started < durationMs) {
  for (const { data, signature } of signed) {
    if (!verify('sha256', data, key, signature)) throw new Error('a bench token did not verify')
  }
  verifications += signed.length
  now = performance.now()
}
console.log(JSON.stringify({ verifications, ms: now - started }))
