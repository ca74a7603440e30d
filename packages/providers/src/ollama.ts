import { createError, type Embedder, type GenerationSource, type Generator } from '@pinpoint/core';
import { buildAnswerPrompt } from './prompt.js';
import { providerErrorForStatus, type RetryOptions, toProviderError, withRetry } from './retry.js';
import { chunked, l2Normalize } from './vector-math.js';

interface OllamaConfig {
  /** e.g. http://127.0.0.1:11434 */
  url: string;
  model: string;
  retry?: RetryOptions;
}

export interface OllamaEmbedderConfig extends OllamaConfig {
  /** Must match the model's output; checked on every response. */
  dimensions: number;
  batchSize?: number;
}

export interface OllamaGeneratorConfig extends OllamaConfig {
  temperature?: number;
  /** num_ctx: the context window to ask for (default 8,192 tokens). */
  contextTokens?: number;
}

/** The task prefixes some embedding models were trained with (their model cards). */
export function embeddingPrefixes(model: string): { query: string; document: string } {
  if (/nomic-embed/.test(model)) return { query: 'search_query: ', document: 'search_document: ' };
  if (/e5/.test(model)) return { query: 'query: ', document: 'passage: ' };
  return { query: '', document: '' };
}

async function post(cfg: OllamaConfig, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const what = `Ollama ${path} (${cfg.model})`;
  let res: Response;
  try {
    res = await fetch(new URL(path, cfg.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    throw toProviderError(err, what);
  }
  if (!res.ok) throw providerErrorForStatus(res.status, what, await res.text().catch(() => ''));
  return res;
}

export function createOllamaEmbedder(cfg: OllamaEmbedderConfig): Embedder {
  const prefixes = embeddingPrefixes(cfg.model);
  const embed = (texts: string[], signal?: AbortSignal) =>
    withRetry(
      async () => {
        const res = await post(cfg, '/api/embed', { model: cfg.model, input: texts }, signal);
        const json = (await res.json()) as { embeddings?: number[][] };
        const vectors = (json.embeddings ?? []).map((v) => l2Normalize(Float32Array.from(v)));
        if (vectors.length !== texts.length || vectors.some((v) => v.length !== cfg.dimensions)) {
          throw createError(
            'PP_PROVIDER_BAD_RESPONSE',
            `Ollama returned ${vectors.length} embeddings for ${texts.length} texts; expected ${cfg.dimensions} dimensions (is the model right?)`,
          );
        }
        return vectors;
      },
      { ...cfg.retry, signal },
    );
  return {
    id: `ollama:${cfg.model}@${cfg.dimensions}`,
    dimensions: cfg.dimensions,
    async embedDocuments(texts, signal) {
      const out: Float32Array[] = [];
      for (const batch of chunked(texts, cfg.batchSize ?? 32))
        out.push(
          ...(await embed(
            batch.map((t) => prefixes.document + t),
            signal,
          )),
        );
      return out;
    },
    async embedQuery(text, signal) {
      const [v] = await embed([prefixes.query + text], signal);
      if (!v) throw createError('PP_PROVIDER_BAD_RESPONSE', 'Ollama returned no embedding for the query');
      return v;
    },
  };
}

async function* ndjson(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of body) {
    buffered += decoder.decode(bytes, { stream: true });
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) yield JSON.parse(line) as Record<string, unknown>;
      nl = buffered.indexOf('\n');
    }
  }
  if (buffered.trim()) yield JSON.parse(buffered) as Record<string, unknown>;
}

export function createOllamaGenerator(cfg: OllamaGeneratorConfig): Generator {
  // Ollama's default context (2,048 tokens) silently drops the start of a long prompt — the
  // instructions — once eight CJK sources are in it; ask for room.
  const options = { temperature: Math.max(0, Math.min(0.2, cfg.temperature ?? 0.1)), num_ctx: cfg.contextTokens ?? 8192 };
  return {
    id: `ollama:${cfg.model}`,
    async *generate(input: { question: string; sources: GenerationSource[]; language: string }, signal?: AbortSignal) {
      const prompt = buildAnswerPrompt(input);
      const messages = [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ];
      const res = await withRetry(() => post(cfg, '/api/chat', { model: cfg.model, messages, stream: true, options }, signal), {
        ...cfg.retry,
        signal,
      });
      if (!res.body) throw createError('PP_PROVIDER_BAD_RESPONSE', 'Ollama /api/chat answered without a body');
      for await (const line of ndjson(res.body)) {
        if (typeof line.error === 'string') throw createError('PP_PROVIDER_BAD_RESPONSE', `Ollama: ${line.error}`);
        const content = (line.message as { content?: unknown } | undefined)?.content;
        if (typeof content === 'string' && content) yield content;
        if (line.done === true) return;
      }
    },
    complete(prompt: string, signal?: AbortSignal) {
      return withRetry(
        async () => {
          const body = { model: cfg.model, messages: [{ role: 'user', content: prompt }], stream: false, options };
          const json = (await (await post(cfg, '/api/chat', body, signal)).json()) as { message?: { content?: string } };
          return json.message?.content ?? '';
        },
        { ...cfg.retry, signal },
      );
    },
  };
}
