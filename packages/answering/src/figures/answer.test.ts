import { describe, expect, it } from 'vitest';
import type { FigureMissing, FigureReading } from './answer.js';
import { answerFigure, missingLine } from './answer.js';
import { itemName } from './locate.js';
import { reportTable } from './test-tables.js';

const none = new Map<string, number>();
const read = (q: string, ...tables: ReturnType<typeof reportTable>[]) => answerFigure(q, tables, none);
const reading = (r: FigureReading | FigureMissing | undefined): FigureReading => {
  if (!r || !('text' in r)) throw new Error(`no reading: ${JSON.stringify(r)}`);
  return r;
};

// the shapes of TAT-QA's report tables (../shared/eval/tatqa-arith-dev), cut down
const DIVIDENDS = reportTable('dividends.csv', 'Note 21. Equity - dividends', [
  ['Consolidated', '2019', '2018'],
  ['', 'US$’000', 'US$’000'],
  ['Final dividend for the year ended 30 June 2018 of AU 14 cents (2017: AU 12 cents)', '13,327', '12,534'],
  ['Interim dividend for the half year ended 31 December 2018 of AU 16 cents (2017: AU 13 cents)', '14,801', '13,099'],
  ['', '28,128', '25,633'],
]);
const CHARGES = reportTable('charges.csv', 'Operating income included the following', [
  ['', '2019', '2018'],
  ['Acquisition-related charges:', '', ''],
  ['Acquisition and integration costs', '$ 27', '$ 14'],
  ['Charges associated with the amortization of acquisition related fair value adjustments', '3', '8'],
  ['', '30', '22'],
  ['Restructuring and other charges, net', '255', '126'],
  ['Other items(1)', '17', '—'],
  ['Total', '$ 302', '$ 148'],
]);
const COSTS = reportTable('costs.csv', 'Operating costs', [
  ['Years ended August 31,', '2019', '2018'],
  ['Service delivery costs(1)', '661,214', '615,267'],
  ['Less: Voyage expenses', '(141,770)', '(165,012)'],
  ['Disposals (Note (c))', '(16,664)', '(14,805)'],
  ['Realized losses', '(5,062)', '(6,533)'],
  ['Other revenues', '27', '52'],
]);

