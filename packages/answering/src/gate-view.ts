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

/** The question as the gate reads it: the words a scope holds left out of its text and its terms. */
export function gateView<T extends GateInput>(input: T): T {
  if (!input.satisfied?.length) return input;
  let question = input.question;
  for (const w of input.satisfied) question = question.split(w).join(' ');
  const held = new Set(input.satisfied.flatMap((w) => analyze(w)));
  const queryTerms = input.queryTerms?.filter((t) => !termParts(t.term).some((p) => held.has(p)));
  return { ...input, question, ...(queryTerms ? { queryTerms } : {}) };
}
