import type { Format, ParseOutput } from '@pinpoint/core';
import { parseDocument, parseIsolated } from '@pinpoint/parsers';
import type { EngineConfig } from './config.js';

/**
 * The parse of one file as ingestion runs it: in the isolated parser child with the configured limits,
 * capabilities (OCR, office conversion) and OCR languages. `pinpoint text` prints what this returns, so
 * the text it shows is the text that is indexed.
 */
export function parseFile(
  parse: EngineConfig['parse'],
  fileName: string,
  format: Format,
  bytes: Uint8Array,
  signal?: AbortSignal,
): Promise<ParseOutput> {
  const options = {
    ...(parse.ocrLangs ? { ocrLangs: parse.ocrLangs } : {}),
    ...(parse.tables === false ? { tables: false } : {}),
  };
  if (!parse.isolate) return parseDocument(bytes, { fileName, format, ...(signal ? { signal } : {}) }, options);
  const { timeoutMs, maxOldSpaceMb, capabilities } = parse;
  return parseIsolated(
    bytes,
    { fileName, format, options, ...(capabilities ? { capabilities } : {}) },
    { timeoutMs, maxOldSpaceMb, ...(signal ? { signal } : {}) },
  );
}
