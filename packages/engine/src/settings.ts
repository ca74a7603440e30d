import { ANALYZER_ID } from '@pinpoint/analysis';
import { DEFAULT_GATE } from '@pinpoint/answering';
import { CHUNKER_ID, chunkSetId, DEFAULT_CHUNK_OPTIONS } from '@pinpoint/chunker';
import type { EngineConfig, EnginePorts } from './config.js';

/** Everything that shapes ingestion and answers, with defaults filled in (recorded in eval run files). */
export function effectiveSettings(config: EngineConfig, ports: EnginePorts): Record<string, unknown> {
  return {
    chunker: CHUNKER_ID,
    chunk_set: chunkSetId(config.chunk),
    chunk: { ...DEFAULT_CHUNK_OPTIONS, ...config.chunk },
    analyzer: ANALYZER_ID,
    lexical_index: ports.lexical.id,
    retrieval: config.retrieval,
    gate: config.gate?.config ?? DEFAULT_GATE,
    gate_calibration: config.gate?.calibration ?? 'default (packages/answering/README.md)',
    parse: {
      isolate: config.parse.isolate,
      timeoutMs: config.parse.timeoutMs,
      maxOldSpaceMb: config.parse.maxOldSpaceMb,
      ocrLangs: config.parse.ocrLangs ?? [],
      capabilities: config.parse.capabilities ?? {},
    },
    embedder: ports.embedder?.id ?? null,
    vectors: ports.vectors?.id ?? null,
    reranker: ports.reranker?.id ?? null,
    generator: ports.generator?.id ?? null,
  };
}