describe('line items as a report table labels them', () => {
  it('reads a table of dated rows across: its columns are the line items, its dated rows the periods', () => {
    const balances = reportTable('rsu.csv', 'Restricted stock units', [
      ['', 'Number of shares', 'Weighted average grant date fair value'],
      ['Nonvested as of December 31, 2017', '6,120', '$ 5.10'],
      ['Granted', '2,004', '6.40'],
      ['Nonvested as of December 31, 2018', '6,002', '5.90'],
      ['Granted', '2,210', '7.15'],
      ['Nonvested as of December 31, 2019', '6,148', '6.59'],
    ]);
    const r = reading(read('What is the change in the number of shares from 2018 to 2019?', balances));
    expect(r.value.number).toBe(146);
    // the operands are the dated rows' own cells, cited where they stand
    expect(r.cells.map((c) => c.text)).toEqual(['6,002', '6,148']);
    expect(r.cells.map((c) => c.cell.ref)).toEqual(['B4', 'B6']);
  });

  it('reads a balance of a table of movements from the dated row of the day the question names', () => {
    const associates = reportTable('associates.csv', '18 Investment in associates', [
      ['£m', '2019', '2018'],
      ['At 1 January', '65.6', '64.8'],
      ['Share of post-tax (loss)/profit of associates', '(0.3)', '2.3'],
      ['Impairment', '(7.4)', '–'],
      ['At 31 December', '53.7', '65.6'],
    ]);
    const opening = reading(
      read(
        'What is the percentage change in the total investment in associates from 1 January 2018 to 1 January 2019?',
        associates,
      ),
    );
    expect(opening.cells.map((c) => c.cell.ref)).toEqual(['C2', 'B2']);
    expect(opening.value.number).toBeCloseTo(1.23, 2);
    expect(opening.text).toContain('Investment in associates, At 1 January 2018 to At 1 January 2019');
    expect(opening.calculation.operands.map((o) => o.period)).toEqual(['At 1 January 2018', 'At 1 January 2019']);
    const closing = reading(
      read('What was the change in investment in associates between December 31, 2018 and December 31, 2019?', associates),
    );
    expect(closing.cells.map((c) => c.cell.ref)).toEqual(['C5', 'B5']);
    expect(closing.value.number).toBeCloseTo(-11.9, 5);
    // a day no row states is no balance of this table
    expect(
      read('What was the change in investment in associates from 30 June 2018 to 30 June 2019?', associates),
    ).not.toHaveProperty('text');
  });

  it('reads the quarters of a year from quarter rows under year sections, in the column the item names', () => {
    const prices = reportTable('prices.html', 'Item 5. Market for Registrant’s Common Equity', [
      ['', 'High', 'Low'],
      ['2019:', '', ''],
      ['Fourth Quarter', '$11.44', '$9.47'],
      ['Third Quarter', '$14.96', '$10.26'],
      ['Second Quarter', '$20.91', '$12.61'],
      ['First Quarter', '$18.19', '$8.87'],
      ['2018:', '', ''],
      ['Fourth Quarter', '$12.16', '$7.43'],
      ['Third Quarter', '$20.60', '$10.95'],
    ]);
    const change = reading(
      read('In 2019, what is the change in high price between the third quarter and fourth quarter?', prices),
    );
    expect(change.cells.map((c) => c.cell.ref)).toEqual(['B4', 'B3']);
    expect(change.value.number).toBeCloseTo(-3.52, 5);
    expect(change.text).toContain('Third Quarter 2019 to Fourth Quarter 2019');
    const average = reading(read('What is the average quarterly low price for 2019?', prices));
    expect(average.cells.map((c) => c.cell.ref)).toEqual(['C6', 'C5', 'C4', 'C3']);
    expect(average.value.number).toBeCloseTo(10.3025, 2);
    const ja = reading(read('2018年の第3四半期から第4四半期へのLowの増減は？', prices));
    expect(ja.cells.map((c) => c.cell.ref)).toEqual(['C9', 'C8']);
    // a quarter the year does not show is not read from another year
    expect(
      read('In 2018, what is the change in high price between the first quarter and second quarter?', prices),
    ).not.toHaveProperty('text');
  });

  it('refuses a share of two line items asked of several periods, saying it is one period’s figure', () => {
    const shares = reportTable('results.csv', 'Results of Operations', [
      ['', '2019', '2018', '2017'],
      ['Revenue', '100%', '100%', '100%'],
      ['Cost of revenue', '43%', '50%', '55%'],
    ]);
    const q = 'What is the total proportion of cost of revenue as a percentage of revenue in 2017 and 2018?';
    const refused = read(q, shares);
    expect(refused).toMatchObject({ code: 'PP_FIGURE_ONE_PERIOD' });
    expect(missingLine(q, refused as FigureMissing)).toBe(
      'total cost of revenue and revenue is a figure of one period, and the question names several (2017 and 2018): ask it of one.',
    );
    expect(reading(read('What is cost of revenue as a percentage of revenue in 2018?', shares)).value.number).toBe(50);
  });

  it('refuses operands of different currencies, and a figure asked in a currency the table is not in', () => {
    const regions = reportTable('regions.csv', 'Revenue by region', [
      ['', '2019', '2018'],
      ['Revenue — United States', '$ 120', '$ 100'],
      ['Revenue — Germany', '€ 95', '€ 90'],
    ]);
    const q = 'What is the ratio of Revenue — United States to Revenue — Germany in 2019?';
    const mixed = read(q, regions);
    expect(mixed).toMatchObject({ code: 'PP_FIGURE_CURRENCIES', detail: 'USD and EUR' });
    expect(missingLine(q, mixed as FigureMissing)).toContain('are in different currencies (USD and EUR)');
    const yen = reportTable('yen.csv', 'Results (in millions of yen)', [
      ['', '2019', '2018'],
      ['Net sales', '¥ 5,000', '¥ 4,000'],
    ]);
    const asked = 'What was the change in net sales from 2018 to 2019 in USD millions?';
    const other = read(asked, yen);
    expect(other).toMatchObject({ code: 'PP_FIGURE_UNIT', detail: 'JPY' });
    expect(missingLine(asked, other as FigureMissing)).toBe(
      'Net sales is stated in JPY, and the question asks another currency: no rate is given to convert it.',
    );
    expect(reading(read('What was the change in net sales from 2018 to 2019?', yen)).value.number).toBe(1000);
  });

  it('reads a section heading as its section’s total row', () => {
    const revenues = reportTable('revenues.csv', 'Net revenues', [
      ['', 'December 31, 2019', 'December 31, 2018'],
      ['Net revenues by geographical region of shipment(1)', '', ''],
      ['EMEA', '2,265', '2,478'],
      ['Asia Pacific', '5,940', '5,922'],
      ['Total revenues', '8,205', '8,400'],
      ['Net revenues by market channel', '', ''],
      ['Distribution', '2,836', '3,339'],
      ['Total revenues', '2,836', '3,339'],
    ]);
    const r = reading(read('What is the average of Net revenues by geographical region of shipment?', revenues));
    expect(r.cells.map((c) => c.cell.ref)).toEqual(['C5', 'B5']);
    expect(r.value.number).toBe(8302.5);
    expect(
      reading(read('What is the change in net revenues by market channel from 2018 to 2019?', revenues)).cells.map(
        (c) => c.cell.ref,
      ),
    ).toEqual(['C8', 'B8']);
  });

  it('sums the maturity columns that make up the span of years asked', () => {
    const obligations = reportTable('obligations.csv', 'Contractual Obligations', [
      ['', 'Payments due by period', '', '', '', ''],
      ['', 'Up to 1 year', '1 to 3 years', '3 to 5 years', 'More than 5 years', 'Total'],
      ['Operating lease obligations', '16,164', '19,812', '6,551', '5,883', '48,410'],
      ['Long-term debt', '—', '—', '460,000', '—', '460,000'],
      ['Purchase obligations', '55,755', '16,220', '7,595', '17,649', '97,219'],
    ]);
    const within = reading(read('What is the company’s total purchase obligations that are due within 5 years?', obligations));
    expect(within.cells.map((c) => c.cell.ref)).toEqual(['B5', 'C5', 'D5']);
    expect(within.value.number).toBe(79570);
    expect(within.text).toContain('Up to 1 year');
    // a dash is nil in the sum; after the span is the column beyond it
    expect(reading(read('How much long-term debt is due within 5 years?', obligations)).value.number).toBe(460000);
    expect(reading(read('What are the operating lease obligations due after 5 years?', obligations)).value.number).toBe(5883);
    // a share of them is not a sum
    expect(
      read('What is the value of purchase obligations due in less than one year as a percentage of the total?', obligations),
    ).not.toHaveProperty('text');
    // a table of aging rows has no maturity columns: its row is the table reader's to read
    const aging = reportTable('aging.csv', '预付款项', [
      ['账龄', '期末余额', '比例'],
      ['1年以内', '226,875.47', '80%'],
      ['1至2年', '56,718.87', '20%'],
    ]);
    expect(read('账龄1年以内的预付款项期末余额是多少？', aging)).toBeUndefined();
    // no columns end at 2 years: not computed from columns that do not make up the span
    expect(read('What are the purchase obligations due within 2 years?', obligations)).not.toHaveProperty('text');
  });

  it('reads a share whose part names two line items as their sum over the whole', () => {
    const ppe = reportTable('ppe.csv', 'Land, property and equipment', [
      ['', '2019', '2018'],
      ['Land', '$672', '$672'],
      ['Leasehold improvements', '798', '790'],
      ['Buildings', '6,639', '6,512'],
      ['Land, property and equipment, gross', '$8,109', '$7,974'],
    ]);
    const r = reading(
      read(
        'What is the proportion of land and leasehold improvements over the gross cost of land, property, and equipment in 2019?',
        ppe,
      ),
    );
    expect(r.calculation.expression).toBe('($672 + 798) ÷ $8,109');
    expect(r.value.number).toBe(0.18);
    expect(r.cells.map((c) => c.text)).toEqual(['$672', '798', '$8,109']);
  });

  it('reads the name without footnote marks, note references and sign words', () => {
    expect(itemName('Interim dividend for the half year ended 31 December 2018 of AU 16 cents (2017: AU 13 cents)')).toBe(
      'Interim dividend',
    );
    expect(itemName('Net income for the year ended')).toBe('Net income');
    expect(itemName('Service delivery costs(1)')).toBe('Service delivery costs');
    expect(itemName('Disposals (Note (c))')).toBe('Disposals');
    expect(itemName('Changes in fair value (Note 7(b))')).toBe('Changes in fair value');
    expect(itemName('Less: Voyage expenses')).toBe('Voyage expenses');
    expect(itemName('Revenue*')).toBe('Revenue');
    expect(itemName('Net income (loss)')).toBe('Net income (loss)');
  });
  it('finds the row of a footnoted, noted or deducted line item', () => {
    expect(
      reading(read('What is the increase/ (decrease) in Service delivery costs from 2018 to 2019?', COSTS)).value.number,
    ).toBe(45947);
    expect(
      reading(read('How much is the change in disposals between 2018 year end and 2019 year end?', COSTS)).value.number,
    ).toBe(-1859);
  });
  it('tells "Other revenues" from revenues', () => {
    expect(read('What was the change in the revenues from 2018 to 2019?', COSTS)).toMatchObject({
      code: 'PP_FIGURE_OPERAND_MISSING',
    });
  });
});

