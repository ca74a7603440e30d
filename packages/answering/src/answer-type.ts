/**
 * Answer-type cues: a question that asks "when" or "how many" expects a number or date in its
 * answer sentence. Returns null when the question expects nothing checkable.
 */
export type AnswerType = 'number' | 'name';

const EN_NUMBER =
  /\b(how (many|much|long|far|old|tall|big|large|high|often)|when\b|what (year|date|century|decade|percentage|percent|age)|in (what|which) year|which year)/i;
const JA_NUMBER =
  /(いつ|何年|何月|何日|何世紀|何人|いくつ|何個|何回|何度|何歳|何キロ|何メートル|何パーセント|何%|どのくらい|どれくらい|何時)/u;
const ZH_NUMBER = /(哪一年|哪年|何年|何時|何时|什麼時候|什么时候|幾|几|多少|多久|多長|多长|多大|多高|多遠|多远|哪一天|何日)/u;

export function expectedType(question: string): AnswerType | null {
  const q = question.normalize('NFKC');
  if (EN_NUMBER.test(q) || JA_NUMBER.test(q) || ZH_NUMBER.test(q)) return 'number';
  if (EN_NAME.test(q)) return 'name';
  return null;
}

const NUMBER =
  /(\d|[一二三四五六七八九十百千万萬億亿兩两〇零]|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|million|billion|dozen|january|february|march|april|may|june|july|august|september|october|november|december|century|decade)\b)/iu;

const EN_NAME = /^(who|whom|whose)\b|\b(who|whom|whose) (was|is|were|are|did|does)\b/i;
const NAME = /(?<=[\p{L}\p{N},;:] )\p{Lu}[\p{L}'’-]+/gu;

/** The window holds a candidate of the expected type that the question does not already hold. */
export function hasType(text: string, type: AnswerType, question: string): boolean {
  const q = question.normalize('NFKC').toLowerCase();
  const pattern = type === 'number' ? new RegExp(NUMBER.source, 'giu') : NAME;
  for (const m of text.normalize('NFKC').matchAll(pattern)) {
    if (!q.includes(m[0].toLowerCase())) return true;
  }
  return false;
}

const NEGATION = /\b(not|never|no|none|n't|without|nor)\b|n't\b/i;

export function negationMismatch(question: string, windowText: string): number {
  return NEGATION.test(question) && !NEGATION.test(windowText) ? 1 : 0;
}

/** Names and numbers of a question: capitalised words after the first word, and digit runs. */
export function questionEntities(question: string): string[] {
  const words = question.normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return words.slice(1).filter((w) => /^\p{Lu}/u.test(w) || /\d/.test(w));
}
