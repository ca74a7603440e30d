import type { Box, TextSpan } from '@pinpoint/core';
import { CodepointIndex } from '@pinpoint/core';
import type { DocumentModel } from './document-model.js';
import { continues, sizeKey, splitsWord } from './document-model.js';
import type { Line, Piece } from './lines.js';
import { isCjk } from './lines.js';

/** A paragraph-like block of lines: its text, one box per line, and spans (codepoints into text). */
export interface PdfBlock {
  text: string;
  boxes: Box[];
  spans: TextSpan[];
  size: number;
  lines: number;
  /** OCR'd blocks: mean word confidence 0..100. */
  confidence?: number;
  /** Text in a writing direction other than the page's main one (margin stamps, rotated labels). */
  marginal?: boolean;
}

const sentenceEnd = /[.!?:。！？：」』）)]$/;

function canJoin(block: Line[], line: Line, model: DocumentModel): boolean {
  const prev = block.at(-1) as Line;
  if (!continues(prev, line)) return false;
  const size = Math.max(prev.size, line.size);
  const pitch = line.base - prev.base;
  if (pitch <= 0.3 * size || line.ftop - prev.fbottom > size) return false;
  const usual = model.pitches.get(sizeKey(line.size));
  if (pitch > (usual !== undefined ? usual * 1.15 + 0.5 : 1.5 * size)) return false;
  if (block.length >= 2) {
    const firstPitch = (block[1] as Line).base - (block[0] as Line).base;
    if (pitch > firstPitch * 1.2 + 0.5) return false;
    if (line.fx0 > Math.min(...block.map((l) => l.fx0)) + size) return false;
  }
  if (model.spacedParagraphs) return true;
  const right = Math.max(line.fx1, ...block.map((l) => l.fx1));
  return !(prev.fx1 < right - 3 * size && sentenceEnd.test(prev.text));
}

/** Groups lines (already in reading order) into blocks. */
export function groupBlocks(lines: Line[], model: DocumentModel): Line[][] {
  const blocks: Line[][] = [];
  for (const line of lines) {
    const current = blocks.at(-1);
    if (current && canJoin(current, line, model)) current.push(line);
    else blocks.push([line]);
  }
  return blocks;
}

/** The separator between two lines of a block; a line-end hyphen is removed when it splits a word. */
function joinLines(prev: string, next: string, model: DocumentModel): { cut: number; sep: string } {
  if (/\u00ad$/.test(prev)) return { cut: 1, sep: '' };
  if (/\p{L}-$/u.test(prev) && /^\p{Ll}/u.test(next)) return { cut: splitsWord(prev, next, model) ? 1 : 0, sep: '' };
  const last = Array.from(prev.slice(-2)).at(-1);
  if (isCjk(last) || isCjk(Array.from(next.slice(0, 2))[0])) return { cut: 0, sep: '' };
  return { cut: 0, sep: ' ' };
}

/** One block's text, line boxes and codepoint spans (split at sentence ends so a sentence resolves to its own boxes). */
export function blockText(lines: Line[], model: DocumentModel): PdfBlock {
  let text = '';
  const pieces: Piece[] = [];
  lines.forEach((line, i) => {
    if (i > 0) {
      const { cut, sep } = joinLines(text, line.text, model);
      text = text.slice(0, text.length - cut) + sep;
    }
    const offset = text.length;
    text += line.text;
    for (const p of line.pieces) pieces.push({ start: p.start + offset, end: p.end + offset, box: p.box });
  });
  const index = new CodepointIndex(text);
  const spans: TextSpan[] = [];
  for (const p of pieces) {
    const end = Math.min(p.end, text.length);
    if (end <= p.start) continue;
    const quarter = (lines[0] as Line).quarter;
    for (const s of splitAtSentences(text, p.start, end, p.box, quarter)) {
      spans.push({ start: index.toCodepoint(s.start), end: index.toCodepoint(s.end), box: s.box });
    }
  }
  return { text, boxes: lines.map((l) => l.box), spans, size: Math.max(...lines.map((l) => l.size)), lines: lines.length };
}

/**
 * Advance widths of printable ASCII in a proportional sans-serif face, in thousandths of an em (the
 * standard Helvetica metrics; Times and most text faces keep the same narrow/wide proportions): a
 * sentence cut inside a line lands within a letter or two of the glyphs instead of drifting by the
 * share of narrow letters ("il", ".,") before it.
 */
const WIDTH_GROUPS: [number, string][] = [
  [191, "'"],
  [222, 'ijl'],
  [260, '|'],
  [278, ' !,./:;I[\\]ft'],
  [333, '()-`r'],
  [334, '{}'],
  [355, '"'],
  [389, '*'],
  [469, '^'],
  [500, 'Jckszvxy'],
  [556, '#$0123456789?L_abdeghnopqu'],
  [584, '+<=>~'],
  [611, 'FTZ'],
  [667, '&ABEKPSVXY'],
  [722, 'CDHNRUw'],
  [778, 'GOQ'],
  [833, 'Mm'],
  [889, '%'],
  [944, 'W'],
  [1015, '@'],
];
const LATIN_WIDTH = new Map(WIDTH_GROUPS.flatMap(([w, chars]) => Array.from(chars, (c): [string, number] => [c, w / 1000])));

/** Each character's weight once worked out: a block's pieces weigh their characters again and again. */
const WEIGHTS = new Map<string, number>();

/** Visual width weight of a character: full-width CJK and Hangul count 1, ASCII its glyph's share of an em, others 0.55. */
function weight(ch: string): number {
  let w = WEIGHTS.get(ch);
  if (w === undefined) {
    w = isCjk(ch) || /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/.test(ch) ? 1 : (LATIN_WIDTH.get(ch) ?? 0.55);
    WEIGHTS.set(ch, w);
  }
  return w;
}

/** Splits a piece at sentence ends inside it, dividing its box along the writing direction by character widths. */
function splitAtSentences(text: string, start: number, end: number, box: Box, quarter: number): Piece[] {
  const slice = text.slice(start, end);
  const cuts = [...slice.matchAll(/[.!?](?=\s)|[。！？]/g)].map((m) => m.index + 1).filter((c) => c < slice.length);
  if (cuts.length === 0) return [{ start, end, box }];
  const chars = Array.from(slice);
  const total = chars.reduce((n, c) => n + weight(c), 0);
  const out: Piece[] = [];
  let from = 0;
  // the weight of the text before `from`, summed character by character from the start (as one sum over the prefix would)
  let before = 0;
  for (const cut of [...cuts, slice.length]) {
    let upTo = before;
    for (const c of slice.slice(from, cut)) upTo += weight(c);
    const s = from + (slice.slice(from, cut).length - slice.slice(from, cut).trimStart().length);
    if (cut > s) out.push({ start: start + s, end: start + cut, box: partOf(box, before / total, upTo / total, quarter) });
    from = cut;
    before = upTo;
  }
  return out;
}

/** The part [a, b] (fractions along the writing direction) of a box. */
export function partOf(box: Box, a: number, b: number, quarter: number): Box {
  const [x0, y0, x1, y1] = box;
  const w = x1 - x0;
  const h = y1 - y0;
  switch (quarter) {
    case 0:
      return [x0 + w * a, y0, x0 + w * b, y1];
    case 2:
      return [x1 - w * b, y0, x1 - w * a, y1];
    case 1:
      return [x0, y1 - h * b, x1, y1 - h * a];
    default:
      return [x0, y0 + h * a, x1, y0 + h * b];
  }
}
