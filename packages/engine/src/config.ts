import type { GateConfig } from '@pinpoint/answering';
import type {
  BlobStore,
  Embedder,
  Generator,
  JobQueue,
  LexicalIndex,
  MetadataStore,
  Reranker,
  VectorStore,
} from '@pinpoint/core';
import type { GateCalibration } from './gate-file.js';

/** What shapes the pipeline. Built and validated by each composition root; the engine reads no environment. */
export interface EngineConfig {
  parse: {
    /** Run each parse in a child process with the limits below (default true). */
    isolate: boolean;
    timeoutMs: number;
    maxOldSpaceMb: number;
    /** Capabilities handed to the parser process (OCR engine, office converter), by name. */
    capabilities?: {
      ocr?: { engine: string; langPath?: string; langs?: string[] };
      /** `timeoutMs` + `timeoutMsPerMb` × MB of the file bounds one conversion. */
      convert?: { engine: string; binary?: string; timeoutMs?: number; timeoutMsPerMb?: number };
    };
    ocrLangs?: string[];
    /** PDF: find tables on the pages (default on); off only to measure what finding them costs (`pnpm bench`). */
    tables?: boolean;
  };
  chunk: { targetSize?: number; overlap?: number };
  retrieval: {
    /** Candidates taken from the lexical index. */
    k: number;
    /** Ranked chunks handed to the answerer. */
    answerChunks: number;
    /**
     * With a generator: two paraphrases join the fusion and a compound question is split into parts
     * answered one by one (one extra generator call per question). Default off.
     */
    rewrite?: boolean;
    /**
     * false: dense candidates only (the lexical side adds none; needs an embedder and a vector
     * store). Default true: lexical, fused with dense when an embedder is configured.
     */
    lexical?: boolean;
  };
  /** Largest accepted upload, in bytes. */
  maxUploadBytes: number;
  /**
   * Uploads are refused (PP_DISK_FULL) while less than this many bytes are free where the data is
   * written (PINPOINT_MIN_FREE_MB): room kept for the ingestion of what was already accepted. 0: no reserve.
   */
  minFreeBytes?: number;
  /** A calibrated refusal gate (PINPOINT_GATE_FILE); absent: DEFAULT_GATE, the lexical calibration. */
  gate?: { config: GateConfig; calibration: GateCalibration };
}

export const defaultEngineConfig: EngineConfig = {
  parse: { isolate: true, timeoutMs: 120_000, maxOldSpaceMb: 1024 },
  chunk: {},
  retrieval: { k: 50, answerChunks: 8 },
  maxUploadBytes: 100 * 1024 * 1024,
};

/** The ports the engine runs on; the embedded and distributed roots pass different adapters. */
export interface EnginePorts {
  metadata: MetadataStore;
  blobs: BlobStore;
  queue: JobQueue;
  lexical: LexicalIndex;
  vectors?: VectorStore;
  embedder?: Embedder;
  /** Reorders the fused head before the gate (ONNX cross-encoder or the LLM). */
  reranker?: Reranker;
  /** With a generator, answers are generated from the gated sources, post-checked and verified. */
  generator?: Generator;
  /** Where the data is written (the data folder; a shared blob volume): a full disk's message says how much is left there. */
  dataDir?: string;
}