describe('the periods of a report table', () => {
  it('does not take a column of labels that name years for a period', () => {
    const r = reading(read('What is the percentage change in the total dividends paid from 2018 to 2019?', DIVIDENDS));
    expect(r.value).toMatchObject({ number: 9.73, scale: 'percent' });
    expect(r.calculation.expression).toBe('(28,128 − 25,633) ÷ 25,633 × 100');
  });
  it('names a 52/53-week year that ends in the first week of January by the year before too', () => {
    const flows = reportTable('flows.csv', 'Summary of Cash Flows', [
      ['', 'January 3, 2020', 'December 28, 2018', 'December 29, 2017'],
      ['Net cash used in financing activities', '(709)', '(707)', '(429)'],
    ]);
    const r = reading(read('What was the average Net cash used in financing activities between fiscal years 2017-2019?', flows));
    expect(r.value.number).toBe(615);
    // the calendar year the column says is its name as well
    expect(
      reading(read('What was the change in the Net cash used in financing activities from 2018 to 2020?', flows)).value.number,
    ).toBe(-2);
  });
});

describe('totals', () => {
  it('reads an unlabelled row that sums the rows above as their total, named by the table', () => {
    const r = reading(read('What is the difference in the total dividends between 2018 and 2019?', DIVIDENDS));
    expect(r.value.number).toBe(2495);
  });
  it('names a subtotal by the heading of its block, and the table total by the table', () => {
    const sub = reading(read('What is the change in Total Acquisition-related charges from 2018 to 2019?', CHARGES));
    expect(sub.calculation.expression).toBe('30 − 22');
    const total = reading(read('What was the change in Total operating income in 2019 from 2018?', CHARGES));
    expect(total.calculation.expression).toBe('$ 302 − $ 148');
  });
  it('does not take an unlabelled row that is not the sum of the rows above for a total', () => {
    const t = reportTable('t.csv', 'Items', [
      ['', '2019', '2018'],
      ['Alpha', '10', '20'],
      ['Beta', '5', '6'],
      ['', '99', '98'],
    ]);
    expect(read('What is the change in total items from 2018 to 2019?', t)).toMatchObject({ code: 'PP_FIGURE_OPERAND_MISSING' });
  });
});

