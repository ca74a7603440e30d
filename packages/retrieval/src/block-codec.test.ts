import { seededRandom } from '@pinpoint/testing';
import { describe, expect, it } from 'vitest';
import { PACKED, type PostingsFormat, VARINT } from './block-codec.js';
import {
  BLOCK,
  type BlockedList,
  blockBounds,
  decodeBlocks,
  ListCursor,
  oneBlockSkip,
  PART_BLOCKS,
  PostingsBuffer,
  PostingsWriter,
  partedList,
  partStart,
  skipTable,
  wholeList,
} from './postings.js';

interface Postings {
  docs: number[];
  tfs: number[];
  lens: number[];
}

/** A list of `n` postings whose gaps and tfs `gap`/`tf` draw. */
function postings(n: number, gap: (i: number) => number, tf: (i: number) => number, first = 0): Postings {
  const out: Postings = { docs: [], tfs: [], lens: [] };
  for (let i = 0, doc = first; i < n; i++, doc += gap(i)) {
    out.docs.push(doc);
    out.tfs.push(tf(i));
    out.lens.push(1 + (i % 37));
  }
  return out;
}

const rand = seededRandom(5);
const cases: [string, Postings][] = [
  [
    'a single posting',
    postings(
      1,
      () => 1,
      () => 1,
      7,
    ),
  ],
  [
    'a single posting at chunk 0',
    postings(
      1,
      () => 1,
      () => 1,
      0,
    ),
  ],
  [
    'consecutive chunks, tf 1 (both widths 0)',
    postings(
      3 * BLOCK,
      () => 1,
      () => 1,
    ),
  ],
  [
    'a last short block',
    postings(
      2 * BLOCK + 5,
      (i) => 1 + (i % 9),
      (i) => 1 + (i % 3),
    ),
  ],
  [
    'one full block',
    postings(
      BLOCK,
      (i) => 1 + i,
      () => 2,
    ),
  ],
  [
    'large tfs',
    postings(
      300,
      () => 3,
      (i) => [1, 2 ** 20, 2 ** 27 - 1, 300][i % 4] as number,
    ),
  ],
  [
    'gaps across the wide widths (24–31 bits)',
    postings(
      40,
      (i) => [2 ** 24 - 1, 2 ** 24, 2 ** 25 + 3, 1][i % 4] as number,
      () => 1,
    ),
  ],
  ['the largest gap (2^31 − 1)', { docs: [0, 2 ** 31 - 1], tfs: [1, 5], lens: [3, 4] }],
  ['the largest chunk alone', { docs: [2 ** 31 - 1], tfs: [2], lens: [3] }],
  [
    'a list in parts, random gaps and tfs',
    postings(
      PART_BLOCKS * BLOCK * 2 + 77,
      () => 1 + Math.floor(rand() ** 4 * 5000),
      () => 1 + Math.floor(rand() ** 6 * 40),
    ),
  ],
  // each width a value can need, in a block of an odd count (past 24 bits one such gap, to stay below 2^31)
  ...Array.from({ length: 31 }, (_, bits): [string, Postings] => {
    const wide = bits >= 24;
    return [
      `values of ${bits} bits`,
      postings(
        wide ? 5 : 2 * BLOCK + 3,
        (i) => ((wide ? i === 2 : i % 3 === 0) ? 2 ** bits : 1),
        (i) => (i % 5 === 1 ? 2 ** Math.min(bits, 27) : 1),
      ),
    ];
  }),
];

function encode(format: PostingsFormat, p: Postings) {
  const writer = new PostingsWriter(format);
  for (const [i, doc] of p.docs.entries()) writer.add(doc, p.tfs[i] as number, p.lens[i] as number);
  return writer.take();
}

/** The list read through its parts (as a long list is stored), each part fetched on demand. */
function inParts(format: PostingsFormat, skip: Int32Array, data: Uint8Array): BlockedList {
  const blocks = skip.length / 4;
  const end = (part: number) => skip[(Math.min(blocks, (part + 1) * PART_BLOCKS) - 1) * 4 + 1] as number;
  return { skip, format, source: partedList(skip, (part) => data.slice(partStart(skip, part), end(part))) };
}

