import { fstatSync, writeSync } from 'node:fs'
import { isatty } from 'node:tty'

const STDOUT = 1

/**
 * How log text reaches stdout. A file (or /dev/null) gets the string with a synchronous
 * write: through process.stdout, every string would first become a Buffer whose memory goes
 * back only when the garbage collector gets to it, and under load the process grew by 25 MB
 * and more within a minute. A pipe or a terminal goes through process.stdout, which writes strings as
 * they are (Node makes both synchronous on Linux).
 */
export function stdoutWriter(): (text: string) => void {
  if (isPlainFile()) return (text) => void writeSync(STDOUT, text)
  return (text) => void process.stdout.write(text)
}

function isPlainFile(): boolean {
  try {
    const stat = fstatSync(STDOUT)
    return stat.isFile() || (stat.isCharacterDevice() && !isatty(STDOUT))
  } catch {
    return false
  }
}
