import { createError } from '@pinpoint/core';
import type { EmbedderConfig, GeneratorConfig, RerankerConfig } from '@pinpoint/providers';
import { z } from 'zod';

/** The PINPOINT_* variables of the embedder (the worker reads these and the vectors' ones only). */
export const embedderEnvShape = {
  PINPOINT_EMBEDDER: z.enum(['none', 'gemini', 'ollama', 'onnx']).default('none'),
  PINPOINT_EMBEDDER_MODEL: z.string().min(1).optional(),
  PINPOINT_EMBEDDER_DIMENSIONS: z.coerce.number().int().positive().optional(),
  PINPOINT_GEMINI_API_KEY: z.string().min(1).optional(),
  PINPOINT_GEMINI_BASE_URL: z.url().optional(),
  PINPOINT_OLLAMA_URL: z.url().default('http://127.0.0.1:11434'),
  PINPOINT_ONNX_MODEL_DIR: z.string().min(1).optional(),
};

/** Where vectors live: embedded (SQLite) or Qdrant. */
export const vectorsEnvShape = {
  PINPOINT_VECTORS: z.enum(['embedded', 'qdrant']).default('embedded'),
  PINPOINT_QDRANT_URL: z.url().default('http://127.0.0.1:6333'),
  PINPOINT_QDRANT_API_KEY: z.string().min(1).optional(),
  PINPOINT_QDRANT_COLLECTION: z.string().min(1).default('pinpoint'),
};

/** The PINPOINT_* variables of the optional model providers; config.ts merges them into its schema. */
export const modelsEnvShape = {
  ...embedderEnvShape,
  PINPOINT_GENERATOR: z.enum(['none', 'gemini', 'ollama']).default('none'),
  PINPOINT_GENERATOR_MODEL: z.string().min(1).optional(),
  PINPOINT_RERANKER: z.enum(['none', 'onnx', 'llm']).default('none'),
  PINPOINT_RERANKER_MODEL_DIR: z.string().min(1).optional(),
  ...vectorsEnvShape,
};

const modelsEnv = z.object(modelsEnvShape);
type ModelsEnv = z.infer<typeof modelsEnv>;
type EmbedderEnv = z.infer<z.ZodObject<typeof embedderEnvShape>>;

export interface ModelsConfig {
  embedder: EmbedderConfig;
  generator: GeneratorConfig;
  reranker: RerankerConfig;
  vectors: { kind: 'embedded' } | { kind: 'qdrant'; url: string; apiKey?: string; collection: string };
}

function need<T>(value: T | undefined, name: string, why: string): T {
  if (value === undefined) throw createError('PP_CONFIG_INVALID', `Set ${name}: ${why}.`);
  return value;
}

/** The embedder from its PINPOINT_* variables; a missing one it needs is named. */
export function embedderFromEnv(e: EmbedderEnv): EmbedderConfig {
  const model = e.PINPOINT_EMBEDDER_MODEL;
  switch (e.PINPOINT_EMBEDDER) {
    case 'none':
      return { kind: 'none' };
    case 'gemini':
      return {
        kind: 'gemini',
        apiKey: need(e.PINPOINT_GEMINI_API_KEY, 'PINPOINT_GEMINI_API_KEY', 'the Gemini embedder needs a key'),
        ...(e.PINPOINT_GEMINI_BASE_URL ? { baseUrl: e.PINPOINT_GEMINI_BASE_URL } : {}),
        ...(model ? { model } : {}),
        ...(e.PINPOINT_EMBEDDER_DIMENSIONS ? { dimensions: e.PINPOINT_EMBEDDER_DIMENSIONS } : {}),
      };
    case 'ollama':
      return {
        kind: 'ollama',
        url: e.PINPOINT_OLLAMA_URL,
        model: need(model, 'PINPOINT_EMBEDDER_MODEL', 'the Ollama embedder needs a model (e.g. bge-m3)'),
        dimensions: need(
          e.PINPOINT_EMBEDDER_DIMENSIONS,
          'PINPOINT_EMBEDDER_DIMENSIONS',
          'the Ollama embedder needs its vector size',
        ),
      };
    case 'onnx':
      return {
        kind: 'onnx',
        modelDir: need(e.PINPOINT_ONNX_MODEL_DIR, 'PINPOINT_ONNX_MODEL_DIR', 'the ONNX embedder needs a model folder'),
      };
  }
}

function generatorConfig(e: ModelsEnv): GeneratorConfig {
  const model = e.PINPOINT_GENERATOR_MODEL;
  switch (e.PINPOINT_GENERATOR) {
    case 'none':
      return { kind: 'none' };
    case 'gemini':
      return {
        kind: 'gemini',
        apiKey: need(e.PINPOINT_GEMINI_API_KEY, 'PINPOINT_GEMINI_API_KEY', 'the Gemini generator needs a key'),
        ...(e.PINPOINT_GEMINI_BASE_URL ? { baseUrl: e.PINPOINT_GEMINI_BASE_URL } : {}),
        ...(model ? { model } : {}),
      };
    case 'ollama':
      return {
        kind: 'ollama',
        url: e.PINPOINT_OLLAMA_URL,
        model: need(model, 'PINPOINT_GENERATOR_MODEL', 'the Ollama generator needs a model'),
      };
  }
}

function rerankerConfig(e: ModelsEnv): RerankerConfig {
  if (e.PINPOINT_RERANKER === 'onnx') {
    return {
      kind: 'onnx',
      modelDir: need(e.PINPOINT_RERANKER_MODEL_DIR, 'PINPOINT_RERANKER_MODEL_DIR', 'the ONNX reranker needs a model folder'),
    };
  }
  return { kind: e.PINPOINT_RERANKER };
}

export function modelsFromEnv(e: ModelsEnv): ModelsConfig {
  return {
    embedder: embedderFromEnv(e),
    generator: generatorConfig(e),
    reranker: rerankerConfig(e),
    vectors:
      e.PINPOINT_VECTORS === 'qdrant'
        ? {
            kind: 'qdrant',
            url: e.PINPOINT_QDRANT_URL,
            collection: e.PINPOINT_QDRANT_COLLECTION,
            ...(e.PINPOINT_QDRANT_API_KEY ? { apiKey: e.PINPOINT_QDRANT_API_KEY } : {}),
          }
        : { kind: 'embedded' },
  };
}
