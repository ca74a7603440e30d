import type {
  ApiToken,
  AskResponse,
  Collection,
  DocumentSummary,
  Element,
  Job,
  Membership,
  ResolvedCitation,
  ResolveRequest,
  Role,
  SessionInfo,
  UploadResult,
  User,
  Version,
  VersionDetail,
} from './types.js';

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

/** The CSRF token of the signed-in session: sent with every state-changing request. */
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

const csrfHeader = (): Record<string, string> => (csrfToken ? { 'x-csrf-token': csrfToken } : {});

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const unsafe = init?.method !== undefined && init.method !== 'GET';
  const res = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(unsafe ? csrfHeader() : {}), ...(init?.headers ?? {}) },
  });
  if (!res.ok) throw await toApiError(res);
  return (res.status === 204 ? null : await res.json()) as T;
}

function send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return request<T>(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const post = <T>(path: string, body?: unknown): Promise<T> => send<T>('POST', path, body);

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

/** The typed client of the Pinpoint HTTP API (docs/api.md). */
export const api = {
  collections: () => request<{ collections: Collection[] }>('/api/collections'),
  documents: (collectionId?: string) =>
    request<{ documents: DocumentSummary[] }>(`/api/documents${query({ collection_id: collectionId })}`),
  version: (versionId: string) => request<VersionDetail>(`/api/versions/${encodeURIComponent(versionId)}`),
  elements: (versionId: string) => request<{ elements: Element[] }>(`/api/versions/${encodeURIComponent(versionId)}/elements`),
  reprocess: (versionId: string) =>
    post<{ version: Version; job: Job }>(`/api/versions/${encodeURIComponent(versionId)}/reprocess`),
  jobs: (q: JobQuery = {}) => request<{ jobs: Job[] }>(`/api/jobs${query({ ...q })}`),
  cancelJob: (jobId: string) => post<Job>(`/api/jobs/${encodeURIComponent(jobId)}/cancel`),
  retryJob: (jobId: string) => post<Job>(`/api/jobs/${encodeURIComponent(jobId)}/retry`),
  ask: (question: string, collectionId?: string) =>
    post<AskResponse>('/api/ask', collectionId ? { question, collection_id: collectionId } : { question }),
  resolve: (req: ResolveRequest) => post<ResolvedCitation>('/api/citations/resolve', req),
  downloadUrl: (versionId: string) =>
    request<{ url: string; expires_at: string }>(`/api/versions/${encodeURIComponent(versionId)}/download-url`),
  /** Fetches artifact bytes; a 409 (hash mismatch) becomes an ApiError, never a silent fallback. */
  artifactBytes: async (url: string): Promise<ArrayBuffer> => {
    const res = await fetch(url);
    if (!res.ok) throw await toApiError(res);
    return res.arrayBuffer();
  },
  jobEventsUrl: (collectionId?: string) => `/api/jobs/events${query({ collection_id: collectionId })}`,
  createCollection: (name: string) => post<Collection>('/api/collections', { name }),
  session: () => request<SessionInfo>('/api/auth/session'),
  login: (email: string, password: string) => post<SessionInfo>('/api/auth/login', { email, password }),
  setup: (email: string, password: string) => post<SessionInfo>('/api/auth/setup', { email, password }),
  logout: () => post<null>('/api/auth/logout'),
  tokens: () => request<{ tokens: ApiToken[] }>('/api/auth/tokens'),
  createToken: (name: string) => post<{ token: string; info: ApiToken }>('/api/auth/tokens', { name }),
  revokeToken: (tokenId: string) => send<null>('DELETE', `/api/auth/tokens/${encodeURIComponent(tokenId)}`),
  findUser: (email: string) => request<{ users: User[] }>(`/api/users${query({ email })}`),
  members: (collectionId: string) =>
    request<{ members: Membership[] }>(`/api/collections/${encodeURIComponent(collectionId)}/members`),
  setMember: (collectionId: string, userId: string, role: Role) =>
    send<Membership>('PUT', `/api/collections/${encodeURIComponent(collectionId)}/members/${encodeURIComponent(userId)}`, {
      role,
    }),
  removeMember: (collectionId: string, userId: string) =>
    send<null>('DELETE', `/api/collections/${encodeURIComponent(collectionId)}/members/${encodeURIComponent(userId)}`),
};

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
      if (xhr.status >= 200 && xhr.status < 300 && body?.results) resolve(body.results);
      else reject(new ApiError(body?.error?.code ?? `HTTP_${xhr.status}`, body?.error?.message ?? 'Upload failed', xhr.status));
    };
    xhr.onerror = () => reject(new ApiError('NETWORK', 'The upload could not reach the server', 0));
    xhr.send(form);
  });
}
