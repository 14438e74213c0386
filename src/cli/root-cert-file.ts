import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { messageOf, SettingsError } from '../errors.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/** The largest CA file read: a whole system bundle is about 200 KiB. */
export const MAX_ROOT_CERT_BYTES = 1024 * 1024

/**
 * The PEM text of --root-cert-file, or a SettingsError that says what is wrong with the file:
 * missing, not a regular file (a pipe or a device is refused at once, never waited on), larger
 * than 1 MiB, or without a certificate block.
 *
 * @example const pem = await readRootCertFile('certs/private-ca.pem', process.cwd())
 */
export async function readRootCertFile(file: string, cwd: string): Promise<string> {
  const shown = `--root-cert-file "${oneLine(file, QUOTE_LIMITS.long)}"`
  let handle
  try {
    const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)
    handle = await open(path.resolve(cwd, file), flags)
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException
    throw new SettingsError(
      code === 'ENOENT'
        ? `${shown}: there is no such file. Give the path of the CA certificate (PEM), relative to the working directory.`
        : `${shown} cannot be read: ${oneLine(messageOf(error), QUOTE_LIMITS.long)}.`,
      { cause: error }
    )
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) {
      throw new SettingsError(`${shown} is not a regular file: give the CA certificate's file.`)
    }
    const bytes = Buffer.alloc(MAX_ROOT_CERT_BYTES + 1)
    let length = 0
    for (;;) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length)
      if (bytesRead === 0 || (length += bytesRead) === bytes.length) break
    }
    if (length > MAX_ROOT_CERT_BYTES) {
      throw new SettingsError(
        `${shown} is larger than ${MAX_ROOT_CERT_BYTES / 1024 / 1024} MiB: give the CA certificate (PEM) alone.`
      )
    }
    const text = bytes.subarray(0, length).toString('utf8')
    if (!text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new SettingsError(
        `${shown} holds no PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (a DER file converts with: openssl x509 -inform der -in ca.cer -out ca.pem).`
      )
    }
    return text
  } finally {
    await handle.close()
  }
}
