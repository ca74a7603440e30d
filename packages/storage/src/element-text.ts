import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/**
 * The `text` column of an element row: the element's text as SQLite TEXT, or Brotli-compressed as a
 * BLOB when that is smaller by a tenth or more.
 *
 * Element texts are nearly all of a version's stored content (314 bytes an element against 23 of
 * its other fields), and one compressed alone still loses more than a quarter: Brotli's built-in
 * dictionary (English words and common byte strings) serves text too short to repeat itself. On the
 * element texts of the 100k-chunk scale folder (English, Japanese, Chinese), measured alone on an idle
 * core: quality 3 keeps 71 % of the bytes at 17.5 µs an element (quality 5 66 % at 29 µs, quality
 * 11 61 %, raw deflate at level 9 69 %). The writes happen on ingestion's busiest thread, where
 * quality 5 on every text of 48 bytes or more cost 9–11 % of the scale bench's chunks per second;
 * texts under 128 bytes (a third of the elements, 1 % of what compression saves) are kept as they
 * are. Reading one back takes some 7 µs; a question reads the texts of the chunks it cites.
 *
 * Rows written before hold TEXT, and a TEXT value is always read as it is, so the two forms live side
 * by side in one table. A release before this one would read a BLOB as bytes, not as the text.
 */
export type StoredText = string | Uint8Array;

const MIN_BYTES = 128;
const PARAMS = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 3,
    [constants.BROTLI_PARAM_LGWIN]: 16,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};

/** What the row stores for an element's text. */
export function encodeElementText(text: string): StoredText {
  if (text.length < MIN_BYTES / 3) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length < MIN_BYTES) return text;
  const packed = brotliCompressSync(bytes, {
    ...PARAMS,
    params: { ...PARAMS.params, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  return packed.length * 10 <= bytes.length * 9 ? packed : text;
}

/** The element's text from what its row stores (TEXT as it is, a BLOB decompressed). */
export function decodeElementText(stored: StoredText): string {
  return typeof stored === 'string' ? stored : brotliDecompressSync(stored).toString('utf8');
}
