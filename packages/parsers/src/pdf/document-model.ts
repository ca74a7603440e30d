import type { Line } from './lines.js';

/** What the whole document teaches about its typesetting, learnt before lines become paragraphs. */
export interface DocumentModel {
  /** The usual baseline-to-baseline distance of body lines by type size (rounded to 0.5 pt). */
  pitches: ReadonlyMap<number, number>;
  /** Paragraphs are set apart by extra space, so a short last line alone does not end one. */
  spacedParagraphs: boolean;
  /** Lower-cased compounds seen with an inner hyphen inside a line ("polynomial-time"). */
  hyphenated: ReadonlySet<string>;
  /** Lower-cased words seen inside lines. */
  words: ReadonlySet<string>;
  /** When neither form is seen: the document's own vote on whether line-end hyphens split words. */
  dropHyphens: boolean;
}

export const sizeKey = (size: number): number => Math.round(size * 2) / 2;

/** Two consecutive lines that could belong to one paragraph: same direction, column and size, overlapping. */
export function continues(prev: Line, line: Line): boolean {
  const size = Math.max(prev.size, line.size);
  return (
    prev.quarter === line.quarter &&
    prev.column === line.column &&
    Math.abs(line.size - prev.size) <= 0.1 * size &&
    line.fx0 < prev.fx1 &&
    line.fx1 > prev.fx0
  );
}

function pitchCounts(groups: Line[][]): Map<number, Map<number, number>> {
  const counts = new Map<number, Map<number, number>>();
  for (const lines of groups) {
    lines.forEach((line, i) => {
      const prev = lines[i - 1];
      if (!prev || !continues(prev, line)) return;
      const pitch = line.base - prev.base;
      if (pitch < 0.8 * line.size || pitch > 3 * line.size) return;
      const bySize = counts.get(sizeKey(line.size)) ?? new Map<number, number>();
      counts.set(sizeKey(line.size), bySize);
      const key = Math.round(pitch * 2) / 2;
      bySize.set(key, (bySize.get(key) ?? 0) + 1);
    });
  }
  return counts;
}

/** The most frequent pitch per size, and whether paragraph gaps (1.25–2.5× that pitch) are common. */
function learnPitches(groups: Line[][]): { pitches: Map<number, number>; spacedParagraphs: boolean } {
  const pitches = new Map<number, number>();
  let usual = 0;
  let gaps = 0;
  for (const [size, bySize] of pitchCounts(groups)) {
    const [pitch, n] = [...bySize].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0] ?? [0, 0];
    if (n < 3) continue;
    pitches.set(size, pitch);
    for (const [p, count] of bySize) {
      if (Math.abs(p - pitch) <= 0.5) usual += count;
      else if (p > pitch * 1.25 && p <= pitch * 2.5) gaps += count;
    }
  }
  return { pitches, spacedParagraphs: gaps >= 3 && gaps >= 0.08 * usual };
}

const trailingWord = /(\p{L}+)-$/u;
const leadingWord = /^(\p{Ll}\p{L}*)/u;

function learnWords(groups: Line[][]): Pick<DocumentModel, 'hyphenated' | 'words' | 'dropHyphens'> {
  const hyphenated = new Set<string>();
  const words = new Set<string>();
  for (const lines of groups) {
    for (const line of lines) {
      // one pass: every letter run, joined to its neighbours when hyphens link them ("polynomial-time")
      for (const [m] of line.text.toLowerCase().matchAll(/\p{L}+(?:-\p{L}+)*/gu)) {
        if (!m.includes('-')) {
          words.add(m);
          continue;
        }
        hyphenated.add(m);
        for (const part of m.split('-')) words.add(part);
      }
    }
  }
  let drop = 0;
  let keep = 0;
  for (const lines of groups) {
    lines.forEach((line, i) => {
      const a = trailingWord.exec(line.text)?.[1]?.toLowerCase();
      const b = leadingWord.exec(lines[i + 1]?.text ?? '')?.[1]?.toLowerCase();
      if (!a || !b) return;
      if (hyphenated.has(`${a}-${b}`)) keep++;
      else if (words.has(a + b)) drop++;
    });
  }
  return { hyphenated, words, dropHyphens: drop >= keep };
}

export function learnDocument(groups: Line[][]): DocumentModel {
  return { ...learnPitches(groups), ...learnWords(groups) };
}

/** Whether a hyphen ending `prev` splits one word with the start of `next` (then it is removed). */
export function splitsWord(prev: string, next: string, model: DocumentModel): boolean {
  const a = trailingWord.exec(prev)?.[1]?.toLowerCase();
  const b = leadingWord.exec(next)?.[1]?.toLowerCase();
  if (!a || !b) return false;
  if (model.hyphenated.has(`${a}-${b}`)) return false;
  if (model.words.has(a + b)) return true;
  return model.dropHyphens;
}
