import type {
  Artifact,
  Box,
  Citation,
  Collection,
  Element,
  Job,
  PinDocument,
  RecordEntry,
  Rotation,
  Version,
} from '@pinpoint/core';

/** Response shapes of the HTTP API (docs/api.md). Types only: the web never imports server code. */

export type { Collection, Element, Job, RecordEntry, Version };

export interface UploadResult {
  file: string;
  document: PinDocument;
  version: Version;
  created: boolean;
  job: Job | null;
}

export interface DocumentSummary {
  document: PinDocument;
  versions: Version[];
  latest_ready_version_id: string | null;
}

export interface VersionDetail {
  version: Version;
  artifacts: Artifact[];
  newer_version_id: string | null;
  latest_ready_version_id: string | null;
}

export type StageName = 'lexical' | 'dense' | 'fused' | 'rerank';

export interface Retrieved {
  rank: number;
  chunk_id: string;
  document_id: string;
  version_id: string;
  file: string;
  page_index?: number;
  page_label?: string;
  section_path: string[];
  text: string;
  scores: Partial<Record<StageName, number>>;
  ranks: Partial<Record<StageName, number>>;
}

export interface AskResponse {
  question: string;
  answer: string;
  refused: boolean;
  refusal_reason?: string;
  citations: Citation[];
  retrieved: Retrieved[];
  timings: Record<string, number>;
}

export interface PageView {
  kind: 'page';
  artifact: 'original' | 'pdf';
  artifact_url: string;
  artifact_sha256: string;
  page_index: number;
  page_label?: string;
  page_width: number;
  page_height: number;
  unit: 'pt' | 'px';
  rotation: Rotation;
  boxes: Box[];
}

export interface TextView {
  kind: 'text';
  artifact_url: string;
  text: string;
  text_sha256: string;
  start: number;
  end: number;
  raw?: { start: number; end: number };
}

export interface RecordView {
  kind: 'record';
  artifact_url: string;
  records: RecordEntry[];
  records_sha256: string;
  record_id: string;
  sheet?: string;
  row?: number;
  cell_range?: string;
  paragraph_index?: number;
  physical_lines?: [number, number];
}

type ReaderView = PageView | TextView | RecordView;

export interface ResolvedCitation {
  version: Version;
  newer_version_id: string | null;
  element: Element;
  precision: 'exact' | 'element' | 'unresolved';
  quote: string;
  download_url: string;
  view: ReaderView;
}

export interface ResolveRequest {
  version_id: string;
  chunk_id?: string;
  element_id?: string;
  anchor?: Citation['anchor'];
}
