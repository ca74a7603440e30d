import type { Chunk, Element } from '@pinpoint/core';
import { sliceCodepoints } from '@pinpoint/core';
import { describe, expect, it } from 'vitest';
import type { RankedChunk } from './candidates.js';
import { answerExtractive } from './extractive.js';

const Z = '0'.repeat(64);
const decoded =
  'Intro line.\n\nTaxi fares are refunded up to 50 dollars per trip. Hotels need a receipt. 𠮷 is a rare character.';
const paraStart = 13;
const para = Array.from(decoded).slice(paraStart).join('');
const textElement: Element = {
  element_id: 'e000001',
  type: 'paragraph',
  section_path: ['Travel'],
  text: para,
  anchor: {
    kind: 'text',
    artifact: 'original',
    unit: 'codepoint',
    start: paraStart,
    end: paraStart + Array.from(para).length,
    text_sha256: Z,
  },
};
const pageElement: Element = {
  element_id: 'e000002',
  type: 'paragraph',
  section_path: [],
  text: 'Meals are covered up to 30 dollars. Alcohol is never refunded.',
  anchor: {
    kind: 'page',
    artifact: 'original',
    page_index: 2,
    page_width: 600,
    page_height: 800,
    unit: 'pt',
    rotation: 0,
    boxes: [[0, 0, 600, 40]],
  },
  spans: [
    { start: 0, end: 35, box: [10, 10, 300, 20] },
    { start: 36, end: 62, box: [10, 22, 250, 32] },
  ],
};
const chunkOf = (e: Element, id: string): Chunk => ({
  chunk_id: id,
  chunk_set_id: 'c1:700/70',
  version_id: 'v1',
  document_id: 'd1',
  collection_id: 'c1',
  ordinal: 0,
  elements: [{ element_id: e.element_id, start: 0, end: Array.from(e.text).length }],
  text: e.text,
  retrieval_text: e.text,
  section_path: e.section_path,
  ...(e.anchor.kind === 'page' ? { page_index: e.anchor.page_index } : {}),
});
const ranked = (els: Element[]): RankedChunk[] =>
  els.map((e, i) => ({ chunk: chunkOf(e, `c-${e.element_id}-${i}`), elements: [e], file: 'policy', rank: i + 1, score: 10 - i }));

