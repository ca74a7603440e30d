import type { Diagnostic, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { assertOfficeContainer } from '../archive/container.js';
import { parseDocx } from '../docx/parse-docx.js';
import { parsePdfAs } from '../pdf/parse-pdf.js';
import type { ParseOptions } from '../registry.js';
import { slideTables, withSlideTables } from './slide-tables.js';

function converterOf(ctx: ParseContext): NonNullable<ParseContext['convert']> {
  if (!ctx.convert)
    throw createError(
      'PP_DEPENDENCY_MISSING',
      `No office converter is configured; .${ctx.format} files need LibreOffice (libreoffice-nogui).`,
    );
  return ctx.convert;
}

function converted(ctx: ParseContext, to: string): Diagnostic {
  return {
    rule_id: 'office/converted',
    reason: `Converted .${ctx.format} to ${to} with ${ctx.convert?.id ?? 'a converter'}.`,
    severity: 'info',
  };
}

/**
 * .pptx/.ppt → LibreOffice → a derived PDF (artifact `pdf`) → the PDF path; anchors point into that
 * PDF (artifact 'pdf'), one page per slide, so slide n is page_index n - 1. A .pptx table's rows
 * are table row elements (cells with their boxes on the page) in place of the table's PDF text.
 */
export async function parseSlides(bytes: Uint8Array, ctx: ParseContext, options: ParseOptions = {}): Promise<ParseOutput> {
  assertOfficeContainer(bytes, { allowCfb: ctx.format === 'ppt', what: 'presentation' });
  const pdf = await converterOf(ctx).convert(bytes, ctx.format, 'pdf', ctx.signal);
  const parsed = await parsePdfAs(pdf, ctx, options, 'pdf');
  // .pptx tables join the one table model: a row element per table row, a box per cell
  const tables = ctx.format === 'pptx' ? await slideTables(bytes).catch(() => undefined) : undefined;
  const out = tables ? withSlideTables(parsed, tables) : parsed;
  return {
    ...out,
    diagnostics: [converted(ctx, 'PDF'), ...out.diagnostics],
    artifacts: [{ kind: 'pdf', name: 'slides.pdf', mime: 'application/pdf', bytes: pdf }, ...out.artifacts],
  };
}

/** .doc → LibreOffice → .docx → the DOCX path (records.jsonl with paragraph/table anchors). */
export async function parseLegacyDoc(bytes: Uint8Array, ctx: ParseContext): Promise<ParseOutput> {
  const docx = await converterOf(ctx).convert(bytes, 'doc', 'docx', ctx.signal);
  const out = await parseDocx(docx, ctx);
  return { ...out, diagnostics: [converted(ctx, '.docx'), ...out.diagnostics] };
}
