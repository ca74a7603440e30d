import type { DocumentIdentity, Element, IdentityName, IdentityPeriod, IdentitySource } from '@pinpoint/core';
import { coverElements, fromTitle, kindFromCover, namesFromCover } from './identity-cover.js';
import { identityFromFileName } from './identity-file-name.js';
import { nameKey } from './identity-names.js';

/**
 * A version's identity (DESIGN.md §3 "Identity"), read at ingest from its file name, its declared
 * title and its cover page: the names it is about, its kind and its period, each marked with where
 * it was read. Not the user identity of auth (identity.ts).
 */
export interface IdentityInput {
  fileName: string;
  elements: Element[];
  title?: string | undefined;
  /** The period the cover's words give (the periods reader), when it finds one. */
  coverPeriod?: (coverText: string) => Omit<IdentityPeriod, 'source'> | undefined;
}

/** Names in reading order, one per key: the cover's full name and the file name's short one both stay when they key apart. */
function distinctNames(names: IdentityName[]): IdentityName[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const key = nameKey(n.value);
    if (key === undefined || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The cover's period where it reads one (its end date is the report's), the file name's quarter where the cover gives none. */
function mergedPeriod(
  fromFile: IdentityPeriod | null,
  fromCover: Omit<IdentityPeriod, 'source'> | undefined,
): IdentityPeriod | null {
  if (!fromCover) return fromFile;
  const quarter = fromCover.quarter ?? (fromFile?.fiscal_year === fromCover.fiscal_year ? fromFile?.quarter : undefined);
  return { ...fromCover, ...(quarter ? { quarter } : {}), source: 'cover_page' };
}

export function readDocumentIdentity(input: IdentityInput): DocumentIdentity {
  const file = identityFromFileName(input.fileName);
  const cover = coverElements(input.elements);
  const covered = namesFromCover(cover);
  const title = fromTitle(input.title);
  const named = (value: string, source: IdentitySource): IdentityName => ({ value, source });
  const names = distinctNames([
    ...covered.names.map((n) => named(n, 'cover_page')),
    ...(title.name ? [named(title.name, 'title_metadata')] : []),
    ...file.names,
    ...covered.symbols.map((s) => named(s, 'cover_page')),
  ]);
  const coverKind = kindFromCover(cover);
  const kind = coverKind
    ? { value: coverKind, source: 'cover_page' as const }
    : title.kind
      ? { value: title.kind, source: 'title_metadata' as const }
      : file.kind;
  const coverText = cover.map((e) => e.text).join('\n');
  return { names, kind, period: mergedPeriod(file.period, input.coverPeriod?.(coverText)) };
}
