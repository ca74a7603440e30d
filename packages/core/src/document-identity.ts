import { z } from 'zod';

/**
 * What a document is about and when (DESIGN.md §3 "Identity"): the names it is about, its kind and
 * the period it covers, each with where it was read from. Not the user identity of auth (access.ts).
 */
const identitySourceSchema = z.enum(['file_name', 'title_metadata', 'cover_page', 'editor']);
export type IdentitySource = z.infer<typeof identitySourceSchema>;

const identityNameSchema = z.object({ value: z.string().min(1), source: identitySourceSchema });
export type IdentityName = z.infer<typeof identityNameSchema>;

const identityKindSchema = z.object({
  /** Canonical kind: "10-K", "10-Q", "8-K", "annual report", "earnings release", "有価証券報告書" … */
  value: z.string().min(1),
  source: identitySourceSchema,
});
export type IdentityKind = z.infer<typeof identityKindSchema>;

const identityPeriodSchema = z.object({
  /** The fiscal year as the report names it (a year ending in March 2023 is the report's own "2023" or "2022"). */
  fiscal_year: z.number().int().min(1900).max(2200),
  /** 1–4 when the document covers a quarter. */
  quarter: z.number().int().min(1).max(4).optional(),
  /** The period's last day, YYYY-MM-DD, when read. */
  end_date: z.string().optional(),
  source: identitySourceSchema,
});
export type IdentityPeriod = z.infer<typeof identityPeriodSchema>;

export const documentIdentitySchema = z.object({
  names: z.array(identityNameSchema),
  kind: identityKindSchema.nullable(),
  period: identityPeriodSchema.nullable(),
});
export type DocumentIdentity = z.infer<typeof documentIdentitySchema>;

/**
 * An editor's correction, kept with the document so every version (re-processing, re-upload)
 * inherits it. A field left out keeps what was read; `names` replaces the names read.
 */
export const identityCorrectionSchema = z
  .object({
    names: z.array(z.string().trim().min(1).max(200)).max(20).optional(),
    kind: z.string().trim().min(1).max(80).nullable().optional(),
    period: z
      .object({
        fiscal_year: z.number().int().min(1900).max(2200),
        quarter: z.number().int().min(1).max(4).optional(),
        end_date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional(),
      })
      .nullable()
      .optional(),
  })
  .strict();
export type IdentityCorrection = z.infer<typeof identityCorrectionSchema>;

/** The identity a reader sees: what was read, with the editor's correction laid over it. */
export function correctedIdentity(
  read: DocumentIdentity | undefined,
  correction: IdentityCorrection | null | undefined,
): DocumentIdentity {
  const base: DocumentIdentity = read ?? { names: [], kind: null, period: null };
  if (!correction) return base;
  return {
    names: correction.names ? correction.names.map((value) => ({ value, source: 'editor' as const })) : base.names,
    kind:
      correction.kind === undefined ? base.kind : correction.kind === null ? null : { value: correction.kind, source: 'editor' },
    period:
      correction.period === undefined
        ? base.period
        : correction.period === null
          ? null
          : { ...correction.period, source: 'editor' },
  };
}

/** Why a document is in a question's scope: the question's words that its identity holds. */
const scopeDocumentSchema = z.object({
  document_id: z.string(),
  version_id: z.string(),
  file: z.string(),
  /** The question's words that named it, e.g. ["3M", "FY2018"]. */
  named_by: z.array(z.string()),
  /** The question named no period: this is the newest of so many reports of the company it names. */
  newest: z.number().int().min(2).optional(),
});
export type ScopeDocument = z.infer<typeof scopeDocumentSchema>;

export const questionScopeSchema = z.object({
  /** "question": the question's names and periods chose them; "user": the caller picked them. */
  by: z.enum(['question', 'user']),
  documents: z.array(scopeDocumentSchema),
  /** One line for the answer: "Searched 3M_2018_10K.pdf — named by '3M' and 'FY2018'". */
  summary: z.string(),
});
export type QuestionScope = z.infer<typeof questionScopeSchema>;
