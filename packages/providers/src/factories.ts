import { createError, type Embedder, type Generator, type Reranker } from '@pinpoint/core';
import { createGeminiEmbedder, createGeminiGenerator } from './gemini.js';
import { createLlmReranker } from './llm-reranker.js';
import { createOllamaEmbedder, createOllamaGenerator } from './ollama.js';
import { createOnnxEmbedder } from './onnx-embedder.js';
import { createOnnxReranker } from './onnx-reranker.js';
import type { RetryOptions } from './retry.js';

/** Plain, already validated settings (the composition root reads the environment). */
export type EmbedderConfig =
  | { kind: 'none' }
  | { kind: 'gemini'; apiKey: string; baseUrl?: string; model?: string; dimensions?: number; retry?: RetryOptions }
  | { kind: 'ollama'; url: string; model: string; dimensions: number; retry?: RetryOptions }
  | { kind: 'onnx'; modelDir: string; prefixes?: { query: string; document: string } };

export type GeneratorConfig =
  | { kind: 'none' }
  | { kind: 'gemini'; apiKey: string; baseUrl?: string; model?: string; temperature?: number; retry?: RetryOptions }
  | { kind: 'ollama'; url: string; model: string; temperature?: number; contextTokens?: number; retry?: RetryOptions };

export type RerankerConfig = { kind: 'none' } | { kind: 'onnx'; modelDir: string } | { kind: 'llm' };

export async function createEmbedder(cfg: EmbedderConfig): Promise<Embedder | null> {
  switch (cfg.kind) {
    case 'none':
      return null;
    case 'gemini':
      return createGeminiEmbedder(cfg);
    case 'ollama':
      return createOllamaEmbedder(cfg);
    case 'onnx':
      return createOnnxEmbedder(cfg);
  }
}

export function createGenerator(cfg: GeneratorConfig): Generator | null {
  switch (cfg.kind) {
    case 'none':
      return null;
    case 'gemini':
      return createGeminiGenerator(cfg);
    case 'ollama':
      return createOllamaGenerator(cfg);
  }
}

export async function createReranker(cfg: RerankerConfig, deps: { generator?: Generator | null } = {}): Promise<Reranker | null> {
  switch (cfg.kind) {
    case 'none':
      return null;
    case 'onnx':
      return createOnnxReranker(cfg);
    case 'llm':
      if (!deps.generator)
        throw createError('PP_CONFIG_INVALID', 'PINPOINT_RERANKER=llm needs a generator (set PINPOINT_GENERATOR)');
      return createLlmReranker(deps.generator);
  }
}
