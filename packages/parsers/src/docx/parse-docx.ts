import type { Diagnostic, Element, ElementType, ParseContext, ParseOutput, RecordAnchor, RecordEntry } from '@pinpoint/core';
import { createError, elementId, SOURCE_MAP_SCHEMA_VERSION, sha256Hex } from '@pinpoint/core';
import { assertOfficeContainer } from '../archive/container.js';
import { officeTitle } from '../archive/office-title.js';
import { htmlBlocks } from '../html/parse-html.js';
import type { DocxRecord } from './records.js';
import { docxRecords } from './records.js';
import { unwrapRuby } from './ruby.js';

const elementTypes: Readonly<Record<RecordEntry['kind'], ElementType>> = {
  heading: 'heading',
  paragraph: 'paragraph',
  list_item: 'list_item',
  table: 'table',
  row: 'table',
  header: 'table',
};

function mammothDiagnostics(messages: ReadonlyArray<{ type: string; message: string }>): Diagnostic[] {
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(m.message, (counts.get(m.message) ?? 0) + 1);
  return [...counts].slice(0, 20).map(([message, n]) => ({
    rule_id: 'docx/conversion-message',
    reason: n > 1 ? `${message} (${n} times)` : message,
    severity: 'info',
  }));
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function convert(
  bytes: Uint8Array,
  fileName: string,
): Promise<{ value: string; messages: Array<{ type: string; message: string }> }> {
  if (assertOfficeContainer(bytes, { allowCfb: true, what: 'Word document' }) === 'cfb') {
    throw createError(
      'PP_FORMAT_MISMATCH',
      `${fileName} is a legacy Word (.doc) file saved with a .docx name; rename it to .doc.`,
    );
  }
  // mammoth loads with the first Word file: a parse process that only reads PDFs never compiles it
  const { default: mammoth } = await import('mammoth');
  try {
    const result = await mammoth.convertToHtml({ buffer: toBuffer(bytes) });
    if (!result.messages.some((m) => m.message.includes('w:ruby'))) return result;
    // mammoth drops phonetic guides together with their base text: convert again with the base text kept.
    return await mammoth.convertToHtml({ buffer: toBuffer(await unwrapRuby(bytes)) });
  } catch (err) {
    throw createError('PP_PARSE_CORRUPT', `${fileName} is not a readable Word document; open and re-save it in Word.`, err);
  }
}

function toElement(record: DocxRecord, i: number, recordsSha: string): Element {
  const { entry } = record;
  const anchor: RecordAnchor = {
    kind: 'record',
    artifact: 'records.jsonl',
    record_id: entry.record_id,
    records_sha256: recordsSha,
  };
  if (entry.paragraph_index !== undefined) anchor.paragraph_index = entry.paragraph_index;
  if (entry.table_index !== undefined) anchor.table_index = entry.table_index;
  const element: Element = {
    element_id: elementId(i),
    type: elementTypes[entry.kind],
    section_path: record.section_path,
    text: entry.text,
    anchor,
  };
  if (entry.level !== undefined) element.level = entry.level;
  const header = entry.cells?.map((c) => c.header ?? '');
  if (entry.kind === 'row' && header?.some((h) => h !== '')) element.columns = header;
  if (record.cells) element.cells = record.cells;
  if (record.table) element.table = record.table;
  return element;
}

/** DOCX → mammoth HTML → records.jsonl; every element anchors to its record. */
export async function parseDocx(bytes: Uint8Array, ctx: ParseContext): Promise<ParseOutput> {
  const result = await convert(bytes, ctx.fileName);
  const records = docxRecords(htmlBlocks(result.value).blocks);
  const jsonl = new TextEncoder().encode(records.map((r) => `${JSON.stringify(r.entry)}\n`).join(''));
  const recordsSha = sha256Hex(jsonl);
  const elements = records.map((r, i) => toElement(r, i, recordsSha));
  const title = officeTitle(bytes);
  return {
    ...(title ? { metadata: { title } } : {}),
    elements,
    sourceMap: {
      schemaVersion: SOURCE_MAP_SCHEMA_VERSION,
      format: ctx.format,
      anchor_kind: 'record',
      pages: [],
      records_sha256: recordsSha,
      elements,
    },
    diagnostics: mammothDiagnostics(result.messages),
    artifacts: [{ kind: 'records.jsonl', name: 'records.jsonl', mime: 'application/x-ndjson', bytes: jsonl }],
  };
}
