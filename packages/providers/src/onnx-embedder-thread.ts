import { serveThread } from '@pinpoint/threads';
import { type OnnxEmbeddingInit, onnxEmbeddingHandlers } from './onnx-embedding.js';

/** The ONNX embedder's model, tokenizer and pooling, in a thread of their own. */
serveThread((init: OnnxEmbeddingInit) => onnxEmbeddingHandlers(init));
