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

/** Words and their opposites, both ways: an unanswerable question is often its sentence with one word turned round. */
const OPPOSITES: [string, string][] = [
  ['more', 'less'],
  ['more', 'fewer'],
  ['most', 'least'],
  ['first', 'last'],
  ['largest', 'smallest'],
  ['larger', 'smaller'],
  ['biggest', 'smallest'],
  ['highest', 'lowest'],
  ['higher', 'lower'],
  ['before', 'after'],
  ['increase', 'decrease'],
  ['increased', 'decreased'],
  ['earliest', 'latest'],
  ['earlier', 'later'],
  ['maximum', 'minimum'],
  ['north', 'south'],
  ['east', 'west'],
  ['northern', 'southern'],
  ['eastern', 'western'],
  ['longest', 'shortest'],
  ['longer', 'shorter'],
  ['oldest', 'youngest'],
  ['oldest', 'newest'],
  ['older', 'younger'],
  ['best', 'worst'],
  ['better', 'worse'],
  ['major', 'minor'],
  ['won', 'lost'],
  ['win', 'lose'],
  ['above', 'below'],
  ['inside', 'outside'],
  ['internal', 'external'],
  ['upper', 'lower'],
  ['strong', 'weak'],
  ['stronger', 'weaker'],
  ['public', 'private'],
  ['legal', 'illegal'],
  ['success', 'failure'],
  ['successful', 'unsuccessful'],
  ['accepted', 'rejected'],
  ['start', 'end'],
  ['began', 'ended'],
  ['rise', 'fall'],
  ['rose', 'fell'],
  ['gain', 'loss'],
  ['import', 'export'],
  ['imports', 'exports'],
  ['top', 'bottom'],
  ['ancient', 'modern'],
  ['same', 'different'],
  ['common', 'rare'],
  ['easy', 'difficult'],
  ['possible', 'impossible'],
  ['always', 'never'],
  ['supported', 'opposed'],
  ['male', 'female'],
  ['men', 'women'],
  ['inner', 'outer'],
  ['slow', 'fast'],
  ['slower', 'faster'],
  ['hot', 'cold'],
  ['wet', 'dry'],
  ['low', 'high'],
  ['small', 'large'],
  ['minority', 'majority'],
  ['domestic', 'foreign'],
  ['direct', 'indirect'],
  ['open', 'closed'],
];
const OPPOSITE = new Map<string, string[]>();
for (const [a, b] of OPPOSITES) {
  OPPOSITE.set(a, [...(OPPOSITE.get(a) ?? []), b]);
  OPPOSITE.set(b, [...(OPPOSITE.get(b) ?? []), a]);
}
const lowerWords = (text: string): Set<string> =>
  new Set(
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );

/** 1 when the question holds a word the sentence lacks while the sentence holds its opposite ("more than k" / "less than k"). */
export function antonymMismatch(question: string, sentence: string): number {
  const q = lowerWords(question);
  const s = lowerWords(sentence);
  for (const w of q) if (!s.has(w) && (OPPOSITE.get(w) ?? []).some((o) => s.has(o) && !q.has(o))) return 1;
  return 0;
}

/** 1 when the question holds a number of two digits or more that the text lacks while the text holds another. */
export function numberMismatch(question: string, text: string): number {
  const numbers = (t: string) => new Set((t.normalize('NFKC').match(/\d[\d,.]*\d/gu) ?? []).map((n) => n.replace(/[,.]$/u, '')));
  const q = numbers(question);
  if (q.size === 0) return 0;
  const s = numbers(text);
  return [...q].some((n) => !s.has(n)) && [...s].some((n) => !q.has(n)) ? 1 : 0;
}

/** Names and numbers of a question: capitalised words after the first word, and digit runs. */
export function questionEntities(question: string): string[] {
  const words = question.normalize('NFKC').match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return words.slice(1).filter((w) => /^\p{Lu}/u.test(w) || /\d/.test(w));
}

/** What kind of value an answer span is marked for: a number or date, or a name or place. */
export function markType(question: string): AnswerType | null {
  const type = expectedType(question);
  if (type !== null) return type;
  const q = question.normalize('NFKC');
  if (/^(where|in which (city|country|state|region|place))\b|\bwhere (is|was|were|are|did|does)\b/i.test(q)) return 'name';
  if (/(どこ|誰|だれ|哪裡|哪里|在哪|谁|誰)/u.test(q)) return 'name';
  return null;
}

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
/** English cardinals written as words ("seven lanterns"); "one" is left out, too often "one of". */
const CARDINAL_WORDS =
  '(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen)(?:[\\s-](?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand|million|billion))*';
const NUMBER_SPAN = new RegExp(
  `\\b${CARDINAL_WORDS}\\b|(?:(?:${MONTHS})\\s+(?:\\d{1,2},?\\s+)?)?\\d[\\d,.:/-]*(?:\\s?(?:年|月|日|世紀|世纪|人|名|個|个|回|歳|%|percent|per cent|million|billion|thousand|km|kilometres|kilometers|miles|years?))*|(?:${MONTHS})\\s+\\d{1,2}|[一二三四五六七八九十百千万萬億亿兩两〇零]+(?:年|月|日|人|名|個|个|回|歳)`,
  'giu',
);
const CARDINAL = new RegExp(`^${CARDINAL_WORDS}$`, 'iu');
const NAME_SPAN = /(?<=[\p{L}\p{N},;:] )\p{Lu}[\p{L}'’-]+(?:\s+(?:(?:of|de|von|van|the|and)\s+)?\p{Lu}[\p{L}'’-]+)*/gu;
const CJK_NAME_SPAN = /[\p{Script=Katakana}ー・]{2,}|[「『《]([^」』》]{1,30})[」』》]/gu;

/**
 * The span of `text` that holds the asked-for kind of value (a number or date; a name or place) and
 * that the question does not already hold, as codepoint offsets; null when there is none.
 */
export function typeSpan(text: string, type: AnswerType, question: string): { text: string; start: number; end: number } | null {
  const q = question.normalize('NFKC').toLowerCase();
  const patterns = type === 'number' ? [NUMBER_SPAN] : [NAME_SPAN, CJK_NAME_SPAN];
  for (const pattern of patterns) {
    for (const m of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
      const value = m[0].trim();
      if (value.length === 0 || q.includes(value.normalize('NFKC').toLowerCase())) continue;
      if (type === 'number' && !/\d|[一二三四五六七八九十百千万萬億亿兩两〇零]/u.test(value) && !CARDINAL.test(value)) continue;
      const start = Array.from(text.slice(0, m.index ?? 0)).length;
      return { text: value, start, end: start + Array.from(value).length };
    }
  }
  return null;
}