describe('nil, signs and ratios', () => {
  it('reads a dash as nil in a change, never in an average', () => {
    expect(reading(read('What is the change in Other items from 2018 to 2019?', CHARGES)).value.number).toBe(17);
    expect(read('What is the average Other items for 2018 and 2019?', CHARGES)).toMatchObject({
      code: 'PP_FIGURE_OPERAND_MISSING',
    });
  });
  it('states the average of a bracketed cost as the cost, and of a bracketed loss as a loss', () => {
    expect(reading(read('What is the average voyage expenses in 2018 and 2019?', COSTS)).value.number).toBe(153391);
    expect(reading(read('What was the average realized losses for 2018 and 2019?', COSTS)).value.number).toBe(-5797.5);
  });
  it('computes a ratio of one line item over two periods', () => {
    const r = reading(read('What is the ratio of Service delivery costs in fiscal 2019 to fiscal 2018?', COSTS));
    expect(r.value.number).toBe(1.07);
    expect(r.calculation.expression).toBe('661,214 ÷ 615,267');
  });
});

describe('documents that give a figure differently', () => {
  const other = reportTable('other.csv', 'Results of operations', [
    ['', '2019', '2018'],
    ['Service delivery costs', '1,000', '900'],
  ]);
  const same = reportTable('same.csv', 'Operating costs, restated', [
    ['', '2019', '2018'],
    ['Service delivery costs', '661,214', '615,267'],
  ]);
  it('refuses, naming the documents, when another document fits as well and gives another figure', () => {
    const q = 'What is the change in Service delivery costs from 2018 to 2019?';
    const r = read(q, COSTS, other);
    expect(r).toMatchObject({ code: 'PP_FIGURE_AMBIGUOUS', table: 0, rivals: [1] });
    expect(missingLine(q, r as FigureMissing, ['costs.csv', 'other.csv'])).toBe(
      'Several documents give Service delivery costs (2018 and 2019), with different figures: costs.csv and other.csv. Name the document you mean.',
    );
  });
  it('answers when the documents that fit give the same figure', () => {
    expect(reading(read('What is the change in Service delivery costs from 2018 to 2019?', COSTS, same)).value.number).toBe(
      45947,
    );
  });
});

