import { GoogleGenAI } from '@google/genai';
import { createError, type Embedder, type GenerationSource, type Generator } from '@pinpoint/core';
import { buildAnswerPrompt } from './prompt.js';
import { type RetryOptions, toProviderError, withRetry } from './retry.js';
import { chunked, l2Normalize } from './vector-math.js';

interface GeminiConfig {
  apiKey: string;
  /** Overrides the API host (a proxy, or a local wire-format server in tests). */
  baseUrl?: string;
  retry?: RetryOptions;
}

export interface GeminiEmbedderConfig extends GeminiConfig {
  model?: string;
  /** outputDimensionality; vectors are re-normalised because truncated ones are not unit length. */
  dimensions?: number;
  /** Texts per batchEmbedContents call (the API allows up to 100). */
  batchSize?: number;
}

export interface GeminiGeneratorConfig extends GeminiConfig {
  model?: string;
  /** Clamped to [0, 0.2]: answers must stay close to the sources. */
  temperature?: number;
}

function client(cfg: GeminiConfig): GoogleGenAI {
  if (!cfg.apiKey) throw createError('PP_CONFIG_INVALID', 'PINPOINT_GEMINI_API_KEY is required for the Gemini provider');
  return new GoogleGenAI({ apiKey: cfg.apiKey, ...(cfg.baseUrl ? { httpOptions: { baseUrl: cfg.baseUrl } } : {}) });
}

export function createGeminiEmbedder(cfg: GeminiEmbedderConfig): Embedder {
  const ai = client(cfg);
  const model = cfg.model ?? 'gemini-embedding-001';
  const dimensions = cfg.dimensions ?? 768;
  const batchSize = Math.max(1, Math.min(100, cfg.batchSize ?? 100));
  const embedBatch = (texts: string[], taskType: string, signal?: AbortSignal) =>
    withRetry(
      async () => {
        try {
          const res = await ai.models.embedContent({
            model,
            contents: texts,
            config: { taskType, outputDimensionality: dimensions, ...(signal ? { abortSignal: signal } : {}) },
          });
          const vectors = (res.embeddings ?? []).map((e) => Float32Array.from(e.values ?? []));
          if (vectors.length !== texts.length || vectors.some((v) => v.length !== dimensions)) {
            throw createError(
              'PP_PROVIDER_BAD_RESPONSE',
              `Gemini returned ${vectors.length} embeddings for ${texts.length} texts (expected ${dimensions} dimensions each)`,
            );
          }
          return vectors.map(l2Normalize);
        } catch (err) {
          throw toProviderError(err, `Gemini embeddings (${model})`);
        }
      },
      { ...cfg.retry, signal },
    );
  return {
    id: `gemini:${model}@${dimensions}`,
    dimensions,
    async embedDocuments(texts, signal) {
      const out: Float32Array[] = [];
      for (const batch of chunked(texts, batchSize)) out.push(...(await embedBatch(batch, 'RETRIEVAL_DOCUMENT', signal)));
      return out;
    },
    async embedQuery(text, signal) {
      const [v] = await embedBatch([text], 'RETRIEVAL_QUERY', signal);
      if (!v) throw createError('PP_PROVIDER_BAD_RESPONSE', 'Gemini returned no embedding for the query');
      return v;
    },
  };
}

export function createGeminiGenerator(cfg: GeminiGeneratorConfig): Generator {
  const ai = client(cfg);
  const model = cfg.model ?? 'gemini-2.5-flash';
  const temperature = Math.max(0, Math.min(0.2, cfg.temperature ?? 0.1));
  const what = `Gemini generation (${model})`;
  return {
    id: `gemini:${model}`,
    async *generate(input: { question: string; sources: GenerationSource[]; language: string }, signal?: AbortSignal) {
      const prompt = buildAnswerPrompt(input);
      const config = { temperature, systemInstruction: prompt.system, ...(signal ? { abortSignal: signal } : {}) };
      // Retry only the opening of the stream: once text has been emitted it cannot be taken back.
      const stream = await withRetry(
        () =>
          ai.models
            .generateContentStream({ model, contents: prompt.user, config })
            .catch((err: unknown) => Promise.reject(toProviderError(err, what))),
        { ...cfg.retry, signal },
      );
      try {
        for await (const chunk of stream) {
          const text = chunk.text;
          if (text) yield text;
        }
      } catch (err) {
        throw toProviderError(err, what);
      }
    },
    complete(prompt: string, signal?: AbortSignal) {
      return withRetry(
        async () => {
          try {
            const res = await ai.models.generateContent({
              model,
              contents: prompt,
              config: { temperature, ...(signal ? { abortSignal: signal } : {}) },
            });
            return res.text ?? '';
          } catch (err) {
            throw toProviderError(err, what);
          }
        },
        { ...cfg.retry, signal },
      );
    },
  };
}
