import type { Citation, ResolvedCitation as EngineResolvedCitation, Retrieved } from '@pinpoint/core';

/** Response shapes of the HTTP API (docs/api.md). Types only: the web never imports server code. */

export type {
  Collection,
  DocumentSummary,
  Element,
  Job,
  PageView,
  RecordEntry,
  RecordView,
  Retrieved,
  StageName,
  TextView,
  UploadResult,
  Version,
  VersionDetail,
} from '@pinpoint/core';

export interface AskResponse {
  question: string;
  answer: string;
  refused: boolean;
  refusal_reason?: string;
  /** Zero-key answers: the refusal gate's one line on why it answered or refused. */
  gate?: { reason?: string };
  citations: Citation[];
  retrieved: Retrieved[];
  timings: Record<string, number>;
}

/** The API adds a signed link to the version's original file. */
export interface ResolvedCitation extends EngineResolvedCitation {
  download_url: string;
}

export interface ResolveRequest {
  version_id: string;
  chunk_id?: string;
  element_id?: string;
  anchor?: Citation['anchor'];
}
