import { describe, expect, it } from 'vitest';
import { askedPart, gateView } from './gate-view.js';

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
