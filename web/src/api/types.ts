import type { Anchor, Answer, ResolvedCitationResponse } from '@pinpoint/core';

/**
 * Response shapes of the HTTP API: the contract in @pinpoint/core (z.infer of its schemas), the
 * same types the engine returns and the API declares. Types only here: the schemas themselves are
 * loaded by the client in development and tests, to check every response.
 */

export type {
  ApiToken,
  Collection,
  DocumentIdentity,
  DocumentSummary,
  Element,
  FeedbackVerdict,
  HistoryAnswer,
  HistoryEntryResponse as HistoryEntry,
  IdentityCorrection,
  InvitationInfo as Invitation,
  InvitationPreview,
  Job,
  Membership,
  PageView,
  QuestionScope,
  RecordEntry,
  RecordView,
  Retrieved,
  Role,
  SessionInfo,
  StageName,
  TextView,
  UploadResult,
  Version,
  VersionDetail,
} from '@pinpoint/core';

import type { Collection, Role } from '@pinpoint/core';

export type AskResponse = Answer;

/** A collection as the caller sees it, with their role in it. */
export type ReadableCollection = Collection & { role?: Role | undefined };

/** The API adds a signed link to the version's original file. */
export type ResolvedCitation = ResolvedCitationResponse;

export interface ResolveRequest {
  version_id: string;
  chunk_id?: string;
  element_id?: string;
  anchor?: Anchor;
}
