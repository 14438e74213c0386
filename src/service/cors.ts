/** The four fixed CORS headers of spec 4.3, for preflights and authenticated replies. */
export function corsHeaders(allowedOrigin: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'Access-Control-Allow-Origin': allowedOrigin,
    'Access-Control-Allow-Headers': 'X-Requested-With, Content-Type, Accept, Origin, Authorization',
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, PATCH, OPTIONS'
  })
}
