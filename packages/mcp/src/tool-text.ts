import type { DocumentIdentity, DocumentSummary } from '@pinpoint/core';
import type { z } from 'zod';
import type { askOutput, listCollectionsOutput, openCitationOutput, searchOutput } from './tool-schemas.js';

/** The readable text block each tool result carries beside its structuredContent. */

const where = (c: { file: string; page_index?: number | undefined; page_label?: string | undefined }): string =>
  c.page_index === undefined ? c.file : `${c.file}, p. ${c.page_label ?? c.page_index + 1}`;

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function hitsText(query: string, hits: z.output<typeof searchOutput>['hits']): string {
  if (hits.length === 0) return `No passage matches “${query}”.`;
  return hits.map((h) => `${h.rank}. ${where(h)} (score ${h.score.toFixed(3)})\n   ${oneLine(h.text, 300)}`).join('\n');
}

export function answerText(a: z.output<typeof askOutput>): string {
  const searched = a.scope ? [a.scope.summary] : [];
  if (a.refused) return [`Refused: ${a.answer}`, ...searched].join('\n');
  const sources = a.citations.map((c) => `[${c.n}] ${where(c)} (${c.precision}): “${oneLine(c.quote, 200)}”`);
  return [a.answer, ...searched, '', 'Sources (open one for a person with open_citation):', ...sources].join('\n');
}

export function citationLinkText(c: z.output<typeof openCitationOutput>): string {
  const lines = [
    `Open “${oneLine(c.quote, 120)}” in ${c.file}: ${c.reader_url}`,
    `Download the original (link expires ${c.download_expires_at}): ${c.download_url}`,
  ];
  if (c.precision !== 'exact') lines.push(`The highlight is ${c.precision}: it marks the cited element, not the exact words.`);
  if (c.newer_version_id) lines.push('A newer version of this file exists; the citation stays on the version it was made on.');
  return lines.join('\n');
}

export function collectionsText(collections: z.output<typeof listCollectionsOutput>['collections']): string {
  if (collections.length === 0) return 'No collection is readable.';
  return collections.map((c) => `${c.name} (collection_id ${c.collection_id}, ${c.role})`).join('\n');
}

/** "3M COMPANY, 3M · 10-K · FY2018 (ended 2018-12-31)": what a document is about and when. */
function identityText(identity: DocumentIdentity | null): string | undefined {
  if (!identity) return undefined;
  const p = identity.period;
  const period = p
    ? `FY${p.fiscal_year}${p.quarter ? ` Q${p.quarter}` : ''}${p.end_date ? ` (ended ${p.end_date})` : ''}`
    : undefined;
  const parts = [identity.names.map((n) => n.value).join(', '), identity.kind?.value, period].filter((x) => x);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

export function documentText(s: DocumentSummary): string {
  const versions = s.versions.map(
    (v) => `  v${v.number} ${v.version_id}: ${v.state}${v.error_code ? ` (${v.error_code}: ${v.error_message ?? ''})` : ''}`,
  );
  const about = identityText(s.identity);
  return [
    `${s.document.name} (document_id ${s.document.document_id})`,
    ...(about ? [`  about: ${about}`] : []),
    ...versions,
  ].join('\n');
}
