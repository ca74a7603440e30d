import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Box, Element, PageInfo, ParseOutput } from '@pinpoint/core';
import { sliceCodepoints, toPinpointError } from '@pinpoint/core';
import type { EngineConfig } from '@pinpoint/engine';
import { parseFile } from '@pinpoint/engine';
import { detectFormat } from '@pinpoint/parsers';

/** One page as `pinpoint text --json` prints it: the text indexed for it and its words with their boxes. */
export interface PageTextLine {
  file: string;
  page_index: number | null;
  page_width?: number;
  page_height?: number;
  unit?: 'pt' | 'px';
  text: string;
  /** OCR words on scans; runs of text with one box on pages with a text layer. Top-left origin, in `unit`. */
  words: Array<{ text: string; bbox: Box }>;
  /** What the parse reported about the page (the OCR model chosen, its confidence). */
  diagnostics?: string[];
}

/** A file that could not be read: the same stable code ingestion would give it. */
export interface TextFailureLine {
  file: string;
  error_code: string;
  message: string;
}

const round = (b: Box): Box => b.map((v) => Math.round(v * 100) / 100) as Box;

function wordsOf(e: Element): Array<{ text: string; bbox: Box }> {
  if (e.anchor.kind !== 'page') return [];
  if (!e.spans || e.spans.length === 0) return e.anchor.boxes.map((b) => ({ text: e.text, bbox: round(b) }));
  return e.spans.map((s) => ({ text: sliceCodepoints(e.text, s.start, s.end), bbox: round(s.box) }));
}

function pageLine(file: string, page: PageInfo, elements: Element[], out: ParseOutput): PageTextLine {
  const notes = out.diagnostics.filter((d) => d.page_index === page.page_index).map((d) => `${d.rule_id}: ${d.reason}`);
  return {
    file,
    page_index: page.page_index,
    page_width: page.width,
    page_height: page.height,
    unit: page.unit,
    text: elements.map((e) => e.text).join('\n'),
    words: elements.flatMap(wordsOf),
    ...(notes.length > 0 ? { diagnostics: notes } : {}),
  };
}

/** The parse output as one line per page (paged formats) or one line for the whole file (text formats). */
export function pageTextLines(file: string, out: ParseOutput): PageTextLine[] {
  const pages = out.sourceMap.pages ?? [];
  if (pages.length === 0) return [{ file, page_index: null, text: out.elements.map((e) => e.text).join('\n'), words: [] }];
  const byPage = new Map<number, Element[]>();
  for (const e of out.elements) {
    if (e.anchor.kind !== 'page') continue;
    byPage.set(e.anchor.page_index, [...(byPage.get(e.anchor.page_index) ?? []), e]);
  }
  return pages.map((p) => pageLine(file, p, byPage.get(p.page_index) ?? [], out));
}

/** The text one file is indexed with, read through ingestion's own parse; a failure as its stable code. */
export async function textOf(path: string, parse: EngineConfig['parse']): Promise<Array<PageTextLine | TextFailureLine>> {
  const file = basename(path);
  try {
    const bytes = new Uint8Array(await readFile(path));
    return pageTextLines(file, await parseFile(parse, file, detectFormat(file, bytes), bytes));
  } catch (err) {
    const e = toPinpointError(err);
    return [{ file, error_code: e.code, message: e.message }];
  }
}

/** Files read `concurrency` at a time; each file's lines are printed as soon as it is read, files in any order. */
export async function printTexts(
  paths: string[],
  parse: EngineConfig['parse'],
  concurrency: number,
  print: (line: PageTextLine | TextFailureLine) => void,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      for (const line of await textOf(path, parse)) print(line);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, paths.length)) }, worker));
}

/** A page as readable text: where it is, then its text. */
export function humanPageText(line: PageTextLine | TextFailureLine): string {
  if ('error_code' in line) return `${line.file}: ${line.error_code}: ${line.message}`;
  const where = line.page_index === null ? '' : ` page ${line.page_index + 1}`;
  return `── ${line.file}${where}\n${line.text}`;
}
