import type { ParseContext, ParseOutput } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import type { Code, Heading, Nodes, Root, RootContent } from 'mdast';
import { decodeText } from '../text/decode.js';
import type { TextPiece } from '../text/text-output.js';
import { textOutput, trimRange } from '../text/text-output.js';
import { LONG_LINE, maskLongLines } from './long-lines.js';

interface Walk {
  text: string;
  index: CodepointIndex;
  pieces: TextPiece[];
  /** Heading trail as [level, text] pairs. */
  headings: Array<[number, string]>;
}

type Range = { start: number; end: number };

function nodeRange(node: Nodes): Range | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? undefined : { start, end };
}

/** From the first child's start to the last child's end: excludes markers like "## " or "> ". */
function childrenRange(children: readonly Nodes[]): Range | undefined {
  const first = children[0] ? nodeRange(children[0]) : undefined;
  const last = children.length > 0 ? nodeRange(children[children.length - 1] as Nodes) : undefined;
  return first && last ? { start: first.start, end: last.end } : undefined;
}

/** The code between the fences of a fenced block (the whole block when indented). */
function codeRange(node: Code, text: string): Range | undefined {
  const range = nodeRange(node);
  if (!range) return undefined;
  const raw = text.slice(range.start, range.end);
  if (!/^(```|~~~)/.test(raw.trimStart())) return range;
  const open = raw.indexOf('\n');
  if (open < 0) return undefined;
  const closeLine = raw.lastIndexOf('\n');
  const closed = closeLine > open && /^\s*(```|~~~)/.test(raw.slice(closeLine + 1));
  return { start: range.start + open + 1, end: closed ? range.start + closeLine : range.end };
}

function push(walk: Walk, type: TextPiece['type'], range: Range | undefined, level?: number): string | undefined {
  if (!range) return undefined;
  const trimmed = trimRange(walk.text, range.start, range.end);
  if (!trimmed) return undefined;
  const piece: TextPiece = {
    type,
    start: walk.index.toCodepoint(trimmed.start),
    end: walk.index.toCodepoint(trimmed.end),
    section_path: walk.headings.map(([, t]) => t),
    ...(level !== undefined ? { level } : {}),
  };
  walk.pieces.push(piece);
  return walk.text.slice(trimmed.start, trimmed.end);
}

/** The plain text of a node (markup dropped): what the heading trail shows. */
function plainText(node: Nodes): string {
  if ('value' in node && (node.type === 'text' || node.type === 'inlineCode')) return node.value;
  return 'children' in node ? node.children.map((c) => plainText(c as Nodes)).join('') : '';
}

function visitHeading(walk: Walk, node: Heading): void {
  while (walk.headings.length > 0 && (walk.headings[walk.headings.length - 1] as [number, string])[0] >= node.depth)
    walk.headings.pop();
  const title = push(walk, 'heading', childrenRange(node.children), node.depth);
  const plain = title !== undefined && title.length > LONG_LINE ? title : plainText(node).replace(/\s+/g, ' ').trim();
  if (title !== undefined) walk.headings.push([node.depth, plain || title]);
}

function visit(walk: Walk, node: RootContent): void {
  switch (node.type) {
    case 'heading':
      visitHeading(walk, node);
      return;
    case 'paragraph':
      // A paragraph of images only (often base64 data URIs) carries no text worth indexing.
      if (
        node.children.every(
          (c) => c.type === 'image' || c.type === 'imageReference' || (c.type === 'text' && c.value.trim() === ''),
        )
      )
        return;
      push(walk, 'paragraph', nodeRange(node));
      return;
    case 'code':
      push(walk, 'code', codeRange(node, walk.text));
      return;
    case 'blockquote':
      push(walk, 'quote', childrenRange(node.children));
      return;
    case 'table':
      push(walk, 'table', nodeRange(node));
      return;
    case 'list':
      for (const item of node.children) visitListItem(walk, item.children);
      return;
    case 'footnoteDefinition':
      for (const child of node.children) visit(walk, child);
      return;
    default:
      return; // html, yaml/toml front matter, thematic breaks, definitions: not indexed
  }
}

/** A list item is one element (its leading paragraphs); nested lists become their own items. */
function visitListItem(walk: Walk, children: readonly RootContent[]): void {
  const nested = children.findIndex((c) => c.type === 'list');
  const own = nested < 0 ? children : children.slice(0, nested);
  push(walk, 'list_item', childrenRange(own));
  for (const child of nested < 0 ? [] : children.slice(nested)) visit(walk, child);
}

async function buildProcessor() {
  const [{ unified }, { default: remarkParse }, { default: remarkGfm }, { default: remarkFrontmatter }] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-gfm'),
    import('remark-frontmatter'),
  ]);
  return unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml', 'toml']);
}

let processor: ReturnType<typeof buildProcessor> | undefined;

/** remark loads with the first Markdown file: a parse process that only reads PDFs never compiles it. */
function markdownProcessor(): ReturnType<typeof buildProcessor> {
  processor ??= buildProcessor();
  return processor;
}

export async function parseMarkdown(bytes: Uint8Array, ctx: ParseContext): Promise<ParseOutput> {
  const decoded = decodeText(bytes);
  const text = decoded.text;
  const tree = (await markdownProcessor()).parse(maskLongLines(text)) as Root;
  const walk: Walk = { text, index: new CodepointIndex(text), pieces: [], headings: [] };
  for (const node of tree.children) visit(walk, node);
  return textOutput(ctx.format, text, walk.pieces, decoded.diagnostics);
}
