import type { Format } from '@pinpoint/core';

/** The text formats whose parsers must read a file that is one long line in memory linear in its size. */
export const longLineFormats = ['txt', 'md', 'html', 'csv', 'json'] as const satisfies readonly Format[];
export type LongLineFormat = (typeof longLineFormats)[number];

const words = [
  'river',
  'granite',
  'ledger',
  'harvest',
  'lantern',
  'quarterly',
  'revenue',
  'contract',
  'warranty',
  'signal',
  'meadow',
  'invoice',
  '東京',
  '数据',
  'Zürich',
];

/** Deterministic words: the same size and seed give the same bytes. */
function* wordStream(seed: number): Generator<string> {
  let x = seed >>> 0 || 1;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    yield words[x % words.length] as string;
  }
}

/** One record (a sentence, an HTML paragraph, a CSV field, a JSON object) of the sample. */
function piece(format: LongLineFormat, n: number, next: () => string): string {
  const sentence = `${next()} ${next()} ${next()} ${next()} ${next()} ${n}.`;
  switch (format) {
    case 'txt':
      return `${sentence} `;
    case 'md':
      return `**${next()}** ${sentence} \`${next()}\` [${next()}](https://example.org/${n}) `;
    case 'html':
      return `<p class="c${n % 7}">${sentence} <b>${next()}</b></p>`;
    case 'csv':
      return `"${sentence}",${n},`;
    case 'json':
      return `{"id":${n},"level":"info","message":"${sentence}","tags":["${next()}","${next()}"]},`;
  }
}

const opening: Record<LongLineFormat, string> = { txt: '', md: '', html: '<!doctype html><html><body>', csv: '', json: '[' };
const closing: Record<LongLineFormat, string> = { txt: 'end', md: 'end', html: '</body></html>', csv: 'end', json: '{"id":0}]' };

/** A file of about `bytes` bytes whose whole content is one line (no line break anywhere). */
export function longLineSample(format: LongLineFormat, bytes: number, seed = 1): Uint8Array {
  const stream = wordStream(seed);
  const next = (): string => stream.next().value as string;
  const parts: string[] = [opening[format]];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const p = piece(format, n, next);
    parts.push(p);
    size += Buffer.byteLength(p);
  }
  parts.push(closing[format]);
  return new TextEncoder().encode(parts.join(''));
}
