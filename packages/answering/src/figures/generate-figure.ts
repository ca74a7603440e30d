import type { Calculation, Citation, Generator } from '@pinpoint/core';
import { questionLanguage } from '../generate.js';

/** A computed figure's answer written by a model: its text, the operand citations it keeps, the model's id. */
export interface GeneratedFigure {
  answer: string;
  citations: Citation[];
  generator: string;
}

const MARKER = /\[(\d{1,3})\]/g;
const NUMBER = /(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?/gu;
const YEAR = /^(?:19|20)\d{2}$/u;

/** The figures a text states: its numbers, without citation marks and years. */
function figuresIn(text: string): { value: number; decimals: number }[] {
  return [...text.replace(MARKER, ' ').matchAll(NUMBER)]
    .map((m) => m[0].replace(/[−]/u, '-').replace(/,/g, ''))
    .filter((t) => !YEAR.test(t))
    .map((t) => ({ value: Math.abs(Number(t)), decimals: t.includes('.') ? (t.split('.')[1]?.length ?? 0) : 0 }));
}

/**
 * Has the model stated only the figures it was given: each number is an operand's, a number of the
 * calculation, or the computed figure — to the rounding the model wrote it with.
 */
export function figuresChecked(text: string, allowed: readonly number[]): boolean {
  const sizes = allowed.map(Math.abs);
  return figuresIn(text).every((f) => sizes.some((a) => Math.abs(a - f.value) <= 0.5 * 10 ** -f.decimals + 1e-9));
}

/**
 * A computed figure's answer in the model's words (DESIGN §5's generator, for figures): the model is
 * given each operand as a numbered source (its line item, period and cell as written) and the
 * computed figure with its arithmetic as the last source; it writes the answer citing the operands.
 * Its figures are checked against what it was given: a number that is neither an operand's nor the
 * computed figure's, no operand cited, or a refusal leaves the computed answer as it is (undefined).
 */
export async function generateFigure(input: {
  question: string;
  generator: Generator;
  /** The computed answer line, as the keyless reader states it. */
  computed: string;
  number: number;
  calculation: Calculation | undefined;
  citations: Citation[];
  signal?: AbortSignal;
}): Promise<GeneratedFigure | undefined> {
  const { citations, calculation } = input;
  const operands = calculation?.operands ?? [];
  const sources = citations.map((c, i) => {
    const o = operands[i];
    return {
      n: c.n,
      file: c.file,
      ...(c.page_label ? { page_label: c.page_label } : {}),
      text: o ? `${o.label} (${o.period}): ${o.value}` : c.quote,
    };
  });
  const last = citations.length + 1;
  sources.push({ n: last, file: 'calculation', text: input.computed.replace(MARKER, '').trim() });
  let raw = '';
  const stream = input.generator.generate(
    { question: input.question, sources, language: questionLanguage(input.question) },
    input.signal,
  );
  for await (const piece of stream) raw += piece;
  const text = raw.replace(new RegExp(`\\s*\\[${last}\\]`, 'g'), '').trim();
  const cited = [...text.matchAll(MARKER)].map((m) => Number(m[1]));
  if (/NO_ANSWER/u.test(text) || cited.length === 0 || cited.some((n) => n < 1 || n > citations.length)) return undefined;
  const numbers = [
    input.number,
    ...operands.map((o) => o.number),
    ...figuresIn(calculation?.expression ?? '').map((f) => f.value),
    ...figuresIn(input.computed).map((f) => f.value),
  ];
  if (!figuresChecked(text, numbers)) return undefined;
  return { answer: text, citations, generator: input.generator.id };
}
