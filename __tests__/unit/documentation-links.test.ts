import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import MarkdownIt from 'markdown-it'

import { describe, expect, it } from 'vitest'
import { declaredInputs } from '../../__fixtures__/built-action.js'

const ROOT = path.resolve(import.meta.dirname, '../..')
const markdown = new MarkdownIt({ html: true })
type Token = ReturnType<typeof markdown.parse>[number]

/** The README, every page of docs/, and the pages they link to in the repository. */
const PAGES = [
  'README.md',
  'SECURITY.md',
  'bench/README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/** The README may hold what most users need, no more: the rest is in docs/. */
const README_MAX_LINES = 300

function read(page: string): string {
  return readFileSync(path.join(ROOT, page), 'utf8')
}

function inline(tokens: Token[]): Token[] {
  return tokens.flatMap((token) => [token, ...(token.children ?? [])])
}

/** Every link target of a page: Markdown links and images, and href/src of inline HTML. */
function linksOf(text: string): string[] {
  const links: string[] = []
  for (const token of inline(markdown.parse(text, {}))) {
    if (token.type === 'link_open') links.push(String(token.attrGet('href') ?? ''))
    if (token.type === 'image') links.push(String(token.attrGet('src') ?? ''))
    if (token.type === 'html_inline' || token.type === 'html_block') {
      for (const [, target] of token.content.matchAll(/(?:href|src)="([^"]*)"/g)) {
        links.push(target ?? '')
      }
    }
  }
  return links
}

/**
 * The anchors GitHub gives a page's headings: the text in lower case, punctuation but `-` and
 * `_` dropped, spaces as `-`; a repeated one gets `-1`, `-2`…
 */
function anchorsOf(text: string): Set<string> {
  const tokens = markdown.parse(text, {})
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return
    const text = (tokens[i + 1]?.children ?? [])
      .filter((child) => child.type === 'text' || child.type === 'code_inline')
      .map((child) => child.content)
      .join('')
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  })
  return anchors
}

interface Broken {
  page: string
  link: string
  why: string
}

/**
 * The links of `page` (its text given) that lead nowhere: a missing file, or a heading the
 * page linked to does not have.
 */
function brokenLinks(page: string, text: string): Broken[] {
  const broken: Broken[] = []
  for (const link of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue // https:, mailto:: not this repository's
    const [file = '', anchor] = link.split('#')
    const target =
      file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file))
    if (target !== page && (target.startsWith('..') || !existsSync(path.join(ROOT, target)))) {
      broken.push({ page, link, why: `no file ${target}` })
      continue
    }
    if (anchor === undefined || anchor === '') continue
    if (
      !target.endsWith('.md') ||
      (target !== page && statSync(path.join(ROOT, target)).isDirectory())
    ) {
      broken.push({ page, link, why: `${target} has no headings to link to` })
    } else if (!anchorsOf(target === page ? text : read(target)).has(decodeURIComponent(anchor))) {
      broken.push({ page, link, why: `${target} has no heading #${anchor}` })
    }
  }
  return broken
}

describe('the documentation: a short README, one page per question, every link resolving', () => {
  it(`the README is at most ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').split('\n').length
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES)
  })

  it("the README's inputs and outputs tables have one row for each of action.yml's", () => {
    const action = read('action.yml')
    const outputs = action
      .slice(action.indexOf('\noutputs:'))
      .split('\n')
      .flatMap((line) => /^ {2}([\w-]+):\s*$/.exec(line)?.[1] ?? [])
    // In the README's order, which need not be action.yml's.
    expect(tableRows(read('README.md'), '## Inputs').sort()).toEqual(
      [...declaredInputs().keys()].sort()
    )
    expect(tableRows(read('README.md'), '## Outputs').sort()).toEqual(outputs.sort())
    expect(outputs.length).toBeGreaterThan(5)
  })

  it('the README links every page of docs/', () => {
    const linked = new Set(linksOf(read('README.md')).map((link) => link.split('#')[0]))
    const pages = PAGES.filter((page) => page.startsWith('docs/'))
    expect(pages.filter((page) => !linked.has(page))).toEqual([])
  })

  it.each(PAGES)('every link of %s resolves, to a file and a heading', (page) => {
    const text = read(page)
    expect(linksOf(text).length).toBeGreaterThan(0)
    expect(brokenLinks(page, text)).toEqual([])
  })

  describe('the checker itself', () => {
    it('names the headings as GitHub does', () => {
      expect(anchorsOf(read('docs/troubleshooting.md'))).toContain(
        'the-exact-bound-of-the-time-out'
      )
      expect(
        anchorsOf('## A manual check (`workflow_dispatch`) with `taskId`\n## Retries\n## Retries\n')
      ).toEqual(new Set(['a-manual-check-workflow_dispatch-with-taskid', 'retries', 'retries-1']))
    })

    it('reports a link to a missing file, a missing heading there or here, and passes the rest', () => {
      const text = [
        '# Planted',
        '[a](nowhere.md) [b](troubleshooting.md#no-such-heading) [c](#retries)',
        '[d](troubleshooting.md#retries) [e](#planted) [f](https://example.com/x#y)',
        '<a href="../README.md#no-such-heading">g</a>'
      ].join('\n')
      expect(brokenLinks('docs/planted.md', text).map(({ link }) => link)).toEqual([
        'nowhere.md',
        'troubleshooting.md#no-such-heading',
        '#retries',
        '../README.md#no-such-heading'
      ])
    })
  })
})

/** The first column (a `name` in backticks) of the first table after `heading`. */
function tableRows(text: string, heading: string): string[] {
  const after = text.slice(text.indexOf(`\n${heading}\n`) + heading.length + 2)
  const table = after.slice(after.indexOf('\n|') + 1).split('\n')
  const rows = table.slice(
    0,
    table.findIndex((line) => !line.startsWith('|'))
  )
  return rows.slice(2).flatMap((row) => /^\| `([^`]+)`/.exec(row)?.[1] ?? [])
}
