import { describe, expect, it } from 'vitest'
import { cpuMsOfStat, peakRssMb } from '../../bench/service-proc.js'

const STATUS = [
  'Name:\tnode',
  'VmPeak:\t 1151388 kB',
  'VmSize:\t 1085852 kB',
  'VmHWM:\t  112640 kB',
  'VmRSS:\t   98304 kB',
  'Threads:\t11'
].join('\n')

describe('the peak RSS of a process is its VmHWM in /proc/<pid>/status, in MiB', () => {
  it('reads VmHWM, not VmRSS or VmPeak', () => {
    expect(peakRssMb(STATUS)).toBe(110)
  })

  it('is NaN when the line is missing (a kernel thread, or not Linux)', () => {
    expect(peakRssMb('Name:\tkthreadd\nState:\tS (sleeping)')).toBeNaN()
  })
})

describe('the CPU time of a process is utime + stime in /proc/<pid>/stat', () => {
  // Fields 14 and 15 (utime 250, stime 31 ticks) follow the command name.
  const tail = 'S 1 2 3 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 11 0 1000 0 0'

  it('adds utime and stime, at 100 ticks per second', () => {
    expect(cpuMsOfStat(`4242 (node) ${tail}`)).toBe(2810)
  })

  it('counts the fields after the last ") ", so a command name with spaces or ) is skipped', () => {
    expect(cpuMsOfStat(`4242 (a) b (c) ${tail}`)).toBe(2810)
  })
})
