import type { ResultFile } from './record.js';

type Result = ResultFile & { path: string };
type Value = number | string | boolean | null | undefined;

export type Format = 'ratio' | 'ms' | 'seconds' | 'int' | 'number' | 'percent' | 'text';

/** One column of a section's table: a label, how to read the value from a result, how to print it. */
export interface Column {
  label: string;
  value: (result: Result, all: readonly Result[]) => Value;
  format?: Format;
}

/** A table on the page: the results of one area (optionally a subset of them), one row each. */
export interface Section {
  area: string;
  title: string;
  /** What the figures are and how they were measured: one paragraph, no dates. */
  intro: string;
  accepts?: (result: Result) => boolean;
  columns: Column[];
}

/** A metric by its dotted path (`naive_refusal.balanced_accuracy`). */
export function metric(path: string): (r: Result) => Value {
  return (r) => {
    let v: unknown = r.metrics;
    for (const key of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
    return typeof v === 'object' && v !== null ? JSON.stringify(v) : (v as Value);
  };
}

export function formatValue(v: Value, format: Format = 'number'): string {
  if (v === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v))) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v.replace(/\|/g, '\\|');
  switch (format) {
    case 'ratio':
      return v.toFixed(3);
    case 'percent':
      return `${(v * 100).toFixed(1)} %`;
    case 'ms':
      return v >= 100 ? v.toFixed(0) : v.toFixed(1);
    case 'seconds':
      return v >= 100 ? v.toFixed(0) : v.toFixed(2);
    case 'int':
      return Math.round(v).toLocaleString('en-US');
    case 'text':
      return String(v);
    default:
      return Number.isInteger(v) ? v.toLocaleString('en-US') : String(Math.round(v * 1000) / 1000);
  }
}

const measured = (r: Result): string =>
  `${r.date.slice(0, 10)} · \`${r.commit.slice(0, 7)}\`${r.dirty ? '+' : ''} · load ${r.machine.load_average.toFixed(1)}`;

function table(rows: string[][]): string {
  const [head, ...body] = rows;
  if (!head) return '';
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}

/** A section's table: the columns, then the result file (a link) and when and where it was measured. */
function renderSection(
  section: Section,
  results: readonly Result[],
  all: readonly Result[],
  machines: Map<string, string>,
): string {
  const head = ['', ...section.columns.map((c) => c.label), 'measured', 'machine'];
  const rows = results.map((r) => [
    `[${r.name}](../results/${r.path})`,
    ...section.columns.map((c) => formatValue(c.value(r, all), c.format)),
    measured(r),
    machines.get(machineKey(r)) ?? '?',
  ]);
  const said = results.filter((r) => r.note);
  // one note said of every row is said once
  const same = said.length === results.length && said.length > 1 && said.every((r) => r.note === said[0]?.note);
  const notes = same ? [`- ${said[0]?.note}`] : said.map((r) => `- ${r.name}: ${r.note}`);
  return [`## ${section.title}`, '', section.intro, '', table([head, ...rows]), ...(notes.length > 0 ? ['', ...notes] : [])].join(
    '\n',
  );
}

const machineKey = (r: Result): string =>
  `${r.machine.cpu}|${r.machine.cores}|${r.machine.memory_gib}|${r.machine.os}|${r.machine.node}`;

/** A section for an area the page has no table for: every top-level metric as a column. */
function genericSection(area: string, results: readonly Result[]): Section {
  const keys = [...new Set(results.flatMap((r) => Object.keys(r.metrics)))].slice(0, 14);
  return {
    area,
    title: area.replace(/(^|-)(\w)/g, (_m, sep: string, c: string) => `${sep ? ' ' : ''}${c.toUpperCase()}`),
    intro: `Figures of \`results/${area}/\`; each file names the command that measured them.`,
    columns: keys.map((k) => ({ label: k, value: metric(k) })),
  };
}

/** The whole page: every section with results, in the order given, then areas without a section. */
export function renderPage(sections: readonly Section[], results: readonly Result[], preface: string): string {
  const machines = new Map<string, string>();
  for (const r of results) if (!machines.has(machineKey(r))) machines.set(machineKey(r), `M${machines.size + 1}`);
  const parts: string[] = [preface];
  const used = new Set<Result>();
  for (const s of sections) {
    const rows = results.filter((r) => r.area === s.area && !used.has(r) && (s.accepts?.(r) ?? true));
    for (const r of rows) used.add(r);
    if (rows.length > 0) parts.push(renderSection(s, rows, results, machines));
  }
  const rest = [...new Set(results.filter((r) => !used.has(r)).map((r) => r.area))];
  for (const area of rest) {
    const rows = results.filter((r) => r.area === area && !used.has(r));
    parts.push(renderSection(genericSection(area, rows), rows, results, machines));
  }
  const byKey = new Map(results.map((r) => [machineKey(r), r.machine]));
  parts.push(
    [
      '## Machines',
      '',
      '"load" in a row is the machine\'s one-minute load average when the result was written: timings taken on a busy machine are noisy.',
      '',
      table([
        ['', 'CPU', 'cores', 'memory', 'OS', 'Node'],
        ...[...machines].map(([key, id]) => {
          const m = byKey.get(key);
          return m ? [id, m.cpu, String(m.cores), `${m.memory_gib} GiB`, m.os, m.node] : [id];
        }),
      ]),
    ].join('\n'),
  );
  return `${parts.join('\n\n')}\n`;
}
