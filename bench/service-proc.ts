// What the service benchmark reads about a child process from Linux's /proc, from outside:
// its peak resident memory and the CPU time it has used.
import { readFileSync } from 'node:fs'

/**
 * The peak resident set size (`VmHWM`, the high-water mark of `VmRSS`) in a
 * `/proc/<pid>/status` text, in MiB; NaN when the line is missing.
 */
export function peakRssMb(status: string): number {
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]
  return kb === undefined ? Number.NaN : Number(kb) / 1024
}

/**
 * utime + stime in a `/proc/<pid>/stat` text, in milliseconds (`ticksPerSecond` is 100 on
 * Linux). The fields are counted after the command name, which may itself hold spaces or `)`.
 */
export function cpuMsOfStat(stat: string, ticksPerSecond = 100): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
}

export function readPeakRssMb(pid: number): number {
  return peakRssMb(readFileSync(`/proc/${pid}/status`, 'utf8'))
}

export function readCpuMs(pid: number): number {
  return cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))
}
