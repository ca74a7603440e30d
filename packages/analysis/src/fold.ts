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
