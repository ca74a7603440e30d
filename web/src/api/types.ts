import type { Citation, ResolvedCitation as EngineResolvedCitation, Retrieved } from '@pinpoint/core';

/** Response shapes of the HTTP API (docs/api.md). Types only: the web never imports server code. */

export type {
  ApiToken,
  Collection,
  DocumentSummary,
  Element,
  Job,
  Membership,
  PageView,
  RecordEntry,
  RecordView,
  Retrieved,
  Role,
  StageName,
  TextView,
  UploadResult,
  User,
  Version,
  VersionDetail,
} from '@pinpoint/core';

import type { Collection, Role, User } from '@pinpoint/core';

/** GET /api/auth/session (also the answer of login and setup). */
export interface SessionInfo {
  auth: 'on' | 'off';
  user: User | null;
  csrf_token: string | null;
  needs_setup: boolean;
}

/** A collection as the caller sees it, with their role in it. */
export type ReadableCollection = Collection & { role?: Role };

export interface AskResponse {
  question: string;
  answer: string;
  refused: boolean;
  refusal_reason?: string;
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
