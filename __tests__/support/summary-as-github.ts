import MarkdownIt from 'markdown-it'
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5'

/**
 * The job summary as GitHub shows it: Markdown with raw HTML allowed and bare addresses turned
 * into links (markdown-it configured like GitHub), then parsed as a browser parses HTML.
 */
const github = new MarkdownIt({ html: true, linkify: true })

export interface RenderedElement {
  tag: string
  attributes: Record<string, string>
  /** The element's visible text, entities decoded (without the invisible word joiners). */
  text: string
  /** For a table row: each cell's visible text. */
  cells: string[]
}

export interface RenderedSummary {
  /** What markdown-it made of the summary. */
  html: string
  /** Every element, in document order; comments count as elements named `#comment`. */
  elements: RenderedElement[]
  /** The visible text of the whole summary (without the invisible word joiners). */
  text: string
  /**
   * The text mentions, references and bare addresses are searched in, as the platforms search
   * it: outside `pre`, `code`, `a` and `style`, every character kept, the word joiners too.
   */
  mentionable: string
  /**
   * The same text node by node, as GitLab's reference filters take it (each text node outside
   * `pre`, `code`, `a` and `style`, on its own: lib/banzai/filter/references/reference_filter.rb).
   */
  searched: string[]
  of(tag: string): RenderedElement[]
}

export function renderAsGitHub(summary: string): RenderedSummary {
  return rendered(github.render(summary))
}

/**
 * Markdown as a platform that renders no raw HTML shows it (markdown-it, CommonMark with bare
 * addresses linked and HTML left as text: as Bitbucket and Azure DevOps render comments).
 */
const markdownOnly = new MarkdownIt({ html: false, linkify: true })

export function renderAsMarkdown(text: string): RenderedSummary {
  return rendered(markdownOnly.render(text))
}

function rendered(html: string): RenderedSummary {
  const elements: RenderedElement[] = []
  const fragment = parseFragment(html)
  for (const node of fragment.childNodes) collect(node, elements)
  return {
    html,
    elements,
    text: fragment.childNodes.map(textOf).join(''),
    mentionable: fragment.childNodes.map(mentionableText).join(''),
    searched: fragment.childNodes.flatMap(searchedNodes),
    of: (tag) => elements.filter((element) => element.tag === tag)
  }
}

type Node = DefaultTreeAdapterTypes.ChildNode

function collect(node: Node, into: RenderedElement[]): void {
  if (node.nodeName === '#comment') {
    into.push({ tag: '#comment', attributes: {}, text: '', cells: [] })
  } else if ('tagName' in node) {
    const attributes = Object.fromEntries(node.attrs.map(({ name, value }) => [name, value]))
    const cells = node.childNodes.filter(
      (child) => child.nodeName === 'td' || child.nodeName === 'th'
    )
    into.push({ tag: node.tagName, attributes, text: textOf(node), cells: cells.map(textOf) })
    for (const child of node.childNodes) collect(child, into)
  }
}

/** What a reader sees: a word joiner (U+2060) has no width and is not seen. */
function textOf(node: Node): string {
  if (node.nodeName === '#text') {
    return (node as DefaultTreeAdapterTypes.TextNode).value.replaceAll('\u2060', '')
  }
  if ('childNodes' in node) return node.childNodes.map(textOf).join('')
  return ''
}

const NOT_SEARCHED = new Set(['pre', 'code', 'a', 'style'])

function searchedNodes(node: Node): string[] {
  if ('tagName' in node && NOT_SEARCHED.has(node.tagName)) return []
  if (node.nodeName === '#text') return [(node as DefaultTreeAdapterTypes.TextNode).value]
  if ('childNodes' in node) return node.childNodes.flatMap(searchedNodes)
  return []
}

function mentionableText(node: Node): string {
  if ('tagName' in node && NOT_SEARCHED.has(node.tagName)) return ' '
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterTypes.TextNode).value
  if ('childNodes' in node) return node.childNodes.map(mentionableText).join('')
  return ''
}