describe('a statement as a PDF page sets it', () => {
  // Walmart's 2020 cash flow statement: "$" stands in a column of its own on the rows that write it
  const flows = {
    ...reportTable('wmt.pdf', 'WALMART 2020 10K', [
      ['(Amounts in millions)', '2020', '', '2019', '', '2018', ''],
      ['Consolidated net income', '$ 15,201', '', '$ 7,179', '', '$ 10,523', ''],
      ['Depreciation and amortization', '', '10,987', '', '10,678', '', '10,529'],
    ]),
    lead: ['Consolidated Statements of Cash Flows'],
  };
  it('reads the figure under a period header that stands over two columns, in the currency the table writes', () => {
    const r = reading(read('What is the change in depreciation and amortization from 2018 to 2019?', flows));
    expect(r.calculation.expression).toBe('10,678 − 10,529');
    expect(r.value).toEqual({ number: 149, scale: 'million', unit: 'USD' });
  });
  it('takes its scale from the line above the table', () => {
    const nflx = {
      ...reportTable('nflx.pdf', 'NETFLIX 2017 10K', [
        ['', '2017', '2016'],
        ['Total current liabilities', '5,466,312', '4,586,657'],
      ]),
      lead: ['CONSOLIDATED BALANCE SHEETS (in thousands, except share and per share data)'],
    };
    const r = reading(read('What is the change in total current liabilities from 2016 to 2017, in USD millions?', nflx));
    expect(r.value).toEqual({ number: 879.66, scale: 'million' });
    expect(r.text).toMatch(/^879,655 thousand = 879\.66 million = 5,466,312 − 4,586,657/);
  });
});

describe('line items named together', () => {
  const customers = reportTable('customers.csv', 'Concentrations of credit risk', [
    ['', '2019', '2018', '2017'],
    ['Apple Inc. (“Apple”)', '32%', '36%', '34%'],
    ['Huawei Technologies Co., Ltd. (“Huawei”)', '13%', '8%', '11%'],
    ['Cash and cash equivalents', '10', '12', '14'],
  ]);
  it('sums or averages two rows in one period, each by the name its label defines', () => {
    const sum = reading(read('What is the total percentage of revenue from Apple and Huawei in 2017?', customers));
    expect(sum.text).toBe('45% = 34% + 11% — sum of Apple and Huawei, 2017 [1][2]');
    expect(
      reading(read('What is the average percentage of revenue from Apple and Huawei in 2017?', customers)).value.number,
    ).toBe(22.5);
  });
  it('leaves a row named as a whole to the table reader ("cash and cash equivalents")', () => {
    expect(read('What is the total of cash and cash equivalents in 2019?', customers)).toBeUndefined();
  });
});
