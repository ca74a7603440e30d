import type { DocumentIdentity, IdentityPeriod, QuestionScope, ScopeDocument } from '@pinpoint/core';
import { KIND_WORDS } from './identity-file-name.js';
import { blendedIn, cjkNameIn, nameKey, nameWords, questionSpans } from './identity-names.js';

/**
 * A question's scope (DESIGN.md §3): the documents whose identity it names. A name must match for
 * any scope — a period alone ("FY2022") or a company no document is about scopes nothing, so a
 * question is never narrowed to another company's report. Among a named company's documents the
 * question's periods choose the ones that cover them best (a FY2022 10-K covers FY2021 as its
 * comparative year); a company named with a period none of its documents covers keeps all of them.
 */
export interface ScopeCandidate {
  document_id: string;
  version_id: string;
  file: string;
  identity: DocumentIdentity;
}

/** What scoping needs of the periods reader (@pinpoint/analysis: findPeriods, periodsMatch). */
export interface PeriodReader<P> {
  find(text: string): (P & { text: string })[];
  /** Does a document of period `doc` answer a question about `question`? 0 (no) … 1 (the same period). */
  match(question: P, doc: P): number;
  /** A document's identity period in the reader's terms. */
  ofIdentity(period: IdentityPeriod, kind: string | undefined): P;
}

/** Scores within this share of the best count as ties (two reports that cover the asked years as well). */
const TIE = 0.999;

interface Named {
  doc: ScopeCandidate;
  /** The question's words that named it. */
  names: string[];
  /** The key the doc was named by: its company, for grouping. */
  group: string;
}

/**
 * A document a question can name: one whose identity says what kind of document it is or what
 * period it covers (a report, a filing, a contract, a manual). An article named "Laos" is not what
 * every question mentioning Laos is about; a company's 10-K is what a question about it asks of.
 */
function nameable(doc: ScopeCandidate): boolean {
  return doc.identity.kind !== null || doc.identity.period !== null || doc.identity.names.some((n) => n.source === 'editor');
}

function namedDocuments(question: string, docs: ScopeCandidate[]): Named[] {
  const spans = new Map(questionSpans(question).map((s) => [s.key, s.text]));
  const out: Named[] = [];
  for (const doc of docs.filter(nameable)) {
    const hits: { key: string; text: string }[] = [];
    for (const n of doc.identity.names) {
      const key = nameKey(n.value);
      if (key === undefined) continue;
      const text = spans.get(key) ?? (cjkNameIn(question, key) ? key : blendedIn(question, n.value));
      if (text !== undefined) hits.push({ key, text });
    }
    const first = hits[0];
    if (first) out.push({ doc, names: [...new Set(hits.map((h) => h.text))], group: first.key });
  }
  return unifyGroups([...out, ...partsOf(out, docs)]);
}

const CJK_KEY = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The other files of a company the question names, filed as parts ("三井不動産株式会社__表紙.xlsx" names
 * the filing; "三井不動産株式会社__連結包括利益計算書.docx" is one of its statements, and says neither
 * kind nor period): a document whose name holds a Japanese or Chinese company name already matched
 * joins that company. Latin names are matched as whole names only, so an article is never pulled in.
 */
function partsOf(named: Named[], docs: ScopeCandidate[]): Named[] {
  const keys = new Map<string, string>();
  for (const n of named) for (const text of n.names) if (CJK_KEY.test(n.group)) keys.set(n.group, text);
  if (keys.size === 0) return [];
  const taken = new Set(named.map((n) => n.doc.version_id));
  const out: Named[] = [];
  for (const doc of docs) {
    if (taken.has(doc.version_id)) continue;
    const held = doc.identity.names.map((n) => nameKey(n.value) ?? '');
    const key = [...keys.keys()].find((k) => held.some((h) => h.includes(k)));
    if (key !== undefined) out.push({ doc, names: [keys.get(key) as string], group: key });
  }
  return out;
}

/** Documents named by any key they share belong to one company: their group is the first such key. */
function unifyGroups(named: Named[]): Named[] {
  const groupOf = new Map<string, string>();
  for (const n of named) {
    for (const name of n.doc.identity.names) {
      const key = nameKey(name.value);
      if (key !== undefined && !groupOf.has(key)) groupOf.set(key, n.group);
    }
  }
  return named.map((n) => ({ ...n, group: groupOf.get(n.group) ?? n.group }));
}

