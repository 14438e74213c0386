import { readFile } from 'node:fs/promises'

export interface Genre {
  id: number | string
  name: string
}

/** The genres file is missing or not a JSON array of `{id, name}`. */
export class GenresFileError extends Error {
  constructor(file: string, problem: string) {
    super(`GENRES_FILE: ${file}: ${problem}`)
    this.name = 'GenresFileError'
  }
}

/** Keeps only `id` and `name`, so the file cannot leak other fields into the reply. */
export function parseGenres(file: string, text: string): Genre[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new GenresFileError(file, 'is not valid JSON')
  }
  if (!Array.isArray(value)) throw new GenresFileError(file, 'must hold a JSON array')
  return value.map((item: unknown, index) => {
    const record =
      typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {}
    const { id, name } = record
    if ((typeof id !== 'number' && typeof id !== 'string') || typeof name !== 'string') {
      throw new GenresFileError(file, `item ${index} must be {"id": number|string, "name": string}`)
    }
    return { id, name }
  })
}

export async function loadGenres(file: string): Promise<Genre[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'read failed'
    throw new GenresFileError(file, `cannot be read (${code})`)
  }
  return parseGenres(file, text)
}
