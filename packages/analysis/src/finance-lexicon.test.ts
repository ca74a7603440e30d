import { describe, expect, it } from 'vitest';
import { expandFinanceTerms, FINANCE_EXPANSION_WEIGHTS, financeLexiconNames, financeMeasures } from './finance-lexicon.js';
import { FINANCE_TERM_GROUPS } from './finance-terms.js';

const names = financeLexiconNames();

function groupsOf(text: string): string[] {
  return [...new Set(expandFinanceTerms(text).map((e) => e.group))];
}

describe('finance lexicon data', () => {
  it('has 40–100 groups (line items, and the measures figures compute), each named in English and in Japanese or Chinese', () => {
    expect(FINANCE_TERM_GROUPS.length).toBeGreaterThanOrEqual(40);
    expect(FINANCE_TERM_GROUPS.length).toBeLessThanOrEqual(100);
    for (const g of FINANCE_TERM_GROUPS) {
      expect(g.en.length, g.id).toBeGreaterThan(0);
      expect(g.ja.length + g.zh.length, g.id).toBeGreaterThan(0);
    }
    expect(new Set(FINANCE_TERM_GROUPS.map((g) => g.id)).size).toBe(FINANCE_TERM_GROUPS.length);
  });

  it('gives no name to two groups, after folding case, plurals, width and Traditional/Simplified', () => {
    const owner = new Map<string, string>();
    for (const n of names) {
      expect(n.key.length, n.name).toBeGreaterThanOrEqual(2);
      const other = owner.get(n.key);
      if (other !== undefined && other !== n.group) expect(`${n.name} in ${n.group}`).toBe(`a name of ${other} only`);
      owner.set(n.key, n.group);
    }
  });
});

