/**
 * Collects log lines and writes them once per turn of the event loop: under load one write
 * call carries many request lines instead of one system call per request.
 */
export interface LogSink {
  write(line: string): void
  /** Writes what is pending now, e.g. before the process exits. */
  flush(): void
}

const MAX_PENDING_CHARS = 64 * 1024

export function createBatchingSink(out: (text: string) => void): LogSink {
  let pending: string[] = []
  let pendingChars = 0
  let scheduled = false
  const flush = (): void => {
    scheduled = false
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    pendingChars = 0
    out(text)
  }
  return {
    write(line) {
      pending.push(line)
      pendingChars += line.length
      if (pendingChars >= MAX_PENDING_CHARS) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush
  }
}