/** Kinds the question asks for by name ("in its 10-K", "the 8-K"). */
function askedKinds(question: string): Set<string> {
  return new Set(
    nameWords(question)
      .map((w) => KIND_WORDS[w.toLowerCase().replace(/-/g, '')])
      .filter((k): k is string => k !== undefined && k !== 'contract' && k !== 'manual'),
  );
}

interface Chosen {
  doc: ScopeCandidate;
  named_by: string[];
  /** Chosen as the newest of this many reports (the question named no period). */
  newest?: number;
}

/** One company's documents narrowed by the question's periods (summed: the report that covers them all wins) and kinds. */
function choose<P>(group: Named[], periods: (P & { text: string })[], kinds: Set<string>, reader: PeriodReader<P>): Chosen[] {
  const ofKind = kinds.size > 0 ? group.filter((n) => kinds.has(n.doc.identity.kind?.value ?? '')) : [];
  const pool = ofKind.length > 0 ? ofKind : group;
  if (periods.length === 0) return newest(pool);
  const scored = pool.map((n) => {
    const p = n.doc.identity.period;
    const docPeriod = p ? reader.ofIdentity(p, n.doc.identity.kind?.value) : undefined;
    const each = periods.map((q) => (docPeriod ? reader.match(q, docPeriod) : 0));
    const covered = periods.filter((_, i) => (each[i] ?? 0) > 0).map((q) => q.text);
    return { n, score: each.reduce((a, b) => a + b, 0), covered };
  });
  const best = Math.max(...scored.map((s) => s.score));
  if (best <= 0) return pool.map((n) => ({ doc: n.doc, named_by: n.names }));
  // a document that does not say its period is not ruled out by one (a filing's parts, one file each)
  return scored
    .filter((s) => s.score >= best * TIE || !s.n.doc.identity.period)
    .map((s) => ({ doc: s.n.doc, named_by: [...s.n.names, ...new Set(s.covered)] }));
}

/** Where a document's period ends, for ordering reports: its end date, else its fiscal year and quarter. */
function periodKey(doc: ScopeCandidate): string {
  const p = doc.identity.period;
  if (!p) return '';
  return p.end_date ?? `${p.fiscal_year}-${String((p.quarter ?? 4) * 3).padStart(2, '0')}-99`;
}

/**
 * A company's reports asked about without a period: the newest one, which states the latest figures
 * and its comparatives (the scope says so); a document that does not say its period stays (a filing's parts).
 */
function newest(pool: Named[]): Chosen[] {
  const dated = pool.filter((n) => n.doc.identity.period);
  if (dated.length < 2) return pool.map((n) => ({ doc: n.doc, named_by: n.names }));
  const last = dated.reduce((a, b) => (periodKey(b.doc) > periodKey(a.doc) ? b : a));
  return pool
    .filter((n) => n === last || !n.doc.identity.period)
    .map((n) => ({ doc: n.doc, named_by: n.names, ...(n === last ? { newest: dated.length } : {}) }));
}

function summary(docs: ScopeDocument[]): string {
  const quoted = (words: string[]): string => words.map((w) => `'${w}'`).join(' and ');
  const of = (d: ScopeDocument): string => (d.newest ? ` (the newest of ${d.newest} reports)` : '');
  return `Searched ${docs.map((d) => `${d.file} — named by ${quoted(d.named_by)}${of(d)}`).join('; ')}`;
}

/** The documents a question names, or undefined: no name matched, so the whole collection is asked. */
export function scopeQuestion<P>(question: string, docs: ScopeCandidate[], reader: PeriodReader<P>): QuestionScope | undefined {
  const named = namedDocuments(question, docs);
  if (named.length === 0) return undefined;
  const periods = reader.find(question);
  const kinds = askedKinds(question);
  const groups = new Map<string, Named[]>();
  for (const n of named) groups.set(n.group, [...(groups.get(n.group) ?? []), n]);
  const chosen = [...groups.values()].flatMap((g) => choose(g, periods, kinds, reader));
  const documents: ScopeDocument[] = chosen.map((c) => ({
    document_id: c.doc.document_id,
    version_id: c.doc.version_id,
    file: c.doc.file,
    named_by: c.named_by,
    ...(c.newest ? { newest: c.newest } : {}),
  }));
  return { by: 'question', documents, summary: summary(documents) };
}
