import { connect } from 'node:net'

export interface RawReply {
  status: number
  head: string
  body: string
  /** Everything the server sent, e.g. several pipelined replies. */
  text: string
}

/** Sends bytes exactly as given (e.g. repeated headers) and reads until the server closes. */
export function rawRequest(origin: string, request: string): Promise<RawReply> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const [head = '', body = ''] = text.split('\r\n\r\n')
      resolve({ status: Number(head.split(' ')[1]), head, body, text })
    })
    socket.write(request)
  })
}

export function headerOf(reply: RawReply, name: string): string | undefined {
  const line = reply.head
    .split('\r\n')
    .find((candidate) => candidate.toLowerCase().startsWith(name.toLowerCase() + ':'))
  return line?.slice(name.length + 1).trim()
}
