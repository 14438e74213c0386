/**
 * A string as a JSON string literal, the same text `JSON.stringify` gives. Paths and
 * subjects rarely need escaping, so a scan for `"`, `\`, control characters and surrogates
 * (which JSON.stringify escapes when unpaired) decides whether the cheap form will do.
 */
export function jsonString(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return JSON.stringify(value)
    }
  }
  return `"${value}"`
}
