import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PageTextLine, pageTextLines } from '@pinpoint/cli';
import { buildContext, detectFormat, parseDocument } from '@pinpoint/parsers';
import { cpuSecondsWithChildren, round } from './recording.js';

/** Seconds per page of one script of the set, and how well it was read (score_ocr.py). */
export interface OcrScriptFigures {
  pages: number;
  failed_files: number;
  wall_s_per_page: number;
  cpu_s_per_page: number;
  page_concurrency: number;
  cer: number | null;
  'box@0.5': number | null;
}

/** CER and box@0.5 of one group (a script, a variant) as score_ocr.py gives them. */
interface OcrGroupScore {
  pages: number;
  missing: number;
  cer: number | null;
  'box@0.5': number | null;
}

interface FileRun {
  lang: string;
  pages: number;
  wall: number;
  cpu: number;
  failed: boolean;
}

type ScoreGroups = Record<string, OcrGroupScore>;

/** The script (en, ja, zh-Hans, zh-Hant) of each file of the set, from its expected.jsonl. */
function scriptsOf(setDir: string): Map<string, string> {
  const langs = new Map<string, string>();
  for (const line of readFileSync(join(setDir, 'expected.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const { file, lang } = JSON.parse(line) as { file: string; lang: string };
    langs.set(file, lang);
  }
  return langs;
}

/** Every image of the set parsed in process as the parse child runs it, one file at a time; its page lines kept. */
async function readSet(setDir: string, pageConcurrency: number): Promise<{ runs: FileRun[]; lines: PageTextLine[] }> {
  const langs = scriptsOf(setDir);
  const ctx = buildContext({ fileName: '', format: 'png', capabilities: { ocr: { engine: 'tesseract-cli' } }, pageConcurrency });
  const runs: FileRun[] = [];
  const lines: PageTextLine[] = [];
  for (const file of readdirSync(join(setDir, 'files')).sort()) {
    const bytes = new Uint8Array(readFileSync(join(setDir, 'files', file)));
    const cpu = cpuSecondsWithChildren();
    const started = performance.now();
    const lang = langs.get(file) ?? '?';
    try {
      const out = await parseDocument(bytes, { ...ctx, fileName: file, format: detectFormat(file, bytes) }, {});
      const wall = (performance.now() - started) / 1000;
      runs.push({ lang, pages: out.sourceMap.pages.length, wall, cpu: cpuSecondsWithChildren() - cpu, failed: false });
      lines.push(...pageTextLines(file, out));
    } catch (err) {
      runs.push({ lang, pages: 0, wall: 0, cpu: 0, failed: true });
      console.log(`  ${file}: ${(err as { code?: string }).code ?? err}`);
    }
  }
  return { runs, lines };
}

/** The set's reference scorer (../shared/tools/score_ocr.py) over the lines, as `pinpoint text --json` prints them. */
function score(setDir: string, lines: PageTextLine[]): { by_lang: ScoreGroups; by_variant: ScoreGroups } {
  const dir = mkdtempSync(join(tmpdir(), 'pp-ocr-score-'));
  try {
    const extracted = join(dir, 'extracted.jsonl');
    writeFileSync(extracted, lines.map((l) => JSON.stringify(l)).join('\n'));
    const scorer = join(setDir, '../../tools/score_ocr.py');
    const out = execFileSync('python3', [scorer, join(setDir, 'expected.jsonl'), extracted, '--json'], { encoding: 'utf8' });
    return JSON.parse(out) as { by_lang: ScoreGroups; by_variant: ScoreGroups };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function perScript(runs: FileRun[], byLang: ScoreGroups, pageConcurrency: number): Record<string, OcrScriptFigures> {
  const out: Record<string, OcrScriptFigures> = {};
  for (const lang of [...new Set(runs.map((r) => r.lang))].sort()) {
    const of = runs.filter((r) => r.lang === lang);
    const pages = of.reduce((n, r) => n + r.pages, 0);
    out[lang] = {
      pages,
      failed_files: of.filter((r) => r.failed).length,
      wall_s_per_page: round(of.reduce((n, r) => n + r.wall, 0) / Math.max(1, pages)),
      cpu_s_per_page: round(of.reduce((n, r) => n + r.cpu, 0) / Math.max(1, pages)),
      page_concurrency: pageConcurrency,
      cer: byLang[lang]?.cer ?? null,
      'box@0.5': byLang[lang]?.['box@0.5'] ?? null,
    };
  }
  return out;
}

/**
 * An OCR set (../shared/eval/ocr-dev): each image file parsed in process as the parse child runs it (script
 * detection, TIFF decoding and page PNGs included), `pageConcurrency` pages of a file at once; wall and CPU
 * seconds per page per script (tesseract's processes included), then CER and box@0.5 by score_ocr.py, per
 * script and per variant.
 */
export async function benchOcrSet(
  setDir: string,
  pageConcurrency: number,
): Promise<{ byScript: Record<string, OcrScriptFigures>; byVariant: ScoreGroups }> {
  const { runs, lines } = await readSet(setDir, pageConcurrency);
  const scores = score(setDir, lines);
  const byScript = perScript(runs, scores.by_lang, pageConcurrency);
  console.log(`OCR of ${setDir} (in process, tesseract CLI, ${pageConcurrency} page(s) of a file at once):`);
  console.log('  script    pages  failed  wall s/page  CPU s/page     CER  box@0.5');
  for (const [lang, c] of Object.entries(byScript))
    console.log(
      `  ${lang.padEnd(8)} ${String(c.pages).padStart(6)} ${String(c.failed_files).padStart(7)} ${c.wall_s_per_page.toFixed(2).padStart(12)} ${c.cpu_s_per_page.toFixed(2).padStart(11)} ${String(c.cer).padStart(7)} ${String(c['box@0.5']).padStart(8)}`,
    );
  for (const [variant, g] of Object.entries(scores.by_variant))
    console.log(`  ${variant.padEnd(16)} pages ${g.pages}  CER ${g.cer}  box@0.5 ${g['box@0.5']}`);
  return { byScript, byVariant: scores.by_variant };
}
