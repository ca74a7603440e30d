import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults, renderPage, sections } from '@pinpoint/results';
import { describe, expect, it } from 'vitest';
import { benchPeer } from './peer-bench.js';
import { peerLibraries, segmenterTokens } from './peer-libraries.js';
import { benchRecorder } from './recording.js';

const shared = fileURLToPath(new URL('../../../../shared/', import.meta.url));

describe('pnpm bench --peer', () => {
  it('gives the Japanese and Chinese peers words by Intl.Segmenter', () => {
    expect(segmenterTokens('ja')('東京都の人口は何人ですか？').length).toBeGreaterThan(3);
    expect(segmenterTokens('zh-Hant')('臺北市的人口是多少？')).not.toContain('？');
    expect(segmenterTokens('en')('The Cat, sat.')).toEqual(['the', 'cat', 'sat']);
  });

  for (const set of ['squad2-dev', 'jsquad-dev']) {
    it(`measures every library on Pinpoint's chunks of ${set} and records the best`, async () => {
      const f = await benchPeer(shared, set, { limit: 6 });
      expect(f.questions).toBe(6);
      expect(f.chunks).toBeGreaterThan(0);
      expect(Object.keys(f.mrr_by_library).sort()).toEqual(peerLibraries.map((l) => l.name).sort());
      expect(f['mrr@10']).toBe(Math.max(...Object.values(f.mrr_by_library)));
      expect(f.library_version).toMatch(/^\d+\.\d+\.\d+/);
      expect(f['hit@1']).toBeLessThanOrEqual(f['hit@5']);
      expect(f['hit@5']).toBeLessThanOrEqual(f['hit@10']);
      // six questions on the documents they cite: a competent library finds most of them
      expect(f['hit@10']).toBeGreaterThan(0.5);
      const dir = mkdtempSync(join(tmpdir(), 'pp-peer-results-'));
      try {
        benchRecorder(['--peer', '--record'], { dir })('peer', set, f);
        const page = renderPage(sections, readResults(dir), '# page');
        expect(page).toContain('## Retrieval against JavaScript search libraries');
        expect(page).toContain(`[${set}](../results/peer/${set}.json)`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 180_000);
  }
});
