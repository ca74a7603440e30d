import type { GenerationSource } from '@pinpoint/core';

/** A refusal answer starts with this marker; the post-check strips it and drops every source. */
export const REFUSAL_MARKER = 'NO_ANSWER:';

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  ja: 'Japanese',
  zh: 'Chinese',
  'zh-Hans': 'Simplified Chinese',
  'zh-Hant': 'Traditional Chinese',
  ko: 'Korean',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
};

/** The language's English name; '' for 'und' (undetermined): then the prompt says "the question's language". */
export function languageName(language: string): string {
  if (language === 'und' || language === '') return '';
  return LANGUAGE_NAMES[language] ?? LANGUAGE_NAMES[language.split('-')[0] ?? ''] ?? language;
}

export interface AnswerPrompt {
  system: string;
  user: string;
}

function sourceHeader(source: GenerationSource): string {
  const head =
    source.page_label === undefined ? `[${source.n}] ${source.file}` : `[${source.n}] ${source.file}, page ${source.page_label}`;
  return source.table ? `${head} (table)` : head;
}

/** How a table source is cited: by its cells, never as a whole. */
const TABLE_RULE = [
  'A source marked (table) is a grid: its line starting with "row |" names each column with a letter, and every line after it starts with its row number.',
  'Cite a table only by the cells that hold the fact: source number, column letter and row number, like [2:C4] or [2:C4][2:A4].',
  'An answer counted, summed or compared over several rows cites every cell it used.',
].join('\n');

/** The answer prompt: numbered sources with file and page, answer only from them, cite like [1]. */
export function buildAnswerPrompt(input: { question: string; sources: GenerationSource[]; language: string }): AnswerPrompt {
  const lang = languageName(input.language) || 'the language of the question';
  const system = [
    'You answer questions about the user’s documents using ONLY the numbered sources given.',
    'Every sentence that states a fact from a source ends with its citation, like [1] or [2][3].',
    'Never use knowledge that is not in the sources. Never cite a number that is not listed.',
    `If the sources do not contain the answer, reply with exactly "${REFUSAL_MARKER}" followed by one sentence in ${lang} saying that the documents do not answer the question, and nothing else.`,
    `Write the answer in ${lang}. Be brief.`,
    ...(input.sources.some((s) => s.table) ? [TABLE_RULE] : []),
  ].join('\n');
  const sources = input.sources.map((s) => `${sourceHeader(s)}\n${s.text.trim()}`).join('\n\n');
  const user = `Sources:\n\n${sources}\n\nQuestion: ${input.question}`;
  return { system, user };
}
