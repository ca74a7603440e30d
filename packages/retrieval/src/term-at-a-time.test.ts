import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexedChunk } from '@pinpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openLexicalIndex } from './sqlite-index.js';

/** Term at a time against every posting scored, on the text files and questions of real eval sets (../shared/eval). */
const evalDir = fileURLToPath(new URL('../../../../shared/eval/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pp-taat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The set's Markdown and text documents as passages of 80 characters, one every 12 (overlapping, so a
 * common term's lists run to many blocks), a version per document.
 */
function passages(set: string): IndexedChunk[] {
  const docs = `${evalDir}${set}/docs/`;
  const out: IndexedChunk[] = [];
  readdirSync(docs)
    .filter((name) => name.endsWith('.md') || name.endsWith('.txt'))
    .sort()
    .forEach((name, d) => {
      const text = readFileSync(docs + name, 'utf8');
      for (let at = 0, i = 0; at < text.length; at += 12, i++)
        out.push({
          chunk_id: `${set}-${d}-${i}`,
          version_id: `v${d}`,
          document_id: `d${d}`,
          collection_id: `c${d % 4 === 3 ? 1 : 0}`,
          retrieval_text: text.slice(at, at + 80),
        });
    });
  return out;
}

function questions(set: string): string[] {
  return readFileSync(`${evalDir}${set}/questions.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { question: string }).question);
}

describe('term at a time', () => {
  it.each(['jsquad-dev', 'drcd-dev', 'squad2-dev'])(
    'gives the exhaustive top k on the questions of %s, decoding fewer postings once the lists left cannot bring a chunk in',
    async (set) => {
      const chunks = passages(set);
      const termAtATime = openLexicalIndex(join(dir, `${set}.sqlite`), { segmentChunks: 1000, segmentScoring: 'term-at-a-time' });
      const exhaustive = openLexicalIndex(':memory:', { segmentChunks: 1000, pruning: false });
      for (let i = 0; i < chunks.length; i += 1000) {
        await termAtATime.upsert(chunks.slice(i, i + 1000));
        await exhaustive.upsert(chunks.slice(i, i + 1000));
      }
      // every chunk in segments; a deleted version (its chunks still in the segments' lists) and a filter by collection
      termAtATime.flush();
      exhaustive.flush();
      await termAtATime.deleteVersion('v1');
      await exhaustive.deleteVersion('v1');
      const work = { pruned: 0, all: 0, skipped: 0 };
      const asked = questions(set).slice(0, 120);
      for (const [q, question] of asked.entries()) {
        const options = q % 3 === 2 ? { k: 5, filter: { collectionIds: ['c1'] } } : { k: q % 3 === 0 ? 10 : 1 };
        const expected = await exhaustive.search(question, options);
        expect(await termAtATime.search(question, options)).toEqual(expected);
        expect(termAtATime.lastWork.postings).toBeLessThanOrEqual(exhaustive.lastWork.postings);
        work.pruned += termAtATime.lastWork.postings;
        work.all += exhaustive.lastWork.postings;
        work.skipped += termAtATime.lastWork.skipped;
      }
      expect(asked.length).toBeGreaterThan(50);
      expect(work.pruned).toBeLessThan(work.all);
      expect(work.skipped).toBeGreaterThan(0);
      await termAtATime.close();
      await exhaustive.close();
    },
    60_000,
  );
});
