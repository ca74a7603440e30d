import type { Diagnostic, ParseContext, ParseOutput } from '@pinpoint/core';
import { createError } from '@pinpoint/core';
import { assertOfficeContainer } from '../archive/container.js';
import { parseDocx } from '../docx/parse-docx.js';
import { parsePdfAs } from '../pdf/parse-pdf.js';
import type { ParseOptions } from '../registry.js';
import { withSlideTables } from './slide-table-elements.js';
import { readDeckTables } from './slide-tables.js';

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
 * PDF (artifact 'pdf'), one page per slide, so slide n is page_index n - 1. The deck's tables are read
 * from its slide XML into the one table model (a row element per table row, each cell's box on the
 * page) in place of the PDF text of the table's area; a .ppt is converted to .pptx first for that.
 */
export async function parseSlides(bytes: Uint8Array, ctx: ParseContext, options: ParseOptions = {}): Promise<ParseOutput> {
  assertOfficeContainer(bytes, { allowCfb: ctx.format === 'ppt', what: 'presentation' });
  const convert = converterOf(ctx);
  // a .ppt becomes a .pptx first, so its tables are read from slide XML too; its PDF is rendered from that same deck
  const legacy = ctx.format === 'ppt';
  const deck = legacy ? await convert.convert(bytes, 'ppt', 'pptx', ctx.signal) : bytes;
  const pdf = await convert.convert(deck, legacy ? 'pptx' : ctx.format, 'pdf', ctx.signal);
  const parsed = await parsePdfAs(pdf, ctx, options, 'pdf');
  const out = withSlideTables(parsed, await readDeckTables(deck));
  return {
    ...out,
    diagnostics: [...(legacy ? [converted(ctx, '.pptx')] : []), converted(ctx, 'PDF'), ...out.diagnostics],
    artifacts: [{ kind: 'pdf', name: 'slides.pdf', mime: 'application/pdf', bytes: pdf }, ...out.artifacts],
  };
}

/** .doc → LibreOffice → .docx → the DOCX path (records.jsonl with paragraph/table anchors). */
export async function parseLegacyDoc(bytes: Uint8Array, ctx: ParseContext): Promise<ParseOutput> {
  const docx = await converterOf(ctx).convert(bytes, 'doc', 'docx', ctx.signal);
  const out = await parseDocx(docx, ctx);
  return { ...out, diagnostics: [converted(ctx, '.docx'), ...out.diagnostics] };
}
