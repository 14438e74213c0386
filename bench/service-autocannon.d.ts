// The subset of autocannon's programmatic API that the service benchmark uses
// (autocannon ships no type declarations).
declare module 'autocannon' {
  interface Histogram {
    average: number
    mean: number
    p50: number
    p99: number
    max: number
  }
  interface Options {
    url: string
    connections?: number
    duration?: number
    pipelining?: number
    headers?: Record<string, string>
    /** Sent in turn on each connection, e.g. one token each. */
    requests?: { method?: string; path?: string; headers?: Record<string, string> }[]
  }
  interface Result {
    requests: Histogram & { total: number }
    latency: Histogram
    non2xx: number
    errors: number
    timeouts: number
    '2xx': number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
