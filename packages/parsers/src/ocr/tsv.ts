import type { OcrLine, OcrWord } from '@pinpoint/core';

type Box = [number, number, number, number];

/** CJK ideographs, kana, hangul and full-width forms: words of these scripts join without spaces. */
const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** Quotes, dashes and other general punctuation, which sit tight against CJK text. */
const PUNCT = /[\u2010-\u206f]/u;

/** Joins OCR words into line text: a space between words unless the gap is between CJK text (or CJK and punctuation). */
export function joinWords(words: readonly string[]): string {
  let text = '';
  for (const word of words) {
    const before = text.at(-1) ?? '';
    const after = word[0] ?? '';
    const tight = (CJK.test(before) && (CJK.test(after) || PUNCT.test(after))) || (PUNCT.test(before) && CJK.test(after));
    text = text === '' || tight ? text + word : `${text} ${word}`;
  }
  return text;
}

/** The box around `boxes`. */
export function union(boxes: readonly Box[]): Box {
  return boxes.reduce<Box>(
    (u, b) => [Math.min(u[0], b[0]), Math.min(u[1], b[1]), Math.max(u[2], b[2]), Math.max(u[3], b[3])],
    [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY],
  );
}

/** Closers and the openers they pair with, for an angle bracket read in place of a parenthesis. */
const OPENER_OF: Readonly<Record<string, string>> = { ')': '(', '）': '（' };

/**
 * An angle bracket 〈 that a line closes with a parenthesis, before any 〉, was a parenthesis: the fast chi_sim
 * model reads the full-width （ as 〈 (25 times on ocr-dev's Simplified pages, never a 〈 in their text), and
 * brackets pair. The opener takes the form of its closer; one character for one, so word boxes and spans hold.
 */
function pairBrackets(words: OcrWord[]): OcrWord[] {
  const chars = words.map((w) => [...w.text]);
  let open: [number, number] | undefined;
  chars.forEach((word, wi) => {
    word.forEach((ch, ci) => {
      if (ch === '〈') open = [wi, ci];
      else if (ch === '〉') open = undefined;
      else if (open && OPENER_OF[ch]) {
        (chars[open[0]] as string[])[open[1]] = OPENER_OF[ch] as string;
        open = undefined;
      }
    });
  });
  return words.map((w, i) => ({ ...w, text: (chars[i] as string[]).join('') }));
}

/**
 * Reads tesseract's TSV output (level page_num block_num par_num line_num word_num left top width height conf text)
 * into lines of words with pixel boxes. Returns the page size from the level-1 row.
 */
export function linesFromTsv(tsv: string): { width: number; height: number; lines: OcrLine[] } {
  let width = 0;
  let height = 0;
  const byLine = new Map<string, OcrWord[]>();
  for (const row of tsv.split('\n').slice(1)) {
    const f = row.split('\t');
    if (f.length < 12) continue;
    const [level, , block, par, line] = f;
    const box: Box = [Number(f[6]), Number(f[7]), Number(f[6]) + Number(f[8]), Number(f[7]) + Number(f[9])];
    if (level === '1') {
      width = box[2];
      height = box[3];
    }
    const text = (f[11] as string).trim();
    if (level !== '5' || text === '') continue;
    const key = `${block}/${par}/${line}`;
    const words = byLine.get(key) ?? [];
    words.push({ text, box, confidence: Math.max(0, Math.min(100, Number(f[10]))) });
    byLine.set(key, words);
  }
  const lines: OcrLine[] = [...byLine.values()].map(pairBrackets).map((words) => ({
    text: joinWords(words.map((w) => w.text)),
    box: union(words.map((w) => w.box)),
    confidence: words.reduce((s, w) => s + w.confidence, 0) / words.length,
    words,
  }));
  return { width, height, lines };
}
