import path from 'node:path'
import { readBoundedFile } from '../bounded-file.js'
import { messageOf, SettingsError } from '../errors.js'
import { oneLine, QUOTE_LIMITS } from '../untrusted-text.js'

/** The largest CA file read: a whole system bundle is about 200 KiB. */
const MAX_ROOT_CERT_BYTES = 1024 * 1024

/**
 * The PEM text of --root-cert-file, or a SettingsError that says what is wrong with the file:
 * missing, not a regular file (a pipe or a device is refused at once, never waited on), larger
 * than 1 MiB, or without a certificate block.
 *
 * @example const pem = await readRootCertFile('certs/private-ca.pem', process.cwd())
 */
export async function readRootCertFile(file: string, cwd: string): Promise<string> {
  const shown = `--root-cert-file "${oneLine(file, QUOTE_LIMITS.long)}"`
  const read = await readBoundedFile(path.resolve(cwd, file), MAX_ROOT_CERT_BYTES)
  if (read.outcome === 'missing' || read.outcome === 'unreadable') {
    throw new SettingsError(
      read.outcome === 'missing'
        ? `${shown}: there is no such file. Give the path of the CA certificate (PEM), relative to the working directory.`
        : `${shown} cannot be read: ${oneLine(messageOf(read.error), QUOTE_LIMITS.long)}.`,
      { cause: read.error }
    )
  }
  if (read.outcome === 'not-a-file') {
    throw new SettingsError(`${shown} is not a regular file: give the CA certificate's file.`)
  }
  if (read.outcome === 'too-large') {
    throw new SettingsError(
      `${shown} is larger than ${MAX_ROOT_CERT_BYTES / 1024 / 1024} MiB: give the CA certificate (PEM) alone.`
    )
  }
  const text = read.bytes.toString('utf8')
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new SettingsError(
      `${shown} holds no PEM certificate: it must contain a "-----BEGIN CERTIFICATE-----" block (a DER file converts with: openssl x509 -inform der -in ca.cer -out ca.pem).`
    )
  }
  return text
}
