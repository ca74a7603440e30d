import type { z } from 'zod';
import type { FeedbackVerdict, IdentityCorrection, ResolveRequest, Role, UploadResult } from './types.js';

type Contract = typeof import('@pinpoint/core/contract');
/** Picks a response schema of the contract (loaded only where responses are checked). */
type Pick<S extends z.ZodType> = (contract: Contract) => S;

/** An API error with the server's stable code (docs/errors.md) and HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function toApiError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    return new ApiError(body.error?.code ?? `HTTP_${res.status}`, body.error?.message ?? res.statusText, res.status);
  } catch {
    return new ApiError(`HTTP_${res.status}`, res.statusText || 'The server did not answer', res.status);
  }
}

/**
 * A response checked against the contract in development and tests (Vite's DEV): a server that
 * drifts from @pinpoint/core's schemas fails loudly there (PP_CONTRACT, naming the field). The
 * production bundle trusts its server and does not even load the schemas.
 */
async function conform<S extends z.ZodType>(path: string, body: unknown, pick: Pick<S>): Promise<z.infer<S>> {
  if (!import.meta.env.DEV) return body as z.infer<S>;
  const result = pick(await import('@pinpoint/core/contract')).safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new ApiError('PP_CONTRACT', `${path}: the response breaks the API contract${where}: ${issue?.message ?? ''}`, 0);
}

/** The CSRF token of the signed-in session: sent with every state-changing request. */
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

