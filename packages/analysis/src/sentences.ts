/**
 * Sentence boundaries for Latin and CJK text, as half-open codepoint ranges with the
 * surrounding whitespace trimmed. Breaks after 。！？!? (and …, ‼, ⁇), after a Latin '.' that
 * ends a sentence (not an abbreviation, an initial or a decimal), and at blank lines.
 */
export interface SentenceRange {
  start: number;
  end: number;
}

const CJK_STOPS = new Set(['。', '！', '？', '｡', '‼', '⁇', '⁈', '⁉']);
const LATIN_STOPS = new Set(['.', '!', '?', '…']);
/** Closing quotes and brackets that stay with the sentence they close. */
const CLOSERS = new Set(['"', "'", '”', '’', '」', '』', '）', ')', ']', '】', '》', '〉', '»']);
const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof sr jr st mt ft vs etc e.g i.e cf al inc ltd co corp no nos fig figs vol vols ' +
    'pp p ed eds jan feb mar apr jun jul aug sep sept oct nov dec gen gov sen rep rev u.s u.k approx ca est dept univ'
  ).split(' '),
);

function isSpace(c: string | undefined): boolean {
  return c !== undefined && /\s/u.test(c);
}

/** The word (letters and inner dots) that ends right before index `i`, lower-cased. */
function wordBefore(chars: string[], i: number): string {
  let j = i;
  while (j > 0 && /[\p{L}.]/u.test(chars[j - 1] as string)) j--;
  return chars.slice(j, i).join('').toLowerCase();
}

function latinBreakAfter(chars: string[], i: number): boolean {
  const c = chars[i] as string;
  const next = chars[i + 1];
  if (next !== undefined && !isSpace(next) && !CLOSERS.has(next)) return false;
  if (c !== '.') return true;
  const word = wordBefore(chars, i);
  if (ABBREVIATIONS.has(word)) return false;
  // single initial ("J. Smith"), not a lone "I."
  if (/^\p{Lu}$/u.test(chars[i - 1] ?? '') && word.length === 1 && !/\p{L}/u.test(chars[i - 2] ?? '')) return false;
  // next visible character in lower case: not a sentence start
  let k = i + 1;
  while (k < chars.length && (isSpace(chars[k]) || CLOSERS.has(chars[k] as string))) k++;
  return !(k < chars.length && /\p{Ll}/u.test(chars[k] as string));
}

function breakAfter(chars: string[], i: number): boolean {
  const c = chars[i] as string;
  if (CJK_STOPS.has(c)) return true;
  if (c === '\n') return chars[i + 1] === '\n' || (chars[i + 1] === '\r' && chars[i + 2] === '\n');
  if (LATIN_STOPS.has(c)) return latinBreakAfter(chars, i);
  return false;
}

export function splitSentences(text: string): SentenceRange[] {
  const chars = Array.from(text);
  const out: SentenceRange[] = [];
  let start = 0;
  for (let i = 0; i < chars.length; i++) {
    if (!breakAfter(chars, i)) continue;
    let end = i + 1;
    while (
      end < chars.length &&
      (CLOSERS.has(chars[end] as string) || LATIN_STOPS.has(chars[end] as string) || CJK_STOPS.has(chars[end] as string))
    )
      end++;
    pushTrimmed(chars, start, end, out);
    start = end;
    i = end - 1;
  }
  pushTrimmed(chars, start, chars.length, out);
  return out;
}

function pushTrimmed(chars: string[], start: number, end: number, out: SentenceRange[]): void {
  let s = start;
  let e = end;
  while (s < e && isSpace(chars[s])) s++;
  while (e > s && isSpace(chars[e - 1])) e--;
  if (e > s) out.push({ start: s, end: e });
}
