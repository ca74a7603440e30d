import { readdirSync, readFileSync } from 'node:fs';
import type { ParseOutput, TextAnchor } from '@pinpoint/core';
import { sha256Hex, sliceCodepoints } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import { expectTextInvariants } from '../../test/test-support.js';
import { parseJson } from './parse-json.js';

const corpus = new URL('../../../../../shared/corpus/formats/json/', import.meta.url);

function resolvePointer(doc: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, token) => (node as Record<string, unknown>)[token], doc);
}

function checkInvariants(source: string, out: ParseOutput): void {
  const artifact = out.artifacts.find((a) => a.name === 'decoded.txt');
  const extracted = new TextDecoder().decode(artifact?.bytes);
  const doc: unknown = JSON.parse(source);
  for (const e of out.elements) {
    const a = e.anchor as TextAnchor;
    expect(a.text_sha256).toBe(sha256Hex(artifact?.bytes as Uint8Array));
    expect(sliceCodepoints(extracted, a.start, a.end)).toBe(e.text);
    const raw = a.raw as { start: number; end: number };
    const literal: unknown = JSON.parse(sliceCodepoints(source, raw.start, raw.end));
    expect(literal).toEqual(resolvePointer(doc, a.json_pointer as string));
    if (e.type !== 'record') expect(String(literal)).toBe(e.text);
  }
}

describe('parseJson', () => {
  it('holds codepoint slices, raw ranges and JSON Pointers on every corpus file', async () => {
    for (const name of readdirSync(corpus)) {
      const bytes = new Uint8Array(readFileSync(new URL(name, corpus)));
      const out = await parseJson(bytes, { fileName: name, format: 'json' });
      expect(out.elements.length).toBeGreaterThan(0);
      const source = new TextDecoder().decode(out.artifacts.find((a) => a.name === 'source.json')?.bytes);
      expect(source).toBe(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ''));
      checkInvariants(source, out);
      expectTextInvariants(out);
    }
  });

  it('reads an array of objects as records', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('unstructured__arbitrary-records.json', corpus)));
    const out = await parseJson(bytes, { fileName: 'r.json', format: 'json' });
    expect(out.elements.map((e) => e.type)).toEqual(['record', 'record', 'record']);
    expect(out.elements[0]?.text).toBe('sku: GRD-8842 | name: Garden Trowel | price: 12.5 | in_stock: true');
    expect(out.elements[0]?.columns).toEqual(['sku', 'name', 'price', 'in_stock']);
  });

  it('counts astral characters as one codepoint and unescapes strings', async () => {
    const source = '{"a/b": "𠮷野家 \\u0041", "list": ["😀 ok", 2, null, true]}';
    const out = await parseJson(new TextEncoder().encode(source), { fileName: 'x.json', format: 'json' });
    expect(out.elements.map((e) => e.text)).toEqual(['𠮷野家 A', '😀 ok', '2', 'true']);
    expect(out.elements[0]?.anchor).toMatchObject({ json_pointer: '/a~1b' });
    expect(out.elements[1]?.anchor).toMatchObject({ raw: { start: 31, end: 37 } });
    checkInvariants(source, out);
  });

  it('reads an object with a nested value inside an array value by value, in source order', async () => {
    const source = '[{"a": "x", "b": {"c": "y"}, "d": 3}, {"e": "  ", "f": null}, {"g": "z", "h": true}, "s"]';
    const out = await parseJson(new TextEncoder().encode(source), { fileName: 'm.json', format: 'json' });
    expect(out.elements.map((e) => [e.type, e.text, (e.anchor as TextAnchor).json_pointer])).toEqual([
      ['paragraph', 'x', '/0/a'],
      ['paragraph', 'y', '/0/b/c'],
      ['paragraph', '3', '/0/d'],
      ['record', 'g: z | h: true', '/2'],
      ['paragraph', 's', '/3'],
    ]);
    checkInvariants(source, out);
  });

  it('fails invalid JSON with PP_PARSE_CORRUPT', async () => {
    await expect(
      parseJson(new TextEncoder().encode('{"a": [1, 2'), { fileName: 'bad.json', format: 'json' }),
    ).rejects.toMatchObject({
      code: 'PP_PARSE_CORRUPT',
    });
  });
});
