import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, openTableCollections, type TableCollections } from './test-table-collections.js';

/** Small real-looking tables, one collection per language (Traditional and Simplified Han fold alike in the index). */
const TABLES: Record<string, { file: string; csv: string }> = {
  ja: {
    file: '業績.csv',
    csv: '年度,売上高（百万円）,営業利益（百万円）,従業員数\n2020年,"12,340","1,050",820\n2021年,"13,020","1,320",845\n2022年,"14,560","1,710",880\n2023年,"15,110","1,590",910\n',
  },
  'zh-Hans': {
    file: '城市.csv',
    csv: '城市,人口（万人）,面积（平方公里）\n北京,2189,16411\n上海,2487,6341\n广州,1868,7434\n深圳,1756,1997\n',
  },
  'zh-Hant': {
    file: '城市人口.csv',
    csv: '城市,人口（萬人）,面積（平方公里）\n臺北,251,272\n新北,399,2053\n桃園,226,1221\n高雄,275,2952\n',
  },
  en: {
    file: 'cities.csv',
    csv: 'City,Population (thousands),Area (km2)\nBeijing,21890,16411\nShanghai,24870,6341\nGuangzhou,18680,7434\nShenzhen,17560,1997\n',
  },
};

/** [question, the cited cell first (A1 reference, row 1 the header), the answer's value]. */
type Case = [string, string, string];
const CASES: Record<string, Case[]> = {
  ja: [
    ['2022年の営業利益はいくらですか？', 'C4', '1,710'],
    ['従業員数が最も多いのは何年度ですか？', 'A5', '2023年'],
    ['営業利益が最も少ないのは何年度ですか？', 'A2', '2020年'],
    ['営業利益が1,500以上の年度は何件ですか？', 'C4', '2'],
    ['営業利益の合計はいくらですか？', 'C2', '5670'],
    ['2021年と2022年の営業利益の差はいくらですか？', 'C3', '390'],
    ['2021年の次の年度の従業員数は何人ですか？', 'D4', '880'],
    ['2023年以外で従業員数が最も多いのは何年度ですか？', 'A4', '2022年'],
  ],
  'zh-Hans': [
    ['上海的人口是多少？', 'B3', '2487'],
    ['哪个城市面积最大？', 'A2', '北京'],
    ['哪个城市人口最少？', 'A5', '深圳'],
    ['人口超过2000万的城市有几个？', 'B2', '2'],
    ['所有城市的人口合计是多少？', 'B2', '8300'],
    ['北京和上海的人口相差多少？', 'B2', '298'],
    ['上海的下一个城市是哪个？', 'A4', '广州'],
    ['除了北京以外，哪个城市面积最大？', 'A4', '广州'],
  ],
  'zh-Hant': [
    ['臺北的人口是多少？', 'B2', '251'],
    ['哪個城市面積最大？', 'A5', '高雄'],
    ['哪個城市人口最少？', 'A4', '桃園'],
    ['人口超過260萬的城市有幾個？', 'B3', '2'],
    ['所有城市的人口合計是多少？', 'B2', '1151'],
    ['臺北和新北的人口相差多少？', 'B2', '148'],
    ['新北的下一個城市是哪個？', 'A4', '桃園'],
    ['除了高雄以外，哪個城市面積最大？', 'A3', '新北'],
  ],
  en: [
    ['What is the population of Shanghai?', 'B3', '24870'],
    ['Which city has the largest area?', 'A2', 'Beijing'],
    ['Which city has the smallest population?', 'A5', 'Shenzhen'],
    ['How many cities have a population of more than 20,000 thousands?', 'B2', '2'],
    ['What is the total population of all cities?', 'B2', '83000'],
    ['What is the difference in population between Beijing and Shanghai?', 'B3', '2980'],
    ['Which city is listed after Shanghai?', 'A4', 'Guangzhou'],
    ['Other than Beijing, which city has the largest area?', 'A4', 'Guangzhou'],
  ],
};

/** A question about a table none of the collections holds, and the refusal in its language. */
const REFUSED: Record<string, [string, string]> = {
  ja: ['東京の平均気温は何度ですか？', '資料にはこの質問への答えが見つかりませんでした。'],
  'zh-Hans': ['东京的平均气温是多少度？', '文件中没有找到这个问题的答案。'],
  'zh-Hant': ['東京的平均氣溫是多少度？', '文件中沒有找到這個問題的答案。'],
  en: ['What is the average temperature in Tokyo?', 'The documents do not answer this question.'],
};

let t: TableCollections;

beforeAll(async () => {
  t = await openTableCollections(
    'pp-table-lang-',
    Object.fromEntries(Object.entries(TABLES).map(([lang, { file, csv }]) => [lang, { [file]: csv }])),
  );
}, 90_000);

afterAll(async () => t?.close());

describe.each(Object.keys(TABLES))('table questions in %s', (lang) => {
  it.each(CASES[lang] as Case[])('%s → %s (%s)', async (question, cell, value) => {
    const res = await t.engine.ask(question, { collectionId: t.collections.get(lang) as string });
    expect(res.refused, res.answer).toBe(false);
    expect(res.citations[0]?.anchor, res.answer).toMatchObject({ kind: 'record', cell_range: cell });
    expect(res.answer).toContain(value);
  });

  it('refuses a question about a table that is not there, in its language', () =>
    expectRefusal(t, lang, REFUSED[lang] as [string, string]));
});

describe('the answer line', () => {
  it('names the year and the column in Japanese, and says where it read it', async () => {
    const res = await t.engine.ask('2022年の営業利益はいくらですか？', { collectionId: t.collections.get('ja') as string });
    // the figure first, with the unit its header declares, then the line item and the period
    expect(res.answer).toMatch(/^1,710百万円（営業利益、2022年）\[1\]$/);
    expect(res.gate?.reason).toMatch(/^業績\.csv の表から読み取りました（質問に合う行の営業利益（百万円））。/);
  });
});
