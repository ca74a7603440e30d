import type { DocumentIdentity, IdentityCorrection, MetadataStore } from '@pinpoint/core';
import { correctedIdentity } from '@pinpoint/core';
import type { ScopeCandidate } from './question-scope.js';

/**
 * The identities of the versions a question may search, held in memory: a version's identity as
 * read never changes once it is ready, so it is read from the store once. A document's correction
 * can change at any time (an editor, on any replica): it is read again after CORRECTION_TTL_MS, and
 * at once on this process after `forget`.
 */
const CORRECTION_TTL_MS = 5_000;

interface VersionEntry {
  document_id: string;
  file: string;
  identity: DocumentIdentity | undefined;
}

interface CorrectionEntry {
  correction: IdentityCorrection | null;
  at: number;
}

export class IdentityCatalog {
  readonly #versions = new Map<string, VersionEntry | null>();
  readonly #corrections = new Map<string, CorrectionEntry>();

  constructor(private readonly metadata: MetadataStore) {}

  async #version(versionId: string): Promise<VersionEntry | null> {
    if (this.#versions.has(versionId)) return this.#versions.get(versionId) ?? null;
    const v = await this.metadata.getVersion(versionId);
    const entry = v && v.state === 'ready' ? { document_id: v.document_id, file: v.original_name, identity: v.identity } : null;
    // only a ready version's identity is final; one still processing is read again next time
    if (entry) this.#versions.set(versionId, entry);
    return entry;
  }

  async #correction(documentId: string): Promise<IdentityCorrection | null> {
    const held = this.#corrections.get(documentId);
    if (held && Date.now() - held.at < CORRECTION_TTL_MS) return held.correction;
    const doc = await this.metadata.getDocument(documentId);
    const correction = doc?.identity_correction ?? null;
    this.#corrections.set(documentId, { correction, at: Date.now() });
    return correction;
  }

  /** The candidates of a scope: each version with its identity as an editor left it. */
  async candidates(versionIds: string[]): Promise<ScopeCandidate[]> {
    const out: ScopeCandidate[] = [];
    for (const versionId of versionIds) {
      const v = await this.#version(versionId);
      if (!v) continue;
      const identity = correctedIdentity(v.identity, await this.#correction(v.document_id));
      out.push({ document_id: v.document_id, version_id: versionId, file: v.file, identity });
    }
    return out;
  }

  /** A document's correction changed here: the next question reads it again. */
  forget(documentId: string): void {
    this.#corrections.delete(documentId);
  }
}

const catalogs = new WeakMap<MetadataStore, IdentityCatalog>();

/** One catalog per metadata store (an engine's). */
export function identityCatalog(metadata: MetadataStore): IdentityCatalog {
  let catalog = catalogs.get(metadata);
  if (!catalog) {
    catalog = new IdentityCatalog(metadata);
    catalogs.set(metadata, catalog);
  }
  return catalog;
}
