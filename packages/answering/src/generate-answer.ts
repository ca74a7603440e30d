import type { Citation, Embedder, Generator as TextGenerator } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { REFUSAL_MARKER } from '@pinpoint/providers';
import type { RankedChunk } from './candidates.js';
import { refusalMessage } from './extractive.js';
import {
  elementCitation,
  type PostCheckedAnswer,
  postCheck,
  questionLanguage,
  shownEnd,
  toGenerationSources,
} from './generate.js';
import { markCitations, type SentenceSupport, type VerifyOptions, verifyAnswer } from './verify.js';

export interface GeneratedAnswer extends PostCheckedAnswer {
  /** Citing sentences of the answer with their verification (empty for a refusal). */
  sentences: SentenceSupport[];
  generator: string;
}

/**
 * Events of a streamed answer (the API sends each as an SSE event named by `type`):
 * - `delta`: answer text as the model writes it, with citation markers already renumbered;
 * - `citation`: a source the answer just cited for the first time, with its new number;
 * - `done`: the post-checked, verified answer (authoritative: a refusal replaces the streamed text).
 */
export type AnswerEvent =
  | { type: 'delta'; text: string }
  | { type: 'citation'; citation: Citation }
  | { type: 'done'; answer: GeneratedAnswer };

export interface GenerateInput {
  question: string;
  /** The gated evidence, best first; the prompt numbers them 1..n in this order. */
  chunks: RankedChunk[];
  generator: TextGenerator;
  embedder?: Embedder | null;
  verify?: Omit<VerifyOptions, 'embedder' | 'signal'>;
  signal?: AbortSignal;
}

/** Holds back text that may still become a citation marker or the refusal marker. */
class StreamRenumberer {
  private raw = '';
  private sent = 0;
  readonly order: number[] = [];

  constructor(private readonly sourceCount: number) {}

  /** Feeds raw model text; returns renumbered text safe to show and the sources cited for the first time. */
  push(piece: string, final = false): { text: string; firstUse: number[] } {
    this.raw += piece;
    const end = shownEnd(this.raw, this.sent, final, 16);
    const before = this.order.length;
    const text = this.raw.slice(this.sent, end).replace(/\[(\d{1,3}(?:\s*[,、，]\s*\d{1,3})*)\]/g, (_m, list: string) =>
      list
        .split(/[,、，]/)
        .map((s) => Number(s.trim()))
        .filter((n) => n >= 1 && n <= this.sourceCount)
        .map((n) => {
          if (!this.order.includes(n)) this.order.push(n);
          return `[${this.order.indexOf(n) + 1}]`;
        })
        .join(''),
    );
    this.sent = end;
    return { text, firstUse: this.order.slice(before) };
  }
}

/**
 * Generation with numbered sources, the post-check (a refusal carries no sources; only cited
 * sources are returned, renumbered by first use) and citation verification, as a stream of events.
 */
export async function* streamGeneratedAnswer(input: GenerateInput): AsyncGenerator<AnswerEvent> {
  const language = questionLanguage(input.question);
  const sources = toGenerationSources(input.chunks);
  const renumber = new StreamRenumberer(input.chunks.length);
  let raw = '';
  const emit = function* (piece: string, final: boolean): Generator<AnswerEvent> {
    const { text, firstUse } = renumber.push(piece, final);
    if (raw.includes(REFUSAL_MARKER)) return;
    if (text) yield { type: 'delta', text };
    for (const n of firstUse) {
      const chunk = input.chunks[n - 1] as RankedChunk;
      yield { type: 'citation', citation: elementCitation(chunk, renumber.order.indexOf(n) + 1) };
    }
  };
  for await (const piece of input.generator.generate({ question: input.question, sources, language }, input.signal)) {
    raw += piece;
    yield* emit(piece, false);
  }
  yield* emit('', true);
  yield { type: 'done', answer: await finishAnswer(raw, input) };
}

/** Post-check and verify a complete raw answer. */
async function finishAnswer(raw: string, input: GenerateInput): Promise<GeneratedAnswer> {
  const checked = postCheck(raw, input.chunks, refusalMessage(input.question));
  if (checked.refused) return { ...checked, sentences: [], generator: input.generator.id };
  const sentences = await verifyAnswer(checked.answer, (n) => checked.sources[n - 1]?.chunk.text, {
    ...input.verify,
    ...(input.embedder ? { embedder: input.embedder } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return { ...checked, citations: markCitations(checked.citations, sentences), sentences, generator: input.generator.id };
}

/** The whole answer at once (no streaming). */
export async function generateAnswer(input: GenerateInput): Promise<GeneratedAnswer> {
  for await (const event of streamGeneratedAnswer(input)) if (event.type === 'done') return event.answer;
  throw createError('PP_INTERNAL', 'The answer stream ended without a final answer.');
}
