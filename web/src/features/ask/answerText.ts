import type { MessageId } from '../../i18n/messages/en.js';

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

/** The gate's line as the API sends it: English `reason`, and `reason_code` with its params to say it in any language. */
export interface GateLine {
  reason?: string | undefined;
  reason_code?: string | undefined;
  reason_params?: Record<string, string | number | string[]> | undefined;
}

/** A reason line as a catalogue message: its id, its values, and the question's words it names (quoted, listed). */
export interface ReasonMessage {
  id: MessageId;
  values: Record<string, string | number>;
  words: string[];
}

const GATE_CODES = new Set(['unseen', 'partial', 'negation', 'antonym', 'number', 'type', 'absent', 'echo']);

/** The gate's reason in catalogue terms; null for a code this SPA does not know (the English line is shown then). */
export function gateReasonMessage(gate: GateLine | undefined): ReasonMessage | null {
  const code = gate?.reason_code;
  if (!code) return null;
  const p = gate.reason_params ?? {};
  const words = Array.isArray(p.words) ? p.words : [];
  const coverage = typeof p.coverage === 'number' ? p.coverage : 0;
  if (code === 'answered') {
    return { id: words.length > 0 ? 'reason.answeredIncluding' : 'reason.answered', values: { coverage }, words };
  }
  if (code === 'table' && typeof p.file === 'string') {
    const other = typeof p.other === 'string' ? p.other : undefined;
    return other
      ? { id: 'reason.tableOther', values: { file: p.file, other }, words: [] }
      : { id: 'reason.table', values: { file: p.file }, words: [] };
  }
  if (!GATE_CODES.has(code)) return null;
  return { id: `reason.${code}` as MessageId, values: { coverage }, words };
}

const REFUSAL_CODES = new Set([
  'no-candidates',
  'weak-evidence',
  'no-documents',
  'model-refused',
  'no-citations',
  'table-not-found',
]);

/** The catalogue message of a refusal's reason code; null for a code this SPA does not know. */
export function refusalReasonMessage(reason: string | undefined): MessageId | null {
  return reason && REFUSAL_CODES.has(reason) ? (`refusal.${reason}` as MessageId) : null;
}
