import { describe, expect, it } from 'vitest';
import { askedExpression, definedFormula } from './defined.js';
import { amountFormula, measureItems } from './measures.js';

describe('formulas a question gives', () => {
  it('reads a definition over line items, with averages and changes over the year before', () => {
    expect(
      definedFormula(
        'What is FY2020 DPO? DPO is defined as: 365 * (average accounts payable between FY2019 and FY2020) / (FY2020 COGS + change in inventory between FY2019 and FY2020). Round your answer to two decimal places.',
        'days-payable-outstanding',
      ),
    ).toBe('365 * ( avg(accounts-payable) ) / ( cost-of-revenue + chg(inventories) )');
    expect(
      definedFormula(
        'What is the working capital ratio? Define working capital ratio as total current assets divided by total current liabilities.',
        'current-ratio',
      ),
    ).toBe('current-assets / current-liabilities');
  });
  it('reads a measure through the parts the question defines', () => {
    const q =
      'What is the FY2019 cash conversion cycle (CCC)? CCC is defined as: DIO + DSO - DPO. DIO is defined as: 365 * (average inventory between FY2018 and FY2019) / (FY2019 COGS). DSO is defined as: 365 * (average accounts receivable between FY2018 and FY2019) / (FY2019 Revenue). DPO is defined as: 365 * (average accounts payable between FY2018 and FY2019) / (FY2019 COGS + change in inventory between FY2018 and FY2019).';
    const f = definedFormula(q, 'cash-conversion-cycle') as string;
    expect(f).toContain('chg(inventories)');
    expect(measureItems(f).map((i) => [i.id, i.avg])).toEqual([
      ['inventories', true],
      ['cost-of-revenue', false],
      ['accounts-receivable', true],
      ['revenue', false],
      ['accounts-payable', true],
    ]);
    expect(amountFormula(f)).toBe(false);
    // the lexicon's EBITDA margin, with EBITDA as the question computes it; "and" sums two items, not "cash and cash equivalents"
    expect(
      definedFormula(
        'What is the FY2015 unadjusted EBITDA % margin? Calculate unadjusted EBITDA using unadjusted operating income and D&A (from cash flow statement).',
        'ebitda-margin',
      ),
    ).toBe('((operating-income + depreciation-and-amortization)) / revenue * 100');
  });
  it('reads an outflow by its size, and a figure named as an expression', () => {
    expect(definedFormula('What is FCF? FCF here is defined as: (cash from operations - capex).', 'free-cash-flow')).toBe(
      '( operating-cash-flow - abs(capital-expenditure) )',
    );
    const q =
      'What is the FY2022 unadjusted EBITDA less capex for PepsiCo? Define unadjusted EBITDA as unadjusted operating income + depreciation and amortization [from cash flow statement].';
    const f = askedExpression('What is the FY2022 unadjusted EBITDA less capex for PepsiCo?', q) as string;
    expect(f).toBe('(operating-income + depreciation-and-amortization) - abs(capital-expenditure)');
    expect(amountFormula(f)).toBe(true);
  });
  it('gives no formula where the question defines none, or names what the lexicon does not know', () => {
    expect(definedFormula('What is the FY2020 working capital ratio?', 'current-ratio')).toBeUndefined();
    expect(definedFormula('What is X? X is defined as: widgets sold divided by revenue.', 'x')).toBeUndefined();
    expect(askedExpression('What is the revenue for 2019?', '')).toBeUndefined();
  });
});
