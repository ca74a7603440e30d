import { describe, expect, it } from 'vitest';
import { askedPart, gateView, questionDefinitions, withDefinitions, withMeasureParts } from './gate-view.js';

describe('askedPart: the part of a question that asks', () => {
  it('leaves out what follows the question: rounding, units, definitions, what to say when a metric does not apply', () => {
    expect(
      askedPart(
        'What is the FY2019 cash conversion cycle (CCC) for General Mills? CCC is defined as: DIO + DSO - DPO. Round your answer to two decimal places.',
      ),
    ).toBe('What is the FY2019 cash conversion cycle (CCC) for General Mills?');
    expect(
      askedPart(
        'Does Corning have positive working capital based on FY2022 data? If working capital is not a useful or relevant metric for this company, then please state that and explain why.',
      ),
    ).toBe('Does Corning have positive working capital based on FY2022 data?');
  });

  it('starts after a lead-in that announces the question', () => {
    expect(
      askedPart(
        'Using the cash flow statement, answer the following question to the best of your abilities: how much did Block generate in cash flow from operating activities in FY2020? Answer in USD millions.',
      ),
    ).toBe('how much did Block generate in cash flow from operating activities in FY2020?');
    expect(
      askedPart(
        "We want to calculate a financial metric. Please help us compute it. Here's the question: what is the FY2022 retention ratio for General Mills? Round answer to two decimal places.",
      ),
    ).toBe('what is the FY2022 retention ratio for General Mills?');
    expect(askedPart('次の質問に答えてください：トヨタの2023年3月期の営業利益は？単位は百万円。')).toBe(
      'トヨタの2023年3月期の営業利益は？',
    );
  });

  it('keeps a question whole where it has nothing after its question mark, or none', () => {
    for (const q of [
      'Which Spanish officer established the settlement at St. Augustine?',
      'When did they raise the price of oil to $5.11?',
      "What isn't Thomas B. Edsall's profession?",
      'What was implemented with an X.25 interface? ',
      'in the 2009 asian championships, china took 3rd. what place did china take in the previous asian championships?',
      '年によっては梅雨入りの時期が特定できなかったり、あるいは発表がされないこともある。東・西日本ではこのパターンはどれくらい発生するか？',
      'List the subsidiaries of Apple Inc. in Europe',
      '上海的人口是多少',
    ])
      expect(askedPart(q)).toBe(q.trim());
  });

  it('reads a question that asks twice up to its second question', () => {
    expect(askedPart('Did revenue grow in FY2023? By how much? Answer in percent.')).toBe(
      'Did revenue grow in FY2023? By how much?',
    );
  });
});

describe('gateView', () => {
  it('keeps only the asked part and its terms, and leaves out what a scope holds', () => {
    const view = gateView({
      question: 'What were 3M capital expenditures in FY2018? Answer in USD millions.',
      queryTerms: [
        { term: 'capit', weight: 2 },
        { term: 'expenditur', weight: 3 },
        { term: 'usd', weight: 4 },
        { term: 'million', weight: 1 },
        { term: '3m', weight: 5 },
      ],
      satisfied: ['3M'],
    });
    expect(view.question).toBe('What were   capital expenditures in FY2018?');
    expect(view.queryTerms?.map((t) => t.term)).toEqual(['capit', 'expenditur']);
  });

  it('is the input itself when the whole question asks and no scope holds a word', () => {
    const input = { question: 'Who founded the company?', queryTerms: [{ term: 'found', weight: 1 }] };
    expect(gateView(input)).toBe(input);
  });
});

