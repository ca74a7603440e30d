export type { EmbedderConfig, GeneratorConfig, RerankerConfig } from './factories.js';
export { createEmbedder, createGenerator, createReranker } from './factories.js';
export { createGeminiEmbedder, createGeminiGenerator } from './gemini.js';
export { createLlmReranker } from './llm-reranker.js';
export { createOllamaEmbedder, createOllamaGenerator } from './ollama.js';
export { createOnnxEmbedder } from './onnx-embedder.js';
export { createOnnxReranker } from './onnx-reranker.js';
export { buildAnswerPrompt, languageName, REFUSAL_MARKER } from './prompt.js';
export type { RetryOptions } from './retry.js';
