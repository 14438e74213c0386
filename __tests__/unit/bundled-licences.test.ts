import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bundledLicences } from '../../scripts/licenses.js'

/**
 * The licences shipped beside the bundles (scripts/licenses.ts): every package a module of the
 * bundle comes from, found in ncc's stats, concatenated modules and nested node_modules included.
 */
describe('bundledLicences', () => {
  let root: string

  /** A package folder under `root` with its manifest and, unless `licence` is undefined, a file. */
  async function pkg(folder: string, name: string, licence: string | undefined): Promise<void> {
    const dir = path.join(root, folder)
    await mkdir(dir, { recursive: true })
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, license: 'MIT' }))
    if (licence !== undefined) await writeFile(path.join(dir, 'LICENSE.md'), `${licence}\n`)
  }

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'licences-'))
    await pkg('node_modules/@scope/core', '@scope/core', 'core text')
    await pkg('node_modules/@scope/core/node_modules/inner', 'inner', 'inner text')
    await pkg('node_modules/plain', 'plain', 'plain text')
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  it('lists every package of the modules, concatenated and nested ones too, once each', async () => {
    const modules = [
      { name: './src/main.ts + 3 modules', modules: [{ name: './node_modules/plain/index.js' }] },
      { name: './node_modules/@scope/core/node_modules/inner/lib/x.js' },
      { name: './node_modules/plain/lib/other.js' }
    ]
    expect(await bundledLicences(root, modules)).toBe(
      '@scope/core\nMIT\ncore text\n\n\ninner\nMIT\ninner text\n\n\nplain\nMIT\nplain text\n'
    )
  })

  it('refuses a bundled package without a licence file', async () => {
    await pkg('node_modules/bare', 'bare', undefined)
    await expect(bundledLicences(root, [{ name: './node_modules/bare/index.js' }])).rejects.toThrow(
      'bare (node_modules/bare) is bundled but has no licence file.'
    )
  })

  it("ships the licences of what the action's main file holds, which ncc's list left out", async () => {
    const shipped = await readFile(
      path.resolve(import.meta.dirname, '../../dist/licenses.txt'),
      'utf8'
    )
    for (const name of ['undici', '@actions/core', '@actions/http-client', 'tunnel']) {
      expect(`\n\n\n${shipped}`).toContain(`\n\n\n${name}\nMIT\n`)
    }
  })
})
