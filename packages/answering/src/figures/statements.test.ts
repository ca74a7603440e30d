import { describe, expect, it } from 'vitest';
import { statementOf, statementsNamed } from './statements.js';
import { reportTable } from './test-tables.js';

describe('primary statements', () => {
  it('reads every statement a question names, in each language', () => {
    expect(
      statementsNamed(
        'Please help us compute it by basing your answers off of the statement of income and the statement of cash flows.',
      ),
    ).toEqual(new Set(['income', 'cash-flow']));
    expect(statementsNamed('Based on the information provided primarily in the balance sheet')).toEqual(new Set(['balance']));
    expect(statementsNamed('statement of financial position')).toEqual(new Set(['balance']));
    expect(statementsNamed('連結損益計算書とキャッシュ・フロー計算書から')).toEqual(new Set(['income', 'cash-flow']));
    expect(statementsNamed('根据合并资产负债表')).toEqual(new Set(['balance']));
    expect(statementsNamed('What was the revenue in 2019?').size).toBe(0);
  });
  it('knows a statement by the lines above its table, and a note table as none', () => {
    const rows = [
      ['', '2017', '2016'],
      ['Total current liabilities', '5,466,312', '4,586,657'],
    ];
    const statement = reportTable('nflx.pdf', 'NETFLIX 2017 10K', rows);
    expect(
      statementOf({ ...statement, lead: ['CONSOLIDATED BALANCE SHEETS (in thousands, except share and per share data)'] }),
    ).toBe('balance');
    expect(
      statementOf({ ...statement, lead: ['Consolidated Statements of Earnings GENERAL MILLS, INC. AND SUBSIDIARIES'] }),
    ).toBe('income');
    expect(statementOf({ ...statement, lead: ['The components of deferred tax assets were as follows:'] })).toBeUndefined();
    // a kerned PDF line: the last letter set apart
    expect(statementOf({ ...statement, lead: ['3M Company and Subsidiaries Consolidated Balance Shee t At December 31'] })).toBe(
      'balance',
    );
    // a segment's selected data is no statement; a statement titled in its header's first row is one
    expect(statementOf({ ...statement, title: 'TABLE 13: ICS SELECTED INCOME STATEMENT DATA' })).toBeUndefined();
    const titled = reportTable('axp.pdf', 'AMERICANEXPRESS 2022 10K', [
      ['', 'CONSOLIDATED STATEMENTS OF INCOME', ''],
      ['Year Ended December 31 (Millions)', '2022', '2021'],
      ['Pretax income', '9,585', '10,689'],
    ]);
    expect(statementOf(titled)).toBe('income');
    // a note about a statement, and prose that names one, are no statement
    expect(statementOf({ ...statement, lead: ['NOTE 7. Supplemental Balance Sheet Information'] })).toBeUndefined();
    expect(
      statementOf({
        ...statement,
        lead: ['The following table shows the impact on the consolidated balance sheet of the allocations.'],
      }),
    ).toBeUndefined();
    expect(
      statementOf({
        ...statement,
        title: 'and 2017, respectively. Additional supplemental balance sheet information is provided in the table that follows.',
      }),
    ).toBeUndefined();
  });
});
