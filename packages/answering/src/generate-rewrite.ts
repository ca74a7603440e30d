import type { Generator } from '@pinpoint/core';

export interface QueryRewrite {
  /** Two paraphrases of the question (same language), for extra retrieval passes. */
  paraphrases: string[];
  /** The parts of a compound question, each answerable alone; [] when it is a single question. */
  parts: string[];
}

function buildRewritePrompt(question: string): string {
  return [
    'Rewrite the question for searching a document collection.',
    'Return JSON only: {"paraphrases": [two paraphrases in the question’s language, keeping every name, number and code exactly],',
    ' "parts": [if the question asks two or more separate things, each as a standalone question; otherwise empty]}.',
    '',
    `Question: ${question}`,
  ].join('\n');
}

function strings(value: unknown, max: number, question: string): string[] {
  if (!Array.isArray(value)) return [];
  const out = value.filter((v): v is string => typeof v === 'string').map((v) => v.trim());
  return [...new Set(out.filter((v) => v && v !== question.trim()))].slice(0, max);
}

/** Parses the model's reply; anything unusable yields no rewrites rather than an error. */
export function parseRewrite(reply: string, question: string): QueryRewrite {
  const json = reply.slice(reply.indexOf('{'), reply.lastIndexOf('}') + 1);
  try {
    const parsed = JSON.parse(json) as { paraphrases?: unknown; parts?: unknown };
    const parts = strings(parsed.parts, 4, question);
    return { paraphrases: strings(parsed.paraphrases, 2, question), parts: parts.length > 1 ? parts : [] };
  } catch {
    return { paraphrases: [], parts: [] };
  }
}

/** Query rewriting and decomposition with the configured generator (none → no rewrites). */
export async function rewriteQuery(
  generator: Generator | null | undefined,
  question: string,
  signal?: AbortSignal,
): Promise<QueryRewrite> {
  if (!generator) return { paraphrases: [], parts: [] };
  return parseRewrite(await generator.complete(buildRewritePrompt(question), signal), question);
}
