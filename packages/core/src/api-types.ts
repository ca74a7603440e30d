import type { Box, Precision, Rotation } from './anchors.js';
import type { Artifact, Element, Job, PinDocument, Version } from './domain.js';
import type { RecordEntry } from './sourcemap.js';

/** Response shapes the engine returns and the HTTP API serves (docs/api.md). Types only: the web bundle imports them too. */

export interface UploadResult {
  file: string;
  document: PinDocument;
  version: Version;
  /** false: the same bytes were already uploaded for this document; nothing new was made. */
  created: boolean;
  job: Job | null;
}

export interface DocumentSummary {
  document: PinDocument;
  /** Newest first. */
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

export type StageNumbers = Partial<Record<StageName, number>>;

/** One retrieved chunk with the rank and score each stage gave it. */
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
  scores: StageNumbers;
  ranks: StageNumbers;
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

export type CitationView = PageView | TextView | RecordView;

/** A citation resolved against its version; the HTTP API adds a signed download_url. */
export interface ResolvedCitation {
  version: Version;
  newer_version_id: string | null;
  element: Element;
  precision: Precision;
  quote: string;
  view: CitationView;
}
