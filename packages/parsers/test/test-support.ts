import { readdirSync, readFileSync } from 'node:fs';
import type { Format, ParseOutput } from '@pinpoint/core';
import { CodepointIndex, codepointLength, recordEntrySchema, sha256Hex, sourceMapSchema } from '@pinpoint/core';
import { expect } from 'vitest';
import { detectFormat } from '../src/detect.js';
import { parseDocument } from '../src/parse.js';

/** The repository's sibling folder of real inputs, read in place. */
export const sharedDir = new URL('../../../../shared/', import.meta.url);

/** Paths (relative to shared/) of the files in a shared folder, optionally filtered by extension. */
export function sharedFiles(dir: string, exts?: readonly string[]): string[] {
  return readdirSync(new URL(dir, sharedDir))
    .filter((f) => !exts || exts.some((e) => f.toLowerCase().endsWith(`.${e}`)))
    .sort()
    .map((f) => `${dir.replace(/\/?$/, '/')}${f}`);
}

export function readShared(path: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(path, sharedDir)));
}

/** Detects and parses a shared file the way ingestion does. */
export async function parseShared(path: string): Promise<{ format: Format; out: ParseOutput }> {
  const bytes = readShared(path);
  const fileName = path.split('/').at(-1) as string;
  const format = detectFormat(fileName, bytes);
  return { format, out: await parseDocument(bytes, { fileName, format }) };
}

function artifactText(out: ParseOutput, kind: 'text' | 'records.jsonl', name: string): { text: string; sha: string } {
  const artifact = out.artifacts.find((a) => a.kind === kind && a.name === name);
  expect(artifact, `${kind} artifact ${name}`).toBeDefined();
  const bytes = artifact?.bytes ?? new Uint8Array();
  return { text: new TextDecoder().decode(bytes), sha: sha256Hex(bytes) };
}

/** DESIGN §4 for text anchors: slice(decoded, start, end) === element.text, hashes agree. */
export function expectTextInvariants(out: ParseOutput): string {
  sourceMapSchema.parse(out.sourceMap);
  const { text, sha } = artifactText(out, 'text', 'decoded.txt');
  expect(out.sourceMap.text_sha256).toBe(sha);
  const index = new CodepointIndex(text);
  for (const e of out.elements) {
    if (e.anchor.kind !== 'text') throw new Error(`${e.element_id} has a ${e.anchor.kind} anchor`);
    expect(e.anchor.text_sha256).toBe(sha);
    expect(e.anchor.start).toBeLessThan(e.anchor.end);
    expect(text.slice(index.toUtf16(e.anchor.start), index.toUtf16(e.anchor.end))).toBe(e.text);
  }
  return text;
}

/** Boxes inside their page; spans inside their element's text with boxes inside the page. */
export function expectPageInvariants(out: ParseOutput): void {
  sourceMapSchema.parse(out.sourceMap);
  const eps = 1e-6;
  const inside = (b: readonly number[], w: number, h: number): boolean =>
    b.length === 4 &&
    0 <= (b[0] as number) + eps &&
    b[0]! <= b[2]! + eps &&
    b[2]! <= w + eps &&
    0 <= b[1]! + eps &&
    b[1]! <= b[3]! + eps &&
    b[3]! <= h + eps;
  for (const e of out.elements) {
    if (e.anchor.kind !== 'page') throw new Error(`${e.element_id} has a ${e.anchor.kind} anchor`);
    const { page_width: w, page_height: h, page_index } = e.anchor;
    const page = out.sourceMap.pages[page_index];
    expect(page?.width).toBe(w);
    expect(page?.height).toBe(h);
    expect(e.text.trim()).not.toBe('');
    expect(e.anchor.boxes.length).toBeGreaterThan(0);
    for (const b of e.anchor.boxes) expect(inside(b, w, h), `${e.element_id} box ${b}`).toBe(true);
    const length = codepointLength(e.text);
    for (const s of e.spans ?? []) {
      expect(0 <= s.start && s.start < s.end && s.end <= length, `${e.element_id} span ${s.start}-${s.end}`).toBe(true);
      expect(inside(s.box, w, h)).toBe(true);
      // a sentence's boxes are drawn as the element's: each span lies in one of the element's boxes
      const inElement = e.anchor.boxes.some(
        (b) => s.box[0] >= b[0] - 0.01 && s.box[1] >= b[1] - 0.01 && s.box[2] <= b[2] + 0.01 && s.box[3] <= b[3] + 0.01,
      );
      expect(inElement, `${e.element_id} span box ${s.box} outside the element's boxes`).toBe(true);
    }
  }
}

/** Record anchors point at records.jsonl lines whose text is the element's text. */
export function expectRecordInvariants(out: ParseOutput): Map<string, unknown> {
  sourceMapSchema.parse(out.sourceMap);
  const { text, sha } = artifactText(out, 'records.jsonl', 'records.jsonl');
  expect(out.sourceMap.records_sha256).toBe(sha);
  const records = new Map(
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => recordEntrySchema.parse(JSON.parse(l)))
      .map((r) => [r.record_id, r] as const),
  );
  for (const e of out.elements) {
    if (e.anchor.kind !== 'record') throw new Error(`${e.element_id} has a ${e.anchor.kind} anchor`);
    expect(e.anchor.records_sha256).toBe(sha);
    expect(records.get(e.anchor.record_id)?.text).toBe(e.text);
  }
  return records;
}
