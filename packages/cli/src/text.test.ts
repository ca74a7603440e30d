import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Element } from '@pinpoint/core';
import { defaultEngineConfig } from '@pinpoint/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedEngine } from './embedded.js';
import { ingestFiles } from './ingest.js';
import { type PageTextLine, textOf } from './text.js';

const corpus = new URL('../../../../shared/corpus/formats/', import.meta.url).pathname;

describe('pinpoint text', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints, page by page, the text and boxes a PDF with a text layer is indexed with', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-text-'));
    const file = join(corpus, 'pdf/docling__multi_page.pdf');
    const config = { ...defaultEngineConfig, parse: { ...defaultEngineConfig.parse, isolate: false } };
    const printed = (await textOf(file, config.parse)) as PageTextLine[];
    const engine = openEmbeddedEngine(join(dir, 'data'), config);
    try {
      const [ingested] = await ingestFiles(engine, 'c', [file], () => {}, { concurrency: 1 });
      expect(ingested?.state).toBe('ready');
      const elements = await engine.getElements(ingested?.version_id ?? '');
      const onPage = (i: number): Element[] => elements.filter((e) => e.anchor.kind === 'page' && e.anchor.page_index === i);
      expect(printed.map((l) => l.page_index)).toEqual([...Array(ingested?.pages).keys()]);
      for (const line of printed) {
        const indexed = onPage(line.page_index ?? -1);
        expect(line.text).toBe(indexed.map((e) => e.text).join('\n'));
        expect(line.unit).toBe('pt');
        const boxes = indexed.flatMap((e) => (e.spans ?? []).map((s) => s.box.map((v) => Math.round(v * 100) / 100)));
        expect(line.words.map((w) => w.bbox)).toEqual(boxes.length > 0 ? boxes : line.words.map((w) => w.bbox));
        for (const w of line.words) {
          expect(w.bbox[2]).toBeLessThanOrEqual(line.page_width ?? 0);
          expect(w.bbox[3]).toBeLessThanOrEqual(line.page_height ?? 0);
        }
      }
      expect(printed.some((l) => l.words.length > 0)).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it('reports a file it cannot read with the stable code ingestion gives it', async () => {
    const [line] = await textOf(join(corpus, 'hostile-does-not-exist.tif'), defaultEngineConfig.parse);
    expect(line).toMatchObject({ file: 'hostile-does-not-exist.tif' });
    expect((line as { error_code: string }).error_code).toMatch(/^PP_/);
  });
});
