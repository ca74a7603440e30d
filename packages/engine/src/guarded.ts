import type {
  AccessStore,
  Answer,
  ArtifactKind,
  AuditEntry,
  Collection,
  DocumentSummary,
  Element,
  FeedbackVerdict,
  HistoryEntry,
  HistoryEntryResponse,
  IdentityCorrection,
  Job,
  JobFilter,
  Membership,
  NewAuditEntry,
  Principal,
  ResolvedCitation,
  Role,
  SearchResponse,
  UploadResult,
  Version,
  VersionDetail,
} from '@pinpoint/core';
import { createError, ROLE_RANK } from '@pinpoint/core';
import type { CitationRef } from './citations.js';
import type { Engine } from './engine.js';
import type { AskEvent, QueryOptions } from './query.js';
import type { UploadFile } from './upload.js';

export type ReadableCollection = Collection & { role: Role };

/**
 * The engine as one caller sees it: every public method takes the caller's Principal and checks
 * it here, in one place, before any data is read; the HTTP routes and the MCP tools both go
 * through it. Whatever lies outside the caller's collections is PP_NOT_FOUND, never "forbidden".
 */
export interface GuardedEngine {
  readonly engine: Engine;
  readonly access: AccessStore;
  /** The caller's role in the collection (instance admins and the local user: admin), or null. */
  roleIn(principal: Principal, collectionId: string): Promise<Role | null>;
  /** PP_NOT_FOUND unless the caller holds at least `role` in the collection (e.g. before reading an upload's body). */
  authorize(principal: Principal, collectionId: string, role: Role): Promise<void>;
  /** Every collection the caller may read; `undefined` means all of them (instance admin, local user). */
  readableCollectionIds(principal: Principal): Promise<string[] | undefined>;
  listCollections(principal: Principal): Promise<ReadableCollection[]>;
  /** The creator becomes the collection's admin. */
  createCollection(principal: Principal, name: string): Promise<Collection>;
  upload(principal: Principal, collectionId: string, files: UploadFile[]): Promise<UploadResult[]>;
  reprocess(principal: Principal, versionId: string): Promise<{ version: Version; job: Job }>;
  search(principal: Principal, query: string, options?: QueryOptions): Promise<SearchResponse>;
  ask(principal: Principal, question: string, options?: QueryOptions): Promise<Answer>;
  askStream(principal: Principal, question: string, options?: QueryOptions): AsyncGenerator<AskEvent>;
  resolveCitation(principal: Principal, ref: CitationRef): Promise<ResolvedCitation>;
  listDocuments(principal: Principal, collectionId?: string): Promise<DocumentSummary[]>;
  getDocument(principal: Principal, documentId: string): Promise<DocumentSummary>;
  /** Editors: correct what the document is about (names, kind, period); null removes the correction. */
  correctIdentity(principal: Principal, documentId: string, correction: IdentityCorrection | null): Promise<DocumentSummary>;
  /** Editors: the document with every version, its index entries and unshared blobs. */
  deleteDocument(principal: Principal, documentId: string): Promise<{ document_id: string; versions_deleted: number }>;
  /**
   * The caller's own questions, newest first (a signed-in user's; the local user keeps none). Each
   * answer is checked again on every read: a citation to a document the caller can no longer read
   * (or that was deleted) is left out, and then so is the answer text (`withheld`).
   */
  listHistory(principal: Principal, options?: { limit?: number }): Promise<HistoryEntryResponse[]>;
  getHistory(principal: Principal, historyId: string): Promise<HistoryEntryResponse>;
  /** Feedback on one of the caller's own answers (PP_NOT_FOUND for anyone else's). */
  setFeedback(
    principal: Principal,
    historyId: string,
    verdict: FeedbackVerdict,
    note: string | null,
  ): Promise<HistoryEntryResponse>;
  /** Instance admins (and the local user): every judged answer, for the eval export. */
  exportFeedback(principal: Principal): Promise<HistoryEntry[]>;
  getVersion(principal: Principal, versionId: string): Promise<VersionDetail>;
  getElements(principal: Principal, versionId: string): Promise<Element[]>;
  readArtifact(principal: Principal, versionId: string, kind: ArtifactKind, name?: string): ReturnType<Engine['readArtifact']>;
  listJobs(principal: Principal, filter?: JobFilter): Promise<Job[]>;
  getJob(principal: Principal, jobId: string): Promise<Job>;
  cancelJob(principal: Principal, jobId: string): Promise<Job>;
  retryJob(principal: Principal, jobId: string): Promise<Job>;
  /** For event streams: may the caller see this job (checked on every event, so revocations apply at once)? */
  canSeeJob(principal: Principal, job: Job): Promise<boolean>;
  listMembers(principal: Principal, collectionId: string): Promise<Membership[]>;
  setMember(principal: Principal, collectionId: string, userId: string, role: Role): Promise<Membership>;
  removeMember(principal: Principal, collectionId: string, userId: string): Promise<void>;
  audit(principal: Principal, entry: Omit<NewAuditEntry, 'user_id'>): Promise<void>;
  /** Instance admins: the whole log; a collection admin: that collection's entries. */
  listAudit(principal: Principal, options?: { collectionId?: string; limit?: number }): Promise<AuditEntry[]>;
}

