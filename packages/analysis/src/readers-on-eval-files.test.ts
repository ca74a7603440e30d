import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headerScale } from './header-scale.js';
import { findNumbersAsWritten } from './number-mentions.js';
import { findPeriods } from './periods.js';

/** The period, number and header readers on real files of ../shared/eval (documents and their names; no financebench questions). */
const evalDir = fileURLToPath(new URL('../../../../shared/eval/', import.meta.url));

function csvCells(set: string): string[] {
  const dir = `${evalDir}${set}/docs/`;
  const cells: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.csv'))) {
    for (const m of readFileSync(dir + f, 'utf8').matchAll(/"((?:[^"]|"")*)"|([^,\n]+)/g))
      cells.push((m[1] ?? m[2] ?? '').trim());
  }
  return cells.filter((c) => c.length > 0);
}

function questions(set: string): string[] {
  return readFileSync(`${evalDir}${set}/questions.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { question: string }).question);
}

describe('periods in real file names', () => {
  const names = readdirSync(`${evalDir}financebench-dev/docs`).filter((n) => n.endsWith('.pdf'));

  it.each(names)('%s', (name) => {
    const found = findPeriods(name);
    const year = Number(/_(\d{4})/.exec(name)?.[1]);
    expect(found[0]?.fiscal_year).toBe(year);
    const quarter = /\d{4}Q([1-4])/.exec(name);
    if (quarter) expect(found[0]).toMatchObject({ kind: 'quarter', quarter: Number(quarter[1]) });
    const dated = /dated[-_](\d{4}-\d{2}-\d{2})/.exec(name);
    if (dated) expect(found.at(-1)).toMatchObject({ kind: 'date', end: dated[1] });
  });
});

describe('readers on real table documents', () => {
  it('reads every 自 … 至 … business year of the Japanese statements as a 12-month fiscal year', () => {
    const ranges = csvCells('ja-table-dev').filter((c) => /自\s*\S+年.*至\s*\S+年/.test(c));
    expect(ranges.length).toBeGreaterThan(10);
    for (const cell of ranges) {
      const p = findPeriods(cell).find((x) => x.text.startsWith('自'));
      const to = Number(/至\s*(\d{4})/.exec(cell.normalize('NFKC'))?.[1]);
      expect(p, cell).toMatchObject({ kind: 'fiscal-year', months: 12 });
      if (to) expect(p?.fiscal_year, cell).toBe(to);
    }
  });

  it('reads the unit lines of Japanese and English statements', () => {
    const ja = csvCells('ja-table-dev').filter((c) => /単位\s*[:：]\s*百万円/.test(c));
    expect(ja.length).toBeGreaterThan(5);
    for (const c of ja) expect(headerScale(c), c).toMatchObject({ scale: 1e6, unit: 'JPY' });
    const en = csvCells('tatqa-dev').filter((c) => /^\((?:in|dollars in) (?:thousands|millions)\)$/i.test(c));
    expect(en.length).toBeGreaterThan(5);
    for (const c of en) expect(headerScale(c).scale, c).toBe(/thousands/i.test(c) ? 1e3 : 1e6);
  });

  it('keeps span and range invariants on every question of the text and table sets (periods and amounts)', () => {
    let found = 0;
    for (const set of [
      'tatqa-dev',
      'ja-table-dev',
      'zh-table-dev',
      'wtq-dev',
      'jsquad-dev',
      'drcd-dev',
      'squad2-dev',
      'cmrc-dev',
    ]) {
      for (const q of questions(set)) {
        const cps = Array.from(q);
        let last = 0;
        for (const n of findNumbersAsWritten(q)) expect(cps.slice(n.span[0], n.span[1]).join('')).toBe(n.text);
        for (const p of findPeriods(q)) {
          found++;
          expect(p.span[0]).toBeGreaterThanOrEqual(last);
          expect(cps.slice(p.span[0], p.span[1]).join('')).toBe(p.text);
          last = p.span[1];
          if (p.fiscal_year !== undefined) expect(p.fiscal_year).toBeGreaterThanOrEqual(1868);
          if (p.fiscal_year !== undefined) expect(p.fiscal_year).toBeLessThanOrEqual(2200);
          if (p.end !== undefined) expect(p.end).toMatch(/^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/);
        }
      }
    }
    expect(found).toBeGreaterThan(100);
  });
});