describe('answerExtractive', () => {
  it('cites the best sentence with a text anchor that slices back to the quote', () => {
    const a = answerExtractive({ question: 'How much are taxi fares refunded?', chunks: ranked([textElement, pageElement]) });
    expect(a.refused).toBe(false);
    const c = a.citations[0];
    // The best sentence and the neighbour that follows it in the same paragraph: one passage, one citation.
    expect(c?.quote).toBe('Taxi fares are refunded up to 50 dollars per trip. Hotels need a receipt.');
    expect(a.answer).toBe('Taxi fares are refunded up to 50 dollars per trip. Hotels need a receipt. [1]');
    if (c?.anchor.kind !== 'text') throw new Error('expected a text anchor');
    expect(sliceCodepoints(decoded, c.anchor.start, c.anchor.end)).toBe(c.quote);
    expect(c.precision).toBe('exact');
  });

  it('narrows a page anchor to the boxes of the spans under the sentence', () => {
    // One sentence only: its neighbour would join it into one passage.
    const a = answerExtractive(
      { question: 'Is alcohol refunded?', chunks: ranked([pageElement, textElement]) },
      { maxSentences: 1 },
    );
    const c = a.citations[0];
    expect(c?.quote).toBe('Alcohol is never refunded.');
    expect(c?.anchor.kind === 'page' && c.anchor.boxes).toEqual([[10, 22, 250, 32]]);
    expect(c?.page_index).toBe(2);
  });

  it('refuses an off-topic question with no sources', () => {
    const a = answerExtractive({
      question: 'Who won the football world cup in 1998?',
      chunks: ranked([textElement, pageElement]),
    });
    expect(a.refused).toBe(true);
    expect(a.citations).toEqual([]);
    expect(a.gate.features.cov_window).toBeLessThan(0.25);
  });

  const para2 = (id: string, type: Element['type'], text: string, section: string[] = []): Element => ({
    element_id: id,
    type,
    section_path: section,
    text,
    anchor: { kind: 'text', artifact: 'original', unit: 'codepoint', start: 0, end: Array.from(text).length, text_sha256: Z },
  });
  const oneChunk = (els: Element[]): RankedChunk[] => [
    {
      chunk: {
        ...chunkOf(els[0] as Element, 'c-all'),
        elements: els.map((e) => ({ element_id: e.element_id, start: 0, end: Array.from(e.text).length })),
        text: els.map((e) => e.text).join('\n'),
        section_path: ['Trace Trees'],
      },
      elements: els,
      file: 'paper.pdf',
      rank: 1,
      score: 12,
    },
  ];

  it('answers a definition question with the defining sentence, never with the heading', () => {
    const els = [
      para2('h', 'heading', 'Trace Trees', ['Trace Trees']),
      para2('p1', 'paragraph', 'Trace trees are recorded while the interpreter runs.', ['Trace Trees']),
      para2('p2', 'paragraph', 'A trace tree is a tree of traces that share a loop header as their root.', ['Trace Trees']),
    ];
    const a = answerExtractive({ question: 'What is a trace tree?', chunks: oneChunk(els) });
    expect(a.refused).toBe(false);
    expect(a.citations[0]?.quote).toBe('A trace tree is a tree of traces that share a loop header as their root.');
    expect(a.citations.map((c) => c.quote)).not.toContain('Trace Trees');
  });

  it('reads a line item named by another of its standard names as found (COGS where the filing says cost of revenue)', () => {
    const els = [
      para2('p1', 'paragraph', 'Total cost of revenue was $32,780 million in fiscal year 2016.', ['Income Statements']),
      para2('p2', 'paragraph', 'Research and development expenses were $11,988 million.', ['Income Statements']),
    ];
    const cogs = answerExtractive({ question: 'What was the COGS?', chunks: oneChunk(els) });
    const named = answerExtractive({ question: 'What was the cost of revenue?', chunks: oneChunk(els) });
    expect(cogs.refused).toBe(false);
    expect(cogs.citations[0]?.quote).toBe('Total cost of revenue was $32,780 million in fiscal year 2016.');
    expect(cogs.gate.features.cov_window).toBeCloseTo(named.gate.features.cov_window, 5);
  });

  it('does not read a line item into a sentence that says another one', () => {
    const els = [para2('p1', 'paragraph', 'Research and development expenses were $11,988 million.', ['Income Statements'])];
    const a = answerExtractive({ question: 'What was the COGS?', chunks: oneChunk(els) });
    expect(a.gate.features.cov_window).toBe(0);
  });

  it('reads a ratio the question defines, or a measure no sentence states, as the line items it is computed from', () => {
    const els = [
      para2('p1', 'paragraph', 'Total current assets were $5,203 million at year end.', ['Balance Sheets']),
      para2('p2', 'paragraph', 'Total current liabilities were $3,101 million at year end.', ['Balance Sheets']),
    ];
    const defined = answerExtractive({
      question:
        'What is the working capital ratio? Define working capital ratio as total current assets divided by total current liabilities. Round to two decimals.',
      chunks: oneChunk(els),
    });
    const named = answerExtractive({ question: 'What is the current ratio?', chunks: oneChunk(els) });
    for (const a of [defined, named]) {
      expect(a.refused).toBe(false);
      expect(a.gate.features.cov_window).toBeGreaterThan(0.5);
    }
    // where a sentence states the measure, it is the measure the gate looks for
    const stated = [...els, para2('p3', 'paragraph', 'The current ratio was 1.68 at year end.', ['Ratios'])];
    const own = answerExtractive({ question: 'What is the current ratio?', chunks: oneChunk(stated) });
    expect(own.citations[0]?.quote).toBe('The current ratio was 1.68 at year end.');
  });

  it('does not ask a sentence to repeat its heading: the term that tells the sentences apart decides', () => {
    const els = [
      para2('h', 'heading', 'Shield tree', ['Shield tree']),
      para2('p1', 'paragraph', 'The shield tree grows up to 25 metres tall.', ['Shield tree']),
      para2('p2', 'paragraph', 'The shield tree has a crown shaped like an umbrella.', ['Shield tree']),
      para2('p3', 'paragraph', 'Native to Hainan and Vietnam, it likes hot weather.', ['Shield tree']),
    ];
    const a = answerExtractive({ question: 'Where is the shield tree native?', chunks: oneChunk(els) });
    expect(a.citations[0]?.quote).toBe('Native to Hainan and Vietnam, it likes hot weather.');
  });

  it('reads the collection’s knowledge of the question from its words, not from bigrams across words', () => {
    const chunks = ranked([textElement, pageElement]);
    const known = answerExtractive({
      question: '出差费用多少?',
      chunks,
      queryTerms: [
        { term: '出差', weight: 3 },
        { term: '费用', weight: 2 },
        { term: '#出差', weight: 3 },
        { term: '#差费', weight: 0 },
        { term: '#费用', weight: 2 },
      ],
    });
    expect(known.gate.features.known_words).toBe(1);
    expect(known.gate.features.known).toBeLessThan(1);
    const unseen = answerExtractive({
      question: '总裁工资多少?',
      chunks,
      queryTerms: [
        { term: '总裁', weight: 0 },
        { term: '工资', weight: 0 },
      ],
    });
    expect(unseen.gate.features.known_words).toBe(0);
  });

  it('marks the asked-for value inside the cited sentence', () => {
    const els = [para2('p', 'paragraph', 'The college was founded in 1636 by a vote of the colonial legislature.')];
    const a = answerExtractive({ question: 'In what year was the college founded?', chunks: oneChunk(els) });
    expect(a.citations[0]?.mark).toEqual({ text: '1636', start: 27, end: 31 });
    const who = answerExtractive({
      question: 'Who founded the college?',
      chunks: oneChunk([para2('q', 'paragraph', 'The college was founded by John Harvard in the colony.')]),
    });
    expect(who.citations[0]?.mark?.text).toBe('John Harvard');
  });

  it('reads two picked sentences in the text’s order when one follows the other', () => {
    const els = [para2('p', 'paragraph', '钙含量比菠菜高50％以上，维生素C含量是单个橙子的三倍。因此它有时也被称为笨蛋水果。')];
    const a = answerExtractive({ question: '为什么称猴面包树为笨蛋水果？', chunks: oneChunk(els) });
    expect(a.citations).toHaveLength(1);
    expect(a.citations[0]?.quote).toBe('钙含量比菠菜高50％以上，维生素C含量是单个橙子的三倍。因此它有时也被称为笨蛋水果。');
  });

  it('cites a sentence once when two overlapping chunks both hold it', () => {
    const e = para2('p', 'paragraph', 'The dam was finished in 1936. It holds Lake Mead.');
    const copy = { ...e };
    const chunks: RankedChunk[] = [
      { chunk: chunkOf(e, 'c1'), elements: [e], file: 'dam', rank: 1, score: 10 },
      { chunk: chunkOf(copy, 'c2'), elements: [copy], file: 'dam', rank: 2, score: 10 },
    ];
    const a = answerExtractive({ question: 'When was the dam finished?', chunks });
    expect(a.citations.map((c) => c.quote)).toEqual(['The dam was finished in 1936. It holds Lake Mead.']);
  });

  it('measures how the best sentence alone fits the question', () => {
    const els = [
      para2('p1', 'paragraph', 'The Normans settled in Normandy.'),
      para2('p2', 'paragraph', 'Rollo signed a treaty with the king in 911.'),
    ];
    const chunks = oneChunk(els);
    const queryTerms = [
      { term: 'rollo', weight: 4 },
      { term: 'treati', weight: 2 },
      { term: 'sign', weight: 1 },
    ];
    const a = answerExtractive({ question: 'In what year did Rollo sign the treaty?', chunks, queryTerms });
    expect(a.gate.features).toMatchObject({ align: 1, rare_sentence: 1, type_sentence: 1 });
    // The rarest term (rollo) in one sentence, the rest in the other: no one sentence states it.
    const split = answerExtractive({
      question: 'In what year did Rollo sign the treaty?',
      chunks: oneChunk([
        para2('q1', 'paragraph', 'Rollo led the Vikings up the Seine in 911.'),
        para2('q2', 'paragraph', 'The king signed a treaty with the Bretons.'),
      ]),
      queryTerms,
    });
    expect(split.gate.features.align).toBeLessThan(1);
  });

  it('sees a question written from its sentence with one thing turned round', () => {
    const chunks = oneChunk([
      para2('p1', 'paragraph', 'Saudi Arabia joined the embargo on October 20, 1973, after the war began.'),
    ]);
    const kept = answerExtractive({ question: 'Who joined the embargo on October 20, 1973?', chunks });
    expect(kept.gate.features).toMatchObject({ antonym_sentence: 0, entity_absent: 0, number_mismatch: 0 });
    const swapped = answerExtractive({ question: 'What did Nixon join on October 20, 1974, before the war began?', chunks });
    expect(swapped.gate.features).toMatchObject({ antonym_sentence: 1, number_mismatch: 1 });
    // Nixon, October, 20 and 1974 are named; Nixon and 1974 are nowhere in the retrieved text.
    expect(swapped.gate.features.entity_absent).toBe(0.5);
    // Japanese and Chinese questions are not read this way (the CJK model has no use for it).
    const cjk = answerExtractive({ question: '1974年に何が起きましたか？', chunks });
    expect(cjk.gate.features).toMatchObject({ antonym_sentence: 0, entity_absent: 0, number_mismatch: 0 });
  });

  it('says in one line why it refused: the words nothing mentions', () => {
    const a = answerExtractive({
      question: 'What is the salary of the chief executive officer?',
      chunks: ranked([textElement, pageElement]),
      queryTerms: [
        { term: 'salari', weight: 0 },
        { term: 'chief', weight: 0 },
        { term: 'execut', weight: 0 },
        { term: 'offic', weight: 0 },
      ],
    });
    expect(a.refused).toBe(true);
    expect(a.gate.reason).toBe('Nothing in your documents mentions “salary” or “chief executive officer”.');
  });
});
