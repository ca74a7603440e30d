import { z } from 'zod';
import { anchorSchema, boxSchema, precisionSchema, rotationSchema } from './anchors.js';
import { documentIdentitySchema, questionScopeSchema } from './document-identity.js';
import {
  artifactSchema,
  citationSchema,
  collectionSchema,
  documentSchema,
  elementSchema,
  jobSchema,
  versionSchema,
} from './domain.js';
import { recordEntrySchema } from './sourcemap.js';

/**
 * The HTTP contract (docs/api.md): every response shape, once. The engine returns these types,
 * the API declares them as its response schemas (and the OpenAPI document is generated from
 * them), the web validates what it receives against them in development and tests.
 */

export const errorResponseSchema = z.object({
  /** 5xx: the request id whose server log line holds the detail. */
  error: z.object({ code: z.string(), message: z.string(), request_id: z.string().optional() }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const collectionResponseSchema = collectionSchema;

/** With auth on, each collection carries the caller's role in it (absent for an instance admin who is no member). */
export const collectionsResponseSchema = z.object({
  collections: z.array(collectionSchema.extend({ role: z.enum(['viewer', 'editor', 'admin']).optional() })),
});

export const uploadResultSchema = z.object({
  file: z.string(),
  document: documentSchema,
  version: versionSchema,
  /** false: the same bytes were already uploaded for this document; nothing new was made. */
  created: z.boolean(),
  job: jobSchema.nullable(),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;
export const uploadResponseSchema = z.object({ results: z.array(uploadResultSchema) });

export const documentSummarySchema = z.object({
  document: documentSchema,
  /** Newest first. */
  versions: z.array(versionSchema),
  latest_ready_version_id: z.string().nullable(),
  /**
   * What the document is about and when: the newest ready version's identity as read at ingest,
   * with the editor's correction (document.identity_correction) laid over it; null before one is ready.
   */
  identity: documentIdentitySchema.nullable(),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;
export const documentsResponseSchema = z.object({ documents: z.array(documentSummarySchema) });

export const versionDetailSchema = z.object({
  version: versionSchema,
  artifacts: z.array(artifactSchema),
  newer_version_id: z.string().nullable(),
  latest_ready_version_id: z.string().nullable(),
});
export type VersionDetail = z.infer<typeof versionDetailSchema>;
export const elementsResponseSchema = z.object({ elements: z.array(elementSchema) });
export const reprocessResponseSchema = z.object({ version: versionSchema, job: jobSchema });
export const jobResponseSchema = jobSchema;
export const jobsResponseSchema = z.object({ jobs: z.array(jobSchema) });
export const downloadUrlResponseSchema = z.object({ url: z.string(), expires_at: z.string() });

const stageNameSchema = z.enum(['lexical', 'dense', 'fused', 'rerank']);
export type StageName = z.infer<typeof stageNameSchema>;
const stageNumbersSchema = z.object({
  lexical: z.number().optional(),
  dense: z.number().optional(),
  fused: z.number().optional(),
  rerank: z.number().optional(),
});
export type StageNumbers = z.infer<typeof stageNumbersSchema>;

/** One retrieved chunk with the rank and score each stage gave it. */
export const retrievedSchema = z.object({
  rank: z.number().int().positive(),
  chunk_id: z.string(),
  document_id: z.string(),
  version_id: z.string(),
  file: z.string(),
  page_index: z.number().int().nonnegative().optional(),
  page_label: z.string().optional(),
  section_path: z.array(z.string()),
  text: z.string(),
  scores: stageNumbersSchema,
  ranks: stageNumbersSchema,
  /** Search results only: the chunk's first element and its anchor, where the passage starts in the original. */
  start: z.object({ element_id: z.string(), anchor: anchorSchema }).optional(),
});
export type Retrieved = z.infer<typeof retrievedSchema>;

const timingsSchema = z.record(z.string(), z.number());

export const searchResponseSchema = z.object({ query: z.string(), hits: z.array(retrievedSchema), timings: timingsSchema });
export type SearchResponse = z.infer<typeof searchResponseSchema>;

const sentenceSupportSchema = z.object({
  /** Codepoint range in the answer text. */
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  cites: z.array(z.number().int()),
  supported: z.boolean(),
  /** Share of the sentence's content terms found in the cited sources (0..1). */
  lexical: z.number(),
  /** Best cosine between the sentence and a sentence of the cited sources, when an embedder is given. */
  cosine: z.number().optional(),
  /** Numbers, names and CJK runs in the sentence that no cited source contains. */
  missing: z.array(z.string()),
});
export type SentenceSupport = z.infer<typeof sentenceSupportSchema>;

/** The figure an answer states: the number, its unit (a currency, "%") and scale ("thousand", "million", "percent"). */
export const figureValueSchema = z.object({
  number: z.number(),
  unit: z.string().optional(),
  scale: z.string().optional(),
});
export type FigureValue = z.infer<typeof figureValueSchema>;

/** A computed figure: the expression over the operands as the documents write them, each operand a citation. */
export const calculationSchema = z.object({
  expression: z.string(),
  operands: z.array(
    z.object({
      /** The citation number of the operand's cell. */
      n: z.number().int().positive(),
      /** The operand as the document writes it ("(1,577)"). */
      value: z.string(),
      number: z.number(),
      /** The line item (the row's label). */
      label: z.string(),
      /** The period (the column's header). */
      period: z.string(),
    }),
  ),
});
export type Calculation = z.infer<typeof calculationSchema>;

export const answerSchema = z.object({
  question: z.string(),
  answer: z.string(),
  refused: z.boolean(),
  refusal_reason: z.string().optional(),
  citations: z.array(citationSchema),
  /** A figure answer: the number stated, with its unit and scale. */
  value: figureValueSchema.optional(),
  /** A computed figure: how it was computed from the cited cells. */
  calculation: calculationSchema.optional(),
  /** Generated answers: each citing sentence and whether its sources support it. */
  sentences: z.array(sentenceSupportSchema).optional(),
  /** Generated answers: the generator's id. */
  generator: z.string().optional(),
  /** A compound question split by the rewriter: the parts answered one by one and merged. */
  parts: z.array(z.string()).optional(),
  /**
   * Extractive answers: the refusal gate's score, threshold and features (for calibration), and
   * `reason`, one line in English saying why it answered or refused; `reason_code` and
   * `reason_params` say the same for a client to word in its own language (docs/api.md).
   */
  gate: z
    .object({
      score: z.number(),
      threshold: z.number(),
      features: z.record(z.string(), z.number()),
      reason: z.string().optional(),
      reason_code: z.string().optional(),
      reason_params: z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())])).optional(),
    })
    .optional(),
  /** The documents the question was asked of, and why (absent: the whole collection). */
  scope: questionScopeSchema.optional(),
  retrieved: z.array(retrievedSchema),
  timings: timingsSchema,
  /** A signed-in user's ask: the entry of their question history that keeps this answer (feedback goes there). */
  history_id: z.string().optional(),
});
export type Answer = z.infer<typeof answerSchema>;

/** An answer as the question history keeps it: without the retrieved list and timings. */
export const historyAnswerSchema = answerSchema.omit({ retrieved: true, timings: true, history_id: true });
export type HistoryAnswer = z.infer<typeof historyAnswerSchema>;

/** What a user said about an answer: it helped, a citation was wrong, or it should have refused. */
export const feedbackVerdictSchema = z.enum(['helpful', 'wrong_citation', 'should_have_refused']);
export type FeedbackVerdict = z.infer<typeof feedbackVerdictSchema>;

export const feedbackSchema = z.object({ verdict: feedbackVerdictSchema, note: z.string().nullable(), at: z.string() });

export const historyEntrySchema = z.object({
  history_id: z.string(),
  collection_id: z.string().nullable(),
  question: z.string(),
  asked_at: z.string(),
  answer: historyAnswerSchema,
  /**
   * True when the answer cited a document the caller can no longer read (membership removed, or the
   * document deleted): the answer text and those citations are left out, checked again on every read.
   */
  withheld: z.boolean(),
  feedback: feedbackSchema.nullable(),
});
export type HistoryEntryResponse = z.infer<typeof historyEntrySchema>;
export const historyResponseSchema = z.object({ entries: z.array(historyEntrySchema) });

/** A deleted document: how many versions went with it. */
export const deleteDocumentResponseSchema = z.object({ document_id: z.string(), versions_deleted: z.number().int() });

const pageViewSchema = z.object({
  kind: z.literal('page'),
  artifact: z.enum(['original', 'pdf']),
  artifact_url: z.string(),
  artifact_sha256: z.string(),
  page_index: z.number().int().nonnegative(),
  page_label: z.string().optional(),
  page_width: z.number(),
  page_height: z.number(),
  unit: z.enum(['pt', 'px']),
  rotation: rotationSchema,
  boxes: z.array(boxSchema),
});
export type PageView = z.infer<typeof pageViewSchema>;

const textViewSchema = z.object({
  kind: z.literal('text'),
  artifact_url: z.string(),
  text: z.string(),
  text_sha256: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  raw: z.object({ start: z.number().int(), end: z.number().int() }).optional(),
});
export type TextView = z.infer<typeof textViewSchema>;

const recordViewSchema = z.object({
  kind: z.literal('record'),
  artifact_url: z.string(),
  records: z.array(recordEntrySchema),
  records_sha256: z.string(),
  record_id: z.string(),
  sheet: z.string().optional(),
  row: z.number().int().optional(),
  cell_range: z.string().optional(),
  paragraph_index: z.number().int().optional(),
  physical_lines: z.tuple([z.number().int(), z.number().int()]).optional(),
});
export type RecordView = z.infer<typeof recordViewSchema>;

const citationViewSchema = z.discriminatedUnion('kind', [pageViewSchema, textViewSchema, recordViewSchema]);
export type CitationView = z.infer<typeof citationViewSchema>;

/** A citation resolved against its version (what the engine returns). */
export const resolvedCitationSchema = z.object({
  version: versionSchema,
  newer_version_id: z.string().nullable(),
  element: elementSchema,
  precision: precisionSchema,
  quote: z.string(),
  view: citationViewSchema,
});
export type ResolvedCitation = z.infer<typeof resolvedCitationSchema>;

/** What the API serves: the resolved citation with a signed link to the version's original. */
export const resolvedCitationResponseSchema = resolvedCitationSchema.extend({ download_url: z.string() });
export type ResolvedCitationResponse = z.infer<typeof resolvedCitationResponseSchema>;

/* Account routes: sign-in, sessions, API tokens, users, members and the audit log (docs/security.md). */

export const roleSchema = z.enum(['viewer', 'editor', 'admin']);

/** A member of a collection (the adapters' rows are parsed with it). */
export const membershipSchema = z.object({
  collection_id: z.string(),
  user_id: z.string(),
  email: z.string(),
  role: roleSchema,
  created_at: z.string(),
});

export const userSchema = z.object({ user_id: z.string(), email: z.string(), admin: z.boolean(), created_at: z.string() });

/** GET /api/auth/session, and the answer of login and setup. */
export const sessionResponseSchema = z.object({
  auth: z.enum(['on', 'off']),
  user: userSchema.nullable(),
  /** Send it in x-csrf-token with every state-changing request of this cookie session. */
  csrf_token: z.string().nullable(),
  needs_setup: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionResponseSchema>;

export const apiTokenSchema = z.object({
  token_id: z.string(),
  user_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export const tokensResponseSchema = z.object({ tokens: z.array(apiTokenSchema) });
/** The secret is in this response only; the server keeps its hash. */
export const createdTokenResponseSchema = z.object({ token: z.string(), info: apiTokenSchema });
export const usersResponseSchema = z.object({ users: z.array(userSchema) });
export const membersResponseSchema = z.object({ members: z.array(membershipSchema) });

export const auditEntrySchema = z.object({
  audit_id: z.string(),
  at: z.string(),
  user_id: z.string().nullable(),
  action: z.string(),
  collection_id: z.string().nullable(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export const auditResponseSchema = z.object({ entries: z.array(auditEntrySchema) });

/** An invitation into a collection (docs/security.md, Invitations); its link's secret is never in it. */
export const invitationSchema = z.object({
  invitation_id: z.string(),
  collection_id: z.string(),
  email: z.string(),
  role: roleSchema,
  invited_by: z.string().nullable(),
  invited_by_email: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  accepted_at: z.string().nullable(),
  accepted_by: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type InvitationInfo = z.infer<typeof invitationSchema>;
export const invitationsResponseSchema = z.object({ invitations: z.array(invitationSchema) });
/** The one-time link is in this response only: the server keeps a hash of its secret. */
export const createdInvitationResponseSchema = z.object({ invitation: invitationSchema, url: z.string() });
/** What an invitation link shows before it is accepted. */
export const invitationPreviewSchema = z.object({
  collection_id: z.string(),
  collection_name: z.string(),
  email: z.string(),
  role: roleSchema,
  /** null: invited from the server's command line (or the inviter's account is gone). */
  invited_by_email: z.string().nullable(),
  expires_at: z.string(),
  /** The email has an account already: the invitee signs in with it instead of choosing a password. */
  account_exists: z.boolean(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;
