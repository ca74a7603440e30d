import { financeGroupsIn } from '@pinpoint/analysis';
import { MEASURE_FORMULAS, OUTFLOWS, parseFormula } from './measures.js';

/**
 * Formulas a question gives itself ("DPO is defined as: 365 * (average accounts payable between FY2019
 * and FY2020) / (FY2020 COGS + change in inventory between FY2019 and FY2020)", "Define working
 * capital ratio as total current assets divided by total current liabilities", "FCF here is defined
 * as: (cash from operations - capex)"), read into the measures' formula language over the finance
 * lexicon's line items: the figure is computed as the question defines it, not as a textbook does.
 * English only: the FinanceBench-style questions that define measures are written so.
 */

/** "<subject> is defined as: <expression>", "Define <subject> as <expression>", "Calculate <subject> using <expression>". */
const DEFINITIONS: readonly RegExp[] = [
  /(?:^|[.?!]\s+)(?:the\s+)?(?<subject>[^.?!:]{1,80}?)\s+(?:here\s+)?(?:is|are)\s+defined\s+as\s*:?\s*(?<expr>.+?)(?=\.\s|\.$|\?|$)/giu,
  /\bdefine\s+(?<subject>[^.?!:]{1,80}?)\s+as\s*:?\s*(?<expr>.+?)(?=\.\s|\.$|\?|$)/giu,
  /\bcalculate\s+(?<subject>[^.?!:]{1,80}?)\s+using\s+(?<expr>.+?)(?=\.\s|\.$|\?|$)/giu,
];

/** Words of an expression that are operators. */
const OPERATORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\s+divided\s+by\s+/giu, ' / '],
  [/\s+(?:multiplied\s+by|times)\s+/giu, ' * '],
  [/\s+plus\s+/giu, ' + '],
  [/\s+(?:minus|less)\s+/giu, ' - '],
  [/[×x](?=\s*\d)|(?<=\d\s*)[×x]/gu, ' * '],
  [/÷/gu, ' / '],
];

/** Where a definition says which statement to read an item from ("[from cash flow statement]", "(per the 10-K)"): no operand. */
const SOURCES: readonly RegExp[] = [
  /\[[^\]]*\]/gu,
  /\((?:from|per|as\s+shown\s+in|in)\s+[^()]*\)/giu,
  /\bfrom\s+(?:the\s+)?(?:cash\s+flows?|income|balance)\s+(?:statement|sheet)\b/giu,
];

/** What qualifies a line item in a definition without changing which it is. */
const QUALIFIERS: readonly RegExp[] = [
  /\b(?:fy\s*\d{2,4}|fiscal\s+\d{4}|\d{4})\b/giu,
  /\b(?:unadjusted|reported|total\s+cash|year[- ]end|the|its|of\s+the\s+year)\b/giu,
];

/** A definition's subject by the key it is named with: the lexicon group it names, else its own words. */
function subjectKey(subject: string): string {
  const groups = financeGroupsIn(subject);
  const [first] = groups;
  return first && groups.every((g) => g.group === first.group) ? first.group : subject.trim().toLowerCase();
}

/** The definitions a question gives, by subject key. */
function definitionsIn(question: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const re of DEFINITIONS) {
    re.lastIndex = 0;
    for (const m of question.normalize('NFKC').matchAll(re)) {
      const subject = (m.groups?.subject ?? '').replace(/^(?:and|so|where|here)\s+/iu, '');
      const expr = m.groups?.expr ?? '';
      if (subject && expr) out.set(subjectKey(subject), expr);
    }
  }
  return out;
}

/** A period range ("between FY2019 and FY2020"): said of an operand, it holds an "and" that is no sum. */
const RANGE = /\b(?:between|from)\s+(?:fy\s*)?\d{4}\s+(?:and|to)\s+(?:fy\s*)?\d{4}\b/giu;

/**
 * One operand of a definition: a number, a line item (averaged, or its change, over the year before),
 * a defined subject — or two line items joined by "and" ("operating income and D&A"), their sum,
 * where the whole names no one line item ("cash and cash equivalents" does).
 */
function operand(text: string, defined: Map<string, string>, seen: Set<string>): string | undefined {
  const one = single(text, defined, seen);
  if (one !== undefined || !/\sand\s/iu.test(text)) return one;
  const parts = text.split(/\s+and\s+/iu).map((p) => single(p, defined, seen));
  return parts.every((p): p is string => p !== undefined) ? `(${parts.join(' + ')})` : undefined;
}

