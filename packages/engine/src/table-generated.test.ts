import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGenerator } from '@pinpoint/providers';
import { type FakeServer, startFakeGemini, startFakeOllama } from '@pinpoint/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from './engine.js';
import { openTestEngine } from './test-engine.js';

const CORPUS = '../shared/corpus/formats';
const FILES = ['xlsx/onyx__financial-sample.xlsx', 'csv/unstructured__stanley-cups-with-emoji.csv'];

/** The table sources of a prompt: number, file, column letters by name, and each grid line's row number and values. */
function grids(prompt: string) {
  return [...prompt.matchAll(/^\[(\d+)\] (\S+) \(table\)\n([\s\S]*?)(?=\n\n\[\d+\] |\n\nQuestion:)/gm)].map((m) => {
    const lines = (m[3] ?? '').split('\n');
    const head = lines.find((l) => l.startsWith('row | ')) ?? '';
    const letters = new Map(
      head
        .slice(6)
        .split(' | ')
        .map((c) => [c.slice(c.indexOf(': ') + 2), c.slice(0, c.indexOf(':'))] as const),
    );
    const rows = lines.flatMap((l) => {
      const r = /^(\d+) \| (.*)$/.exec(l);
      return r ? [{ id: r[1] as string, values: (r[2] as string).split(' | ') }] : [];
    });
    return { n: m[1] as string, file: m[2] as string, letters, rows };
  });
}

/** What the fake model answered last, for the assertions: the cell id it cited and the value it read there. */
let read: { id: string; value: string } | undefined;

/** A model that reads the grid: finds the row holding `values`, reads column `column`, cites that cell (and `extra` markers). */
function readCell(prompt: string, values: string[], column: string, say: (v: string) => string, extra = ''): string {
  for (const g of grids(prompt)) {
    const col = g.letters.get(column);
    if (!col) continue;
    const index = [...g.letters.values()].indexOf(col);
    const row = g.rows.find((r) => values.every((v) => r.values.includes(v)));
    if (!row) continue;
    read = { id: `${col}${row.id}`, value: row.values[index] ?? '' };
    return `${say(read.value)} [${g.n}:${read.id}]${extra.replace('N', g.n)}.`;
  }
  return 'NO_ANSWER: not in the tables.';
}

function model(prompt: string): string {
  if (prompt.includes('Question: How many Stanley Cups have the Maple Leafs won?'))
    return readCell(prompt, ['Maple Leafs'], 'Stanley Cups', (v) => `The Maple Leafs have won ${v} Stanley Cups`, '[N]');
  if (prompt.includes('Question: What were the gross sales of Carretera in Canada?'))
    return readCell(prompt, ['Canada', 'Carretera'], 'Gross Sales', (v) => `Gross sales of Carretera in Canada were ${v}`);
  if (prompt.includes('Question: Which team has won 13 Stanley Cups?')) {
    const n = grids(prompt).find((g) => g.letters.has('Team'))?.n;
    // one marker naming two cells, the first in lower case
    return `The Maple Leafs have won 13 Stanley Cups [${n}:a4, C4].`;
  }
  if (prompt.includes('Question: Where are the Flyers located?')) return 'The Flyers are from Philadelphia [1:Z99].';
  return 'NO_ANSWER: The documents do not answer this question.';
}

let close: () => Promise<void>;
let gemini: FakeServer;
let ollama: FakeServer;
let engine: Engine;
let viaOllama: Engine;

beforeAll(async () => {
  gemini = await startFakeGemini(model);
  ollama = await startFakeOllama(64, model);
  const generator = createGenerator({ kind: 'gemini', apiKey: 'test', baseUrl: gemini.url });
  ({ engine, close } = openTestEngine('pp-table-gen-', { isolate: false, ports: generator ? { generator } : {} }));
  // same stores, the other wire format (never closed itself: the first engine closes the ports)
  const local = createGenerator({ kind: 'ollama', url: ollama.url, model: 'llama3.1' });
  viaOllama = createEngine(engine.config, { ...engine.ports, ...(local ? { generator: local } : {}) });
  const collection = await engine.ensureCollection('default');
  const uploaded = await engine.upload(
    collection.collection_id,
    FILES.map((f) => ({ name: f.split('/')[1] as string, bytes: new Uint8Array(readFileSync(join(CORPUS, f))) })),
  );
  await engine.waitForVersions(
    uploaded.map((u) => u.version.version_id),
    { timeoutMs: 120_000 },
  );
}, 180_000);

