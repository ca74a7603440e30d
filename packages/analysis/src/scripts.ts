/** Script classes the analyzer and the sentence splitter care about. */

/** Han ideographs (with extensions and compatibility forms), kana, the prolonged sound mark, Hangul. */
export function isCjkCodepoint(cp: number): boolean {
  return (
    (cp >= 0x3040 && cp <= 0x30ff) || // hiragana, katakana (incl. ー)
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x3134f) ||
    (cp >= 0x31f0 && cp <= 0x31ff) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    cp === 0x3005 // 々
  );
}

export function isHanCodepoint(cp: number): boolean {
  return (
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x3134f) ||
    cp === 0x3005
  );
}

const KANA = /[\u3041-\u3096\u30a1-\u30fa]/u;

/** True when the text has kana: Japanese, not Chinese. */
export function hasKana(text: string): boolean {
  return KANA.test(text);
}
