import { hasKana } from '@pinpoint/analysis';
import type { QueryTermWeight } from './candidates.js';
import { termsOf } from './candidates.js';
import type { GateFeatures } from './gate.js';

/** What the gate saw, for the one line that tells a person why it answered or refused. */
export interface ReasonInput {
  question: string;
  refused: boolean;
  features: GateFeatures;
  /** Query terms from the index (weight 0: the collection never holds the term). */
  queryTerms: QueryTermWeight[];
  /** Terms of the best window (empty when nothing was found). */
  windowTerms: Set<string>;
}

const STOP =
  /^(what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|the|a|an|of|in|on|for|to|and|or|by|with)$/iu;

/** The question's words in order, each with its analysed terms (CJK: dictionary words). */
function questionWords(question: string): { word: string; terms: string[] }[] {
  const locale = hasKana(question) ? 'ja' : 'zh';
  const seg = new Intl.Segmenter(locale, { granularity: 'word' });
  const out: { word: string; terms: string[] }[] = [];
  for (const s of seg.segment(question.normalize('NFKC'))) {
    if (!s.isWordLike) continue;
    // A stop word has no terms of its own: it ends a phrase ("salary" | "chief executive").
    out.push({ word: s.segment, terms: STOP.test(s.segment) ? [] : termsOf(s.segment) });
  }
  return out;
}

/** Words the predicate holds for, adjacent ones joined into phrases ("chief executive"). */
function phrases(words: { word: string; terms: string[] }[], pick: (terms: string[]) => boolean, cjk: boolean): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) out.push(run.join(cjk ? '' : ' '));
    run = [];
  };
  for (const w of words) {
    if (w.terms.length > 0 && pick(w.terms)) run.push(w.word);
    else flush();
  }
  flush();
  return [...new Set(out)];
}

const list = (xs: string[], or = 'or'): string => {
  const q = xs.slice(0, 3).map((x) => `“${x}”`);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} ${or} ${q[q.length - 1]}`;
};
const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** Why the gate answered or refused, as a code with params: what a client words in its own language. */
export type GateReasonDetail =
  | { code: 'answered'; params: { coverage: number; words: string[] } }
  | { code: 'unseen' | 'absent'; params: { words: string[] } }
  | { code: 'partial'; params: { coverage: number; words: string[] } }
  | { code: 'negation' | 'antonym' | 'number' | 'type' | 'echo'; params: Record<string, never> };

/**
 * The reason from the gate's own features: the words no document mentions, the words the closest
 * passage lacks, or what it holds when the answer was given (at most three words are named).
 */
export function explainGate(input: ReasonInput): GateReasonDetail {
  const { features: f, refused } = input;
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(input.question);
  const weight = new Map(input.queryTerms.map((t) => [t.term, t.weight]));
  const judged = (terms: string[]) => terms.filter((t) => weight.has(t));
  const words = questionWords(input.question);
  const unseen = phrases(words, (ts) => judged(ts).length > 0 && judged(ts).every((t) => weight.get(t) === 0), cjk);
  const absent = phrases(words, (ts) => judged(ts).length > 0 && judged(ts).every((t) => !input.windowTerms.has(t)), cjk);
  const found = phrases(words, (ts) => judged(ts).some((t) => input.windowTerms.has(t)), cjk);
  const three = (xs: string[]) => xs.slice(0, 3);
  if (!refused) return { code: 'answered', params: { coverage: f.cov_all, words: three(found) } };
  if (unseen.length > 0 && f.known < 0.9) return { code: 'unseen', params: { words: three(unseen) } };
  if (f.cov_all < 0.5 && absent.length > 0) return { code: 'partial', params: { coverage: f.cov_all, words: three(absent) } };
  if (f.negation_mismatch > 0) return { code: 'negation', params: {} };
  if (f.antonym_sentence > 0) return { code: 'antonym', params: {} };
  if (f.number_mismatch > 0) return { code: 'number', params: {} };
  if (f.type_ok === 0) return { code: 'type', params: {} };
  if (absent.length > 0) return { code: 'absent', params: { words: three(absent) } };
  return { code: 'echo', params: {} };
}

/** The reason as one English line (the API's `gate.reason`). */
export function gateReasonText(detail: GateReasonDetail): string {
  switch (detail.code) {
    case 'answered': {
      const { coverage, words } = detail.params;
      return `Answered: the cited passage holds ${pct(coverage)} of the question${words.length > 0 ? `, including ${list(words, 'and')}` : ''}.`;
    }
    case 'unseen':
      return `Nothing in your documents mentions ${list(detail.params.words)}.`;
    case 'partial':
      return `The closest passage holds only ${pct(detail.params.coverage)} of the question: it does not mention ${list(detail.params.words)}.`;
    case 'negation':
      return 'The closest passage matches the question’s words, but not its negation.';
    case 'antonym':
      return 'The closest passage says the opposite of a word of the question (more / less, first / last …).';
    case 'number':
      return 'The closest passage matches the question’s words, but gives another number or year.';
    case 'type':
      return 'The closest passage matches the question’s words, but holds nothing of the kind it asks for (a number, date or name).';
    case 'absent':
      return `The closest passage does not mention ${list(detail.params.words)}, which the question asks about.`;
    default:
      return 'The closest passage repeats the question’s words without answering it.';
  }
}

/** One line a person understands, in English: `gateReasonText(explainGate(input))`. */
export function gateReason(input: ReasonInput): string {
  return gateReasonText(explainGate(input));
}
