import type { Citation, HistoryEntry } from '@pinpoint/core';

/** One line of questions.jsonl (DESIGN.md §6), with where it came from. */
export interface FeedbackEvalLine {
  id: string;
  question: string;
  lang: 'en' | 'ja' | 'zh';
  answerable: boolean;
  answers: string[];
  gold: { file: string; page_index?: number; quote: string }[];
  /** Not read by the eval: the user's verdict and note, and the answer they judged, for whoever curates the set. */
  feedback: { verdict: string; note: string | null; at: string; asked_at: string; answer: string; refused: boolean };
}

/** Kana: Japanese; Han without kana: Chinese; anything else is taken for English. */
export function questionLang(question: string): FeedbackEvalLine['lang'] {
  if (/[\u3040-\u30ff]/u.test(question)) return 'ja';
  if (/\p{Script=Han}/u.test(question)) return 'zh';
  return 'en';
}

const goldOf = (c: Citation) => ({
  file: c.file,
  ...(c.page_index !== undefined ? { page_index: c.page_index } : {}),
  quote: c.quote,
});

/**
 * A judged answer as an evaluation question. `helpful` on an answer: answerable, its citations are
 * the gold; `helpful` on a refusal, or `should_have_refused`: unanswerable; `wrong_citation`:
 * answerable with no gold yet (the note says where it really is, for whoever completes the set).
 */
export function feedbackToEvalLine(entry: HistoryEntry): FeedbackEvalLine | null {
  const f = entry.feedback;
  if (!f) return null;
  const a = entry.answer;
  const answerable = f.verdict === 'wrong_citation' || (f.verdict === 'helpful' && !a.refused);
  const gold = f.verdict === 'helpful' && !a.refused ? a.citations.map(goldOf) : [];
  return {
    id: entry.history_id,
    question: entry.question,
    lang: questionLang(entry.question),
    answerable,
    answers: [],
    gold,
    feedback: { verdict: f.verdict, note: f.note, at: f.at, asked_at: entry.asked_at, answer: a.answer, refused: a.refused },
  };
}

/** The JSONL export: one line per judged answer, oldest first. */
export function feedbackJsonl(entries: HistoryEntry[]): string {
  return entries
    .flatMap((e) => {
      const line = feedbackToEvalLine(e);
      return line ? [`${JSON.stringify(line)}\n`] : [];
    })
    .join('');
}
