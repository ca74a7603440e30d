import { analyze, termKind } from '@pinpoint/analysis';
import type { QueryTermWeight } from './candidates.js';

/** What the gate reads of an extractive input. */
interface GateInput {
  question: string;
  queryTerms?: QueryTermWeight[];
  satisfied?: string[];
}

/** The terms of a query term: a word pair's two words (`_a_b`), else the term itself. */
function termParts(term: string): string[] {
  return termKind(term) === 'pair' ? term.slice(1).split('_') : [term];
}

/** Words whose full stop ends no sentence ("St. Augustine", "Inc.", "e.g."). */
const ABBREVIATIONS = new Set(['st', 'mr', 'mrs', 'ms', 'dr', 'vs', 'co', 'no', 'inc', 'jr', 'sr', 'corp', 'ltd', 'etc']);

/** Where each sentence of a text ends: at ? ! 。 and their full-width forms, or a full stop before more text that no abbreviation or initial holds. */
function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  for (const m of text.matchAll(/[?？!！。]|\.(?=\s+\S)/gu)) {
    const at = m.index ?? 0;
    if (m[0] === '.') {
      const word = /([\p{L}\p{N}.]+)$/u.exec(text.slice(0, at))?.[1]?.toLowerCase() ?? '';
      // "B. Edsall", "5.11", "U.S.": an initial, a number or a dotted abbreviation goes on
      if ([...word].length <= 1 || ABBREVIATIONS.has(word) || word.includes('.')) continue;
    }
    ends.push(at + m[0].length);
  }
  return ends;
}

/** A lead-in that announces the question ("…answer the following question:", "Here's the question:", 「次の質問に答えてください：」). */
const LEAD_IN = /(?:question|質問|问题|問題)[^:：?？]{0,40}[:：]\s*/giu;

/**
 * The part of a question that asks: up to the end of its last sentence that asks (with ? or ？),
 * after a lead-in that announces it. What follows the question — how to round, which units to
 * answer in, what a ratio is defined as, "if this metric does not apply, state that" — tells the
 * answerer how to answer; no document says it, and the gate would count it missing.
 * The whole question when no sentence asks with a question mark.
 */
export function askedPart(question: string): string {
  const ends = sentenceEnds(question);
  let last = -1;
  let from = 0;
  for (const end of ends) {
    if (/[?？]/u.test(question.slice(from, end))) last = end;
    from = end;
  }
  if (last < 0) return question.trim();
  const asked = question.slice(0, last);
  let start = 0;
  for (const m of asked.matchAll(LEAD_IN)) start = (m.index ?? 0) + m[0].length;
  return asked.slice(start).trim();
}

/**
 * The question as the gate reads it: the part that asks (askedPart), and the words a scope holds
 * left out of its text and its terms.
 */
export function gateView<T extends GateInput>(input: T): T {
  const asked = askedPart(input.question);
  if (!input.satisfied?.length && asked === input.question.trim()) return input;
  let question = asked;
  for (const w of input.satisfied ?? []) question = question.split(w).join(' ');
  const held = new Set((input.satisfied ?? []).flatMap((w) => analyze(w)));
  const said = asked === input.question.trim() ? undefined : new Set(analyze(asked));
  const queryTerms = input.queryTerms?.filter((t) => {
    const parts = termParts(t.term);
    return !parts.some((p) => held.has(p)) && (!said || parts.every((p) => said.has(p)));
  });
  return { ...input, question, ...(queryTerms ? { queryTerms } : {}) };
}
