import { splitSentences } from '@pinpoint/analysis';
import { CodepointIndex } from '@pinpoint/core';

/** Sentence splitting runs over windows of at most this many UTF-16 units of a long text. */
const WINDOW = 65_536;

/**
 * An element's text addressed by codepoint, without a per-character array: a multi-megabyte
 * element (a file that is one long line) costs its string and a list of its astral characters.
 */
export class ElementText {
  private readonly index: CodepointIndex;
  readonly length: number;

  constructor(readonly text: string) {
    this.index = new CodepointIndex(text);
    this.length = this.index.length;
  }

  /** Codepoints [start, end). */
  slice(start: number, end: number): string {
    return this.text.slice(this.index.toUtf16(start), this.index.toUtf16(Math.min(end, this.length)));
  }

  isSpaceAt(cp: number): boolean {
    return cp >= 0 && cp < this.length && /\s/u.test(this.slice(cp, cp + 1));
  }

  /** Sentence ranges (codepoints), found window by window so a huge text never becomes one array of characters. */
  sentences(): Array<{ start: number; end: number }> {
    if (this.text.length <= WINDOW) return splitSentences(this.text);
    const out: Array<{ start: number; end: number }> = [];
    for (let from = 0; from < this.text.length; ) {
      const to = windowEnd(this.text, from);
      const offset = this.index.toCodepoint(from);
      for (const r of splitSentences(this.text.slice(from, to))) out.push({ start: r.start + offset, end: r.end + offset });
      from = to;
    }
    return out;
  }
}

/** End of the window starting at `from`: after the last sentence stop or space in it, never inside a surrogate pair. */
function windowEnd(text: string, from: number): number {
  const limit = from + WINDOW;
  if (limit >= text.length) return text.length;
  const window = text.slice(from + WINDOW / 2, limit);
  const stop = Math.max(window.lastIndexOf('. '), window.lastIndexOf('。'), window.lastIndexOf('! '), window.lastIndexOf('? '));
  if (stop >= 0) return from + WINDOW / 2 + stop + 1;
  const space = window.search(/\s\S*$/u);
  if (space >= 0) return from + WINDOW / 2 + space + 1;
  const low = text.charCodeAt(limit);
  return low >= 0xdc00 && low <= 0xdfff ? limit + 1 : limit;
}