const missing = (what: string, id: string) => createError('PP_NOT_FOUND', `${what} ${id} does not exist.`);
/** The user whose memberships bound what the principal sees; null for the all-seeing (local user, instance admin). */
const memberId = (p: Principal): string | null => (p.kind === 'local' || p.admin ? null : p.user_id);
const allSeeing = (p: Principal): boolean => memberId(p) === null;
const userIdOf = (p: Principal): string | null => (p.kind === 'user' ? p.user_id : null);

type StoredAnswer = HistoryEntry['answer'];

/** The answer as the history keeps it (no retrieved list, no timings). */
function forHistory(answer: Answer): StoredAnswer {
  const { retrieved: _r, timings: _t, history_id: _h, ...kept } = answer;
  return kept;
}

export function createGuardedEngine(engine: Engine, access: AccessStore): GuardedEngine {
  const metadata = engine.ports.metadata;
  const queue = engine.ports.queue;

  const roleIn = async (p: Principal, collectionId: string): Promise<Role | null> => {
    const userId = memberId(p);
    if (userId === null) return (await metadata.getCollection(collectionId)) ? 'admin' : null;
    return access.getRole(collectionId, userId);
  };
  /** Throws the same PP_NOT_FOUND a missing object gives when the caller lacks the role. */
  const need = async (p: Principal, collectionId: string, role: Role, notFound: () => Error): Promise<void> => {
    const has = await roleIn(p, collectionId);
    if (!has || ROLE_RANK[has] < ROLE_RANK[role]) throw notFound();
  };
  const versionFor = async (p: Principal, versionId: string, role: Role = 'viewer'): Promise<Version> => {
    const version = await metadata.getVersion(versionId);
    if (!version) throw missing('Version', versionId);
    await need(p, version.collection_id, role, () => missing('Version', versionId));
    return version;
  };
  const jobFor = async (p: Principal, jobId: string, role: Role): Promise<Job> => {
    const job = await queue.get(jobId);
    if (!job) throw missing('Job', jobId);
    await need(p, job.collection_id, role, () => missing('Job', jobId));
    return job;
  };
  const readable = async (p: Principal): Promise<string[] | undefined> => {
    const userId = memberId(p);
    return userId === null ? undefined : access.memberCollectionIds(userId);
  };
  /** Query options confined to what the caller may read (a named collection must be readable). */
  const scoped = async (p: Principal, options: QueryOptions = {}): Promise<QueryOptions> => {
    if (options.collectionId !== undefined)
      await need(p, options.collectionId, 'viewer', () => missing('Collection', options.collectionId as string));
    const ids = await readable(p);
    return ids ? { ...options, collectionIds: ids } : options;
  };
  const audit = async (p: Principal, entry: Omit<NewAuditEntry, 'user_id'>): Promise<void> => {
    await access.appendAudit({ ...entry, user_id: userIdOf(p) });
  };
  const adminOf = (p: Principal, collectionId: string) =>
    need(p, collectionId, 'admin', () => missing('Collection', collectionId));

  /** Keeps a signed-in user's ask in their history; the answer then names its entry. */
  const remember = async (p: Principal, options: QueryOptions | undefined, answer: Answer): Promise<Answer> => {
    if (p.kind !== 'user') return answer;
    const entry = await access.appendHistory({
      user_id: p.user_id,
      collection_id: options?.collectionId ?? null,
      question: answer.question,
      answer: forHistory(answer),
    });
    return { ...answer, history_id: entry.history_id };
  };

  /** History as the caller may see it now: citations re-checked against today's memberships and catalog. */
  const visible = async (p: Principal, entries: HistoryEntry[]): Promise<HistoryEntryResponse[]> => {
    const ids = await readable(p);
    const canRead = (collectionId: string) => ids === undefined || ids.includes(collectionId);
    const collectionOf = new Map<string, string | null>();
    const versionCollection = async (versionId: string): Promise<string | null> => {
      if (!collectionOf.has(versionId))
        collectionOf.set(versionId, (await metadata.getVersion(versionId))?.collection_id ?? null);
      return collectionOf.get(versionId) ?? null;
    };
    const out: HistoryEntryResponse[] = [];
    for (const e of entries) {
      const kept = [];
      for (const c of e.answer.citations) {
        const col = await versionCollection(c.version_id);
        if (col !== null && canRead(col)) kept.push(c);
      }
      const askedIn =
        e.collection_id === null || ((await metadata.getCollection(e.collection_id)) !== null && canRead(e.collection_id));
      const withheld = !askedIn || kept.length < e.answer.citations.length;
      const answer: StoredAnswer = withheld
        ? { question: e.answer.question, answer: '', refused: e.answer.refused, citations: kept }
        : e.answer;
      out.push({
        history_id: e.history_id,
        collection_id: e.collection_id,
        question: e.question,
        asked_at: e.asked_at,
        answer,
        withheld,
        feedback: e.feedback,
      });
    }
    return out;
  };
  const ownEntry = async (p: Principal, historyId: string): Promise<HistoryEntry> => {
    const entry = p.kind === 'user' ? await access.getHistory(p.user_id, historyId) : null;
    if (!entry) throw missing('History entry', historyId);
    return entry;
  };

  return {
    engine,
    access,
    roleIn,
    authorize: (p, collectionId, role) => need(p, collectionId, role, () => missing('Collection', collectionId)),
    readableCollectionIds: readable,
    listCollections: async (p) => {
      const all = await metadata.listCollections();
      const userId = memberId(p);
      if (userId === null) return all.map((c) => ({ ...c, role: 'admin' as const }));
      const roles = new Map<string, Role>();
      for (const id of await access.memberCollectionIds(userId)) {
        const role = await access.getRole(id, userId);
        if (role) roles.set(id, role);
      }
      return all.flatMap((c) => {
        const role = roles.get(c.collection_id);
        return role ? [{ ...c, role }] : [];
      });
    },
    createCollection: async (p, name) => {
      const collection = await engine.createCollection(name);
      if (p.kind === 'user') await access.setMembership(collection.collection_id, p.user_id, 'admin');
      await audit(p, { action: 'collection.create', collection_id: collection.collection_id, target: null, detail: { name } });
      return collection;
    },
    upload: async (p, collectionId, files) => {
      await need(p, collectionId, 'editor', () => missing('Collection', collectionId));
      const results = await engine.upload(collectionId, files);
      for (const r of results) {
        const detail = { file: r.file, created: r.created, size: r.version.size, sha256: r.version.source_sha256 };
        await audit(p, { action: 'upload', collection_id: collectionId, target: r.version.version_id, detail });
      }
      return results;
    },
    reprocess: async (p, versionId) => {
      await versionFor(p, versionId, 'editor');
      return engine.reprocess(versionId);
    },
    search: async (p, query, options) => engine.search(query, await scoped(p, options)),
    ask: async (p, question, options) => remember(p, options, await engine.ask(question, await scoped(p, options))),
    askStream: async function* (p, question, options) {
      for await (const event of engine.askStream(question, await scoped(p, options))) {
        yield event.type === 'answer' ? { ...event, answer: await remember(p, options, event.answer) } : event;
      }
    },
    resolveCitation: async (p, ref) => {
      await versionFor(p, ref.version_id);
      return engine.resolveCitation(ref);
    },
    listDocuments: async (p, collectionId) => {
      if (collectionId !== undefined) {
        await need(p, collectionId, 'viewer', () => missing('Collection', collectionId));
        return engine.listDocuments(collectionId);
      }
      const ids = await readable(p);
      if (!ids) return engine.listDocuments();
      return (await Promise.all(ids.map((id) => engine.listDocuments(id)))).flat();
    },
    getDocument: async (p, documentId) => {
      const doc = await metadata.getDocument(documentId);
      if (!doc) throw missing('Document', documentId);
      await need(p, doc.collection_id, 'viewer', () => missing('Document', documentId));
      return engine.getDocument(documentId);
    },
    correctIdentity: async (p, documentId, correction) => {
      const doc = await metadata.getDocument(documentId);
      if (!doc) throw missing('Document', documentId);
      await need(p, doc.collection_id, 'editor', () => missing('Document', documentId));
      const summary = await engine.correctIdentity(documentId, correction);
      await audit(p, {
        action: 'document.identity',
        collection_id: doc.collection_id,
        target: documentId,
        detail: { correction },
      });
      return summary;
    },
    deleteDocument: async (p, documentId) => {
      const doc = await metadata.getDocument(documentId);
      if (!doc) throw missing('Document', documentId);
      await need(p, doc.collection_id, 'editor', () => missing('Document', documentId));
      const result = await engine.deleteDocument(documentId);
      const detail = { name: doc.name, versions_deleted: result.versions_deleted };
      await audit(p, { action: 'document.delete', collection_id: doc.collection_id, target: documentId, detail });
      return result;
    },
    listHistory: async (p, options = {}) => (p.kind === 'user' ? visible(p, await access.listHistory(p.user_id, options)) : []),
    getHistory: async (p, historyId) => (await visible(p, [await ownEntry(p, historyId)]))[0] as HistoryEntryResponse,
    setFeedback: async (p, historyId, verdict, note) => {
      const entry = await ownEntry(p, historyId);
      const feedback = await access.setFeedback(entry.user_id, historyId, { verdict, note });
      if (!feedback) throw missing('History entry', historyId);
      return (await visible(p, [{ ...entry, feedback }]))[0] as HistoryEntryResponse;
    },
    exportFeedback: async (p) => {
      if (!allSeeing(p)) throw createError('PP_NOT_FOUND', 'The feedback export is for instance admins.');
      return access.listFeedback();
    },
    getVersion: async (p, versionId) => {
      await versionFor(p, versionId);
      return engine.getVersion(versionId);
    },
    getElements: async (p, versionId) => {
      await versionFor(p, versionId);
      return metadata.getElements(versionId);
    },
    readArtifact: async (p, versionId, kind, name) => {
      await versionFor(p, versionId);
      return engine.readArtifact(versionId, kind, name);
    },
    listJobs: async (p, filter = {}) => {
      if (filter.collectionId !== undefined) {
        await need(p, filter.collectionId, 'viewer', () => missing('Collection', filter.collectionId as string));
        return queue.list(filter);
      }
      if (filter.versionId !== undefined) {
        await versionFor(p, filter.versionId);
        return queue.list(filter);
      }
      const ids = await readable(p);
      if (!ids) return queue.list(filter);
      const jobs = (await Promise.all(ids.map((collectionId) => queue.list({ ...filter, collectionId })))).flat();
      jobs.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
      return filter.limit ? jobs.slice(0, filter.limit) : jobs;
    },
    getJob: (p, jobId) => jobFor(p, jobId, 'viewer'),
    cancelJob: async (p, jobId) => {
      await jobFor(p, jobId, 'editor');
      return queue.cancel(jobId);
    },
    retryJob: async (p, jobId) => {
      await jobFor(p, jobId, 'editor');
      return queue.retry(jobId);
    },
    canSeeJob: async (p, job) => (await roleIn(p, job.collection_id)) !== null,
    listMembers: async (p, collectionId) => {
      await adminOf(p, collectionId);
      return access.listMembers(collectionId);
    },
    setMember: async (p, collectionId, userId, role) => {
      await adminOf(p, collectionId);
      await access.setMembership(collectionId, userId, role);
      await audit(p, { action: 'member.set', collection_id: collectionId, target: userId, detail: { role } });
      const m = (await access.listMembers(collectionId)).find((x) => x.user_id === userId);
      if (!m) throw missing('User', userId);
      return m;
    },
    removeMember: async (p, collectionId, userId) => {
      await adminOf(p, collectionId);
      if (!(await access.removeMembership(collectionId, userId)))
        throw createError('PP_NOT_FOUND', `User ${userId} is not a member.`);
      await audit(p, { action: 'member.remove', collection_id: collectionId, target: userId, detail: {} });
    },
    audit,
    listAudit: async (p, options = {}) => {
      if (options.collectionId !== undefined) await adminOf(p, options.collectionId);
      else if (!allSeeing(p)) throw createError('PP_NOT_FOUND', 'The audit log of the instance is for instance admins.');
      return access.listAudit(options);
    },
  };
}