describe.each([
  ['VARINT', VARINT],
  ['PACKED', PACKED],
] as const)('postings in the %s format', (_, format) => {
  it.each(cases)('decode as written: %s', (_name, p) => {
    const list = encode(format, p);
    const skip = skipTable(list.skip);
    expect(list.n).toBe(p.docs.length);
    // the whole list's bytes alone (as a merge reads them)
    const whole = new PostingsBuffer();
    whole.decode(list.data, format);
    expect([...whole.docs.subarray(0, whole.n)]).toEqual(p.docs);
    expect([...whole.tfs.subarray(0, whole.n)]).toEqual(p.tfs);
    // block by block, whole and in parts (as a query reads them)
    for (const blocked of [{ skip, format, source: wholeList(list.data) }, inParts(format, skip, list.data)]) {
      const buf = new PostingsBuffer();
      buf.decodeList(blocked);
      expect([...buf.docs.subarray(0, buf.n)]).toEqual(p.docs);
      expect([...buf.tfs.subarray(0, buf.n)]).toEqual(p.tfs);
      // a part's blocks decoded as one run
      const docs = new Int32Array(p.docs.length);
      const tfs = new Int32Array(p.docs.length);
      let n = 0;
      const blocks = skip.length / 4;
      for (let first = 0; first < blocks; first += PART_BLOCKS)
        n = decodeBlocks(blocked, first, Math.min(blocks, first + PART_BLOCKS) - 1, docs, tfs, n);
      expect([...docs.subarray(0, n)]).toEqual(p.docs);
      expect([...tfs.subarray(0, n)]).toEqual(p.tfs);
    }
  });

  it.each(cases)('keep the skip table of the blocks: %s', (_name, p) => {
    const skip = skipTable(encode(format, p).skip);
    const blocks = Math.ceil(p.docs.length / BLOCK);
    expect(skip.length).toBe(blocks * 4);
    for (let b = 0; b < blocks; b++) {
      const at = b * BLOCK;
      const end = Math.min(p.docs.length, at + BLOCK);
      expect(skip[b * 4]).toBe(p.docs[end - 1]);
      expect(skip[b * 4 + 2]).toBe(Math.max(...p.tfs.slice(at, end)));
      expect(skip[b * 4 + 3]).toBe(Math.min(...p.lens.slice(at, end)));
    }
    expect(blockBounds(skip, (tf, len) => tf - len).length).toBe(blocks);
  });

  it.each(cases)('seek each chunk through a cursor, decoding only the blocks that hold them: %s', (_name, p) => {
    const list = encode(format, p);
    const skip = skipTable(list.skip);
    const cursor = new ListCursor(inParts(format, skip, list.data), new Float64Array(0));
    const step = Math.max(1, Math.floor(p.docs.length / 50));
    for (let i = 0; i < p.docs.length; i += step) {
      cursor.seek(p.docs[i] as number);
      expect([cursor.doc, cursor.tf]).toEqual([p.docs[i], p.tfs[i]]);
    }
    cursor.seek(Number.MAX_SAFE_INTEGER);
    expect(cursor.doc).toBe(Number.POSITIVE_INFINITY);
    expect(cursor.decodedBlocks).toBeLessThanOrEqual(Math.ceil(p.docs.length / step));
  });
});

describe('the PACKED format', () => {
  it('takes a byte or less a posting where the varint format takes two or more', () => {
    const common = postings(
      20 * BLOCK,
      (i) => 1 + (i % 7),
      (i) => (i % 11 === 0 ? 2 : 1),
    );
    const packed = encode(PACKED, common).data.length;
    const varint = encode(VARINT, common).data.length;
    expect(varint).toBe(2 * common.docs.length);
    expect(packed).toBeLessThan(0.5 * varint);
  });

  it('writes the same list again from its own decoded postings (a merge of PACKED segments)', () => {
    const p = cases.at(-1)?.[1] as Postings;
    const first = encode(PACKED, p);
    const buf = new PostingsBuffer();
    buf.decode(first.data, PACKED);
    const again = encode(PACKED, { docs: [...buf.docs.subarray(0, buf.n)], tfs: [...buf.tfs.subarray(0, buf.n)], lens: p.lens });
    expect(again.data).toEqual(first.data);
    expect(again.skip).toEqual(first.skip);
  });

  it.each(cases.filter(([, p]) => p.docs.length <= BLOCK))(
    'reads the skip table of a list of one block off the block and its shortest length: %s',
    (_, p) => {
      const list = encode(PACKED, p);
      const minLen = skipTable(list.skip)[3] as number;
      expect(oneBlockSkip(list.data, minLen)).toEqual({ n: p.docs.length, bytes: list.skip });
    },
  );
});
