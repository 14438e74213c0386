/**
 * What a step of the real-server harness reports when it fails: which step, what went wrong and
 * what to do about it, and the lines of the server's own logs that say why, when there are some.
 */
export class HarnessFailure extends Error {
  override readonly name = 'HarnessFailure'

  constructor(
    /** The step that failed, e.g. `start SonarQube 10.7.0.96327`. */
    readonly step: string,
    /** What went wrong and what to do. */
    readonly reason: string,
    /** The server's own log lines, newest last. */
    readonly logLines: string[] = []
  ) {
    super(
      [`${step}: ${reason}`, ...(logLines.length ? ['Its logs end with:', ...logLines] : [])].join(
        '\n'
      )
    )
  }
}

/**
 * Runs `work`, failing with `HarnessFailure` when it takes longer than `ms`.
 *
 * @example await within(60_000, 'fetch 10.7.0.96327', () => fetchZip(version))
 */
export async function within<T>(
  ms: number,
  step: string,
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout = 'it took longer than allowed; the machine may be overloaded'
): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort()
      reject(new HarnessFailure(step, `${onTimeout} (limit ${Math.round(ms / 1000)} s)`))
    }, ms)
  })
  try {
    return await Promise.race([work(controller.signal), timeout])
  } finally {
    clearTimeout(timer)
  }
}
