// prepack / postpack: the published package.json leaves out what only developing this
// repository needs (the optional downloads: Node 24 and the SARIF validator), and is put back as
// it was afterwards.
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

const [step] = process.argv.slice(2)
if (step === 'strip') {
  copyFileSync('package.json', 'package.json.orig')
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'))
  delete manifest.optionalDependencies
  delete manifest.devDependencies
  delete manifest.allowScripts
  writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`)
} else if (step === 'restore') {
  renameSync('package.json.orig', 'package.json')
} else {
  throw new Error('usage: node scripts/pack-manifest.mjs strip|restore')
}
