import { describe, expect, it } from 'vitest';
import type { RawMap } from './raw-map.js';
import { rawRangeOf } from './raw-map.js';
import { readSourceMap, SOURCE_MAP_SCHEMA_VERSION } from './sourcemap.js';

// "Tom &amp; Jerry | x" from <td>Tom &amp; Jerry</td><td>x</td>: "Tom " at 4, "&amp;" at 8, " Jerry" at 13, "x" at 32
const map: RawMap = [0, 4, 4, 8, 4, 5, 8, 13, 5, 11, 13, 19, 14, 15, 32, 33];

describe('rawRangeOf', () => {
  it('narrows literal pieces to the codepoints asked for', () => {
    expect(rawRangeOf(map, 1, 3)).toEqual({ start: 5, end: 7 });
    expect(rawRangeOf(map, 6, 11)).toEqual({ start: 14, end: 19 });
  });

  it('takes an atomic piece (an entity) whole, and spans the markup between pieces', () => {
    expect(rawRangeOf(map, 4, 5)).toEqual({ start: 8, end: 13 });
    expect(rawRangeOf(map, 2, 6)).toEqual({ start: 6, end: 14 });
    expect(rawRangeOf(map, 0, 15)).toEqual({ start: 4, end: 33 });
  });

  it('has no raw range for text the parser added', () => {
    expect(rawRangeOf(map, 11, 14)).toBeUndefined();
    expect(rawRangeOf(map, 12, 15)).toEqual({ start: 32, end: 33 });
    expect(rawRangeOf([], 0, 3)).toBeUndefined();
  });
});

describe('source map migrations', () => {
  it('reads a version-1 map (no raw maps) as the current version, elements unchanged', () => {
    const element = {
      element_id: 'e000000',
      type: 'paragraph',
      section_path: [],
      text: 'Hi',
      anchor: {
        kind: 'text',
        artifact: 'original',
        unit: 'codepoint',
        start: 0,
        end: 2,
        text_sha256: 'a'.repeat(64),
        raw: { start: 3, end: 12 },
      },
    };
    const v1 = { schemaVersion: 1, format: 'html', anchor_kind: 'text', pages: [], elements: [element] };
    const read = readSourceMap(v1);
    expect(read.schemaVersion).toBe(SOURCE_MAP_SCHEMA_VERSION);
    expect(read.elements).toEqual([element]);
    expect(v1.schemaVersion).toBe(1);
  });
});