describe('questionDefinitions: the terms a question defines', () => {
  it('reads "Define X as Y", "X is defined as: Y", "Calculate X using Y" and "X = Y", without their arithmetic', () => {
    expect(
      questionDefinitions(
        'What is the FY2016 working capital ratio? Define working capital ratio as total current assets divided by total current liabilities. Round your answer to two decimal places.',
      ),
    ).toEqual([{ term: 'working capital ratio', meaning: 'total current assets total current liabilities' }]);
    expect(questionDefinitions('What is the FY2020 FCF? FCF here is defined as: (cash from operations - capex).')).toEqual([
      { term: 'FCF', meaning: 'cash from operations capex' },
    ]);
    expect(
      questionDefinitions(
        'What is the FY2015 EBITDA margin? Calculate unadjusted EBITDA using operating income and D&A (from cash flow statement).',
      ),
    ).toEqual([{ term: 'unadjusted EBITDA', meaning: 'operating income and D&A from cash flow statement' }]);
    expect(questionDefinitions('What is the spread? Spread = yield - cost of funds.')).toEqual([
      { term: 'Spread', meaning: 'yield cost of funds' },
    ]);
  });

  it('reads a definition sentence in Japanese and Chinese', () => {
    expect(questionDefinitions('2023年3月期の当座比率は？当座比率は当座資産÷流動負債と定義します。')).toEqual([
      { term: '当座比率', meaning: '当座資産 流動負債' },
    ]);
    expect(questionDefinitions('2022年的速动比率是多少？速动比率定义为速动资产除以流动负债。')[0]?.term).toBe('速动比率');
  });

  it('reads no definition out of a sentence that asks, or out of a question with none', () => {
    expect(questionDefinitions('What is defined as the majority vote?')).toEqual([]);
    expect(questionDefinitions('What concept is frequently used to define complexity classes?')).toEqual([]);
    expect(questionDefinitions('Who founded the company? It was 1902.')).toEqual([]);
  });
});

describe("withDefinitions: the asked part read through the question's definitions", () => {
  it("reads a defined term as its meaning, and a meaning's own defined terms in turn", () => {
    const question =
      'What is the FY2019 cash conversion cycle (CCC) for General Mills? CCC is defined as: DIO + DSO - DPO. DIO is defined as: 365 * (average inventory between FY2018 and FY2019) / (FY2019 COGS). DSO is defined as: 365 * (average accounts receivable) / (FY2019 Revenue). DPO is defined as: 365 * (average accounts payable) / (FY2019 COGS). Round your answer to two decimal places.';
    const read = withDefinitions(askedPart(question), question).replace(/\s+/g, ' ');
    expect(read).toBe(
      'What is the FY2019 inventory FY2018 and FY2019 FY2019 COGS accounts receivable FY2019 Revenue accounts payable FY2019 COGS for General Mills?',
    );
  });

  it('leaves the asked part as it is when the question defines nothing it asks about', () => {
    const question = 'What is the FY2020 net income? Define EBITDA as operating income plus D&A.';
    expect(withDefinitions(askedPart(question), question)).toBe('What is the FY2020 net income?');
  });
});

describe('withMeasureParts: a measure no retrieved text states, read as its line items', () => {
  it("reads the measure as the line items of its formula, in the question's language", () => {
    expect(withMeasureParts("What is Verizon's FY2022 quick ratio?", () => false).replace(/\s+/g, ' ')).toBe(
      "What is Verizon's FY2022 cash and cash equivalents accounts receivable current liabilities ?",
    );
    expect(withMeasureParts('2023年3月期の営業利益率は？', () => false).replace(/\s+/g, ' ')).toBe(
      '2023年3月期の 営業利益 売上高 は？',
    );
  });

  it("finds the measure's name apart by any marks, as the lexicon matches it", () => {
    expect(withMeasureParts('What is the FY2021 operating income % margin for Corning?', () => false).replace(/\s+/g, ' ')).toBe(
      'What is the FY2021 operating income revenue for Corning?',
    );
  });

  it('keeps a measure that the retrieved text states', () => {
    expect(withMeasureParts('What was the operating margin in 2022?', (name) => name === 'operating margin')).toBe(
      'What was the operating margin in 2022?',
    );
  });

  it('is read by the gate view only where the caller says the measure is not stated', () => {
    const input = { question: 'What is the FY2022 quick ratio? Round to two decimals.' };
    expect(gateView(input).question).toBe('What is the FY2022 quick ratio?');
    expect(gateView(input, () => false).question).toContain('current liabilities');
  });
});