afterAll(async () => {
  await close();
  await gemini.close();
  await ollama.close();
});

describe('a generated answer over tables cites cells', () => {
  it('shows the table as a grid with cell ids and turns the cited id into the cell’s own anchor', async () => {
    const res = await engine.ask('How many Stanley Cups have the Maple Leafs won?');
    const prompt = JSON.stringify(gemini.requests.at(-1)?.body);
    expect(prompt).toContain('unstructured__stanley-cups-with-emoji.csv (table)');
    expect(prompt).toContain('row | A: Team | B: Location | C: Stanley Cups');
    expect(res.refused).toBe(false);
    expect(res.generator).toBe('gemini:gemini-2.5-flash');
    // the model's [n:C4] and the bare [n] that cites the table whole: the cell is citation 1, the bare marker is dropped
    expect(read).toEqual({ id: 'C4', value: '13' });
    expect(res.answer).toBe('The Maple Leafs have won 13 Stanley Cups [1].');
    expect(res.citations).toHaveLength(1);
    // the grid's row 4 is the sheet's row 5: a title row sits above the header
    expect(res.citations[0]).toMatchObject({
      n: 1,
      file: 'unstructured__stanley-cups-with-emoji.csv',
      quote: '13',
      precision: 'exact',
      supported: true,
      anchor: { kind: 'record', cell_range: 'C5' },
    });
    expect(res.sentences?.map((s) => s.supported)).toEqual([true]);
  });

  it('keeps the rows the question points at when a long table is cut', async () => {
    const res = await engine.ask('What were the gross sales of Carretera in Canada?');
    const prompt = JSON.stringify(gemini.requests.at(-1)?.body);
    expect(prompt).toContain('onyx__financial-sample.xlsx (table)');
    expect(prompt).toMatch(/more rows not shown/);
    expect(res.refused).toBe(false);
    expect(read?.value).toBe('$32,370.00');
    expect(res.citations[0]).toMatchObject({ file: 'onyx__financial-sample.xlsx', precision: 'exact' });
    expect(res.citations[0]?.quote.trim()).toBe(read?.value);
    // the sheet starts at A1 with one header row: the grid's id is the sheet's own cell
    expect(res.citations[0]?.anchor).toMatchObject({ kind: 'record', cell_range: read?.id });
  });

  it('streams text with renumbered markers and a citation event per cell', async () => {
    const events = [];
    for await (const e of engine.askStream('How many Stanley Cups have the Maple Leafs won?')) events.push(e);
    expect(events[0]?.type).toBe('retrieved');
    expect(events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('')).toBe(
      'The Maple Leafs have won 13 Stanley Cups [1].',
    );
    const cited = events.flatMap((e) => (e.type === 'citation' ? [e.citation] : []));
    expect(cited.map((c) => [c.n, c.quote])).toEqual([[1, '13']]);
  });

  it('reads a marker that names several cells', async () => {
    const res = await engine.ask('Which team has won 13 Stanley Cups?');
    expect(res.answer).toBe('The Maple Leafs have won 13 Stanley Cups [1][2].');
    expect(res.citations.map((c) => [c.n, c.quote, c.anchor.kind === 'record' && c.anchor.cell_range])).toEqual([
      [1, 'Maple Leafs', 'A5'],
      [2, '13', 'C5'],
    ]);
  });

  it('an id that names no cell is dropped, and an answer left without a cell is refused', async () => {
    const res = await engine.ask('Where are the Flyers located?');
    expect(res).toMatchObject({ refused: true, refusal_reason: 'no-citations', citations: [] });
  });

  it('speaks the Ollama wire format the same way', async () => {
    const res = await viaOllama.ask('How many Stanley Cups have the Maple Leafs won?');
    expect(res.generator).toBe('ollama:llama3.1');
    expect(JSON.stringify(ollama.requests.at(-1)?.body)).toContain('row | A: Team | B: Location | C: Stanley Cups');
    expect(res.citations[0]).toMatchObject({ quote: '13', anchor: { kind: 'record', cell_range: 'C5' } });
  });
});
