import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { citingSentences, markCitations, novelSpans, verifyAnswer } from './verify.js';
import { measureVerification, verificationItems } from './verify-measure.js';

const shared = new URL('../../../../shared/', import.meta.url);

describe('citation verification', () => {
  it('attaches a marker standing after the full stop to its sentence; uncited sentences are skipped', () => {
    const s = citingSentences('Taxis are refunded. [1] Nothing cites this. Meals too [2][3].');
    expect(s.map((x) => [x.text, x.cites])).toEqual([
      ['Taxis are refunded.', [1]],
      ['Meals too .', [2, 3]],
    ]);
  });

  it('finds numbers, names and CJK runs that the source lacks', () => {
    expect(novelSpans('The limit is 80 dollars set by Olympic Airways', 'The limit is 50 dollars.')).toEqual([
      '80',
      'Olympic',
      'Airways',
    ]);
    expect(novelSpans('梅雨はシベリア高気圧が原因です', '梅雨は5月から7月にかけての期間のこと')).toEqual(['シベリア高気圧']);
    expect(novelSpans('The limit is 1,500 dollars', 'a limit of 1500 dollars')).toEqual([]);
  });

  it('checks each citing sentence against the sources it cites', async () => {
    const sources = ['Taxi fares are refunded up to 50 dollars per trip.', 'Meals are covered up to 30 dollars per day.'];
    const out = await verifyAnswer(
      'Taxi fares are refunded up to 50 dollars [1]. Meals are covered up to 30 dollars [1].',
      (n) => sources[n - 1],
    );
    expect(out.map((s) => s.supported)).toEqual([true, false]);
    const marked = markCitations([{ n: 1, supported: undefined } as never, { n: 2 } as never], out);
    expect(marked.map((c) => c.supported)).toEqual([false, undefined]);
  });

  it('detects injected unsupported sentences on jsquad-dev (measured: README numbers)', async () => {
    const items = await verificationItems(fileURLToPath(new URL('eval/jsquad-dev', shared)));
    const [m] = await measureVerification(items.slice(0, 400), [0.4]);
    expect(m?.precision).toBeGreaterThan(0.9);
    expect(m?.recall).toBeGreaterThan(0.85);
  });
});