const csrfHeader = (): Record<string, string> => (csrfToken ? { 'x-csrf-token': csrfToken } : {});

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export interface JobQuery {
  state?: string;
  collection_id?: string;
  version_id?: string;
  limit?: number;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The typed client of the Pinpoint HTTP API (docs/api.md) on `base` (the page's own origin by default). */
export function createApiClient(base = '') {
  async function fetchJson(path: string, method: Method, body?: unknown): Promise<unknown> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(method === 'GET' ? {} : csrfHeader()),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw await toApiError(res);
    return res.status === 204 ? null : res.json();
  }
  const request = async <S extends z.ZodType>(path: string, pick: Pick<S>, method: Method = 'GET', body?: unknown) =>
    conform(path, await fetchJson(path, method, body), pick);
  const post = <S extends z.ZodType>(path: string, pick: Pick<S>, body?: unknown) => request(path, pick, 'POST', body);
  /** A request answered 204 No Content. */
  const done = async (path: string, method: Method): Promise<void> => {
    await fetchJson(path, method);
  };
  const v = (versionId: string) => `/api/versions/${encodeURIComponent(versionId)}`;
  const j = (jobId: string) => `/api/jobs/${encodeURIComponent(jobId)}`;
  const members = (collectionId: string) => `/api/collections/${encodeURIComponent(collectionId)}/members`;
  const invitations = (collectionId: string) => `/api/collections/${encodeURIComponent(collectionId)}/invitations`;
  return {
    collections: () => request('/api/collections', (c) => c.collectionsResponseSchema),
    createCollection: (name: string) => post('/api/collections', (c) => c.collectionResponseSchema, { name }),
    documents: (collectionId?: string) =>
      request(`/api/documents${query({ collection_id: collectionId })}`, (c) => c.documentsResponseSchema),
    deleteDocument: (documentId: string) =>
      request(`/api/documents/${encodeURIComponent(documentId)}`, (c) => c.deleteDocumentResponseSchema, 'DELETE'),
    version: (versionId: string) => request(v(versionId), (c) => c.versionDetailSchema),
    elements: (versionId: string) => request(`${v(versionId)}/elements`, (c) => c.elementsResponseSchema),
    reprocess: (versionId: string) => post(`${v(versionId)}/reprocess`, (c) => c.reprocessResponseSchema),
    jobs: (q: JobQuery = {}) => request(`/api/jobs${query({ ...q })}`, (c) => c.jobsResponseSchema),
    cancelJob: (jobId: string) => post(`${j(jobId)}/cancel`, (c) => c.jobResponseSchema),
    retryJob: (jobId: string) => post(`${j(jobId)}/retry`, (c) => c.jobResponseSchema),
    /** `scope`: 'all' asks the whole collection even when the question names documents; ids ask those documents. */
    ask: (question: string, collectionId?: string, scope?: 'all' | string[]) =>
      post('/api/ask', (c) => c.answerSchema, {
        question,
        ...(collectionId ? { collection_id: collectionId } : {}),
        ...(scope === 'all' ? { scope: false } : scope?.length ? { filters: { document_ids: scope } } : {}),
      }),
    correctIdentity: (documentId: string, correction: IdentityCorrection | null) =>
      request(`/api/documents/${encodeURIComponent(documentId)}/identity`, (c) => c.documentSummarySchema, 'PUT', { correction }),
    history: (limit?: number) => request(`/api/history${query({ limit })}`, (c) => c.historyResponseSchema),
    historyEntry: (historyId: string) => request(`/api/history/${encodeURIComponent(historyId)}`, (c) => c.historyEntrySchema),
    setFeedback: (historyId: string, verdict: FeedbackVerdict, note?: string) =>
      request(`/api/history/${encodeURIComponent(historyId)}/feedback`, (c) => c.historyEntrySchema, 'PUT', {
        verdict,
        ...(note ? { note } : {}),
      }),
    resolve: (req: ResolveRequest) => post('/api/citations/resolve', (c) => c.resolvedCitationResponseSchema, req),
    downloadUrl: (versionId: string) => request(`${v(versionId)}/download-url`, (c) => c.downloadUrlResponseSchema),
    /** Fetches artifact bytes; a 409 (hash mismatch) becomes an ApiError, never a silent fallback. */
    artifactBytes: async (url: string): Promise<ArrayBuffer> => {
      const res = await fetch(`${base}${url}`);
      if (!res.ok) throw await toApiError(res);
      return res.arrayBuffer();
    },
    jobEventsUrl: (collectionId?: string) => `${base}/api/jobs/events${query({ collection_id: collectionId })}`,
    session: () => request('/api/auth/session', (c) => c.sessionResponseSchema),
    login: (email: string, password: string) => post('/api/auth/login', (c) => c.sessionResponseSchema, { email, password }),
    setup: (email: string, password: string) => post('/api/auth/setup', (c) => c.sessionResponseSchema, { email, password }),
    logout: () => done('/api/auth/logout', 'POST'),
    tokens: () => request('/api/auth/tokens', (c) => c.tokensResponseSchema),
    createToken: (name: string) => post('/api/auth/tokens', (c) => c.createdTokenResponseSchema, { name }),
    revokeToken: (tokenId: string) => done(`/api/auth/tokens/${encodeURIComponent(tokenId)}`, 'DELETE'),
    findUser: (email: string) => request(`/api/users${query({ email })}`, (c) => c.usersResponseSchema),
    members: (collectionId: string) => request(members(collectionId), (c) => c.membersResponseSchema),
    setMember: (collectionId: string, userId: string, role: Role) =>
      request(`${members(collectionId)}/${encodeURIComponent(userId)}`, (c) => c.membershipSchema, 'PUT', {
        role,
      }),
    removeMember: (collectionId: string, userId: string) =>
      done(`${members(collectionId)}/${encodeURIComponent(userId)}`, 'DELETE'),
    invite: (collectionId: string, email: string, role: Role) =>
      post(invitations(collectionId), (c) => c.createdInvitationResponseSchema, { email, role }),
    invitations: (collectionId: string) => request(invitations(collectionId), (c) => c.invitationsResponseSchema),
    revokeInvitation: (collectionId: string, invitationId: string) =>
      done(`${invitations(collectionId)}/${encodeURIComponent(invitationId)}`, 'DELETE'),
    /** The link's token goes in the body, never in an API URL. */
    previewInvitation: (token: string) => post('/api/invitations/preview', (c) => c.invitationPreviewSchema, { token }),
    acceptInvitation: (token: string, password?: string) =>
      post('/api/invitations/accept', (c) => c.sessionResponseSchema, password ? { token, password } : { token }),
  };
}

export const api = createApiClient();

/** Uploads files with byte-level progress (fetch has no upload progress; XHR does). */
export function uploadFiles(
  collectionId: string,
  files: readonly File[],
  onProgress: (fraction: number) => void,
): Promise<UploadResult[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/collections/${encodeURIComponent(collectionId)}/uploads`);
    xhr.responseType = 'json';
    for (const [k, v] of Object.entries(csrfHeader())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { results?: UploadResult[]; error?: { code: string; message: string } } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.results) {
        conform('uploads', body, (c) => c.uploadResponseSchema).then((r) => resolve(r.results), reject);
      } else reject(new ApiError(body?.error?.code ?? `HTTP_${xhr.status}`, body?.error?.message ?? 'Upload failed', xhr.status));
    };
    xhr.onerror = () => reject(new ApiError('NETWORK', 'The upload could not reach the server', 0));
    xhr.send(form);
  });
}