describe('expandFinanceTerms', () => {
  for (const group of FINANCE_TERM_GROUPS) {
    it(`${group.id}: each name expands to the group's other names`, () => {
      const own = names.filter((n) => n.group === group.id);
      const allKeys = new Set(own.map((n) => n.key));
      for (const n of own) {
        const out = expandFinanceTerms(n.name);
        expect(new Set(out.map((e) => e.group)), n.name).toEqual(new Set([group.id]));
        const keys = new Set([n.key, ...out.map((e) => names.find((x) => x.name === e.term && x.group === group.id)?.key)]);
        expect(keys, n.name).toEqual(allKeys);
        for (const e of out) expect(e.weight).toBeLessThan(1);
      }
    });
  }

  it('finds a line item inside a question and expands it in every language', () => {
    const out = expandFinanceTerms('What is the FY2018 capital expenditure amount for 3M?');
    expect(out.map((e) => e.term)).toEqual(
      expect.arrayContaining([
        'capex',
        'purchases of property, plant and equipment',
        '設備投資',
        '资本支出',
        '有形固定資産の取得による支出',
      ]),
    );
    expect(out.every((e) => e.matched === 'capital expenditure')).toBe(true);
  });

  it('matches plurals, case, full-width forms and Traditional Chinese', () => {
    expect(groupsOf('Capital Expenditures in 2022')).toEqual(['capital-expenditure']);
    expect(groupsOf('ＥＢＩＴＤＡ')).toEqual(['ebitda']);
    expect(groupsOf('Inventory levels')).toEqual(['inventories']);
    expect(groupsOf('Inventory turnover')).toEqual(['inventory-turnover']);
    expect(groupsOf('2022年營業收入是多少？')).toEqual(['revenue']);
    expect(groupsOf('應收帳款')).toEqual(['accounts-receivable']);
    expect(groupsOf('每股盈餘')).toEqual(['eps']);
    expect(groupsOf('営業活動によるキャッシュフロー')).toEqual(['operating-cash-flow']);
    expect(groupsOf('R&D spending')).toEqual(['research-and-development']);
  });

  it('takes the longest name where names overlap', () => {
    expect(groupsOf('売上総利益はいくら')).toEqual(['gross-profit']);
    expect(groupsOf('営業利益率')).toEqual(['operating-margin']);
    expect(groupsOf('What was the cost of sales?')).toEqual(['cost-of-revenue']);
    expect(groupsOf('1株当たり当期純利益')).toEqual(['eps']);
    expect(groupsOf('net cash provided by operating activities')).toEqual(['operating-cash-flow']);
    expect(groupsOf('derivatives non-current liability')).toEqual(['non-current-liabilities']);
    expect(groupsOf('引当金、非流動負債')).toEqual(['non-current-liabilities']);
    expect(groupsOf('Medical and employee benefits')).toEqual(['employee-benefits']);
    expect(groupsOf('自己株式の取得')).toEqual(['share-repurchases']);
  });

  it('finds several line items in one question', () => {
    expect(groupsOf('トヨタの2023年3月期の営業利益と売上高は？')).toEqual(['operating-income', 'revenue']);
    expect(groupsOf('total revenues and net income in FY2022')).toEqual(['revenue', 'net-income']);
  });

  it("reports the name of the text's language where Japanese and Chinese names fold alike", () => {
    expect(expandFinanceTerms('非流动资产处置损益')[0]).toMatchObject({ group: 'non-current-assets', matched: '非流动资产' });
    expect(expandFinanceTerms('その他の非流動資産')[0]).toMatchObject({ group: 'non-current-assets', matched: '非流動資産' });
  });

  it('weighs names of the matched language above the others, and filters by language', () => {
    const out = expandFinanceTerms('営業利益');
    expect(out.find((e) => e.term === 'operating income')?.weight).toBe(FINANCE_EXPANSION_WEIGHTS.otherLanguage);
    expect(expandFinanceTerms('net sales').find((e) => e.term === 'revenue')?.weight).toBe(
      FINANCE_EXPANSION_WEIGHTS.sameLanguage,
    );
    expect(new Set(expandFinanceTerms('capex', 'ja').map((e) => e.lang))).toEqual(new Set(['ja']));
    expect(new Set(expandFinanceTerms('capex', ['en', 'zh']).map((e) => e.lang))).toEqual(new Set(['en', 'zh']));
  });

  it('returns nothing for a question that names no line item', () => {
    expect(expandFinanceTerms('Who founded the company and where is it based?')).toEqual([]);
    expect(expandFinanceTerms('上海的人口是多少？')).toEqual([]);
  });
});

describe('financeMeasures: measures computed from line items', () => {
  it('reads each measure from groups of line items that exist, never from itself', () => {
    const ids = new Set(FINANCE_TERM_GROUPS.map((g) => g.id));
    const measures = FINANCE_TERM_GROUPS.filter((g) => g.of);
    expect(measures.length).toBeGreaterThanOrEqual(20);
    for (const g of measures) {
      for (const part of g.of ?? []) {
        expect(ids.has(part), `${g.id} reads ${part}`).toBe(true);
        expect(part).not.toBe(g.id);
      }
    }
  });

  it('names the line items in the language the measure was named in', () => {
    expect(financeMeasures('What is the FY2022 operating margin for PepsiCo?')).toEqual([
      { name: 'operating margin', parts: ['operating income', 'revenue'] },
    ]);
    expect(financeMeasures('2023年3月期の当座比率は？')).toEqual([
      { name: '当座比率', parts: ['現金及び現金同等物', '売掛金', '流動負債'] },
    ]);
    expect(financeMeasures('2022年的存货周转率是多少？')[0]?.parts).toEqual(['营业成本', '存货']);
    expect(financeMeasures('What were the net margin and the cash conversion cycle?').map((m) => m.name)).toEqual([
      'cash conversion cycle',
      'net margin',
    ]);
  });

  it('finds none in a question about a line item that is stated, not computed', () => {
    expect(financeMeasures('What were the FY2018 capital expenditures of 3M?')).toEqual([]);
  });
});
