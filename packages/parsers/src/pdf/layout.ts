import type { Line } from './lines.js';
import { groupRows, toLine } from './lines.js';
import type { Run } from './runs.js';

/** Parts of a row that are written without a column-sized gap: [fx0, fx1] intervals. */
function intervals(row: Run[]): Array<[number, number]> {
  const sorted = [...row].sort((a, b) => a.fx0 - b.fx0);
  const out: Array<[number, number]> = [];
  for (const run of sorted) {
    const last = out.at(-1);
    if (last && run.fx0 - last[1] < run.size) last[1] = Math.max(last[1], run.fx1);
    else out.push([run.fx0, run.fx1]);
  }
  return out;
}

interface Side {
  rows: number;
  width: number;
}

/**
 * The x (frame) of a clear gutter between two text columns, if there is one: few rows cross it, and
 * at least three rows of text of reasonable width sit on each side. Tables of short cells do not qualify.
 */
function findGutter(rows: Run[][]): number | undefined {
  if (rows.length < 6) return undefined;
  const spans = rows.map(intervals);
  const lo = Math.min(...spans.map((s) => s[0]?.[0] ?? Number.POSITIVE_INFINITY));
  const hi = Math.max(...spans.map((s) => s.at(-1)?.[1] ?? Number.NEGATIVE_INFINITY));
  const width = hi - lo;
  if (!(width > 0)) return undefined;
  let best: { x: number; crossing: number; balance: number } | undefined;
  for (let step = 25; step <= 75; step++) {
    const x = lo + (width * step) / 100;
    let crossing = 0;
    const left: Side = { rows: 0, width: 0 };
    const right: Side = { rows: 0, width: 0 };
    for (const s of spans) {
      if (s.some(([a, b]) => a < x && b > x)) {
        crossing++;
        continue;
      }
      const l = s.filter(([, b]) => b <= x);
      const r = s.filter(([a]) => a >= x);
      if (l.length > 0) add(left, (l.at(-1) as [number, number])[1] - (l[0] as [number, number])[0]);
      if (r.length > 0) add(right, (r.at(-1) as [number, number])[1] - (r[0] as [number, number])[0]);
    }
    if (left.rows < 3 || right.rows < 3 || crossing > 0.25 * rows.length) continue;
    if (left.width / left.rows < 0.25 * width || right.width / right.rows < 0.25 * width) continue;
    const balance = Math.min(left.rows, right.rows);
    if (!best || crossing < best.crossing || (crossing === best.crossing && balance > best.balance))
      best = { x, crossing, balance };
  }
  return best?.x;
}

function add(side: Side, w: number): void {
  side.rows++;
  side.width += w;
}

/** Lines of one writing direction in reading order: two-column bands read left column first. */
export function readingOrder(runs: Run[]): Line[] {
  const rows = groupRows(runs);
  const gutter = findGutter(rows);
  if (gutter === undefined) return rows.map((row) => toLine(row, -1));
  const out: Line[] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  const flush = (): void => {
    out.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const row of rows) {
    const crosses = intervals(row).some(([a, b]) => a < gutter && b > gutter);
    if (crosses) {
      flush();
      out.push(toLine(row, -1));
      continue;
    }
    const l = row.filter((r) => r.fx1 <= gutter);
    const r = row.filter((r) => r.fx1 > gutter);
    if (l.length > 0) left.push(toLine(l, 0));
    if (r.length > 0) right.push(toLine(r, 1));
  }
  flush();
  return out;
}
