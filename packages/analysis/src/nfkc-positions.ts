/**
 * NFKC that remembers where each normalised character came from, so that a match found in the
 * normalised text reports its place in the text as written (half-open codepoint ranges).
 * Each codepoint is normalised alone: full-width digits and letters, ㍻ → 平成, ㈱ → (株) all
 * fold; combining sequences (rare in the text we look for) keep their parts.
 */
export interface NormalizedText {
  /** The NFKC text. */
  text: string;
  /** For each UTF-16 index of `text` (and its length), the codepoint index in the source. */
  sourceIndex: Int32Array;
}

/** Codepoints that NFKC leaves alone whatever surrounds them: ASCII, kana (but ゛゜), CJK ideographs, Hangul syllables. */
function stable(code: number): boolean {
  return (
    code < 0x80 ||
    (code >= 0x3041 && code <= 0x30ff && code !== 0x309b && code !== 0x309c && code !== 0x309f && code !== 0x30ff) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7a3)
  );
}

export function normalizeKeepingPositions(source: string): NormalizedText {
  // Already NFKC and no astral characters: UTF-16 index = codepoint index.
  if (/^[\x00-\x7f]*$/.test(source) || (!/[\ud800-\udfff]/.test(source) && source.normalize('NFKC') === source)) {
    return { text: source, sourceIndex: identity(source.length) };
  }
  let text = '';
  const index: number[] = [];
  let cp = 0;
  for (const ch of source) {
    const code = ch.codePointAt(0) ?? 0;
    const folded = stable(code) ? ch : ch.normalize('NFKC');
    for (let i = 0; i < folded.length; i++) index.push(cp);
    text += folded;
    cp++;
  }
  index.push(cp);
  return { text, sourceIndex: Int32Array.from(index) };
}

/** The source codepoint range of the normalised UTF-16 range [start, end). */
export function sourceSpan(n: NormalizedText, start: number, end: number): [number, number] {
  const from = n.sourceIndex[start] ?? 0;
  // The end maps through the last character inside the range, so a character that NFKC
  // expanded (㍻ → 平成) is covered whole.
  const last = end > start ? (n.sourceIndex[end - 1] ?? from) + 1 : from;
  return [from, last];
}

function identity(length: number): Int32Array {
  const index = new Int32Array(length + 1);
  for (let i = 0; i <= length; i++) index[i] = i;
  return index;
}
