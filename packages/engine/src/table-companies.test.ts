import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, openTableCollections, type TableCollections } from './test-table-collections.js';

/**
 * Reports' tables that name their company in the file (the document's identity) or in their cells,
 * and profiles laid out as labels beside values: one collection per language.
 */
const TABLES: Record<string, Record<string, string>> = {
  ja: {
    '株式会社サクラ精機_連結経営指標等.csv':
      '回次,,第10期,第11期\n決算年月,,2022年３月,2023年３月\n売上高,(百万円),"12,340","13,020"\n自己資本比率,（％）,40.3,41.2\n',
    '株式会社ミドリ電機_連結経営指標等.csv':
      '回次,,第20期,第21期\n決算年月,,2022年３月,2023年３月\n売上高,(百万円),"8,110","8,920"\n自己資本比率,（％）,55.0,56.4\n',
    '株式会社サクラ精機_表紙.csv':
      '項目,内容\n【会社名】,株式会社サクラ精機\n【本店の所在の場所】,東京都千代田区丸の内一丁目1番1号\n【電話番号】,03(1234)5678\n',
  },
  'zh-Hans': {
    '公司概况.html':
      '<html><body><table><tr><th colspan="4">公司基本信息</th></tr>' +
      '<tr><td>公司名称</td><td>上海青禾服装股份有限公司</td><td>法定代表人</td><td>孙静秋</td></tr>' +
      '<tr><td>成立日期</td><td>2005年3月</td><td>注册资本</td><td>5000万元</td></tr>' +
      '<tr><td>主要业务</td><td>职业服装设计及销售</td><td>员工人数</td><td>320</td></tr></table></body></html>',
  },
  'zh-Hant': {
    '公司概況.csv': '項目,內容\n公司名稱,臺北青禾服飾股份有限公司\n董事長,林文雄\n資本額,8000萬元\n員工人數,210\n',
  },
  en: {
    'Northwind Inc. balance sheet.csv': ',2023,2022\nCash,"1,200","1,050"\nReceivables,880,910\nTotal assets,"4,310","4,020"\n',
    'Contoso Ltd. balance sheet.csv': ',2023,2022\nCash,640,590\nReceivables,300,280\nTotal assets,"2,100","1,980"\n',
    'Northwind Inc. profile.html':
      '<html><body><table><tr><th colspan="2">Northwind Inc.</th></tr>' +
      '<tr><td>Chairman</td><td>Jane Doe</td></tr><tr><td>Founded</td><td>1998</td></tr>' +
      '<tr><td>Headquarters</td><td>Seattle</td></tr></table></body></html>',
  },
};

/** [question, the cited cell first (A1 reference, row 1 the file's first row), its value]. */
type Case = [string, string, string];
const CASES: Record<string, Case[]> = {
  ja: [
    // the company's document, the year's column under a header of business terms (第11期)
    ['株式会社サクラ精機の2023年における「自己資本比率、経営指標等」は？', 'D4', '41.2'],
    ['株式会社ミドリ電機の2022年における「売上高」は？', 'C3', '8,110'],
    // labels beside values: the value beside the label named
    ['株式会社サクラ精機の「本店の所在の場所」は？', 'B3', '東京都千代田区丸の内一丁目1番1号'],
  ],
  'zh-Hans': [
    ['上海青禾服装股份有限公司的法定代表人是谁？', 'D2', '孙静秋'],
    ['该公司的注册资本是多少？', 'D3', '5000万元'],
  ],
  'zh-Hant': [
    ['臺北青禾服飾股份有限公司的董事長是誰？', 'B3', '林文雄'],
    ['該公司的資本額是多少？', 'B4', '8000萬元'],
  ],
  en: [
    ['What were the total assets of Northwind Inc. in 2023?', 'B4', '4,310'],
    ['How much cash did Contoso Ltd. hold in 2022?', 'C2', '590'],
    ['Who is the chairman of Northwind Inc.?', 'B2', 'Jane Doe'],
  ],
};

/** A question about a company none of the documents is about, and the refusal in its language. */
const REFUSED: Record<string, [string, string]> = {
  ja: ['株式会社アオバ商事の2023年における「売上高」は？', '資料にはこの質問への答えが見つかりませんでした。'],
  'zh-Hans': ['湖南创研科技股份有限公司的法定代表人是谁？', '文件中没有找到这个问题的答案。'],
  'zh-Hant': ['高雄創研科技股份有限公司的董事長是誰？', '文件中沒有找到這個問題的答案。'],
  en: ['What were the total assets of Fabrikam Corp. in 2023?', 'The documents do not answer this question.'],
};

let t: TableCollections;

beforeAll(async () => {
  t = await openTableCollections('pp-table-company-', TABLES);
}, 90_000);

afterAll(async () => t?.close());

describe.each(Object.keys(TABLES))('a company and its report in %s', (lang) => {
  it.each(CASES[lang] as Case[])('%s → %s (%s)', async (question, cell, value) => {
    const res = await t.engine.ask(question, { collectionId: t.collections.get(lang) as string });
    expect(res.refused, res.answer).toBe(false);
    // an HTML table's cell is cited by its text (a text anchor), a CSV's by its A1 reference
    if (res.citations[0]?.anchor.kind === 'text') expect(res.citations[0].quote, res.answer).toBe(value);
    else expect(res.citations[0]?.anchor, res.answer).toMatchObject({ kind: 'record', cell_range: cell });
    expect(res.answer).toContain(value);
  });

  it('refuses a question about a company no document is about, in its language', () =>
    expectRefusal(t, lang, REFUSED[lang] as [string, string]));
});
