import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from './engine.js';
import { openTestEngine, uploadSettled } from './test-engine.js';

/** Three years of one company's 10-Ks and another company's 10-K of one of those years, read in place. */
const DOCS = join(import.meta.dirname, '../../../../shared/eval/financebench-dev/docs');
const FILES = ['NIKE_2018_10K.pdf', 'NIKE_2019_10K.pdf', 'NIKE_2021_10K.pdf', 'GENERALMILLS_2019_10K.pdf'];

let engine: Engine;
let close: () => Promise<void>;
const ids = new Map<string, string>();

beforeAll(async () => {
  const opened = openTestEngine('pp-report-scope-', { isolate: false });
  ({ engine, close } = opened);
  const collection = await engine.ensureCollection('default');
  const uploaded = await uploadSettled(
    engine,
    collection.collection_id,
    FILES.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(DOCS, name))) })),
    240_000,
  );
  for (const u of uploaded) ids.set(u.file, u.document.document_id);
}, 300_000);

afterAll(async () => close());

describe('questions scoped by the company and the year they name', () => {
  it('reads each report’s identity from its cover: registrant, form and fiscal year', async () => {
    const nike = await engine.getDocument(ids.get('NIKE_2019_10K.pdf') as string);
    expect(nike.identity?.names.map((n) => n.value)).toContain('NIKE, Inc.');
    expect(nike.identity?.kind).toEqual({ value: '10-K', source: 'cover_page' });
    expect(nike.identity?.period).toMatchObject({ fiscal_year: 2019, end_date: '2019-05-31', source: 'cover_page' });
    const mills = await engine.getDocument(ids.get('GENERALMILLS_2019_10K.pdf') as string);
    expect(mills.identity?.names.map((n) => n.value)).toContain('GENERAL MILLS, INC.');
    expect(mills.identity?.period?.fiscal_year).toBe(2019);
  });

  it('"FY2019" and the company name pick that company’s 2019 report', async () => {
    const nike = await engine.ask('What was NIKE’s total revenue in FY2019?');
    expect(nike.scope?.documents.map((d) => d.file)).toEqual(['NIKE_2019_10K.pdf']);
    expect(nike.scope?.summary).toBe("Searched NIKE_2019_10K.pdf — named by 'NIKE' and 'FY2019'");
    expect(new Set(nike.retrieved.map((r) => r.file))).toEqual(new Set(['NIKE_2019_10K.pdf']));
    const mills = await engine.ask('What were General Mills’ net sales in fiscal 2019?');
    expect(mills.scope?.documents.map((d) => d.file)).toEqual(['GENERALMILLS_2019_10K.pdf']);
    expect(mills.retrieved[0]?.file).toBe('GENERALMILLS_2019_10K.pdf');
    const before = await engine.ask('What was NIKE’s total revenue in the fiscal year ended May 31, 2018?');
    expect(before.scope?.documents.map((d) => d.file)).toEqual(['NIKE_2018_10K.pdf']);
  });

  it('never scopes to a report of another company, nor on a period alone', async () => {
    const apple = await engine.ask('What was Apple’s total revenue in FY2019?');
    expect(apple.scope).toBeUndefined();
    const year = await engine.ask('What was total revenue in FY2019?');
    expect(year.scope).toBeUndefined();
    expect(new Set(year.retrieved.map((r) => r.file)).size).toBeGreaterThan(1);
  });

  it('asks the whole collection when the scope is removed, and the documents the user picked', async () => {
    const wide = await engine.ask('What was NIKE’s total revenue in FY2019?', { scope: false });
    expect(wide.scope).toBeUndefined();
    const picked = ids.get('NIKE_2021_10K.pdf') as string;
    const mine = await engine.ask('What was total revenue?', { filters: { document_ids: [picked] } });
    expect(mine.scope).toMatchObject({ by: 'user', documents: [{ document_id: picked, file: 'NIKE_2021_10K.pdf' }] });
    expect(new Set(mine.retrieved.map((r) => r.file))).toEqual(new Set(['NIKE_2021_10K.pdf']));
  });

  it('keeps an editor’s correction across re-processing, and scopes by it', async () => {
    const doc = ids.get('NIKE_2018_10K.pdf') as string;
    await engine.correctIdentity(doc, { names: ['Blue Ribbon Sports'] });
    const named = await engine.ask('What were Blue Ribbon Sports’ revenues in FY2018?');
    expect(named.scope?.documents.map((d) => d.file)).toEqual(['NIKE_2018_10K.pdf']);
    const summary = await engine.getDocument(doc);
    const { job } = await engine.reprocess(summary.latest_ready_version_id as string);
    await engine.waitForVersions([job.version_id], { timeoutMs: 120_000 });
    const again = await engine.getDocument(doc);
    expect(again.latest_ready_version_id).toBe(job.version_id);
    expect(again.identity?.names).toEqual([{ value: 'Blue Ribbon Sports', source: 'editor' }]);
    expect(again.identity?.period?.fiscal_year).toBe(2018);
    await engine.correctIdentity(doc, null);
    // the cover's registrant again ("NIKE, Inc ." above "Exact name of Registrant", tidied)
    expect((await engine.getDocument(doc)).identity?.names.map((n) => n.value)).toContain('NIKE, Inc.');
  }, 180_000);
});
