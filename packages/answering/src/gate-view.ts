import { analyze, financeMeasures, foldHan, isCjkCodepoint, splitSentences, termKind } from '@pinpoint/analysis';
import { CodepointIndex, escapeRegExp } from '@pinpoint/core';
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

/**
 * The sentences of a text as UTF-16 ranges (splitSentences: a full stop after an abbreviation, an
 * initial or inside a number ends none; a closing bracket or quote stays with its sentence).
 */
function sentencesOf(text: string): { start: number; end: number }[] {
  const index = new CodepointIndex(text);
  return splitSentences(text).map((r) => ({ start: index.toUtf16(r.start), end: index.toUtf16(r.end) }));
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
  let last = -1;
  for (const { start, end } of sentencesOf(question)) if (/[?？]/u.test(question.slice(start, end))) last = end;
  if (last < 0) return question.trim();
  const asked = question.slice(0, last);
  let start = 0;
  for (const m of asked.matchAll(LEAD_IN)) start = (m.index ?? 0) + m[0].length;
  return asked.slice(start).trim();
}

/** One term the question defines ("Define working capital ratio as total current assets divided by …"). */
interface Definition {
  term: string;
  meaning: string;
}

/**
 * How a question defines a term, in a sentence that does not ask: "Define X as Y", "X is defined
 * as: Y", "Calculate X using Y", "X = Y", 「XをYと定義する」「XはYと定義します」, 「X定义为Y」.
 */
const DEFINES: RegExp[] = [
  /^(?:please\s+)?define\s+(?:the\s+)?(?<term>.+?)\s+as:?\s+(?<meaning>.+)$/iu,
  /^(?:the\s+)?(?<term>.+?)(?:\s+here)?\s+(?:is|are)\s+defined\s+as:?\s+(?<meaning>.+)$/iu,
  /^(?:please\s+)?(?:calculate|compute)\s+(?:the\s+)?(?<term>.+?)\s+(?:using|from|as)\s+(?<meaning>.+)$/iu,
  /^(?<term>[^=]+?)\s*=\s*(?<meaning>.+)$/u,
  /^(?<term>.+?)[をは]、?(?<meaning>.+?)と(?:して)?定義(?:する|します|される|されます)?$/u,
  /^(?<term>.+?)(?:的)?定义为[:：]?(?<meaning>.+)$/u,
];

/** Arithmetic in a definition's meaning: operators and constants say how, not what a document holds. */
const ARITHMETIC =
  /[-+*/×÷=()[\]（）]|\b(?:divided\s+by|multiplied\s+by|plus|minus|times|over|average|mean|sum\s+of|change\s+in|between)\b|(?<![\p{L}\p{N}])\d+(?:\.\d+)?(?![\p{L}\p{N}])/giu;

/** The terms a question defines in its sentences that do not ask, longest term first. */
export function questionDefinitions(question: string): Definition[] {
  const out: Definition[] = [];
  for (const { start, end } of sentencesOf(question)) {
    const sentence = question.slice(start, end).replace(/[.。．]$/u, '');
    if (/[?？]/u.test(sentence)) continue;
    for (const form of DEFINES) {
      const g = form.exec(sentence)?.groups;
      const term = g?.term?.trim();
      const meaning = g?.meaning?.replace(ARITHMETIC, ' ').replace(/\s+/gu, ' ').trim();
      if (!term || !meaning || [...term].length > 60 || term.split(/\s+/u).length > 6) continue;
      out.push({ term, meaning });
      break;
    }
  }
  return out.sort((a, b) => b.term.length - a.term.length);
}

/** The long form an abbreviation in brackets follows: "cash conversion cycle (CCC)" → its span in the text. */
function withLongForm(text: string, abbreviation: string): string | undefined {
  const at = text.indexOf(`(${abbreviation})`);
  if (at < 0) return undefined;
  const letters = abbreviation.replace(/[^A-Za-z]/gu, '').toLowerCase();
  const words = text.slice(0, at).trimEnd().split(/\s+/u);
  const long = words.slice(-letters.length);
  if (long.length !== letters.length || long.map((w) => w[0]?.toLowerCase()).join('') !== letters) return undefined;
  return text.slice(text.lastIndexOf(long.join(' '), at), at + abbreviation.length + 2);
}

/**
 * The asked part with each term the question defines read as its definition, and a definition's
 * own defined terms read in turn (CCC → DIO + DSO − DPO → inventory, COGS …): a ratio the question
 * defines is answered by the line items it names, which a document holds where the ratio's name
 * may appear nowhere.
 */
export function withDefinitions(asked: string, question: string): string {
  const definitions = questionDefinitions(question);
  let text = asked;
  for (let round = 0; round < 3; round++) {
    let changed = false;
    for (const { term, meaning } of definitions) {
      const span = withLongForm(text, term) ?? term;
      const at = text.toLowerCase().indexOf(span.toLowerCase());
      if (at < 0) continue;
      text = `${text.slice(0, at)} ${meaning} ${text.slice(at + span.length)}`;
      changed = true;
    }
    if (!changed) break;
  }
  return text;
}

/**
 * Where a lexicon name stands in a text: a Latin name's words in any case, apart by anything but
 * letters and digits ("operating income % margin"), as the lexicon matches them; a CJK name as
 * written, or as Traditional folded to Simplified.
 */
function nameAt(text: string, name: string): { at: number; length: number } | undefined {
  if (Array.from(name).some((c) => isCjkCodepoint(c.codePointAt(0) ?? 0))) {
    let at = text.indexOf(name);
    if (at < 0) {
      // folded only where the name is not found as written, and only where folding keeps positions
      const folded = foldHan(text);
      if (folded.length === text.length) at = folded.indexOf(foldHan(name));
    }
    return at < 0 ? undefined : { at, length: name.length };
  }
  const words = name
    .split(/[^\p{L}\p{N}&/]+/u)
    .filter((w) => w !== '')
    .map(escapeRegExp);
  const m = new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[^\\p{L}\\p{N}]+')}(?![\\p{L}\\p{N}])`, 'iu').exec(text);
  return m ? { at: m.index, length: m[0].length } : undefined;
}

/**
 * The asked part with each measure it names that no retrieved text states read as the line items
 * its textbook formula reads: "the FY2022 quick ratio" is answered by cash, receivables and current
 * liabilities, which the balance sheet holds where "quick ratio" appears nowhere.
 */
export function withMeasureParts(asked: string, stated: (name: string) => boolean): string {
  let text = asked;
  for (const { name, parts } of financeMeasures(asked)) {
    if (stated(name)) continue;
    const hit = nameAt(text, name);
    if (hit) text = `${text.slice(0, hit.at)} ${parts.join(' ')} ${text.slice(hit.at + hit.length)}`;
  }
  return text;
}

/**
 * The question as the gate reads it: the part that asks (askedPart) with the terms the question
 * defines read as their definitions and the measures no retrieved text states read as their line
 * items (`stated`), and the words a scope holds left out of its text and its terms.
 */
export function gateView<T extends GateInput>(input: T, stated: (name: string) => boolean = () => true): T {
  const asked = withMeasureParts(withDefinitions(askedPart(input.question), input.question), stated);
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
