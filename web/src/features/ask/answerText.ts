export type AnswerSegment = { kind: 'text'; text: string } | { kind: 'cite'; n: number };

/**
 * Splits an answer into text and citation markers. Only `[n]` whose n is a known citation
 * becomes a pill; anything else (e.g. "[3]" quoted from a document) stays text.
 */
export function answerSegments(answer: string, citationNumbers: ReadonlySet<number>): AnswerSegment[] {
  const out: AnswerSegment[] = [];
  let last = 0;
  for (const m of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (!citationNumbers.has(n)) continue;
    const at = m.index ?? 0;
    if (at > last) out.push({ kind: 'text', text: answer.slice(last, at) });
    out.push({ kind: 'cite', n });
    last = at + m[0].length;
  }
  if (last < answer.length) out.push({ kind: 'text', text: answer.slice(last) });
  return out;
}

/** A score for the sources table: short, aligned, never "NaN". */
export function formatScore(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  if (abs !== 0 && abs < 0.001) return value.toExponential(1);
  return value.toFixed(abs >= 100 ? 1 : abs >= 1 ? 2 : 4);
}

const REFUSAL_REASONS: Record<string, string> = {
  'no-candidates': 'No passage in your files matches the question.',
  'weak-evidence': 'The closest passages do not hold enough evidence to answer it.',
  'no-documents': 'There are no ready documents to search yet.',
};

/** A person-readable reason for a refusal; unknown reasons are shown as the server gave them. */
export function refusalReasonText(reason: string | undefined): string | null {
  if (!reason) return null;
  return REFUSAL_REASONS[reason] ?? reason;
}
