/** How the token is sent to the server. */

/** `Basic base64(token + ':')`: the token as user name with an empty password. */
export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`${token}:`).toString('base64')}`
}
