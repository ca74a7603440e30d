import * as OpenCC from 'opencc-js';

/**
 * Traditional → Simplified folding of Han characters, applied identically at index and query
 * time so that 國家 and 国家 match. Character-level ('t' → 'cn'), so it never merges words.
 */
let converter: ((text: string) => string) | undefined;

export function foldHan(text: string): string {
  const convert = converter ?? OpenCC.Converter({ from: 't', to: 'cn' });
  converter = convert;
  return convert(text);
}

/** Characters below this never fold (Latin, kana, punctuation). */
const FIRST_HAN = 0x3400;
const FOLD_CACHE = 20_000;
const folded = new Map<string, string>();

/**
 * The same folding one character at a time, remembered per character: for short texts matched
 * against short keys (the finance lexicon), where calling the converter on every question costs
 * more than the match. Both sides of a match must use the same function.
 */
export function foldHanChars(text: string): string {
  let out = '';
  for (const ch of text) {
    if ((ch.codePointAt(0) ?? 0) < FIRST_HAN) {
      out += ch;
      continue;
    }
    let f = folded.get(ch);
    if (f === undefined) {
      f = foldHan(ch);
      if (folded.size >= FOLD_CACHE) folded.clear();
      folded.set(ch, f);
    }
    out += f;
  }
  return out;
}