function single(text: string, defined: Map<string, string>, seen: Set<string>): string | undefined {
  let t = text.trim();
  if (/^\d+(?:\.\d+)?$/u.test(t)) return t;
  let fn = '';
  const avg = /^(?:the\s+)?(?:average|avg\.?)\s+(?:of\s+)?(.+)$/iu.exec(t);
  const chg = /^(?:the\s+)?(?:change|increase|decrease)\s+in\s+(.+)$/iu.exec(t);
  if (avg) [fn, t] = ['avg', avg[1] as string];
  else if (chg) [fn, t] = ['chg', chg[1] as string];
  for (const re of QUALIFIERS) t = t.replace(re, ' ');
  t = t.replace(/\s+/g, ' ').trim();
  if (t === '') return undefined;
  const key = subjectKey(t);
  // a subject the question defines is read by its definition (DIO inside the cash conversion cycle)
  const own = defined.get(key);
  if (own !== undefined && !fn) return seen.has(key) ? undefined : wrap(translate(own, defined, new Set([...seen, key])));
  if (!/^[a-z][a-z0-9-]*$/u.test(key) || key.includes(' ')) return undefined;
  // a measure of the lexicon inside a definition is computed by its own formula
  if (MEASURE_FORMULAS[key] && !fn) return key;
  const signed = OUTFLOWS.has(key) ? 'abs' : '';
  if (fn && signed) return undefined;
  return fn ? `${fn}(${key})` : signed ? `abs(${key})` : key;
}

const wrap = (f: string | undefined): string | undefined => (f === undefined ? undefined : `(${f})`);

/** A definition's expression in the measures' formula language; undefined when any operand names no line item. */
function translate(expr: string, defined: Map<string, string>, seen: Set<string>): string | undefined {
  let text = ` ${SOURCES.reduce((t, re) => t.replace(re, ' '), expr).replace(RANGE, ' ')} `;
  for (const [re, op] of OPERATORS) text = text.replace(re, op);
  // operators and brackets apart; a hyphen is a minus only with spaces around it ("D&A", "non-current" stay)
  const parts = text.split(/(\s[-+*/]\s|[()*/+])/u);
  const out: string[] = [];
  for (const part of parts) {
    const p = part.trim();
    if (p === '') continue;
    if (/^[-+*/()]$/u.test(p)) {
      out.push(p);
      continue;
    }
    const read = operand(p, defined, seen);
    if (read === undefined) return undefined;
    out.push(read);
  }
  const formula = out.join(' ');
  try {
    parseFormula(formula);
  } catch {
    return undefined;
  }
  return formula;
}

/**
 * The formula a question gives for the measure it asks (`asked`: a lexicon group id, or the words
 * the question names it by), in the measures' formula language; undefined when the question defines
 * no formula for it or names a line item the lexicon does not know.
 */
export function definedFormula(question: string, asked: string): string | undefined {
  const defined = definitionsIn(question);
  if (defined.size === 0) return undefined;
  const key = subjectKey(asked);
  const expr = defined.get(key);
  if (expr !== undefined) return translate(expr, defined, new Set([key]));
  // a measure whose parts the question defines ("EBITDA % margin … calculate EBITDA using …"): the
  // lexicon's formula, with each part the question defines read by its definition
  const lexicon = MEASURE_FORMULAS[key]?.formula;
  if (lexicon === undefined) return undefined;
  let out = lexicon;
  let changed = false;
  for (const [part, partExpr] of defined) {
    const token = new RegExp(`(?<![a-z0-9-])${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9-])`, 'gu');
    if (!token.test(out)) continue;
    const read = translate(partExpr, defined, new Set([key, part]));
    if (read === undefined) return undefined;
    out = out.replace(token, `(${read})`);
    changed = true;
  }
  return changed ? out : undefined;
}

/**
 * A figure the question names as an expression of line items ("What is the FY2022 unadjusted EBITDA
 * less capex for PepsiCo?"), translated; undefined when it names none. `asked` is the question's asking
 * sentence: its other words name no line item.
 */
export function askedExpression(asked: string, question: string): string | undefined {
  if (!/\s(?:less|minus|plus|divided\s+by)\s|\s[-+/]\s/iu.test(asked)) return undefined;
  return translate(asked, definitionsIn(question), new Set());
}
