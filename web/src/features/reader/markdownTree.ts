import { CodepointIndex } from '@pinpoint/core/codepoints';
import type { Nodes, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { Utf16Range } from './textRange.js';
import { codepointRangeToUtf16 } from './textRange.js';

/** Characters of the source shown as they are, at their place: `start`/`end` are codepoint offsets into the source. */
export interface MdText {
  kind: 'text';
  text: string;
  start: number;
  end: number;
  marked: boolean;
}

/** A rendered element; only these tags are produced, and no attribute comes from the document but a vetted href. */
export interface MdElement {
  kind: 'element';
  tag: MdTag;
  href?: string;
  /** An ordered list's first number. */
  listStart?: number;
  children: MdNode[];
}

type MdTag =
  | 'div'
  | 'p'
  | 'h1'
  | 'h2'
  | 'h3'
  | 'h4'
  | 'h5'
  | 'h6'
  | 'em'
  | 'strong'
  | 'del'
  | 'code'
  | 'pre'
  | 'blockquote'
  | 'ul'
  | 'ol'
  | 'li'
  | 'hr'
  | 'br'
  | 'a'
  | 'table'
  | 'tbody'
  | 'tr'
  | 'th'
  | 'td'
  | 'span';

export type MdNode = MdText | MdElement;

interface Walk {
  source: string;
  index: CodepointIndex;
  /** The cited range in UTF-16 units of the source; null: nothing is marked. */
  mark: Utf16Range | null;
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml', 'toml']);

/**
 * The source characters [from, to) (UTF-16) as text pieces, split where the cited range begins and
 * ends: a character is marked exactly when its source offset lies in the cited range.
 */
function pieces(walk: Walk, from: number, to: number): MdText[] {
  const cuts = [from, to];
  if (walk.mark) for (const c of [walk.mark.start, walk.mark.end]) if (c > from && c < to) cuts.push(c);
  cuts.sort((a, b) => a - b);
  const out: MdText[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const a = cuts[i] as number;
    const b = cuts[i + 1] as number;
    if (b <= a) continue;
    out.push({
      kind: 'text',
      text: walk.source.slice(a, b),
      start: walk.index.toCodepoint(a),
      end: walk.index.toCodepoint(b),
      marked: walk.mark !== null && a >= walk.mark.start && b <= walk.mark.end,
    });
  }
  return out;
}

/**
 * A leaf's text at its place in the source: its value where the source holds it verbatim (a code
 * span without its backticks), else the source characters themselves (an escape or an entity is
 * shown as written), so every character shown maps to one source offset.
 */
function leaf(walk: Walk, node: Nodes, value: string): MdText[] {
  const from = node.position?.start.offset;
  const to = node.position?.end.offset;
  if (from === undefined || to === undefined) return [];
  const at = value ? walk.source.slice(from, to).indexOf(value) : -1;
  return at >= 0 ? pieces(walk, from + at, from + at + value.length) : pieces(walk, from, to);
}

const element = (tag: MdTag, children: MdNode[], extra: Partial<MdElement> = {}): MdElement => ({
  kind: 'element',
  tag,
  children,
  ...extra,
});

/** Links open only to the web or mail; anything else (javascript:, data:) is shown as text. */
function safeHref(url: string): string | undefined {
  return /^(https?:|mailto:)/i.test(url) ? url : undefined;
}

function children(walk: Walk, node: Nodes): MdNode[] {
  return 'children' in node ? node.children.flatMap((c) => convert(walk, c as Nodes)) : [];
}

function convert(walk: Walk, node: Nodes): MdNode[] {
  switch (node.type) {
    case 'text':
      return leaf(walk, node, node.value);
    case 'inlineCode':
      return [element('code', leaf(walk, node, node.value))];
    case 'code':
      return [element('pre', [element('code', leaf(walk, node, node.value))])];
    case 'html':
    case 'yaml':
    case 'definition':
    case 'footnoteReference':
      // never parsed as markup: raw HTML and the like are shown as the source characters
      return [element('code', leaf(walk, node, ''))];
    case 'image':
    case 'imageReference':
      return [element('span', leaf(walk, node, node.alt ?? ''))];
    case 'paragraph':
      return [element('p', children(walk, node))];
    case 'heading':
      return [element(`h${node.depth}` as MdTag, children(walk, node))];
    case 'emphasis':
      return [element('em', children(walk, node))];
    case 'strong':
      return [element('strong', children(walk, node))];
    case 'delete':
      return [element('del', children(walk, node))];
    case 'blockquote':
      return [element('blockquote', children(walk, node))];
    case 'list':
      return [
        element(node.ordered ? 'ol' : 'ul', children(walk, node), node.ordered && node.start ? { listStart: node.start } : {}),
      ];
    case 'listItem':
      return [element('li', children(walk, node))];
    case 'thematicBreak':
      return [element('hr', [])];
    case 'break':
      return [element('br', [])];
    case 'link': {
      const href = safeHref(node.url);
      return [element(href ? 'a' : 'span', children(walk, node), href ? { href } : {})];
    }
    case 'table': {
      // the first row of a table is its header
      const rows = node.children.map((row, i) =>
        element(
          'tr',
          row.children.map((cell) => element(i === 0 ? 'th' : 'td', children(walk, cell))),
        ),
      );
      return [element('table', [element('tbody', rows)])];
    }
    default:
      return [element('div', children(walk, node))];
  }
}

/**
 * The Markdown source rendered as a tree of our own elements, with the cited codepoint range
 * [start, end) marked exactly: remark's positions (UTF-16 offsets) place every shown character
 * at its source offset, and the one conversion (codepointRangeToUtf16) maps the range. Throws on a
 * range that does not fit the text.
 */
export function markdownTree(source: string, range: { start: number; end: number } | null): MdElement {
  const walk: Walk = {
    source,
    index: new CodepointIndex(source),
    mark: range ? codepointRangeToUtf16(source, range.start, range.end) : null,
  };
  return element('div', children(walk, parser.parse(source) as Root));
}
