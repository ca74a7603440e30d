import { partOf } from '../blocks.js';
import { groupRows } from '../lines.js';
import type { Run } from '../runs.js';

/** A word of the page: a Run holding one whitespace-free piece of a text item, placed by its share of the item's width. */
export type Word = Run;

const weight = (ch: string): number => (/[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch) ? 1 : 0.55);

function weightOf(s: string): number {
  let n = 0;
  for (const c of s) n += weight(c);
  return n;
}

/**
 * A text item split where it holds a run of two or more spaces (a table row set as one string): one
 * Word per piece, its frame extent and page box divided by character widths. Single spaces stay:
 * the item's own word spacing is not a column gap, and prose items stay one word each.
 */
export function splitWords(run: Run): Word[] {
  const text = run.text.trim();
  if (!/\s{2,}|\t/.test(text)) return [text === run.text ? run : { ...run, text }];
  const total = weightOf(run.text) || 1;
  const out: Word[] = [];
  const w = run.fx1 - run.fx0;
  let at = 0;
  let before = 0;
  for (const m of run.text.matchAll(/\S+(?: \S+)*/g)) {
    before += weightOf(run.text.slice(at, m.index));
    const own = weightOf(m[0]);
    const [a, b] = [before / total, (before + own) / total];
    out.push({ ...run, text: m[0], fx0: run.fx0 + w * a, fx1: run.fx0 + w * b, box: partOf(run.box, a, b, run.quarter) });
    before += own;
    at = m.index + m[0].length;
  }
  return out;
}

/** A piece of a row written without a column-sized gap: the words of one cell. */
export interface Segment {
  words: Word[];
  text: string;
  x0: number;
  x1: number;
}

/** A row of the page: words sharing a baseline, cut into segments at column-sized gaps. */
/** The middle value (the upper one of an even count); 0 for none. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export interface TextRow {
  words: Word[];
  segments: Segment[];
  top: number;
  bottom: number;
  base: number;
  size: number;
}

const CURRENCY = /^[$€£¥]$/;
const CLOSER = /^[)%]+$/;
/** Runs of leader dots ("........", ". . . .") that join a label to its value. */
const LEADER = /^(?:[.·…_]\s*){3,}$/;

function segmentOf(words: Word[]): Segment {
  return {
    words,
    text: words.map((w) => w.text).join(' '),
    x0: Math.min(...words.map((w) => w.fx0)),
    x1: Math.max(...words.map((w) => w.fx1)),
  };
}

/**
 * Cuts a row at gaps wider than a word space. A currency sign keeps to the number after it and a
 * closing parenthesis or percent sign to the number before it; leader dots cut and are dropped.
 */
function segmentRow(words: Word[]): Segment[] {
  const out: Word[][] = [];
  let current: Word[] = [];
  for (const word of words) {
    const leader = LEADER.test(word.text);
    const prev = current.at(-1);
    const gap = prev ? word.fx0 - prev.fx1 : 0;
    const size = Math.max(word.size, prev?.size ?? 0);
    const keep = prev && !leader && (gap < 0.75 * size || CURRENCY.test(prev.text) || CLOSER.test(word.text));
    if (!keep && current.length > 0) {
      out.push(current);
      current = [];
    }
    if (leader) continue;
    current.push({ ...word, text: word.text.replace(/(?:\.{3,}|…+)$/u, '').replace(/^(?:\.{3,}|…+)/u, '') || word.text });
  }
  if (current.length > 0) out.push(current);
  return out.filter((ws) => ws.some((w) => w.text.trim() !== '')).map(segmentOf);
}

/** The page's words in rows (by baseline, top to bottom), each row cut into segments. */
export function textRows(words: Word[]): TextRow[] {
  return groupRows(words).map((ws) => ({
    words: ws,
    segments: segmentRow(ws),
    top: Math.min(...ws.map((w) => w.ftop)),
    bottom: Math.max(...ws.map((w) => w.fbottom)),
    base: ws.reduce((a, b) => (b.size > a.size ? b : a)).base,
    size: Math.max(...ws.map((w) => w.size)),
  }));
}
