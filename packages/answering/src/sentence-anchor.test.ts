import type { Element } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { sentenceAnchor } from './sentence-anchor.js';

const Z = '0'.repeat(64);
const base = { element_id: 'e1', type: 'paragraph', section_path: [], text: 'One. Two.' } as const;

describe('sentenceAnchor', () => {
  it('falls back to the element boxes with element precision when a page element has no spans', () => {
    const e: Element = {
      ...base,
      section_path: [],
      anchor: {
        kind: 'page',
        artifact: 'pdf',
        page_index: 0,
        page_width: 10,
        page_height: 10,
        unit: 'pt',
        rotation: 0,
        boxes: [[1, 1, 2, 2]],
      },
    };
    expect(sentenceAnchor(e, 5, 9)).toEqual({ anchor: e.anchor, precision: 'element' });
  });

  it('keeps a record anchor, exact only when a cell range is known', () => {
    const record: Element = {
      ...base,
      section_path: [],
      anchor: { kind: 'record', artifact: 'records.jsonl', record_id: 'r1', records_sha256: Z, paragraph_index: 3 },
    };
    expect(sentenceAnchor(record, 0, 4).precision).toBe('element');
    const cell: Element = {
      ...record,
      anchor: {
        kind: 'record',
        artifact: 'records.jsonl',
        record_id: 'r2',
        records_sha256: Z,
        sheet: 'S',
        row: 4,
        cell_range: 'B4:D4',
      },
    };
    expect(sentenceAnchor(cell, 0, 4)).toEqual({ anchor: cell.anchor, precision: 'exact' });
  });

  it('narrows a text anchor and keeps the raw range of the source that holds the sentence', () => {
    const e: Element = {
      ...base,
      section_path: [],
      anchor: {
        kind: 'text',
        artifact: 'original',
        unit: 'codepoint',
        start: 100,
        end: 109,
        text_sha256: Z,
        raw: { start: 300, end: 320 },
      },
    };
    expect(sentenceAnchor(e, 5, 9).anchor).toEqual({
      kind: 'text',
      artifact: 'original',
      unit: 'codepoint',
      start: 105,
      end: 109,
      text_sha256: Z,
      raw: { start: 300, end: 320 },
    });
  });

  it("narrows the raw range to the sentence's own span through the element's raw map", () => {
    // <p>One. <b>Two.</b></p> at 300: "One. " at 303, "Two." at 311
    const e: Element = {
      ...base,
      section_path: [],
      anchor: {
        kind: 'text',
        artifact: 'original',
        unit: 'codepoint',
        start: 100,
        end: 109,
        text_sha256: Z,
        raw: { start: 300, end: 323 },
      },
      raw_map: [0, 5, 303, 308, 5, 9, 311, 315],
    };
    expect(sentenceAnchor(e, 5, 9).anchor).toMatchObject({ start: 105, end: 109, raw: { start: 311, end: 315 } });
    expect(sentenceAnchor(e, 0, 9).anchor).toMatchObject({ raw: { start: 303, end: 315 } });
    expect(sentenceAnchor(e, 0, 4).anchor).toMatchObject({ raw: { start: 303, end: 307 } });
  });
});
